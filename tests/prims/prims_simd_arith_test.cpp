// The vector kernels of the element-wise ops that are IEEE arithmetic or a choice (negative,
// square, reciprocal, sign, affine, where) against the scalar rules of element_math.hpp bit for
// bit, and pow (SLEEF's on AVX2, ours on AVX-512) within 4 ulp of std::pow and 1 ulp of the
// correctly rounded result, on every vector ISA this CPU runs. Signed zeros,
// infinities, NaNs and subnormals are in every sweep.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "backends/cpu/strided_reduce.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "simd_sweep_support.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro::prims_test {
namespace {

template <class R>
using Bits = std::conditional_t<sizeof(R) == 4, std::uint32_t, std::uint64_t>;

// The same value: the same bits, or two NaNs (a NaN's payload is the hardware's to pick).
template <class R>
bool same_value(R got, R want) {
  return std::isnan(want) ? std::isnan(got)
                          : std::bit_cast<Bits<R>>(got) == std::bit_cast<Bits<R>>(want);
}

template <class R>
R scalar_unary(Op op, R x) {
  switch (op) {
    case Op::Neg:
      return prims_cpu::unary_op<Op::Neg>(x);
    case Op::Square:
      return prims_cpu::unary_op<Op::Square>(x);
    case Op::Reciprocal:
      return prims_cpu::unary_op<Op::Reciprocal>(x);
    case Op::Sign:
      return prims_cpu::unary_op<Op::Sign>(x);
    default:
      ADD_FAILURE() << "no scalar rule for " << op_name(op);
      return R(0);
  }
}

// Every 509th float32 bit pattern (both signs, subnormals, infinities, NaNs) and the specials.
std::vector<float> float32_sweep() {
  std::vector<float> xs;
  for (std::uint64_t b = 0; b < (std::uint64_t{1} << 32); b += 509)
    xs.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  for (float s : specials<float>()) xs.push_back(s);
  return xs;
}

// Float64 values evenly over the bit patterns (log-spaced magnitudes), both signs, and the
// specials.
std::vector<double> float64_sweep() {
  std::vector<double> xs;
  constexpr std::uint64_t kPoints = 400'000;
  constexpr std::uint64_t kStep = (std::uint64_t{0x7ff} << 52) / kPoints;
  std::uint64_t lcg = 777;
  for (std::uint64_t i = 0; i <= kPoints + 8; ++i) {  // past 0x7ff << 52: infinities and NaNs
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t bits = i * kStep + (lcg >> 20) % kStep;
    xs.push_back(std::bit_cast<double>(bits));
    xs.push_back(-std::bit_cast<double>(bits));
  }
  for (double s : specials<double>()) xs.push_back(s);
  return xs;
}

// `op` over xs on every vector ISA, against the scalar rule: bit for bit (the NaN of Neg and
// Sign too: -x flips a NaN's sign bit, sign(NaN) is that NaN), at every start offset and tail
// length up to a few vectors.
template <class R>
void check_exact_unary(Op op, const std::vector<R>& xs) {
  const auto exact = [op](R got, R want) {
    return op == Op::Neg || op == Op::Sign
               ? std::bit_cast<Bits<R>>(got) == std::bit_cast<Bits<R>>(want)
               : same_value(got, want);
  };
  for (Isa isa : vector_isas()) {
    std::vector<R> ys(xs.size());
    ASSERT_TRUE(simd::unary(isa, op, xs.data(), ys.data(), static_cast<std::int64_t>(xs.size())));
    std::size_t bad = 0;
    std::ostringstream first;
    first.precision(std::numeric_limits<R>::max_digits10);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const R want = scalar_unary(op, xs[i]);
      if (exact(ys[i], want)) continue;
      if (bad++ < 5) first << "  x=" << xs[i] << " got=" << ys[i] << " want=" << want << "\n";
    }
    EXPECT_EQ(bad, 0u) << op_name(op) << " on " << isa_name(isa) << ": " << bad << " of "
                       << xs.size() << " values differ from the scalar rule\n"
                       << first.str();
    for (std::int64_t start = 0; start < 3; ++start) {
      for (std::int64_t n = 0; n <= 40; ++n) {
        std::vector<R> t(static_cast<std::size_t>(n) + 1, R(-7));
        ASSERT_TRUE(simd::unary(isa, op, xs.data() + start, t.data(), n));
        for (std::int64_t i = 0; i < n; ++i) {
          const auto k = static_cast<std::size_t>(start + i);
          ASSERT_TRUE(exact(t[static_cast<std::size_t>(i)], ys[k]))
              << op_name(op) << " n=" << n << " i=" << i;
        }
        EXPECT_EQ(t[static_cast<std::size_t>(n)], R(-7)) << "wrote past the end, n=" << n;
      }
    }
  }
}

constexpr Op kArithUnary[] = {Op::Neg, Op::Square, Op::Reciprocal, Op::Sign};

TEST(PrimsSimdArith, UnaryArithmeticIsTheScalarRuleFloat32) {
  const std::vector<float> xs = float32_sweep();
  for (Op op : kArithUnary) check_exact_unary(op, xs);
}

TEST(PrimsSimdArith, UnaryArithmeticIsTheScalarRuleFloat64) {
  const std::vector<double> xs = float64_sweep();
  for (Op op : kArithUnary) check_exact_unary(op, xs);
}

// alpha * x + beta as scale_by then add_scalar, two roundings. The values include products
// whose fused form (one rounding) differs in the last bit: x = 1 + k ulp times alpha = 1 + ulp
// minus 1 keeps the product's low bits only when it is fused.
template <class R>
void check_affine() {
  std::vector<R> xs = specials<R>();
  const R eps = std::numeric_limits<R>::epsilon();
  for (int k = 1; k < 200; ++k) xs.push_back(R(1) + R(k) * eps);
  std::uint64_t lcg = 31;
  for (int i = 0; i < 2000; ++i) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    xs.push_back(static_cast<R>(static_cast<double>(lcg >> 11) / 9007199254740992.0 * 20 - 10));
  }
  struct Scalars {
    double alpha, beta;
  };
  const Scalars cases[] = {
      {2.0, 0.0},   {-1.0, 0.0},
      {1.0, 1.0},   {1.0, -0.0},  // -0: scale only, as the scalar rule (beta == 0)
      {0.1, 0.3},   {1.0 + static_cast<double>(eps), -1.0},
      {-3.5, 1e30}, {0.0, 5.0}};
  for (Isa isa : vector_isas()) {
    for (const Scalars& sc : cases) {
      const std::complex<double> alpha(sc.alpha), beta(sc.beta);
      const bool shift = beta != 0.0;
      std::vector<R> ys(xs.size());
      ASSERT_TRUE(simd::affine(isa, xs.data(), ys.data(), static_cast<std::int64_t>(xs.size()),
                               static_cast<R>(sc.alpha), static_cast<R>(sc.beta), shift));
      std::size_t bad = 0;
      for (std::size_t i = 0; i < xs.size(); ++i) {
        const R want = shift ? prims_cpu::add_scalar(prims_cpu::scale_by(alpha, xs[i]), beta)
                             : prims_cpu::scale_by(alpha, xs[i]);
        if (same_value(ys[i], want)) continue;
        if (bad++ < 3) {
          ADD_FAILURE() << isa_name(isa) << " " << sc.alpha << " * " << xs[i] << " + " << sc.beta
                        << " gave " << ys[i] << ", want " << want;
        }
      }
      EXPECT_EQ(bad, 0u) << isa_name(isa) << " alpha " << sc.alpha << " beta " << sc.beta;
    }
  }
}

