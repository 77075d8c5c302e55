// cpu_blas::gemm_batch (one strided-batch BLAS call behind batched einsum contractions) against
// a plain triple loop, per matrix: every dtype, both transposes, padded leading dimensions,
// padded and zero (broadcast) batch strides, batch sizes 0, 1 and many.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "backends/cpu/blas.hpp"
#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/small_gemm.hpp"

namespace {

using tenferro::cpu_blas::gemm_batch;

template <class T>
T random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return static_cast<T>(u(rng));
  } else {
    using R = typename T::value_type;
    const R re = static_cast<R>(u(rng));
    return T(re, static_cast<R>(u(rng)));
  }
}

double magnitude(double v) {
  return v < 0 ? -v : v;
}
template <class R>
double magnitude(std::complex<R> v) {
  return std::abs(std::complex<double>(v));
}

struct Case {
  bool trans_a, trans_b;
  std::int64_t m, n, k, batch;
  std::int64_t pad_ld, pad_stride;
  bool broadcast_a;  // A's batch stride 0: one A for every batch entry
};

// C_i = op(A_i) op(B_i), the definition written out: op(A)[r, l] is A[l + r * lda] when
// transposed (A stored k x m), else A[r + l * lda].
// The batch as gemm_batch runs it (small real products in our vector code on the best ISA,
// the rest through BLAS).
struct ThroughGemmBatch {
  template <class T>
  void operator()(const Case& c, const T* a, std::int64_t lda, std::int64_t sa, const T* b,
                  std::int64_t ldb, std::int64_t sb, T* out, std::int64_t ldc,
                  std::int64_t sc) const {
    gemm_batch<T>(c.trans_a, c.trans_b, c.m, c.n, c.k, a, lda, sa, b, ldb, sb, out, ldc, sc,
                  c.batch);
  }
};

template <class T, class Run = ThroughGemmBatch>
void check(const Case& c, std::mt19937_64& rng, Run run = {}) {
  const std::int64_t a_rows = c.trans_a ? c.k : c.m, a_cols = c.trans_a ? c.m : c.k;
  const std::int64_t b_rows = c.trans_b ? c.n : c.k, b_cols = c.trans_b ? c.k : c.n;
  // BLAS wants leading dimensions of at least 1, even for empty matrices.
  const auto ld = [&](std::int64_t rows) { return std::max<std::int64_t>(rows, 1) + c.pad_ld; };
  const std::int64_t lda = ld(a_rows), ldb = ld(b_rows), ldc = ld(c.m);
  const std::int64_t sa = c.broadcast_a ? 0 : lda * a_cols + c.pad_stride;
  const std::int64_t sb = ldb * b_cols + c.pad_stride, sc = ldc * c.n + c.pad_stride;
  std::vector<T> a(static_cast<std::size_t>(lda * a_cols + sa * c.batch + 1));
  std::vector<T> b(static_cast<std::size_t>(sb * c.batch + 1));
  std::vector<T> out(static_cast<std::size_t>(sc * c.batch + 1));
  for (T& v : a) v = random_value<T>(rng);
  for (T& v : b) v = random_value<T>(rng);
  const T sentinel = random_value<T>(rng);
  for (T& v : out) v = sentinel;  // padding must keep it
  run(c, a.data(), lda, sa, b.data(), ldb, sb, out.data(), ldc, sc);
  const double eps =
      std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? 1e-5 : 1e-13;
  for (std::int64_t i = 0; i < c.batch; ++i) {
    for (std::int64_t col = 0; col < ldc * c.n + c.pad_stride; ++col) {
      const std::int64_t r = col % ldc, j = col / ldc;
      const T got = out[static_cast<std::size_t>(i * sc + col)];
      if (j >= c.n || r >= c.m) {
        ASSERT_EQ(got, sentinel) << "padding written at batch " << i << " offset " << col;
        continue;
      }
      T want{};
      double scale = 0;
      for (std::int64_t l = 0; l < c.k; ++l) {
        const T av = a[static_cast<std::size_t>(i * sa + (c.trans_a ? l + r * lda : r + l * lda))];
        const T bv = b[static_cast<std::size_t>(i * sb + (c.trans_b ? j + l * ldb : l + j * ldb))];
        want += av * bv;
        scale += magnitude(av) * magnitude(bv);
      }
      ASSERT_LE(magnitude(got - want), eps * (scale + 1))
          << "batch " << i << " C[" << r << ", " << j << "] m=" << c.m << " n=" << c.n
          << " k=" << c.k << " ta=" << c.trans_a << " tb=" << c.trans_b;
    }
  }
  if (c.batch == 0) {
    for (const T& v : out) ASSERT_EQ(v, sentinel);  // nothing written
  }
}

