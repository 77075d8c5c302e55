// n-axis transforms (fftn, ifftn, rfftn, irfftn) against chains of naive DFTs, with NumPy's
// defaults for s and axes.
#include <gtest/gtest.h>

#include <string>

#include "dft_reference.hpp"
#include "tenferro/config.hpp"

#if TENFERRO_HAS_FFTW

namespace {

using namespace fft_test;
using tenferro::EagerRuntime;
using tenferro::fft::Norm;
using Axes = std::vector<std::int64_t>;

struct NdCase {
  Axes axes;  // as passed (may be negative); empty optional below means "default"
  bool pass_axes;
  Axes s;  // as passed
  bool pass_s;
  Axes resolved_axes;
  Axes resolved_s;  // the logical lengths (for irfftn the real output lengths)
};

std::string describe(const char* op, DType d, const NdCase& c, Norm norm) {
  std::string out = std::string(op) + " " + dtype_str(d) + " axes=";
  for (auto a : c.resolved_axes) out += std::to_string(a) + ",";
  out += " s=";
  for (auto v : c.resolved_s) out += std::to_string(v) + ",";
  return out + " norm=" + std::string(tenferro::fft::norm_name(norm));
}

tenferro::fft::Lengths opt(bool pass, const Axes& v) {
  return pass ? tenferro::fft::Lengths(v) : std::nullopt;
}

// Input shape [4, 5, 3] for c2c and rfftn.
const std::vector<NdCase>& c2c_cases() {
  static const std::vector<NdCase> cases = {
      {{}, false, {}, false, {0, 1, 2}, {4, 5, 3}},   // all axes
      {{0, 2}, true, {}, false, {0, 2}, {4, 3}},      // two axes, s from the input
      {{2, 0}, true, {}, false, {2, 0}, {3, 4}},      // order given by the caller
      {{-1}, true, {}, false, {2}, {3}},              // one negative axis
      {{1, -1}, true, {6, 2}, true, {1, 2}, {6, 2}},  // pad one, truncate another
      {{}, false, {7, 2}, true, {1, 2}, {7, 2}},      // s alone: the last len(s) axes
      {{0, 1}, true, {-1, 8}, true, {0, 1}, {4, 8}},  // -1 keeps the input's extent
  };
  return cases;
}

TEST(FftNd, FftnAndIfftnMatchNaiveChainsOverSeveralAxisSets) {
  auto rt = EagerRuntime::cpu();
  unsigned seed = 1000;
  for (DType d : {DType::F32, DType::F64, DType::C32, DType::C64}) {
    const auto host = random_tensor(d, Shape{4, 5, 3}, seed++);
    const auto x = rt->upload(host);
    for (const auto& c : c2c_cases()) {
      for (Norm norm : {Norm::Backward, Norm::Forward, Norm::Ortho}) {
        expect_close(tenferro::fft::fftn(x, opt(c.pass_s, c.s), opt(c.pass_axes, c.axes), norm),
                     ref_fftn(to_dense(host), c.resolved_axes, c.resolved_s, false, norm),
                     tenferro::complex_dtype(d), describe("fftn", d, c, norm));
        expect_close(tenferro::fft::ifftn(x, opt(c.pass_s, c.s), opt(c.pass_axes, c.axes), norm),
                     ref_fftn(to_dense(host), c.resolved_axes, c.resolved_s, true, norm),
                     tenferro::complex_dtype(d), describe("ifftn", d, c, norm));
      }
    }
  }
}

TEST(FftNd, RfftnMatchesRfftOfTheLastAxisThenFftOfTheRest) {
  auto rt = EagerRuntime::cpu();
  unsigned seed = 2000;
  for (DType d : {DType::F32, DType::F64}) {
    const auto host = random_tensor(d, Shape{4, 5, 3}, seed++);
    const auto x = rt->upload(host);
    for (const auto& c : c2c_cases()) {
      for (Norm norm : {Norm::Backward, Norm::Ortho}) {
        expect_close(tenferro::fft::rfftn(x, opt(c.pass_s, c.s), opt(c.pass_axes, c.axes), norm),
                     ref_rfftn(to_dense(host), c.resolved_axes, c.resolved_s, norm),
                     tenferro::complex_dtype(d), describe("rfftn", d, c, norm));
      }
    }
  }
}

TEST(FftNd, IrfftnMatchesIfftOfTheLeadingAxesThenIrfftOfTheLast) {
  auto rt = EagerRuntime::cpu();
  unsigned seed = 3000;
  // Input [4, 5, 3] complex (a random, non-Hermitian spectrum). Default s: 2*(len-1) last.
  const std::vector<NdCase> cases = {
      {{}, false, {}, false, {0, 1, 2}, {4, 5, 4}}, {{0, 1}, true, {}, false, {0, 1}, {4, 8}},
      {{2, 0}, true, {}, false, {2, 0}, {3, 6}},    {{-2}, true, {}, false, {1}, {8}},
      {{1, 2}, true, {6, 5}, true, {1, 2}, {6, 5}},  // odd output length, padded bins
      {{}, false, {3, 2}, true, {1, 2}, {3, 2}},     // truncated bins
  };
  for (DType d : {DType::C32, DType::C64, DType::F64}) {
    const auto host = random_tensor(d, Shape{4, 5, 3}, seed++);
    const auto x = rt->upload(host);
    for (const auto& c : cases) {
      for (Norm norm : {Norm::Backward, Norm::Forward, Norm::Ortho}) {
        expect_close(tenferro::fft::irfftn(x, opt(c.pass_s, c.s), opt(c.pass_axes, c.axes), norm),
                     ref_irfftn(to_dense(host), c.resolved_axes, c.resolved_s, norm),
                     tenferro::real_dtype(d), describe("irfftn", d, c, norm));
      }
    }
  }
}

TEST(FftNd, RoundTripsRecoverTheInput) {
  auto rt = EagerRuntime::cpu();
  for (DType d : {DType::F32, DType::F64}) {
    for (const Shape& shape : {Shape{8, 6}, Shape{7, 5, 3}, Shape{16, 16, 2}}) {
      const auto host = random_tensor(d, shape, 4000);
      const auto x = rt->upload(host);
      const Axes axes = {0, 1};
      const Axes s = {shape[0], shape[1]};
      expect_close(
          tenferro::fft::ifftn(tenferro::fft::fftn(x, std::nullopt, axes), std::nullopt, axes),
          to_dense(host), tenferro::complex_dtype(d), "ifftn(fftn)");
      expect_close(tenferro::fft::irfftn(tenferro::fft::rfftn(x, std::nullopt, axes, Norm::Ortho),
                                         s, axes, Norm::Ortho),
                   to_dense(host), d, "irfftn(rfftn)");
    }
  }
}

TEST(FftNd, PermutedViewsAreTransformedOverSeveralAxesWithoutCopies) {
  auto rt = EagerRuntime::cpu();
  const std::int64_t perm[] = {1, 2, 0};
  for (DType d : {DType::F64, DType::C64}) {
    const auto host = random_tensor(d, Shape{3, 6, 5}, 4100);
    const auto view = rt->upload(host).permute(perm);  // [6, 5, 3], non-compact
    const Dense xd = to_dense(host.permute(perm));
    const Axes axes = {2, 0};
    const auto before = tenferro::process_cpu_kernel_launches();
    if (tenferro::is_complex(d)) {
      const auto y = tenferro::fft::fftn(view, std::nullopt, axes, Norm::Ortho);
      EXPECT_EQ(tenferro::process_cpu_kernel_launches() - before, 1u);  // one rank-2 plan
      expect_close(y, ref_fftn(xd, axes, {3, 6}, false, Norm::Ortho), d, "fftn of a view");
    } else {
      const auto y = tenferro::fft::rfftn(view, std::nullopt, axes);
      EXPECT_EQ(tenferro::process_cpu_kernel_launches() - before, 1u);
      expect_close(y, ref_rfftn(xd, axes, {3, 6}, Norm::Backward), DType::C64, "rfftn of a view");
    }
  }
}

TEST(FftNd, ZeroSizeBatchGivesAnEmptyOutput) {
  auto rt = EagerRuntime::cpu();
  const auto x = rt->upload(tenferro::Tensor::zeros(DType::F32, Shape{4, 6, 0}));
  const Axes axes = {0, 1};
  auto y = tenferro::fft::rfftn(x, std::nullopt, axes);
  EXPECT_EQ(y.shape(), (Shape{4, 4, 0}));
  EXPECT_EQ(y.dtype(), DType::C32);
  y = tenferro::fft::irfftn(y, Axes{4, 6}, axes);
  EXPECT_EQ(y.shape(), (Shape{4, 6, 0}));
  EXPECT_EQ(y.dtype(), DType::F32);
}

}  // namespace

#endif  // TENFERRO_HAS_FFTW