TEST(PrimsSimdArith, AffineRoundsTheProductAndTheSumFloat32) {
  check_affine<float>();
}
TEST(PrimsSimdArith, AffineRoundsTheProductAndTheSumFloat64) {
  check_affine<double>();
}

// The fused and the unfused forms differ on the values check_affine uses, so a kernel that
// fused them would fail it.
TEST(PrimsSimdArith, TheAffineValuesTellAFusedKernel) {
  const double eps = std::numeric_limits<double>::epsilon();
  const double x = 1.0 + 3 * eps, alpha = 1.0 + eps;
  volatile double product = x * alpha;  // rounded on its own
  EXPECT_NE(std::fma(x, alpha, -1.0), product - 1.0);
}

// where: the chosen operand's bits (a NaN in the other one never leaks), a condition that is
// NaN or -0 counting as nonzero and zero as the scalar rule's c != 0, at every tail length.
template <class R>
void check_select() {
  const std::vector<R> vals = specials<R>();
  std::vector<R> cond, x, other;
  for (std::size_t i = 0; i < vals.size(); ++i) {
    for (std::size_t j = 0; j < vals.size(); j += 5) {
      cond.push_back(vals[(i * 7 + j) % vals.size()]);
      x.push_back(vals[i]);
      other.push_back(vals[(i + j) % vals.size()]);
    }
  }
  for (Isa isa : vector_isas()) {
    std::vector<R> y(x.size());
    ASSERT_TRUE(simd::select(isa, cond.data(), x.data(), other.data(), y.data(),
                             static_cast<std::int64_t>(x.size())));
    std::size_t bad = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const R want = cond[i] != R(0) ? x[i] : other[i];
      if (std::bit_cast<Bits<R>>(y[i]) == std::bit_cast<Bits<R>>(want)) continue;
      if (bad++ < 3) {
        ADD_FAILURE() << isa_name(isa) << " where(" << cond[i] << ", " << x[i] << ", " << other[i]
                      << ") gave " << y[i];
      }
    }
    EXPECT_EQ(bad, 0u) << isa_name(isa);
    for (std::int64_t start = 0; start < 3; ++start) {
      for (std::int64_t n = 0; n <= 40; ++n) {
        std::vector<R> t(static_cast<std::size_t>(n) + 1, R(-7));
        const auto s0 = static_cast<std::size_t>(start);
        ASSERT_TRUE(
            simd::select(isa, cond.data() + s0, x.data() + s0, other.data() + s0, t.data(), n));
        for (std::int64_t i = 0; i < n; ++i) {
          const auto k = static_cast<std::size_t>(start + i);
          ASSERT_EQ(std::bit_cast<Bits<R>>(t[static_cast<std::size_t>(i)]),
                    std::bit_cast<Bits<R>>(y[k]))
              << "n=" << n << " i=" << i;
        }
        EXPECT_EQ(t[static_cast<std::size_t>(n)], R(-7)) << "wrote past the end, n=" << n;
      }
    }
  }
}

TEST(PrimsSimdArith, WhereTakesTheChosenOperandsBitsFloat32) {
  check_select<float>();
}
TEST(PrimsSimdArith, WhereTakesTheChosenOperandsBitsFloat64) {
  check_select<double>();
}

// float32 <-> float64 casts bit for bit against static_cast: every 509th float32 pattern
// widened; float64s narrowed, including ones that round to float32 subnormals, overflow to inf,
// and halfway cases; every tail length.
template <class From, class To>
void check_convert(const std::vector<From>& xs) {
  for (Isa isa : vector_isas()) {
    std::vector<To> ys(xs.size());
    ASSERT_TRUE(simd::convert(isa, xs.data(), ys.data(), static_cast<std::int64_t>(xs.size())));
    std::size_t bad = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (same_value(ys[i], static_cast<To>(xs[i]))) continue;
      if (bad++ < 3) ADD_FAILURE() << isa_name(isa) << " cast of " << xs[i] << " gave " << ys[i];
    }
    EXPECT_EQ(bad, 0u) << isa_name(isa);
    for (std::int64_t n = 0; n <= 40; ++n) {
      std::vector<To> t(static_cast<std::size_t>(n) + 1, To(-7));
      ASSERT_TRUE(simd::convert(isa, xs.data() + 1, t.data(), n));
      for (std::int64_t i = 0; i < n; ++i)
        ASSERT_TRUE(same_value(t[static_cast<std::size_t>(i)], ys[static_cast<std::size_t>(i + 1)]))
            << "n=" << n << " i=" << i;
      EXPECT_EQ(t[static_cast<std::size_t>(n)], To(-7)) << "wrote past the end, n=" << n;
    }
  }
}

// NumPy's argmax/argmin rule, written here: the first NaN ends the search; otherwise an element
// replaces the running extreme only when strictly beyond it.
template <class R>
std::int64_t numpy_arg(const std::vector<R>& p, bool is_max) {
  std::int64_t at = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (std::isnan(p[i])) return static_cast<std::int64_t>(i);
    const R best = p[static_cast<std::size_t>(at)];
    if (is_max ? p[i] > best : p[i] < best) at = static_cast<std::int64_t>(i);
  }
  return at;
}

