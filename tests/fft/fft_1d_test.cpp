// One-axis transforms (fft, ifft, rfft, irfft) against the naive DFT.
#include <gtest/gtest.h>

#include <string>

#include "dft_reference.hpp"
#include "tenferro/config.hpp"

#if TENFERRO_HAS_FFTW

namespace {

using namespace fft_test;
using tenferro::EagerRuntime;
using tenferro::fft::Norm;

constexpr std::int64_t kSizes[] = {1, 2, 3, 5, 7, 8, 12, 16, 17};
constexpr DType kAll[] = {DType::F32, DType::F64, DType::C32, DType::C64};
constexpr Norm kNorms[] = {Norm::Backward, Norm::Forward, Norm::Ortho};

std::string label(const char* op, DType d, std::int64_t n, Norm norm, std::int64_t axis) {
  return std::string(op) + " " + dtype_str(d) + " n=" + std::to_string(n) +
         " norm=" + std::string(tenferro::fft::norm_name(norm)) + " axis=" + std::to_string(axis);
}

TEST(Fft1d, FftAndIfftMatchNaiveDftForEverySizeDtypeAxisAndNorm) {
  auto rt = EagerRuntime::cpu();
  unsigned seed = 1;
  for (DType d : kAll) {
    for (auto n : kSizes) {
      // Transform the fast axis of [n, 3] and the slow axis of [3, n] (strided batches).
      for (auto [shape, axis] :
           {std::pair{Shape{n, 3}, std::int64_t{0}}, std::pair{Shape{3, n}, std::int64_t{-1}}}) {
        const auto host = random_tensor(d, shape, seed++);
        const auto x = rt->upload(host);
        const Dense xd = to_dense(host);
        const auto a = axis < 0 ? axis + 2 : axis;
        for (Norm norm : kNorms) {
          const double len = static_cast<double>(n);
          expect_close(tenferro::fft::fft(x, std::nullopt, axis, norm),
                       scaled(dft_axis(xd, a, n, false), norm_scale(norm, true, len)),
                       tenferro::complex_dtype(d), label("fft", d, n, norm, axis));
          expect_close(tenferro::fft::ifft(x, std::nullopt, axis, norm),
                       scaled(dft_axis(xd, a, n, true), norm_scale(norm, false, len)),
                       tenferro::complex_dtype(d), label("ifft", d, n, norm, axis));
        }
      }
    }
  }
}

TEST(Fft1d, RfftMatchesNaiveDftForEverySizeAndNorm) {
  auto rt = EagerRuntime::cpu();
  unsigned seed = 100;
  for (DType d : {DType::F32, DType::F64}) {
    for (auto n : kSizes) {
      for (auto [shape, axis] :
           {std::pair{Shape{n, 2}, std::int64_t{0}}, std::pair{Shape{2, n}, std::int64_t{-1}}}) {
        const auto host = random_tensor(d, shape, seed++);
        const auto x = rt->upload(host);
        const auto a = axis < 0 ? axis + 2 : axis;
        for (Norm norm : kNorms) {
          const Dense want =
              scaled(take_leading(dft_axis(to_dense(host), a, n, false), a, n / 2 + 1),
                     norm_scale(norm, true, static_cast<double>(n)));
          expect_close(tenferro::fft::rfft(x, std::nullopt, axis, norm), want,
                       tenferro::complex_dtype(d), label("rfft", d, n, norm, axis));
        }
      }
    }
  }
}

TEST(Fft1d, IrfftMatchesHermitianReferenceForEveryOutputLengthAndNorm) {
  auto rt = EagerRuntime::cpu();
  unsigned seed = 200;
  // A real input is promoted to complex, as NumPy does; random (non-Hermitian) spectra check
  // that the imaginary parts of the DC and Nyquist bins are ignored as in NumPy.
  for (DType d : kAll) {
    for (auto n : kSizes) {
      const auto bins = n / 2 + 1;
      const auto host = random_tensor(d, Shape{2, bins, 2}, seed++);
      const auto x = rt->upload(host);
      for (Norm norm : kNorms) {
        const Dense want = scaled(irfft_axis(to_dense(host), 1, n),
                                  norm_scale(norm, false, static_cast<double>(n)));
        expect_close(tenferro::fft::irfft(x, n, 1, norm), want, tenferro::real_dtype(d),
                     label("irfft", d, n, norm, 1));
      }
    }
  }
}

TEST(Fft1d, IrfftDefaultLengthIsTwiceBinsMinusOne) {
  auto rt = EagerRuntime::cpu();
  const auto host = random_tensor(DType::C64, Shape{5, 3}, 7);
  const auto y = tenferro::fft::irfft(rt->upload(host), std::nullopt, 0);
  expect_close(y, scaled(irfft_axis(to_dense(host), 0, 8), 1.0 / 8), DType::F64, "irfft default n");
}

TEST(Fft1d, PaddingAndTruncationMatchNumPy) {
  auto rt = EagerRuntime::cpu();
  for (DType d : kAll) {
    const auto host = random_tensor(d, Shape{4, 7}, 300);
    const auto x = rt->upload(host);
    const Dense xd = to_dense(host);
    for (std::int64_t n : {1, 3, 7, 10, 16}) {  // truncate, keep, pad
      expect_close(tenferro::fft::fft(x, n, 1), dft_axis(xd, 1, n, false),
                   tenferro::complex_dtype(d), label("fft pad/trunc", d, n, Norm::Backward, 1));
      expect_close(tenferro::fft::ifft(x, n, -1, Norm::Ortho),
                   scaled(dft_axis(xd, 1, n, true), 1.0 / std::sqrt(double(n))),
                   tenferro::complex_dtype(d), label("ifft pad/trunc", d, n, Norm::Ortho, 1));
      if (!tenferro::is_complex(d)) {
        expect_close(tenferro::fft::rfft(x, n, 1),
                     take_leading(dft_axis(xd, 1, n, false), 1, n / 2 + 1),
                     tenferro::complex_dtype(d), label("rfft pad/trunc", d, n, Norm::Backward, 1));
      }
      // irfft reads n/2+1 bins of the 7 given: truncates for n < 12, pads beyond.
      expect_close(tenferro::fft::irfft(x, n, 1), scaled(irfft_axis(xd, 1, n), 1.0 / double(n)),
                   tenferro::real_dtype(d), label("irfft pad/trunc", d, n, Norm::Backward, 1));
    }
  }
}

TEST(Fft1d, NegativeAxesNameTheSameAxisAsPositiveOnes) {
  auto rt = EagerRuntime::cpu();
  const auto host = random_tensor(DType::C64, Shape{3, 4, 5}, 400);
  const auto x = rt->upload(host);
  for (std::int64_t axis = -3; axis < 0; ++axis) {
    const auto a = axis + 3;
    const auto n = host.shape()[a];
    expect_close(tenferro::fft::fft(x, std::nullopt, axis), dft_axis(to_dense(host), a, n, false),
                 DType::C64, "fft axis " + std::to_string(axis));
  }
}

TEST(Fft1d, InverseRoundTripsRecoverTheInput) {
  auto rt = EagerRuntime::cpu();
  for (DType d : kAll) {
    for (auto n : {1, 2, 5, 16, 17, 1024, 1031}) {
      for (Norm norm : kNorms) {
        const auto host = random_tensor(d, Shape{n, 2}, static_cast<unsigned>(n) + 500);
        const auto x = rt->upload(host);
        const auto back = tenferro::fft::ifft(tenferro::fft::fft(x, std::nullopt, 0, norm),
                                              std::nullopt, 0, norm);
        const std::string what = label("ifft(fft)", d, n, norm, 0);
        expect_close(back, to_dense(host), tenferro::complex_dtype(d), what);
        if (!tenferro::is_complex(d)) {
          const auto r =
              tenferro::fft::irfft(tenferro::fft::rfft(x, std::nullopt, 0, norm), n, 0, norm);
          expect_close(r, to_dense(host), d, label("irfft(rfft)", d, n, norm, 0));
        }
      }
    }
  }
}

TEST(Fft1d, StridedViewIsTransformedInPlaceWithoutAStagingCopy) {
  auto rt = EagerRuntime::cpu();
  const auto host = random_tensor(DType::C32, Shape{6, 5, 4}, 600);
  const std::int64_t perm[] = {2, 0, 1};
  const auto view = rt->upload(host).permute(perm);  // shape [4, 6, 5], non-compact
  ASSERT_FALSE(view.host_view().is_compact());
  const Dense want = dft_axis(to_dense(host.permute(perm)), 0, 4, false);
  const auto before = tenferro::process_cpu_kernel_launches();
  const auto y = tenferro::fft::fft(view, std::nullopt, 0);
  // One FFTW execute, no staging copy: the guru plan reads the strides directly.
  EXPECT_EQ(tenferro::process_cpu_kernel_launches() - before, 1u);
  expect_close(y, want, DType::C32, "fft of a permuted view");
}

TEST(Fft1d, MisalignedViewsGetTheirOwnPlanAndTheRightAnswer) {
  // A view starting one C32 element (8 bytes) into the buffer is not 16-byte aligned, so
  // FFTW's SIMD codelets planned for aligned arrays must not run on it: the plan key carries
  // the alignment, and the two views (same shape and strides) get two plans.
  auto rt = EagerRuntime::cpu();
  const auto host = random_tensor(DType::C32, Shape{33, 2}, 650);
  const auto whole = rt->upload(host);
  auto view_at = [&](std::int64_t offset) {
    tenferro::TensorLayout layout = whole.layout();
    layout.shape = {32, 2};
    layout.offset = offset;
    return tenferro::EagerTensor(rt, whole.buffer(), layout);
  };
  const tenferro::CacheSelector plans{std::string(tenferro::fft_family::kFamily), "fftw_plan"};
  for (std::int64_t offset : {0, 1}) {
    const auto before = rt->caches().stats(plans);
    const auto y = tenferro::fft::fft(view_at(offset), std::nullopt, 0);
    EXPECT_EQ(rt->caches().stats(plans).misses, before.misses + 1) << "offset " << offset;
    expect_close(y, dft_axis(to_dense(host.slice(0, offset, offset + 32)), 0, 32, false),
                 DType::C32, "fft at element offset " + std::to_string(offset));
  }
  // Each alignment class now hits its own plan.
  const auto before = rt->caches().stats(plans);
  (void)tenferro::fft::fft(view_at(1), std::nullopt, 0);
  (void)tenferro::fft::fft(view_at(0), std::nullopt, 0);
  EXPECT_EQ(rt->caches().stats(plans).misses, before.misses);
  EXPECT_EQ(rt->caches().stats(plans).hits, before.hits + 2);
}

TEST(Fft1d, ZeroSizeBatchesGiveEmptyOutputsOfTheRightShape) {
  auto rt = EagerRuntime::cpu();
  const auto x = rt->upload(tenferro::Tensor::zeros(DType::F64, Shape{8, 0, 3}));
  const auto launches_before = tenferro::process_cpu_kernel_launches();
  auto y = tenferro::fft::fft(x, std::nullopt, 0);
  EXPECT_EQ(y.shape(), (Shape{8, 0, 3}));
  EXPECT_EQ(y.dtype(), DType::C64);
  y = tenferro::fft::rfft(x, std::nullopt, 0);
  EXPECT_EQ(y.shape(), (Shape{5, 0, 3}));
  y = tenferro::fft::irfft(tenferro::fft::rfft(x, std::nullopt, 0), 8, 0);
  EXPECT_EQ(y.shape(), (Shape{8, 0, 3}));
  EXPECT_EQ(y.dtype(), DType::F64);
  y = tenferro::fft::ifft(x, 4, -1);
  EXPECT_EQ(y.shape(), (Shape{8, 0, 4}));
  EXPECT_EQ(tenferro::process_cpu_kernel_launches(), launches_before);  // nothing to compute
}

TEST(Fft1d, ZeroLengthAxisWithExplicitNIsZeroPadded) {
  auto rt = EagerRuntime::cpu();
  const auto x = rt->upload(tenferro::Tensor::zeros(DType::C32, Shape{0, 2}));
  const auto y = tenferro::fft::fft(x, 4, 0);
  expect_close(y, Dense{Shape{4, 2}, std::vector<cd>(8, cd(0))}, DType::C32, "fft of empty, n=4");
}

}  // namespace

#endif  // TENFERRO_HAS_FFTW
