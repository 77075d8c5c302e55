// The `tenferro` command's contract: help/version, info JSON, the error line and exit codes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/json_value.hpp"
#include "support/run_command.hpp"

namespace tenferro {
namespace {

using testing::parse_json;
using testing::run_cli;

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (testing::cli_path().empty())
      GTEST_SKIP() << "TENFERRO_CLI is not set: this build has no tenferro command";
  }
};

TEST_F(Cli, HelpAndVersion) {
  auto help = run_cli("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("usage: tenferro"), std::string::npos);
  EXPECT_NE(help.out.find("info"), std::string::npos);
  auto version = run_cli("--version");
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out.rfind("tenferro ", 0), 0u);
}

TEST_F(Cli, InfoJsonListsTheCpuBackendAndFamilies) {
  auto r = run_cli("info --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = parse_json(r.out);
  ASSERT_TRUE(doc.has("backends"));
  bool cpu_found = false;
  for (const auto& b : doc["backends"].array()) {
    if (b["kind"].string() == "cpu") {
      cpu_found = true;
      EXPECT_EQ(b["engine_id"].string(), "tenferro.cpu.v1");
      EXPECT_TRUE(b["compiled"].boolean());
      EXPECT_TRUE(b["device_available"].boolean());
    }
  }
  EXPECT_TRUE(cpu_found);
  ASSERT_TRUE(doc["families"].is_array());
  for (const auto& f : doc["families"].array()) {
    EXPECT_TRUE(f["family"].is_string());
    EXPECT_TRUE(f["ops"].is_object());
  }
}

TEST_F(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(run_cli("no-such-command").status, 2);
  EXPECT_EQ(run_cli("--no-such-flag").status, 2);
  auto r = run_cli("info --bogus");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("tenferro: usage error"), std::string::npos);
  EXPECT_EQ(run_cli("").status, 2);
}

}  // namespace
}  // namespace tenferro