// The one-pass kernel on every vector ISA against that rule: runs of every length up to a few
// chunks (the lanes, the fold, the scalar tail) of values with many ties, -0 and +0, the
// infinities (the lanes' identities) and NaNs; the extreme planted at every position, twice.
template <class R>
void check_arg_extreme() {
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  const std::vector<R> pool = {R(-1), R(-0.0), R(0.0), R(1), R(1), inf, -inf};
  std::mt19937 rng(80);
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  for (Isa isa : vector_isas()) {
    for (std::int64_t n = 1; n <= 200; ++n) {
      for (int trial = 0; trial < 6; ++trial) {
        std::vector<R> p(static_cast<std::size_t>(n));
        for (R& x : p) x = trial == 0 ? -inf : trial == 1 ? inf : pool[pick(rng)];
        for (const bool is_max : {true, false}) {
          std::vector<std::vector<R>> variants = {p};
          const std::int64_t i = static_cast<std::int64_t>(rng() % static_cast<unsigned>(n));
          for (const R planted : {R(5), R(-5), nan}) {
            std::vector<R> q = p;
            q[static_cast<std::size_t>(i)] = planted;
            if (i + 7 < n) q[static_cast<std::size_t>(i + 7)] = planted;
            variants.push_back(q);
          }
          for (const std::vector<R>& q : variants) {
            std::int64_t at = -1;
            ASSERT_TRUE(
                simd::arg_extreme(isa, is_max ? Op::Maximum : Op::Minimum, q.data(), n, at));
            ASSERT_EQ(at, numpy_arg(q, is_max)) << isa_name(isa) << (is_max ? " argmax" : " argmin")
                                                << " n=" << n << " trial " << trial;
          }
        }
      }
    }
    std::int64_t at = 0;
    const R one = R(1);
    EXPECT_FALSE(simd::arg_extreme(isa, Op::Add, &one, 1, at));
  }
}

TEST(PrimsSimdArith, ArgExtremeIsNumPysFirstIndexRule) {
  check_arg_extreme<float>();
  check_arg_extreme<double>();
}

TEST(PrimsSimdArith, CastsBetweenFloat32AndFloat64AreStaticCasts) {
  check_convert<float, double>(float32_sweep());
  std::vector<double> xs = float64_sweep();
  const double fmin = std::numeric_limits<float>::denorm_min();
  for (int k = -3; k <= 3; ++k) {
    xs.push_back(fmin * (0.5 + 0.25 * k));  // around the smallest subnormal's half
    xs.push_back(std::numeric_limits<float>::max() * (1 + 1e-8 * k));  // around overflow
    xs.push_back(1.0 + (0.5 + 1e-12 * k) * std::numeric_limits<float>::epsilon());  // a tie
  }
  check_convert<double, float>(xs);
}

// Block sums (a float32/float64 sum's or norm's whole blocks, a complex norm's): each block's
// value as the CPU backend's PairwiseSum::add_run computes it, bit for bit, for every block
// count up to 21, on terms of mixed magnitudes whose sum depends on the order of the additions
// (checked: a plain running sum differs), and with infinities, NaNs and subnormals in some
// blocks.
template <class R>
void check_block_sums(simd::SumKind kind) {
  constexpr std::int64_t kBlock = simd::kSumBlock;
  static_assert(kBlock == cpu_strided::PairwiseSum<double>::kBlock);
  constexpr std::int64_t kBlocks = 21;
  const std::int64_t parts = kind == simd::SumKind::ComplexSquares ? 2 : 1;  // values per term
  std::vector<R> xs(static_cast<std::size_t>(kBlock * kBlocks * parts));
  std::uint64_t lcg = 99;
  for (R& x : xs) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    const double mantissa = static_cast<double>(lcg >> 11) / 9007199254740992.0 - 0.5;
    x = static_cast<R>(std::ldexp(mantissa, static_cast<int>((lcg >> 3) % 40) - 20));
  }
  const auto at = [&](std::int64_t block, std::int64_t i) -> R& {
    return xs[static_cast<std::size_t>((block * kBlock + i) * parts)];
  };
  at(5, 17) = std::numeric_limits<R>::infinity();
  at(6, 3) = std::numeric_limits<R>::quiet_NaN();
  at(7, 255) = -std::numeric_limits<R>::infinity();
  at(7, 1) = std::numeric_limits<R>::infinity();
  for (std::int64_t i = 0; i < kBlock; ++i)
    at(8, i) = std::numeric_limits<R>::denorm_min() * (i + 1);
  // The term of value i of a block, as the reduction kernel's scalar loop computes it.
  const auto term = [&](const R* p, std::int64_t i) {
    switch (kind) {
      case simd::SumKind::Values:
        return static_cast<double>(p[i]);
      case simd::SumKind::Squares:
        return static_cast<double>(p[i]) * p[i];
      case simd::SumKind::ComplexSquares:
        return static_cast<double>(p[2 * i]) * p[2 * i] +
               static_cast<double>(p[2 * i + 1]) * p[2 * i + 1];
    }
    return 0.0;
  };
  std::vector<double> want(kBlocks);
  bool order_matters = false;
  for (std::int64_t b = 0; b < kBlocks; ++b) {
    const R* block = xs.data() + b * kBlock * parts;
    std::vector<std::int64_t> index(kBlock);
    for (std::int64_t i = 0; i < kBlock; ++i) index[static_cast<std::size_t>(i)] = i;
    cpu_strided::PairwiseSum<double> one;
    one.add_run(index.data(), kBlock, [&](std::int64_t i) { return term(block, i); });
    want[static_cast<std::size_t>(b)] = one.total();
    double running = 0;
    for (std::int64_t i = 0; i < kBlock; ++i) running += term(block, i);
    order_matters = order_matters || running != want[static_cast<std::size_t>(b)];
  }
  ASSERT_TRUE(order_matters) << "the terms do not tell one order of additions from another";
  for (Isa isa : vector_isas()) {
    for (std::int64_t n = 0; n <= kBlocks; ++n) {
      std::vector<double> got(kBlocks + 1, 42.0);
      ASSERT_TRUE(simd::block_sums(isa, xs.data(), n, got.data(), kind));
      for (std::int64_t b = 0; b < n; ++b)
        ASSERT_TRUE(same_value(got[static_cast<std::size_t>(b)], want[static_cast<std::size_t>(b)]))
            << isa_name(isa) << " blocks=" << n << " block " << b << ": "
            << got[static_cast<std::size_t>(b)] << " want " << want[static_cast<std::size_t>(b)];
      EXPECT_EQ(got[static_cast<std::size_t>(n)], 42.0) << "wrote past the end, blocks=" << n;
    }
  }
}
TEST(PrimsSimdArith, BlockSumsArePairwiseSumBlocks) {
  check_block_sums<float>(simd::SumKind::Values);
  check_block_sums<double>(simd::SumKind::Values);
}
TEST(PrimsSimdArith, BlockSumsOfSquaresArePairwiseSumBlocks) {
  check_block_sums<float>(simd::SumKind::Squares);
  check_block_sums<double>(simd::SumKind::Squares);
}
TEST(PrimsSimdArith, BlockSumsOfComplexSquaresArePairwiseSumBlocks) {
  check_block_sums<float>(simd::SumKind::ComplexSquares);
  check_block_sums<double>(simd::SumKind::ComplexSquares);
}

