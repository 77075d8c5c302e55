// prims.v1 creation ops on a WebGPU runtime: full/zeros/ones, eye, arange against values
// computed here; random_uniform's words bit-identical to the CPU runtime's and to
// philox.hpp's reference generator (the specification every backend implements), including
// counters past 2^16 and a seed with a nonzero high word; random_normal within f32 rounding of
// the CPU's; every result created on the device (no transfer).
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_WEBGPU

#include <bit>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "ops/prims/philox.hpp"
#include "prims_webgpu_support.hpp"
#include "tenferro/prims.hpp"
#include "webgpu_fixture.hpp"

namespace tenferro {
namespace {

using namespace prims_webgpu_test;

class PrimsWebGpuCreation : public webgpu_test::WebGpuTest {
 protected:
  void SetUp() override {
    WebGpuTest::SetUp();
    cpu_ = EagerRuntime::cpu();
  }
  std::shared_ptr<EagerRuntime> cpu_;
};

std::vector<std::uint32_t> bits_of(const Tensor& t) {
  std::vector<std::uint32_t> bits;
  const auto* p = reinterpret_cast<const std::uint32_t*>(t.raw_data());
  const std::size_t words = t.nbytes() / 4;
  bits.assign(p, p + words);
  return bits;
}

TEST_F(PrimsWebGpuCreation, FillEyeAndArangeMatchTheirDefinitions) {
  for (DType dtype : {DType::F32, DType::C32}) {
    const std::string d(dtype_name(dtype));
    const cd value = dtype == DType::C32 ? cd(2.5, -1.25) : cd(2.5, 0.0);
    const std::vector<cd> full =
        values_of(run_resident(
                      runtime_,
                      [&] {
                        return prims::full(runtime_, dtype, {3, 4, 5}, value);
                      },
                      "full " + d)
                      .download());
    ASSERT_EQ(full.size(), 60u);
    for (const cd& x : full) EXPECT_EQ(x, value) << d;
    for (const cd& x : values_of(prims::zeros(runtime_, dtype, {7}).download())) EXPECT_EQ(x, 0.0);
    for (const cd& x : values_of(prims::ones(runtime_, dtype, {2, 3}).download()))
      EXPECT_EQ(x, 1.0);

    for (std::int64_t offset : {0, 2, -3, 9}) {
      const std::int64_t n = 5, m = 7;
      const std::vector<cd> eye = values_of(
          run_resident(
              runtime_, [&] { return prims::eye(runtime_, dtype, n, m, offset); }, "eye " + d)
              .download());
      ASSERT_EQ(eye.size(), static_cast<std::size_t>(n * m));
      for (std::int64_t c = 0; c < m; ++c) {
        for (std::int64_t r = 0; r < n; ++r) {
          EXPECT_EQ(eye[static_cast<std::size_t>(r + n * c)], cd(c - r == offset ? 1.0 : 0.0))
              << "eye " << d << " offset " << offset << " (" << r << ", " << c << ")";
        }
      }
    }

    // start + k * step, rounded once to f32 by the reference; the device computes it in f32
    // (k exact), so within two roundings of the largest term.
    const double start = -3.25, stop = 40.0, step = 0.37;
    const std::vector<cd> ar =
        values_of(run_resident(
                      runtime_, [&] { return prims::arange(runtime_, dtype, start, stop, step); },
                      "arange " + d)
                      .download());
    const auto count = static_cast<std::size_t>(std::ceil((stop - start) / step));
    ASSERT_EQ(ar.size(), count);
    for (std::size_t k = 0; k < count; ++k) {
      const double want = start + static_cast<double>(k) * step;
      EXPECT_NEAR(ar[k].real(), want, 4 * kEpsF32 * (std::abs(start) + k * step)) << k;
      EXPECT_EQ(ar[k].imag(), 0.0);
    }
  }
}

TEST_F(PrimsWebGpuCreation, UniformWordsAreBitIdenticalToTheCpuAndToPhilox) {
  const std::uint64_t seed = 0x9E3779B97F4A7C15ull;  // both key words nonzero
  const Shape shape{250, 301};                       // 75250 elements: counters past 2^16
  for (DType dtype : {DType::F32, DType::C32}) {
    const std::string d(dtype_name(dtype));
    const Tensor got =
        run_resident(
            runtime_, [&] { return prims::random_uniform(runtime_, dtype, shape, seed); },
            "random_uniform " + d)
            .download();
    const Tensor cpu = prims::random_uniform(cpu_, dtype, shape, seed).download();
    EXPECT_EQ(bits_of(got), bits_of(cpu)) << d << ": the uniform words differ from the CPU's";
    // The specification directly: element k from philox_words(seed, k) (x0; x2 for the
    // imaginary part).
    const std::vector<std::uint32_t> bits = bits_of(got);
    const std::size_t parts = dtype == DType::C32 ? 2 : 1;
    int mismatches = 0;
    for (std::uint64_t k = 0; k < static_cast<std::uint64_t>(got.numel()); ++k) {
      const auto w = prims_internal::philox_words(seed, k);
      for (std::size_t part = 0; part < parts; ++part) {
        const float want = prims_internal::uniform_f32(w[part == 0 ? 0 : 2]);
        if (bits[k * parts + part] != std::bit_cast<std::uint32_t>(want) && ++mismatches <= 5) {
          ADD_FAILURE() << d << " element " << k << " part " << part << ": "
                        << std::bit_cast<float>(bits[k * parts + part]) << " vs " << want;
        }
      }
    }
    EXPECT_EQ(mismatches, 0) << d;
  }
  // Another range: low + (high - low) u, the same expression in f32 on both runtimes.
  const Tensor got = prims::random_uniform(runtime_, DType::F32, {1000}, 3, -2.0, 5.0).download();
  const Tensor cpu = prims::random_uniform(cpu_, DType::F32, {1000}, 3, -2.0, 5.0).download();
  compare_values(values_of(got), values_of(cpu), 2 * kEpsF32, 8 * kEpsF32, "uniform [-2, 5)");
  for (const cd& x : values_of(got)) {
    EXPECT_TRUE(x.real() >= -2.0 && x.real() < 5.0) << x;
  }
}

TEST_F(PrimsWebGpuCreation, NormalValuesMatchTheCpuToF32Rounding) {
  const Shape shape{300, 200};
  for (DType dtype : {DType::F32, DType::C32}) {
    const std::string d(dtype_name(dtype));
    const Tensor got =
        run_resident(
            runtime_, [&] { return prims::random_normal(runtime_, dtype, shape, 11, 0.5, 2.0); },
            "random_normal " + d)
            .download();
    const Tensor cpu = prims::random_normal(cpu_, dtype, shape, 11, 0.5, 2.0).download();
    // r = sqrt(-2 ln(1 - u1)) <= 5.8 and cos/sin of an angle in [-pi, pi): the error is a few
    // roundings of r times stddev (<= 12), absolute.
    compare_values(values_of(got), values_of(cpu), 16 * kEpsF32, 16 * kEpsF32 * 12.0,
                   "random_normal " + d);
    // And the moments are right (60000 samples: the mean within 5 sigma).
    double mean = 0, var = 0;
    const std::vector<cd> v = values_of(got);
    for (const cd& x : v) mean += x.real();
    mean /= static_cast<double>(v.size());
    for (const cd& x : v) var += std::norm(x - cd(mean, 0.0));
    var /= static_cast<double>(v.size());
    EXPECT_NEAR(mean, 0.5, 5 * 2.0 / std::sqrt(static_cast<double>(v.size()))) << d;
    EXPECT_NEAR(var, 4.0, 0.1) << d;
  }
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_WEBGPU
