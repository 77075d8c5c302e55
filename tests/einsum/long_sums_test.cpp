// Einsum sums over long extents on the CPU runtime. The CPU kernel used to add in the element
// type, one running sum per output, so a float32 sum of 2^25 ones came back 2^24 (the float
// after which adding 1 changes nothing) and random float32 sums carried errors near 1e-5; it
// now runs on the backend's reduction (wide accumulator, pairwise). The cases and their
// tolerance: tests/support/long_sums.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "core/real_type.hpp"
#include "support/long_sums.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {
namespace {

TEST(EinsumLongSums, TrailingSumsKeepTheirPrecision) {
  testing::check_long_sums(EagerRuntime::cpu(), {DType::F32, DType::C32, DType::F64, DType::C64});
}

TEST(EinsumLongSums, AFloatSumCountsPastTwoToThe24) {
  // 2^25 ones: exactly representable, and twice the float where a float running sum stops.
  const std::int64_t n = std::int64_t{1} << 25;
  auto runtime = EagerRuntime::cpu();
  Tensor ones = Tensor::zeros(DType::F32, {n});
  for (std::int64_t i = 0; i < n; ++i) ones.data<float>()[i] = 1.0f;
  const Tensor got = einsum("i->", {runtime->upload(ones)}).download();
  EXPECT_EQ(got.data<float>()[0], static_cast<float>(n));
}

// A product summed over 2^20 terms per output through the one-pass multiply-sum (executor.cpp,
// multiply_sum_operand): A's contracted labels j, k interleave with its kept ones, so a GEMM would
// first permute-copy it. The launch count checks that the one pass ran. Single-precision dtypes
// accumulate in double, so they meet the sums' tolerance (tests/support/long_sums.hpp), which a
// float accumulator misses by far; double precision accumulates in double as a GEMM's dot
// products do, checked against the a-priori bound of such a dot product, n eps sum |x y| (an
// index error moves a result by about 1/n of it, far outside both).
template <class T>
void check_long_product(DType dtype) {
  const std::int64_t m = 2, n = 2048, p = 2, q = 512;
  auto runtime = EagerRuntime::cpu();
  const Tensor a = testing::nonzero_mean_tensor(dtype, {m, n, p, q}, 7);
  const Tensor b = testing::nonzero_mean_tensor(dtype, {n, q}, 8);
  const EagerTensor ea = runtime->upload(a), eb = runtime->upload(b);
  const auto before = process_cpu_kernel_launches();
  const EagerTensor got_eager = einsum("ajbk,jk->ab", {ea, eb});
  EXPECT_EQ(process_cpu_kernel_launches() - before, 1u) << "one pass, no copy and GEMM";
  const Tensor got = got_eager.download();
  using R = RealType<T>;
  const double eps = std::numeric_limits<R>::epsilon();
  const double terms = static_cast<double>(n * q);
  int reported = 0;
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t l = 0; l < p; ++l) {
      std::complex<long double> want = 0;
      long double squares = 0, magnitudes = 0;
      for (std::int64_t k = 0; k < q; ++k) {
        for (std::int64_t j = 0; j < n; ++j) {
          const auto x = std::complex<long double>(a.data<T>()[i + m * (j + n * (l + p * k))]);
          const auto y = std::complex<long double>(b.data<T>()[j + n * k]);
          want += x * y;
          squares += std::norm(x * y);
          magnitudes += std::abs(x) * std::abs(y);
        }
      }
      const auto value = std::complex<long double>(got.data<T>()[i + m * l]);
      const double error = static_cast<double>(std::abs(value - want));
      const double bound =
          sizeof(R) == 4 ? 4.0 * std::sqrt(terms) * eps * std::sqrt(static_cast<double>(squares))
                         : terms * eps * static_cast<double>(magnitudes);
      if (error > bound && reported++ < 3)
        ADD_FAILURE() << dtype_name(dtype) << " output (" << i << ", " << l << "): error " << error
                      << " > " << bound;
    }
  }
}

TEST(EinsumLongSums, OnePassProductsKeepTheirPrecision) {
  check_long_product<float>(DType::F32);
  check_long_product<std::complex<float>>(DType::C32);
  check_long_product<double>(DType::F64);
}

}  // namespace
}  // namespace tenferro