// A float32 sum's vector step into float64 accumulators: acc + double(x), bit for bit, at every
// tail length (acc holds values whose sums with x round).
TEST(PrimsSimdArith, WidenedAddIsTheScalarStep) {
  const std::vector<float> xs = float32_sweep();
  std::vector<double> acc0(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) acc0[i] = 1.0 / 3.0 * static_cast<double>(i % 97);
  for (Isa isa : vector_isas()) {
    std::vector<double> acc = acc0;
    ASSERT_TRUE(simd::add_rows(isa, acc.data(), xs.data(), 0, 1,
                               static_cast<std::int64_t>(xs.size()), simd::SumKind::Values));
    std::size_t bad = 0;
    for (std::size_t i = 0; i < xs.size(); ++i)
      bad += same_value(acc[i], acc0[i] + static_cast<double>(xs[i])) ? 0 : 1;
    EXPECT_EQ(bad, 0u) << isa_name(isa);
    for (std::int64_t n = 0; n <= 40; ++n) {
      std::vector<double> t(acc0.begin(), acc0.begin() + n + 1);
      ASSERT_TRUE(simd::add_rows(isa, t.data(), xs.data(), 0, 1, n, simd::SumKind::Values));
      for (std::int64_t i = 0; i < n; ++i)
        ASSERT_TRUE(same_value(t[static_cast<std::size_t>(i)], acc[static_cast<std::size_t>(i)]))
            << "n=" << n << " i=" << i;
      EXPECT_EQ(t[static_cast<std::size_t>(n)], acc0[static_cast<std::size_t>(n)])
          << "wrote past the end, n=" << n;
    }
  }
}

// A norm's vector step along rows: acc + double(x)^2 with the square rounded first, bit for bit
// (a fused multiply-add would differ in the last bit of most values here), at every tail length.
template <class R>
void check_add_squares(const std::vector<R>& xs) {
  // One accumulator past the last element: the kernel must leave it alone.
  std::vector<double> acc0(xs.size() + 1);
  for (std::size_t i = 0; i < acc0.size(); ++i) acc0[i] = 1.0 / 3.0 * static_cast<double>(i % 97);
  std::vector<double> want(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    double square = static_cast<double>(xs[i]) * static_cast<double>(xs[i]);
    asm("" : "+x"(square));  // rounded here, as the scalar step rounds it
    want[i] = acc0[i] + square;
  }
  for (Isa isa : vector_isas()) {
    for (std::size_t n : {xs.size(), std::size_t{0}, std::size_t{1}, std::size_t{5},
                          std::size_t{13}, std::size_t{19}}) {
      std::vector<double> acc(acc0.begin(), acc0.begin() + static_cast<std::ptrdiff_t>(n) + 1);
      ASSERT_TRUE(simd::add_rows(isa, acc.data(), xs.data(), 0, 1, static_cast<std::int64_t>(n),
                                 simd::SumKind::Squares));
      std::size_t bad = 0;
      for (std::size_t i = 0; i < n; ++i) bad += same_value(acc[i], want[i]) ? 0 : 1;
      EXPECT_EQ(bad, 0u) << isa_name(isa) << " n=" << n;
      EXPECT_EQ(acc[n], acc0[n]) << "wrote past the end, n=" << n;
    }
  }
}
TEST(PrimsSimdArith, SquaresAddedAreTheScalarNormStep) {
  check_add_squares(float32_sweep());
  check_add_squares(float64_sweep());
}

// Many rows at once (groups of four rows swept along the columns together): each column's rows
// added in order, bit for bit the scalar steps row after row, for sums and norms, at row counts
// around the groups (a group, a group and a remainder, remainders alone) and column counts
// around the kernel's steps (two vectors, one vector, single columns), with rows further apart
// than they are long; the columns past n and the gaps between rows are left alone.
template <class R>
void check_add_rows(simd::SumKind kind) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (Isa isa : vector_isas()) {
    for (std::int64_t n : {1, 7, 8, 15, 16, 17, 63, 64, 65, 71, 128, 129, 200}) {
      for (std::int64_t rows : {1, 2, 3, 4, 5, 31, 256}) {
        const std::int64_t stride = n + 5;
        std::vector<R> x(static_cast<std::size_t>(rows * stride));
        // Magnitudes spread over 2^-20..2^20: the sums round at every step.
        for (R& v : x) v = static_cast<R>(normal(rng) * std::exp2(std::round(normal(rng) * 7)));
        std::vector<double> acc0(static_cast<std::size_t>(n + 1));
        for (double& a : acc0) a = normal(rng);
        std::vector<double> want = acc0;
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t j = 0; j < n; ++j) {
            double term = static_cast<double>(x[static_cast<std::size_t>(r * stride + j)]);
            if (kind == simd::SumKind::Squares) {
              term *= term;
              asm("" : "+x"(term));  // rounded here, as the scalar step rounds it
            }
            want[static_cast<std::size_t>(j)] += term;
          }
        }
        std::vector<double> acc = acc0;
        ASSERT_TRUE(simd::add_rows(isa, acc.data(), x.data(), stride, rows, n, kind));
        std::size_t bad = 0;
        for (std::size_t j = 0; j < acc.size(); ++j) bad += same_value(acc[j], want[j]) ? 0 : 1;
        EXPECT_EQ(bad, 0u) << isa_name(isa) << " n=" << n << " rows=" << rows;
      }
    }
  }
}
TEST(PrimsSimdArith, RowsAddedTogetherAreTheScalarStepsInOrder) {
  check_add_rows<float>(simd::SumKind::Values);
  check_add_rows<double>(simd::SumKind::Values);
  check_add_rows<float>(simd::SumKind::Squares);
  check_add_rows<double>(simd::SumKind::Squares);
}

