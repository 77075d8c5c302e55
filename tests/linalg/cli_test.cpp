// `tenferro linalg`: writes one .npy per output (checked by reconstruction), one module install
// over --repeat, typed errors with exit status 1 and usage errors with exit status 2.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "linalg_test_util.hpp"
#include "support/json_value.hpp"
#include "support/run_command.hpp"

namespace {

using namespace linalg_test;
namespace fs = std::filesystem;

class LinalgCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (tenferro::testing::cli_path().empty())
      GTEST_SKIP() << "TENFERRO_CLI is not set (run through ctest)";
    dir_ = fs::temp_directory_path() / ("tenferro-linalg-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  EagerTensor load(const std::string& name) { return rt_->upload(tenferro::npy::load(path(name))); }

  fs::path dir_;
  std::shared_ptr<tenferro::EagerRuntime> rt_ = tenferro::EagerRuntime::cpu();
};

TEST_F(LinalgCli, QrWritesFactorsThatReconstructA) {
  const Tensor a = random_tensor(DType::C64, {5, 3, 2}, 1);
  tenferro::npy::save(path("a.npy"), a);
  const auto r = tenferro::testing::run_cli("linalg qr " + path("a.npy") + " -o " + path("out") +
                                            " --complete");
  ASSERT_EQ(r.status, 0) << r.err;
  const Mats q = matrices(load("out.q.npy")), rr = matrices(load("out.r.npy"));
  EXPECT_EQ(q.cols, 5);
  expect_close(multiply(q, rr), matrices(rt_->upload(a)), tol(DType::C64, 5), 0, "A = Q R");
}

TEST_F(LinalgCli, SvdTruncatesAndReportsDiscardedWeight) {
  tenferro::npy::save(path("a.npy"), random_tensor(DType::F64, {6, 4}, 2));
  const auto r = tenferro::testing::run_cli("linalg svd " + path("a.npy") + " -o " + path("out") +
                                            " --max-rank 2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(tenferro::npy::load(path("out.u.npy")).shape(), (Shape{6, 2}));
  EXPECT_EQ(tenferro::npy::load(path("out.s.npy")).shape(), (Shape{2}));
  EXPECT_EQ(tenferro::npy::load(path("out.vh.npy")).shape(), (Shape{2, 4}));
  EXPECT_TRUE(fs::exists(path("out.discarded_weight.npy")));
}

TEST_F(LinalgCli, SolveWithRepeatInstallsOnce) {
  const Tensor a = Tensor::from_col_major<double>({2, 2}, {4, 1, 1, 3});
  const Tensor b = Tensor::from_col_major<double>({2}, {1, 2});
  tenferro::npy::save(path("a.npy"), a);
  tenferro::npy::save(path("b.npy"), b);
  const auto r = tenferro::testing::run_cli("--stats linalg solve " + path("a.npy") + " " +
                                            path("b.npy") + " -o " + path("out") + " --repeat 5");
  ASSERT_EQ(r.status, 0) << r.err;
  const Mats x = vectors(load("out.x.npy"));
  expect_close(multiply(matrices(rt_->upload(a)), x), vectors(rt_->upload(b)), tol(DType::F64, 2),
               0, "A x = b");
  const auto stats = tenferro::testing::parse_json(r.err);
  EXPECT_EQ(stats["module_installs"].number(), 1);
  EXPECT_EQ(stats["kernel_launches"]["tenferro.linalg.v1@cpu"].number(), 5);
}

TEST_F(LinalgCli, ErrorsHaveTheirExitStatus) {
  tenferro::npy::save(path("singular.npy"), Tensor::from_col_major<double>({2, 2}, {1, 2, 2, 4}));
  const auto numerical =
      tenferro::testing::run_cli("linalg inv " + path("singular.npy") + " -o " + path("out"));
  EXPECT_EQ(numerical.status, 1);
  EXPECT_NE(numerical.err.find("Numerical"), std::string::npos) << numerical.err;
  const auto usage = tenferro::testing::run_cli("linalg inv " + path("singular.npy") + " -o " +
                                                path("out") + " --full");
  EXPECT_EQ(usage.status, 2) << usage.err;
  const auto unknown = tenferro::testing::run_cli("linalg frobnicate " + path("singular.npy") +
                                                  " -o " + path("out"));
  EXPECT_EQ(unknown.status, 2) << unknown.err;
}

std::string read_bytes(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_F(LinalgCli, FailedWriteLeavesEveryOutputAsItWas) {
  // Issue 21 item 2. Before: .q was written, then .r failed part-way (here the file-size
  // limit, as a full disk would), leaving a fresh .q beside a truncated .r and both old files
  // lost. Now every output is complete in a temporary before any is renamed, and the
  // temporaries are removed on failure.
  tenferro::npy::save(path("a.npy"), random_tensor(DType::F64, {8, 200}, 3));  // R: 12.8 KB
  tenferro::npy::save(path("out.q.npy"), Tensor::from_col_major<double>({1}, {1}));
  tenferro::npy::save(path("out.r.npy"), Tensor::from_col_major<double>({1}, {2}));
  const std::string old_q = read_bytes(path("out.q.npy")), old_r = read_bytes(path("out.r.npy"));
  tenferro::testing::CommandLimits limits;
  limits.file_size_bytes = 4096;  // Q (8 x 8, 640 bytes) fits, R does not
  const auto r =
      tenferro::testing::run_cli_argv({"linalg", "qr", path("a.npy"), "-o", path("out")}, limits);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err.rfind("tenferro: error: Validation: linalg: cannot write", 0), 0u) << r.err;
  EXPECT_EQ(read_bytes(path("out.q.npy")), old_q);
  EXPECT_EQ(read_bytes(path("out.r.npy")), old_r);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"a.npy", "out.q.npy", "out.r.npy"}));
  // Without the limit the same command replaces both.
  const auto ok =
      tenferro::testing::run_cli_argv({"linalg", "qr", path("a.npy"), "-o", path("out")});
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(tenferro::npy::load(path("out.r.npy")).shape(), (Shape{8, 200}));
}

TEST_F(LinalgCli, EmptyPrefixAndRepeatAboveTheCapAreUsageErrors) {
  // Issue 21 item 9. Before: `-o ''` wrote hidden files `.q.npy` and `.r.npy` in the working
  // folder, and --repeat took any positive int64 (bench alone capped it at 10^6).
  tenferro::npy::save(path("a.npy"), Tensor::from_col_major<double>({2, 2}, {4, 1, 1, 3}));
  const auto empty = tenferro::testing::run_cli_argv({"linalg", "qr", path("a.npy"), "-o", ""});
  EXPECT_EQ(empty.status, 2) << empty.err;
  EXPECT_FALSE(fs::exists(".q.npy"));
  const auto folder =
      tenferro::testing::run_cli_argv({"linalg", "qr", path("a.npy"), "-o", path("sub/")});
  EXPECT_EQ(folder.status, 2) << folder.err;
  const auto repeat = tenferro::testing::run_cli_argv(
      {"linalg", "qr", path("a.npy"), "-o", path("out"), "--repeat", "1000001"});
  EXPECT_EQ(repeat.status, 2) << repeat.err;
  EXPECT_NE(repeat.err.find("between 1 and 1000000"), std::string::npos) << repeat.err;
  EXPECT_FALSE(fs::exists(path("out.q.npy")));
}

}  // namespace
