// The `tenferro` command's contract: help/version, info JSON, the error line and exit codes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

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

TEST_F(Cli, InfoReportsTheHostKernelThreadBudget) {
  const char* saved = std::getenv("TENFERRO_NUM_THREADS");
  const std::string previous = saved ? saved : "";
  ::setenv("TENFERRO_NUM_THREADS", "5", 1);  // inherited by the command's process
  const auto json = run_cli("info --json");
  const auto text = run_cli("info");
  if (saved) {
    ::setenv("TENFERRO_NUM_THREADS", previous.c_str(), 1);
  } else {
    ::unsetenv("TENFERRO_NUM_THREADS");
  }
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(parse_json(json.out)["host_kernel_threads"].number(), 5);
  EXPECT_NE(text.out.find("host kernel threads: 5"), std::string::npos) << text.out;
}

TEST_F(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(run_cli("no-such-command").status, 2);
  EXPECT_EQ(run_cli("--no-such-flag").status, 2);
  auto r = run_cli("info --bogus");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("tenferro: usage error"), std::string::npos);
  EXPECT_EQ(run_cli("").status, 2);
}

TEST_F(Cli, BenchJsonSchemaAndZeroInstallGate) {
  const std::string json = ::testing::TempDir() + "tenferro-bench.json";
  auto r = run_cli("bench --backend cpu --repeat 3 --quiet --json " + json);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("gate: passed"), std::string::npos);
  std::ifstream f(json);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto doc = parse_json(text);
  EXPECT_EQ(doc["repeat"].number(), 3);
  EXPECT_TRUE(doc["gate_passed"].boolean());
  ASSERT_EQ(doc["backends"].array().size(), 1u);
  const auto& cpu = doc["backends"].array()[0];
  EXPECT_EQ(cpu["backend"].string(), "cpu");
  EXPECT_EQ(cpu["status"].string(), "ok");
  EXPECT_TRUE(cpu["setup_ms"].is_number());
  std::vector<std::string> names;
  for (const auto& c : cpu["cases"].array()) {
    names.push_back(c["case"].string());
    EXPECT_EQ(c["status"].string(), "ok") << c["message"].string();
    for (const char* phase :
         {"transfer_us", "first_call_us", "download_us", "overhead_ns", "overhead_ratio"}) {
      EXPECT_TRUE(c[phase].is_number()) << phase;
    }
    for (const char* dist : {"steady", "direct"}) {
      EXPECT_EQ(c[dist]["calls"].number(), 3) << dist;
      EXPECT_LE(c[dist]["p10_us"].number(), c[dist]["median_us"].number());
      EXPECT_LE(c[dist]["median_us"].number(), c[dist]["p90_us"].number());
    }
    EXPECT_EQ(c["steady_module_installs"].number(), 0);
    EXPECT_EQ(c["steady_backend_constructions"].number(), 0);
    EXPECT_EQ(c["steady_transfers"].number(), 0);
    EXPECT_TRUE(c["residency_ok"].boolean());
    EXPECT_TRUE(c["check_ok"].boolean());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"einsum", "qr", "svd", "fft"}));
}

TEST_F(Cli, BenchRejectsUnknownCasesAndBackends) {
  EXPECT_EQ(run_cli("bench --cases nope").status, 2);
  EXPECT_EQ(run_cli("bench --backend tpu").status, 2);
  EXPECT_EQ(run_cli("bench --repeat 0").status, 2);
}

TEST_F(Cli, TypedErrorsPrintOneLineAndExitOne) {
  auto r = run_cli("einsum ij,jk->ik /nonexistent/a.npy /nonexistent/b.npy -o /tmp/never.npy");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("tenferro: error: Validation: ", 0), 0u) << r.err;
}

}  // namespace
}  // namespace tenferro