// Complex products: every pair of special parts (zeros of both signs, infinities, NaN, ones,
// tiny and huge values) and random ones, through prims::mul on the CPU runtime (the vector
// kernel, then the scalar rule where both parts came out NaN) against std::complex's product
// (C99 Annex G: infinities recovered) bit for bit; complex scaling by a real (x * 2.5) against
// std::complex times a real; sums and differences part by part.
template <class R>
void check_complex_mul_and_scale() {
  using Z = std::complex<R>;
  std::vector<R> parts = {R(0),
                          -R(0),
                          R(1),
                          R(-1),
                          R(0.5),
                          std::numeric_limits<R>::infinity(),
                          -std::numeric_limits<R>::infinity(),
                          std::numeric_limits<R>::quiet_NaN(),
                          std::numeric_limits<R>::min(),
                          std::numeric_limits<R>::max(),
                          R(3.25)};
  std::vector<Z> a, b;
  for (R ar : parts)
    for (R ai : parts)
      for (std::size_t k = 0; k < parts.size(); k += 2) {
        a.emplace_back(ar, ai);
        b.emplace_back(parts[k], parts[(k * 7 + 3) % parts.size()]);
      }
  std::uint64_t lcg = 3;
  const auto next = [&] {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<R>(static_cast<double>(lcg >> 11) / 9007199254740992.0 * 4 - 2);
  };
  for (int i = 0; i < 3000; ++i) {
    a.emplace_back(next(), next());
    b.emplace_back(next(), next());
  }
  const auto n = static_cast<std::int64_t>(a.size());
  auto rt = EagerRuntime::cpu();
  const EagerTensor ta = rt->upload(Tensor::from_col_major<Z>({n}, std::span<const Z>(a)));
  const EagerTensor tb = rt->upload(Tensor::from_col_major<Z>({n}, std::span<const Z>(b)));
  const std::vector<Z> prod = prims::mul(ta, tb).download().to_vector<Z>();
  const std::vector<Z> scaled = prims::scale(ta, 2.5).download().to_vector<Z>();
  const std::vector<Z> sum = prims::add(ta, tb).download().to_vector<Z>();
  const std::vector<Z> difference = prims::sub(ta, tb).download().to_vector<Z>();
  const auto same = [](Z got, Z want) {
    return same_value(got.real(), want.real()) && same_value(got.imag(), want.imag());
  };
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Z want = a[i] * b[i];
    const Z want_scaled = a[i] * R(2.5);
    const bool ok = same(prod[i], want) && same(scaled[i], want_scaled) &&
                    same(sum[i], a[i] + b[i]) && same(difference[i], a[i] - b[i]);
    if (!ok && bad++ < 5) {
      ADD_FAILURE() << a[i] << " * " << b[i] << " gave " << prod[i] << ", want " << want
                    << "; * 2.5 gave " << scaled[i] << ", want " << want_scaled << "; + gave "
                    << sum[i] << ", - gave " << difference[i];
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST(PrimsSimdArith, ComplexProductsAreStdComplexProductsComplex64) {
  check_complex_mul_and_scale<float>();
}
TEST(PrimsSimdArith, ComplexProductsAreStdComplexProductsComplex128) {
  check_complex_mul_and_scale<double>();
}

// The kernel alone reports NaN parts, so that its caller can redo them: (inf + 0i)(0 + 1i)
// comes out with both parts NaN before Annex G's recovery (inf * 0), and must be flagged.
TEST(PrimsSimdArith, ComplexProductKernelFlagsNaNParts) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> a = {inf, 0.0, 1.0, 2.0}, b = {0.0, 1.0, 3.0, 4.0}, y(4);
  for (Isa isa : vector_isas()) {
    bool some_nan = false;
    ASSERT_TRUE(simd::complex_binary(isa, Op::Mul, a.data(), b.data(), y.data(), 2, some_nan));
    EXPECT_TRUE(some_nan) << isa_name(isa);
    EXPECT_EQ(y[2], 1.0 * 3.0 - 2.0 * 4.0);
    EXPECT_EQ(y[3], 1.0 * 4.0 + 2.0 * 3.0);
    a[0] = 5.0;
    ASSERT_TRUE(simd::complex_binary(isa, Op::Mul, a.data(), b.data(), y.data(), 2, some_nan));
    EXPECT_FALSE(some_nan) << isa_name(isa);
    a[0] = inf;
  }
}

// Complex quotients: the vector kernel, with the scalar rule redone where both parts came out
// NaN (as its caller does), gives std::complex's quotient bit for bit (GCC's __divdc3 /
// __divsc3: Smith's method with its scalings for complex128, double arithmetic for complex64),
// at every tail length, on every vector ISA; and prims::div on the CPU runtime does. The
// operands: every pair of special parts as numerator and as divisor, parts log-spaced over the
// whole range (subnormal and overflowing intermediates, the kernel's range bounds 2^+-250 and
// their neighbours), zeros, and random values.
template <class R>
void check_complex_div() {
  using Z = std::complex<R>;
  std::vector<R> parts = specials<R>();
  for (double e : {250.0, -250.0}) {
    const R bound = static_cast<R>(std::ldexp(1.0, static_cast<int>(e)));
    if (bound == 0 || std::isinf(bound)) continue;  // float32: beyond its range
    parts.push_back(bound);
    parts.push_back(std::nextafter(bound, R(0)));
    parts.push_back(-std::nextafter(bound, std::numeric_limits<R>::infinity()));
  }
  std::uint64_t lcg = 17;
  const double max_exp = sizeof(R) == 4 ? 128.0 : 1024.0;
  const auto uniform = [&] {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(lcg >> 11) / 9007199254740992.0;
  };
  for (int i = 0; i < 60; ++i)
    parts.push_back(static_cast<R>(
        std::ldexp(uniform() + 0.5, static_cast<int>((uniform() * 2 - 1) * max_exp))));
  std::vector<Z> a, b;
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (std::size_t j = 0; j < parts.size(); ++j) {
      a.emplace_back(parts[i], parts[j]);
      b.emplace_back(parts[(i * 7 + j) % parts.size()], parts[(j * 3 + 1) % parts.size()]);
      a.emplace_back(parts[(i * 5 + j * 11) % parts.size()], R(0));
      b.emplace_back(parts[i], parts[j]);
    }
  for (int i = 0; i < 4000; ++i) {
    a.emplace_back(static_cast<R>(uniform() * 4 - 2),
                   i % 7 == 0 ? R(0) : static_cast<R>(uniform() * 4 - 2));
    b.emplace_back(i % 5 == 0 ? R(0) : static_cast<R>(uniform() * 4 - 2),
                   static_cast<R>(uniform() * 4 - 2));
  }
  const auto n = static_cast<std::int64_t>(a.size());
  const auto same = [](Z got, Z want) {
    return same_value(got.real(), want.real()) && same_value(got.imag(), want.imag());
  };
  // The vector kernel against std::complex's operator/ (the values it leaves NaN in both parts
  // redone by it); prims::div against the scalar rule, which is that operator but for a real
  // divisor's repair (element_math.hpp's complex_quotient).
  const auto check = [&](const std::vector<Z>& got, std::int64_t count, const std::string& what) {
    std::size_t bad = 0;
    for (std::int64_t k = 0; k < count; ++k) {
      const auto i = static_cast<std::size_t>(k);
      const Z want = what == "prims::div" ? prims_cpu::complex_quotient(a[i], b[i]) : a[i] / b[i];
      if (!same(got[i], want) && bad++ < 5)
        ADD_FAILURE() << what << ": " << a[i] << " / " << b[i] << " gave " << got[i] << ", want "
                      << want;
    }
    EXPECT_EQ(bad, 0u) << what;
  };
  for (Isa isa : vector_isas()) {
    for (std::int64_t len : {n, std::int64_t{0}, std::int64_t{1}, std::int64_t{3}, std::int64_t{5},
                             std::int64_t{8}, std::int64_t{11}, std::int64_t{17}}) {
      std::vector<Z> y(static_cast<std::size_t>(len) + 1, Z(R(42), R(42)));
      bool some_nan = false;
      ASSERT_TRUE(simd::complex_binary(isa, Op::Div, reinterpret_cast<const R*>(a.data()),
                                       reinterpret_cast<const R*>(b.data()),
                                       reinterpret_cast<R*>(y.data()), len, some_nan));
      for (std::int64_t k = 0; k < len; ++k) {
        const auto i = static_cast<std::size_t>(k);
        if (std::isnan(y[i].real()) && std::isnan(y[i].imag())) {
          EXPECT_TRUE(some_nan);
          y[i] = a[i] / b[i];
        }
      }
      check(y, len, std::string(isa_name(isa)) + " n=" + std::to_string(len));
      EXPECT_TRUE(same(y[static_cast<std::size_t>(len)], Z(R(42), R(42))))
          << "wrote past the end, n=" << len;
    }
  }
  auto rt = EagerRuntime::cpu();
  const EagerTensor ta = rt->upload(Tensor::from_col_major<Z>({n}, std::span<const Z>(a)));
  const EagerTensor tb = rt->upload(Tensor::from_col_major<Z>({n}, std::span<const Z>(b)));
  check(prims::div(ta, tb).download().to_vector<Z>(), n, "prims::div");
}
TEST(PrimsSimdArith, ComplexQuotientsAreStdComplexQuotientsComplex64) {
  check_complex_div<float>();
}
TEST(PrimsSimdArith, ComplexQuotientsAreStdComplexQuotientsComplex128) {
  check_complex_div<double>();
}

// A binary op with one operand a single value broadcast over the other (x / 3.0, s - x): the
// vector kernels run on blocks of copies of the value; each result is the scalar rule's
// (element_math.hpp's binary_op, std::complex's operators), with the value on either side, for
// values that are zero, signed, infinite, NaN, tiny and ordinary, over arrays longer than one
// block of copies and with every special value in them. pow is within 4 ulp of std::pow.
template <class T>
void check_broadcast_value_operands() {
  using R = prims_cpu::Real<T>;
  std::vector<R> reals = specials<R>();
  for (R v : specials<R>()) reals.push_back(-v);
  std::uint64_t lcg = 23;
  while (reals.size() < 1300) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    reals.push_back(static_cast<R>(static_cast<double>(lcg >> 11) / 9007199254740992.0 * 8 - 4));
  }
  std::vector<T> xs;
  for (std::size_t i = 0; i < reals.size(); ++i) {
    if constexpr (prims_cpu::kIsComplex<T>) {
      xs.emplace_back(reals[i], reals[(i * 7 + 3) % reals.size()]);
    } else {
      xs.push_back(reals[i]);
    }
  }
  const auto n = static_cast<std::int64_t>(xs.size());
  auto rt = EagerRuntime::cpu();
  const DType dtype = dtype_of_v<T>;
  const EagerTensor tx = rt->upload(Tensor::from_col_major<T>({n}, std::span<const T>(xs)));
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  std::vector<T> values;
  for (R v : {R(3), R(-0.0), R(0), inf, nan, std::numeric_limits<R>::min(), R(-2.5)}) {
    if constexpr (prims_cpu::kIsComplex<T>) {
      values.emplace_back(v, R(0));
      values.emplace_back(R(1.5), v);
    } else {
      values.push_back(v);
    }
  }
  using Kernel = EagerTensor (*)(const EagerTensor&, const EagerTensor&);
  struct Case {
    const char* name;
    Kernel kernel;
    T (*rule)(T, T);
  };
  std::vector<Case> cases = {{"add", &prims::add, [](T a, T b) { return T(a + b); }},
                             {"sub", &prims::sub, [](T a, T b) { return T(a - b); }},
                             {"mul", &prims::mul, [](T a, T b) { return T(a * b); }},
                             {"div", &prims::div, [](T a, T b) {
                                if constexpr (prims_cpu::kIsComplex<T>)
                                  return prims_cpu::complex_quotient(a, b);
                                else
                                  return T(a / b);
                              }}};
  if constexpr (!prims_cpu::kIsComplex<T>) {
    cases.push_back(
        {"maximum", &prims::maximum, [](T a, T b) { return prims_cpu::nan_max(a, b); }});
    cases.push_back(
        {"minimum", &prims::minimum, [](T a, T b) { return prims_cpu::nan_min(a, b); }});
    cases.push_back({"less", &prims::less, [](T a, T b) { return a < b ? T(1) : T(0); }});
    cases.push_back(
        {"not_equal", &prims::not_equal, [](T a, T b) { return a != b ? T(1) : T(0); }});
  }
  const auto same = [](T got, T want) {
    if constexpr (prims_cpu::kIsComplex<T>) {
      return same_value(got.real(), want.real()) && same_value(got.imag(), want.imag());
    } else {
      return same_value(got, want);
    }
  };
  for (const T v : values) {
    const EagerTensor tv = prims::full(rt, dtype, {}, v);
    for (const Case& k : cases) {
      for (bool value_first : {false, true}) {
        const std::vector<T> got =
            (value_first ? k.kernel(tv, tx) : k.kernel(tx, tv)).download().template to_vector<T>();
        std::size_t bad = 0;
        for (std::size_t i = 0; i < xs.size(); ++i) {
          const T want = value_first ? k.rule(v, xs[i]) : k.rule(xs[i], v);
          if (!same(got[i], want) && bad++ < 3)
            ADD_FAILURE() << k.name << (value_first ? " value first " : " value second ") << v
                          << " with " << xs[i] << ": got " << got[i] << ", want " << want;
        }
        EXPECT_EQ(bad, 0u) << k.name << " " << v;
      }
    }
    if constexpr (!prims_cpu::kIsComplex<T>) {
      const std::vector<T> got = prims::pow(tx, tv).download().template to_vector<T>();
      for (std::size_t i = 0; i < xs.size(); ++i)
        ASSERT_LE(ulp_distance(got[i], std::pow(xs[i], v)), 4u) << "pow " << xs[i] << " ^ " << v;
    }
  }
}
TEST(PrimsSimdArith, BroadcastValueOperandsFloat32) {
  check_broadcast_value_operands<float>();
}
TEST(PrimsSimdArith, BroadcastValueOperandsFloat64) {
  check_broadcast_value_operands<double>();
}
TEST(PrimsSimdArith, BroadcastValueOperandsComplex64) {
  check_broadcast_value_operands<std::complex<float>>();
}
TEST(PrimsSimdArith, BroadcastValueOperandsComplex128) {
  check_broadcast_value_operands<std::complex<double>>();
}

