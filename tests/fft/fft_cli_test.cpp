// `tenferro fft ...` end to end: .npy in, .npy out, checked against the naive reference;
// usage and typed errors give their exit statuses.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <sys/wait.h>

#include "dft_reference.hpp"
#include "tenferro/config.hpp"
#include "tenferro/core/npy.hpp"

#if TENFERRO_HAS_FFTW

namespace {

using namespace fft_test;
namespace fs = std::filesystem;

std::string cli_path() {
  if (const char* env = std::getenv("TENFERRO_CLI")) return env;
  return std::string(TENFERRO_BINARY_DIR) + "/src/cli/tenferro";
}

struct Result {
  int status;
  std::string stderr_text;
};

Result run_cli(const std::string& arguments, const fs::path& dir) {
  const fs::path err = dir / "stderr.txt";
  const std::string command = cli_path() + " " + arguments + " 2>" + err.string();
  const int raw = std::system(command.c_str());
  Result r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, ""};
  if (FILE* f = std::fopen(err.string().c_str(), "r")) {
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, f)) r.stderr_text += buffer;
    std::fclose(f);
  }
  return r;
}

class FftCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(cli_path())) GTEST_SKIP() << "tenferro command not built at " << cli_path();
    dir_ =
        fs::temp_directory_path() /
        ("tenferro_fft_cli_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  fs::path dir_;
};

TEST_F(FftCli, RfftnOfAFileMatchesTheReference) {
  const auto host = random_tensor(DType::F64, Shape{4, 5, 3}, 77);
  tenferro::npy::save(dir_ / "in.npy", host);
  const auto r = run_cli("fft rfftn " + (dir_ / "in.npy").string() + " -o " +
                             (dir_ / "out.npy").string() + " --axes 2,0 --s 6,5 --norm ortho",
                         dir_);
  ASSERT_EQ(r.status, 0) << r.stderr_text;
  auto rt = tenferro::EagerRuntime::cpu();
  const auto got = rt->upload(tenferro::npy::load(dir_ / "out.npy"));
  expect_close(got, ref_rfftn(to_dense(host), {2, 0}, {6, 5}, tenferro::fft::Norm::Ortho),
               DType::C64, "cli rfftn");
}

TEST_F(FftCli, IrfftWithAxisAndNMatchesTheReference) {
  const auto host = random_tensor(DType::C32, Shape{3, 4}, 78);
  tenferro::npy::save(dir_ / "in.npy", host);
  const auto r = run_cli("fft irfft " + (dir_ / "in.npy").string() + " -o " +
                             (dir_ / "out.npy").string() + " --axis=-2 --n 5",
                         dir_);
  ASSERT_EQ(r.status, 0) << r.stderr_text;
  auto rt = tenferro::EagerRuntime::cpu();
  expect_close(rt->upload(tenferro::npy::load(dir_ / "out.npy")),
               scaled(irfft_axis(to_dense(host), 0, 5), 1.0 / 5), DType::F32, "cli irfft");
}

TEST_F(FftCli, BadArgumentsAreUsageErrorsAndBadValuesValidationErrors) {
  tenferro::npy::save(dir_ / "in.npy", random_tensor(DType::C64, Shape{4}, 79));
  const std::string in = (dir_ / "in.npy").string(), out = (dir_ / "out.npy").string();
  EXPECT_EQ(run_cli("fft fourier " + in + " -o " + out, dir_).status, 2);
  EXPECT_EQ(run_cli("fft fft " + in, dir_).status, 2);  // no -o
  EXPECT_EQ(run_cli("fft fft " + in + " -o " + out + " --norm sideways", dir_).status, 2);
  EXPECT_EQ(run_cli("fft fftn " + in + " -o " + out + " --axis 0", dir_).status, 2);
  const auto rfft_complex = run_cli("fft rfft " + in + " -o " + out, dir_);
  EXPECT_EQ(rfft_complex.status, 1);
  EXPECT_NE(rfft_complex.stderr_text.find("Validation"), std::string::npos)
      << rfft_complex.stderr_text;
  const auto bad_n = run_cli("fft fft " + in + " -o " + out + " --n 0", dir_);
  EXPECT_EQ(bad_n.status, 1);
  EXPECT_NE(bad_n.stderr_text.find("Validation"), std::string::npos) << bad_n.stderr_text;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(FftCli, OutputSpellingMatchesTheOtherCommands) {
  // Issue 21 item 9. Before: fft knew only -o; --output was an unknown option (exit 2).
  const auto host = random_tensor(DType::F64, Shape{6}, 80);
  tenferro::npy::save(dir_ / "in.npy", host);
  const auto r = run_cli(
      "fft rfft " + (dir_ / "in.npy").string() + " --output " + (dir_ / "out.npy").string(), dir_);
  ASSERT_EQ(r.status, 0) << r.stderr_text;
  auto rt = tenferro::EagerRuntime::cpu();
  expect_close(rt->upload(tenferro::npy::load(dir_ / "out.npy")),
               ref_rfftn(to_dense(host), {0}, {6}, tenferro::fft::Norm::Backward), DType::C64,
               "cli rfft --output");
}

TEST_F(FftCli, OutputNoReaderCouldLoadIsRefusedAndNotWritten) {
  // Issue 21 item 7. Before: a (0, 3) input with --n 2^63-1 exited 0 and wrote shape
  // (0, 9223372036854775807) of complex128, which NumPy and npy::load both reject.
  tenferro::npy::save(dir_ / "in.npy", tenferro::Tensor::zeros(DType::F64, Shape{0, 3}));
  const auto r = run_cli("fft fft " + (dir_ / "in.npy").string() + " -o " +
                             (dir_ / "out.npy").string() + " --n 9223372036854775807",
                         dir_);
  EXPECT_EQ(r.status, 1) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.rfind("tenferro: error: Validation: npy: cannot write", 0), 0u)
      << r.stderr_text;
  EXPECT_FALSE(fs::exists(dir_ / "out.npy"));
}

}  // namespace

#endif  // TENFERRO_HAS_FFTW
