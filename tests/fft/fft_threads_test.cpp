// Large transforms are planned with FFTW's threads (the host kernel budget) above
// kThreadedFftPoints. CTest runs this suite twice: as is (one thread in CI) and as
// FftThreadsSplit with TENFERRO_NUM_THREADS=3, so threaded plans run on any machine (and under
// ThreadSanitizer); both must match the naive reference.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "backends/cpu/host_parallel.hpp"
#include "dft_reference.hpp"
#include "tenferro/config.hpp"

#if TENFERRO_HAS_FFTW

#include "ops/fft/fftw/fftw_plan.hpp"

namespace {

using namespace fft_test;
using tenferro::EagerRuntime;
using tenferro::fft::Norm;
namespace fi = tenferro::fft_internal;

TEST(FftThreads, LargeTransformsGetTheThreadBudgetSmallOnesOne) {
  const int budget = tenferro::cpu_parallel::host_kernel_threads();
  if (const char* asked = std::getenv("TENFERRO_NUM_THREADS")) {
    EXPECT_EQ(budget, std::stoi(asked));
  }
  fi::PlanShape large;
  large.dims.push_back(fi::IoDim{512, 1, 1});
  large.batch.push_back(fi::IoDim{fi::kThreadedFftPoints / 512, 512, 512});
  EXPECT_EQ(fi::planner_threads(large), budget);
  fi::PlanShape small = large;
  small.batch[0].n -= 1;
  EXPECT_EQ(fi::planner_threads(small), 1);
  // The thread count is part of the exact plan key.
  fi::PlanShape other = large;
  other.threads = large.threads + 1;
  EXPECT_NE(other.key(true), large.key(true));
}

// Short transforms over long batches keep the O(n^2) reference cheap while the point count
// (what picks the thread count) is above the threshold: FFTW splits the batch loop.
TEST(FftThreads, LargeTransformsMatchTheReference) {
  auto rt = EagerRuntime::cpu();
  ASSERT_GE(16 * 16 * 512, fi::kThreadedFftPoints);
  ASSERT_GE(32 * 4096, fi::kThreadedFftPoints);
  const auto planes = random_tensor(DType::C64, Shape{16, 16, 512}, 1);
  expect_close(tenferro::fft::fftn(rt->upload(planes), std::nullopt, {{0, 1}}),
               ref_fftn(to_dense(planes), {0, 1}, {16, 16}, false, Norm::Backward), DType::C64,
               "fftn 16x16 x512");
  const auto columns = random_tensor(DType::C32, Shape{32, 4096}, 2);
  expect_close(tenferro::fft::ifft(rt->upload(columns), std::nullopt, 0, Norm::Ortho),
               ref_fftn(to_dense(columns), {0}, {32}, true, Norm::Ortho), DType::C32,
               "ifft 32 x4096");
  const auto real = random_tensor(DType::F64, Shape{32, 4096}, 3);
  const auto spectrum = tenferro::fft::rfft(rt->upload(real), std::nullopt, 0);
  expect_close(spectrum, ref_rfftn(to_dense(real), {0}, {32}, Norm::Backward), DType::C64,
               "rfft 32 x4096");
  expect_close(tenferro::fft::irfft(spectrum, 32, 0), to_dense(real), DType::F64,
               "irfft(rfft) 32 x4096");
}

}  // namespace

#endif  // TENFERRO_HAS_FFTW
