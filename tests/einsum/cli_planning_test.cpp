// `tenferro einsum` with the planning options: --path hyper, --seed, --time-budget and
// --memory-limit reach the planner (the report shows the slicing, the result matches the
// reference), and bad or unmeetable limits fail with einsum's own message.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "random_networks.hpp"
#include "support/einsum_reference.hpp"
#include "support/random_tensor.hpp"
#include "support/run_command.hpp"
#include "tenferro/core/npy.hpp"

namespace tenferro {
namespace {

class EinsumCommandPlanning : public ::testing::Test {
 protected:
  void SetUp() override {
    if (testing::cli_path().empty()) GTEST_SKIP() << "the tenferro command is not built";
    dir_ = std::filesystem::path(::testing::TempDir()) / "einsum_cli_planning";
    std::filesystem::create_directories(dir_);
    std::mt19937_64 rng(31);
    net_ = testing::random_regular_network(rng, 8, 4, 2);  // inputs of 16 elements, a scalar
    for (const Shape& s : net_.shapes())
      hosts_.push_back(testing::random_tensor(rng, DType::F64, s));
    for (std::size_t i = 0; i < hosts_.size(); ++i) {
      const auto path = dir_ / ("in" + std::to_string(i) + ".npy");
      npy::save(path, hosts_[i]);
      inputs_ += " '" + path.string() + "'";
    }
  }
  testing::CommandResult run(const std::string& options) {
    return testing::run_cli("einsum '" + net_.subscripts() + "'" + inputs_ + " -o '" +
                            (dir_ / "out.npy").string() + "' " + options);
  }

  std::filesystem::path dir_;
  testing::GeneratedNetwork net_;
  std::vector<Tensor> hosts_;
  std::string inputs_;
};

TEST_F(EinsumCommandPlanning, HyperWithAMemoryLimitSlicesAndMatchesTheReference) {
  const auto r = run("--path hyper --seed 3 --time-budget 2 --memory-limit 16 --show-path");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Method:  hyper"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Sliced labels:"), std::string::npos) << r.out;
  const auto want = testing::reference_einsum(net_.subscripts(), hosts_);
  const auto agreement = testing::compare_with_reference(npy::load(dir_ / "out.npy"), want);
  EXPECT_TRUE(agreement.ok) << agreement.detail;
}

TEST_F(EinsumCommandPlanning, BadAndUnmeetableLimitsFailWithEinsumsMessage) {
  const auto unmeetable = run("--memory-limit 8");  // every input holds 16 elements
  EXPECT_NE(unmeetable.status, 0);
  EXPECT_NE(unmeetable.err.find("cannot be met by slicing"), std::string::npos) << unmeetable.err;
  const auto negative = run("--time-budget -1 --path hyper");
  EXPECT_NE(negative.status, 0);
  EXPECT_NE(negative.err.find("time_budget_seconds must be a non-negative number"),
            std::string::npos)
      << negative.err;
  const auto nan = run("--memory-limit nan");
  EXPECT_NE(nan.status, 0);
  EXPECT_NE(nan.err.find("memory_limit must be a non-negative number"), std::string::npos)
      << nan.err;
}

}  // namespace
}  // namespace tenferro