template <class T>
class CpuBatchedGemm : public ::testing::Test {};
using DTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(CpuBatchedGemm, DTypes);

TYPED_TEST(CpuBatchedGemm, AgreesWithPerMatrixProductsOnRandomLayouts) {
  std::mt19937_64 rng(20261202);
  std::uniform_int_distribution<std::int64_t> extent(0, 9), pad(0, 3);
  const std::int64_t batches[] = {0, 1, 2, 7, 33};
  for (int trial = 0; trial < 120; ++trial) {
    Case c{};
    c.trans_a = trial % 2 == 1;
    c.trans_b = trial / 2 % 2 == 1;
    c.m = extent(rng);
    c.n = extent(rng);
    c.k = extent(rng);
    c.batch = batches[trial % 5];
    c.pad_ld = pad(rng);
    c.pad_stride = pad(rng);
    c.broadcast_a = trial % 7 == 3;
    check<TypeParam>(c, rng);
  }
}

TYPED_TEST(CpuBatchedGemm, ManySmallMatricesAndOneLarge) {
  std::mt19937_64 rng(7);
  check<TypeParam>({false, false, 8, 8, 8, 256, 0, 0, false}, rng);
  check<TypeParam>({true, false, 32, 32, 32, 64, 0, 0, false}, rng);
  check<TypeParam>({false, true, 3, 5, 300, 9, 1, 2, false}, rng);  // long K
  check<TypeParam>({false, false, 70, 65, 66, 2, 0, 0, false}, rng);
}

// Products with a vector side (m = 1 or n = 1, both: a dot product) beyond the small kernels'
// reach run as BLAS gemv: every transpose, padded leading dimensions, long K.
TYPED_TEST(CpuBatchedGemm, VectorShapesAgreeWithTheDefinition) {
  std::mt19937_64 rng(11);
  for (const std::int64_t k : {1, 40, 300, 1000}) {
    for (int t = 0; t < 4; ++t) {
      const bool ta = t % 2 == 1, tb = t / 2 == 1;
      for (const auto& [m, n] : {std::pair<std::int64_t, std::int64_t>{1, 70}, {70, 1}, {1, 1}}) {
        check<TypeParam>({ta, tb, m, n, k, 1, 0, 0, false}, rng);
        check<TypeParam>({ta, tb, m, n, k, 3, 2, 1, false}, rng);
      }
    }
  }
}

// A fresh output's bits can be a NaN; a product with a vector side must not read them (a BLAS
// with beta = 0 may still scale y by it: OpenBLAS 0.3.34 does not, and the wrapper zeroes y
// first for one that does, so this guards the contract rather than today's library).
TYPED_TEST(CpuBatchedGemm, VectorShapesIgnoreWhatTheOutputHeld) {
  using T = TypeParam;
  std::mt19937_64 rng(12);
  const std::int64_t k = 200;
  std::vector<T> a(static_cast<std::size_t>(70 * k)), b(static_cast<std::size_t>(70 * k));
  for (T& v : a) v = random_value<T>(rng);
  for (T& v : b) v = random_value<T>(rng);
  for (const auto& [m, n] : {std::pair<std::int64_t, std::int64_t>{1, 70}, {70, 1}, {1, 1}}) {
    std::vector<T> out(static_cast<std::size_t>(m * n),
                       T(std::numeric_limits<double>::quiet_NaN()));
    tenferro::cpu_blas::gemm<T>(false, false, m, n, k, a.data(), m, b.data(), k, out.data(), m);
    for (std::int64_t i = 0; i < m * n; ++i) {
      const T got = out[static_cast<std::size_t>(i)];
      ASSERT_EQ(got, got) << "a NaN the output held leaked into C[" << i << "], m=" << m
                          << " n=" << n;
    }
  }
}