// |z| of complex values: the vector kernel, with the scalar rule redone where it says a value
// was outside its formula's range, gives complex_magnitude's bits; and complex_magnitude is
// within 2 ulp of std::abs (hypot; complex64, whose root is a float one: 1), infinities over
// NaNs included. Parts log-spaced over the
// whole range (overflowing and underflowing squares), the specials, every tail length.
template <class R>
void check_complex_abs() {
  using Z = std::complex<R>;
  std::vector<R> parts = specials<R>();
  std::uint64_t lcg = 9;
  const double max_exp = sizeof(R) == 4 ? 38.0 : 307.0;
  for (int i = 0; i < 400; ++i) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(lcg >> 11) / 9007199254740992.0;
    parts.push_back(static_cast<R>((i % 2 ? -1 : 1) * std::pow(10.0, (2 * u - 1) * max_exp)));
  }
  std::vector<Z> zs;
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (std::size_t j = 0; j < parts.size(); j += 3)
      zs.emplace_back(parts[i], parts[(i * 5 + j) % parts.size()]);
  const auto n = static_cast<std::int64_t>(zs.size());
  std::size_t far = 0;
  for (const Z& z : zs)
    far += ulp_distance(prims_cpu::complex_magnitude(z), std::abs(z)) > (sizeof(R) == 4 ? 1 : 2)
               ? 1
               : 0;
  EXPECT_EQ(far, 0u) << "complex_magnitude beyond 2 ulp of std::abs";
  for (Isa isa : vector_isas()) {
    for (std::int64_t start : {0, 1}) {
      for (std::int64_t len : {n - start, std::int64_t{0}, std::int64_t{1}, std::int64_t{3},
                               std::int64_t{5}, std::int64_t{9}, std::int64_t{17}}) {
        std::vector<R> y(static_cast<std::size_t>(len) + 1, R(-7));
        bool outside = false;
        ASSERT_TRUE(simd::complex_abs(isa, reinterpret_cast<const R*>(zs.data() + start), y.data(),
                                      len, outside));
        std::size_t bad = 0;
        bool any_outside = false;
        for (std::int64_t i = 0; i < len; ++i) {
          const Z z = zs[static_cast<std::size_t>(start + i)];
          const R want = prims_cpu::complex_magnitude(z);
          const double m = std::max(std::fabs(static_cast<double>(z.real())),
                                    std::fabs(static_cast<double>(z.imag())));
          const double sum =
              static_cast<double>(z.real()) * z.real() + static_cast<double>(z.imag()) * z.imag();
          const bool in_range =
              sizeof(R) == 4
                  ? std::isfinite(sum) && (sum == 0 || (sum >= prims_cpu::kMagnitude32SumLow &&
                                                        sum < prims_cpu::kMagnitude32SumHigh))
                  : std::isfinite(m) &&
                        (m == 0 || (m > prims_cpu::kMagnitudeLow && m < prims_cpu::kMagnitudeHigh));
          any_outside = any_outside || !in_range;
          if (in_range && !same_value(y[static_cast<std::size_t>(i)], want) && bad++ < 3)
            ADD_FAILURE() << isa_name(isa) << " |" << z << "| gave "
                          << y[static_cast<std::size_t>(i)] << ", want " << want;
        }
        EXPECT_EQ(bad, 0u) << isa_name(isa);
        EXPECT_EQ(outside, any_outside) << isa_name(isa) << " start " << start << " len " << len;
        EXPECT_EQ(y[static_cast<std::size_t>(len)], R(-7)) << "wrote past the end, len " << len;
      }
    }
  }
  // Through prims::abs: the scalar rule's bits everywhere (the kernel's caller redoes the rest).
  auto rt = EagerRuntime::cpu();
  const EagerTensor magnitudes =
      prims::abs(rt->upload(Tensor::from_col_major<Z>({n}, std::span<const Z>(zs))));
  const std::vector<R> got = magnitudes.download().to_vector<R>();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < zs.size(); ++i)
    bad += same_value(got[i], prims_cpu::complex_magnitude(zs[i])) ? 0 : 1;
  EXPECT_EQ(bad, 0u) << "prims::abs differs from the scalar rule";
}

