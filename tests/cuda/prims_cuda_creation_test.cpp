// Creation prims on a CUDA runtime (skipped without a device): uniform random numbers
// bit-identical to the CPU's and to philox.hpp evaluated here, normal numbers close to the
// CPU's with the right moments, and fill/eye/arange identical to the CPU's, all made on the
// device without a transfer.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include "ops/prims/philox.hpp"

#include "prims_cuda_fixture.hpp"

namespace tenferro {
namespace {

using cuda_test::agree;
using cuda_test::bit_identical;
using cuda_test::C;
using cuda_test::label;
using cuda_test::PrimsCudaTest;
using cuda_test::random_tensor;
using cuda_test::tolerance_of;
using cuda_test::values_of;

TEST_F(PrimsCudaTest, RandomUniformWordsAreBitIdenticalToTheCpuAndToPhilox) {
  const std::uint64_t seed = 0x0123456789abcdefULL;
  const Shape shape{1000, 7};
  for (DType d : kAllDTypes) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor got = prims::random_uniform(runtime_, d, shape, seed).download();
    const Tensor cpu = prims::random_uniform(cpu_, d, shape, seed).download();
    EXPECT_TRUE(bit_identical(got, cpu)) << "uniform numbers differ from the CPU's";
    // The same numbers straight from philox.hpp: low = 0, high = 1 makes the value u itself.
    const std::vector<C> vals = values_of(got);
    int mismatches = 0;
    for (std::uint64_t k = 0; k < vals.size(); ++k) {
      const auto w = prims_internal::philox_words(seed, k);
      double re, im;
      if (is_double(d)) {
        re = prims_internal::uniform_f64(w[0], w[1]);
        im = prims_internal::uniform_f64(w[2], w[3]);
      } else {
        re = prims_internal::uniform_f32(w[0]);
        im = prims_internal::uniform_f32(w[2]);
      }
      mismatches += vals[k].real() != re || (is_complex(d) && vals[k].imag() != im);
    }
    EXPECT_EQ(mismatches, 0);
    // Another seed gives other numbers.
    EXPECT_FALSE(
        bit_identical(got, prims::random_uniform(runtime_, d, shape, seed + 1).download()));
  }
}

TEST_F(PrimsCudaTest, RandomNormalAgreesWithTheCpuAndHasItsMoments) {
  const Shape shape{200000};
  for (DType d : kAllDTypes) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor got = prims::random_normal(runtime_, d, shape, 42, 1.5, 2.0).download();
    const Tensor cpu = prims::random_normal(cpu_, d, shape, 42, 1.5, 2.0).download();
    EXPECT_TRUE(agree(got, cpu, is_double(d) ? 1e-12 : 1e-5));
    const std::vector<C> v = values_of(got);
    C mean = 0;
    for (const C& x : v) mean += x;
    mean /= static_cast<double>(v.size());
    double var = 0;
    for (const C& x : v) var += std::norm(x - mean);
    var /= static_cast<double>(v.size());
    EXPECT_NEAR(mean.real(), 1.5, 0.02);
    EXPECT_NEAR(mean.imag(), 0.0, 0.02);
    EXPECT_NEAR(var, 4.0, 0.08) << "variance stddev^2, split between the parts when complex";
  }
}

TEST_F(PrimsCudaTest, CreationOpsMatchTheCpuExactly) {
  for (DType d : kAllDTypes) {
    SCOPED_TRACE(dtype_name(d));
    const auto same =
        [&](const std::function<EagerTensor(const std::shared_ptr<EagerRuntime>&)>& f) {
          const RuntimeStats before = runtime_->stats();
          const EagerTensor on_gpu = f(runtime_);
          EXPECT_EQ(runtime_->stats().uploads, before.uploads) << "created on the device";
          EXPECT_EQ(on_gpu.placement(), runtime_->backend().placement());
          EXPECT_TRUE(bit_identical(on_gpu.download(), f(cpu_).download()));
        };
    same([&](const auto& rt) { return prims::zeros(rt, d, {3, 5}); });
    same([&](const auto& rt) { return prims::ones(rt, d, {4}); });
    same([&](const auto& rt) {
      return prims::full(rt, d, {2, 3, 2}, prims::Scalar(-1.25, is_complex(d) ? 0.5 : 0.0));
    });
    same([&](const auto& rt) { return prims::eye(rt, d, 4); });
    same([&](const auto& rt) { return prims::eye(rt, d, 3, 5, 1); });
    same([&](const auto& rt) { return prims::eye(rt, d, 5, 3, -2); });
    same([&](const auto& rt) { return prims::arange(rt, d, -2.0, 7.3, 0.1); });
    same([&](const auto& rt) { return prims::arange(rt, d, 5.0, -5.0, -0.7); });
  }
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