// The small-product kernels on every vector ISA this CPU has (gemm_batch takes only the best
// one): every m, n, k up to that ISA's small_gemm_max, padded leading dimensions and batch strides,
// batch sizes 0, 1 and many, against the same per-matrix reference.
template <class T>
void check_small_products_on(tenferro::cpu_isa::Isa isa) {
  std::mt19937_64 rng(20261204);
  std::uniform_int_distribution<std::int64_t> pad(0, 3);
  const std::int64_t batches[] = {0, 1, 5};
  int trial = 0;
  const std::int64_t top = tenferro::cpu_blas::small_gemm_max(isa);
  for (std::int64_t m = 1; m <= top; ++m) {
    for (std::int64_t n = 1; n <= top; n += 3) {
      for (std::int64_t k = 0; k <= top; k += 4, ++trial) {
        const Case c{false, false, m, n, k, batches[trial % 3], pad(rng), pad(rng), trial % 5 == 2};
        check<T>(
            c, rng,
            [isa](const Case& cc, const T* a, std::int64_t lda, std::int64_t sa, const T* b,
                  std::int64_t ldb, std::int64_t sb, T* out, std::int64_t ldc, std::int64_t sc) {
              ASSERT_TRUE(tenferro::cpu_blas::small_gemm_batch<T>(isa, false, false, cc.m, cc.n,
                                                                  cc.k, a, lda, sa, b, ldb, sb, out,
                                                                  ldc, sc, cc.batch));
            });
      }
    }
  }
}

TEST(CpuSmallGemm, AgreesWithPerMatrixProductsOnEveryVectorIsa) {
  using tenferro::cpu_isa::Isa;
  int isas = 0;
  for (Isa isa : {Isa::Avx2, Isa::Avx512}) {
    if (!tenferro::cpu_isa::isa_available(isa)) continue;
    ++isas;
    SCOPED_TRACE(isa == Isa::Avx2 ? "AVX2" : "AVX-512");
    check_small_products_on<float>(isa);
    check_small_products_on<double>(isa);
  }
  if (isas == 0) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512: no small-GEMM kernels";
}

TEST(CpuSmallGemm, DeclinesWhatItDoesNotRun) {
  // Transposes, sizes past small_gemm_max and empty products go to BLAS: nothing is written.
  using tenferro::cpu_blas::small_gemm_batch;
  const tenferro::cpu_isa::Isa isa = tenferro::cpu_isa::best_isa();
  const std::int64_t past = tenferro::cpu_blas::small_gemm_max(isa) + 1;
  std::vector<double> a(40 * 40, 1.0), out(40 * 40, -3.0);
  EXPECT_FALSE(small_gemm_batch<double>(isa, true, false, 4, 4, 4, a.data(), 4, 16, a.data(), 4, 16,
                                        out.data(), 4, 16, 1));
  EXPECT_FALSE(small_gemm_batch<double>(isa, false, true, 4, 4, 4, a.data(), 4, 16, a.data(), 4, 16,
                                        out.data(), 4, 16, 1));
  EXPECT_FALSE(small_gemm_batch<double>(isa, false, false, past, 4, 4, a.data(), past, 0, a.data(),
                                        4, 0, out.data(), past, 0, 1));
  EXPECT_FALSE(small_gemm_batch<double>(isa, false, false, 4, past, 4, a.data(), 4, 0, a.data(), 4,
                                        0, out.data(), 4, 0, 1));
  EXPECT_FALSE(small_gemm_batch<double>(isa, false, false, 4, 4, past, a.data(), 4, 0, a.data(),
                                        past, 0, out.data(), 4, 0, 1));
  EXPECT_FALSE(small_gemm_batch<double>(isa, false, false, 0, 4, 4, a.data(), 1, 0, a.data(), 4, 0,
                                        out.data(), 1, 0, 1));
  for (double v : out) ASSERT_EQ(v, -3.0);
}

}  // namespace