TEST(PrimsSimdArith, ComplexMagnitudeComplex64) {
  check_complex_abs<float>();
}
TEST(PrimsSimdArith, ComplexMagnitudeComplex128) {
  check_complex_abs<double>();
}

// pow against std::pow: a grid of bases and exponents (negative bases with integer and
// non-integer exponents, overflow and underflow, subnormal results) and every pair of the
// special values (C99's cases: pow(x, +-0) = 1, pow(1, y) = 1 even for NaN, pow(-1, +-inf) = 1,
// signed zeros and infinities), within 4 ulp.
template <class R>
void check_pow() {
  std::vector<R> a, b;
  std::vector<R> bases = specials<R>(), exponents = specials<R>();
  for (R e : {R(3), R(-3), R(2.5), R(-0.5), R(1e-3), R(127), R(-149), R(1023), R(-1074)})
    exponents.push_back(e);
  for (R x : bases)
    for (R y : exponents) {
      a.push_back(x);
      b.push_back(y);
    }
  std::uint64_t lcg = 5;
  const auto next = [&] {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(lcg >> 11) / 9007199254740992.0;
  };
  const double max_exp = sizeof(R) == 4 ? 38.0 : 307.0;
  for (int i = 0; i < 200'000; ++i) {
    // |a| log-uniform over the finite range; b such that a^b spans under- to overflow.
    const double mag = std::pow(10.0, (2 * next() - 1) * max_exp);
    const R x = static_cast<R>(next() < 0.2 ? -mag : mag);
    const bool integer = next() < 0.3;
    double y = (2 * next() - 1) *
               (next() < 0.5 ? 4.0 : 1.2 * max_exp / std::max(1.0, std::fabs(std::log10(mag))));
    if (integer) y = std::round(y);
    a.push_back(x);
    b.push_back(static_cast<R>(y));
  }
  for (Isa isa : vector_isas()) {
    std::vector<R> y(a.size());
    ASSERT_TRUE(simd::binary(isa, Op::Pow, a.data(), b.data(), y.data(),
                             static_cast<std::int64_t>(a.size())));
    std::size_t bad = 0;
    std::ostringstream first;
    first.precision(std::numeric_limits<R>::max_digits10);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const R want = std::pow(a[i], b[i]);
      if (ulp_distance(y[i], want) <= 4) continue;
      if (bad++ < 5)
        first << "  pow(" << a[i] << ", " << b[i] << ") got=" << y[i] << " want=" << want << "\n";
    }
    EXPECT_EQ(bad, 0u) << "pow on " << isa_name(isa) << " (" << (sizeof(R) == 4 ? "f32" : "f64")
                       << "): " << bad << " of " << a.size() << " beyond 4 ulp\n"
                       << first.str();
  }
}

TEST(PrimsSimdArith, PowWithinFourUlpOfLibmFloat32) {
  check_pow<float>();
}
TEST(PrimsSimdArith, PowWithinFourUlpOfLibmFloat64) {
  check_pow<double>();
}

// pow against the correctly rounded result, float(pow(double(x), double(y))) for float32 and
// double(powl(x, y)) for float64 (glibc's pow and powl are correctly rounded in practice, and
// the rounding that follows can miss by 1 ulp only within 2^-29 (2^-11) of a rounding
// boundary): bases spread evenly over the positive normal bit patterns, and bases within 2^12
// ulp of 1 (where ln x is small and y large), each with an exponent that keeps |y log2 x| <=
// 150 (float32) or 1000 (float64): results from the subnormals to near the largest finite.
// Every result is within 1 ulp, and few miss the correct rounding: the AVX-512 kernels are
// ours, float32's float64 arithmetic within ~1e-10 relative, float64's ln x within ~2^-62
// (gen-pow-tables.py), so a miss needs the exact value that close to a boundary (in float32, a
// polynomial one degree shorter or a log2 table entry off by 2^-30 raises the count past the
// bound while every result is still within 1 ulp).
template <class R>
void check_pow_rounding(std::size_t avx512_misses_per_million) {
  using Wide = std::conditional_t<sizeof(R) == 4, double, long double>;
  using U = Bits<R>;
  constexpr bool f32 = sizeof(R) == 4;
  const U one = std::bit_cast<U>(R(1)), smallest = std::bit_cast<U>(std::numeric_limits<R>::min());
  const U largest = std::bit_cast<U>(std::numeric_limits<R>::max());
  const double t_max = f32 ? 150.0 : 1000.0;
  std::vector<R> a, b;
  std::uint64_t lcg = 11;
  const auto next = [&] {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(lcg >> 11) / 9007199254740992.0;
  };
  const auto push = [&](R x) {
    const double reach = t_max / std::max(std::fabs(std::log2(static_cast<double>(x))), 1e-12);
    a.push_back(x);
    b.push_back(static_cast<R>((2 * next() - 1) * std::min(reach, 1e9)));
  };
  const U stride = (largest - smallest) / 2'000'000;
  for (U bits = smallest; bits <= largest - stride; bits += stride) push(std::bit_cast<R>(bits));
  for (U d = 1; d <= 4096; ++d) {
    push(std::bit_cast<R>(static_cast<U>(one + d)));
    push(std::bit_cast<R>(static_cast<U>(one - d)));
  }
  // Exact results within 2 ulp of the overflow threshold (the largest finite value plus half an
  // ulp) and of the underflow one (half the smallest subnormal), for bases just above 1.0234, where
  // ln x is least accurate relative to itself: the float64 kernel gave DBL_MAX where the exact
  // value was DBL_MAX + 0.68 ulp (libm: inf). A y rounded to R moves y ln x by hundreds of
  // ulps of the result, so candidates are drawn until enough land that close.
  const auto ulp_of_result = [](Wide v) { return std::ldexp(v, f32 ? -23 : -52); };
  const Wide overflow =
      Wide{std::numeric_limits<R>::max()} + ulp_of_result(Wide{std::numeric_limits<R>::max()}) / 2;
  const Wide underflow = Wide{std::numeric_limits<R>::denorm_min()} / 2;
  const U near_1_0234 = std::bit_cast<U>(R(1.0234375));
  for (const Wide edge : {overflow, underflow}) {
    const Wide spread =
        edge == overflow ? ulp_of_result(edge) : Wide{std::numeric_limits<R>::denorm_min()};
    std::size_t found = 0;
    for (int i = 0; found < 1000 && i < 2'000'000; ++i) {
      const R x = std::bit_cast<R>(
          static_cast<U>(near_1_0234 + static_cast<U>(next() * (f32 ? 0x1p12 : 0x1p40))));
      const R y = static_cast<R>(std::log(edge) / std::log(Wide{x}));
      if (std::fabs(std::pow(Wide{x}, Wide{y}) - edge) > 2 * spread) continue;
      a.push_back(x);
      b.push_back(y);
      ++found;
    }
    ASSERT_EQ(found, 1000u) << "too few pairs near the " << (edge == overflow ? "over" : "under")
                            << "flow threshold";
  }
  for (Isa isa : vector_isas()) {
    std::vector<R> y(a.size());
    ASSERT_TRUE(simd::binary(isa, Op::Pow, a.data(), b.data(), y.data(),
                             static_cast<std::int64_t>(a.size())));
    std::size_t off = 0, far = 0;
    std::ostringstream first;
    first.precision(std::numeric_limits<R>::max_digits10);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const R want = static_cast<R>(std::pow(Wide{a[i]}, Wide{b[i]}));
      const std::uint64_t d = ulp_distance(y[i], want);
      off += d != 0;
      // Finite where the result overflows (or the other way round) counts as far whatever the
      // bit distance (0 for the smallest subnormal is 1 ulp, as the bits say: SLEEF's gives it).
      const bool same_kind = std::isinf(y[i]) == std::isinf(want);
      if (d <= 1 && same_kind) continue;
      if (far++ < 5)
        first << "  pow(" << a[i] << ", " << b[i] << ") got=" << y[i] << " want=" << want << "\n";
    }
    const char* dtype = f32 ? "float32" : "float64";
    EXPECT_EQ(far, 0u) << dtype << " on " << isa_name(isa) << ": " << far << " of " << a.size()
                       << " more than 1 ulp from the correctly rounded result\n"
                       << first.str();
    std::printf("pow %s on %s: %zu of %zu not correctly rounded\n", dtype, isa_name(isa), off,
                a.size());
    // AVX2 runs SLEEF's, whose bound is 1 ulp (float32: 1.8% of these miss the rounding).
    if (isa == Isa::Avx512) {
      EXPECT_LE(off, a.size() * avx512_misses_per_million / 1'000'000)
          << "the AVX-512 " << dtype << " pow lost accuracy (a polynomial or table constant)";
    }
  }
}

// The bounds: 4x the misses when the kernels were written (float32 152 of 2.0 million;
// float64 14 208, where SLEEF's misses 32 873; float64 missed 25% before exp's table got its
// low parts, and some results were 2-9 ulp off before ln x kept rl's share to the cubic term).
TEST(PrimsSimdArith, PowFloat32IsWithinOneUlpOfTheCorrectlyRoundedResult) {
  check_pow_rounding<float>(300);
}
TEST(PrimsSimdArith, PowFloat64IsWithinOneUlpOfTheCorrectlyRoundedResult) {
  check_pow_rounding<double>(28'000);
}

}  // namespace
}  // namespace tenferro::prims_test
