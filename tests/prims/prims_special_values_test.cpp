// IEEE special values through the comparison, selection and division prims, on every runtime
// kind (CPU; WebGPU and CUDA when present): +-0, +-inf, NaN, subnormals and the extremes of each
// dtype. The expected values are the C++ built-in operators on the same values, written out
// here (never through a tenferro kernel); comparisons and selection are checked bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsSpecialValues : public PrimsRuntimeTest {
 protected:
  template <class R>
  void check_scalar_division(DType d);
};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsSpecialValues);

// The special values of one real dtype, exactly representable in it.
template <class R>
std::vector<double> specials_of() {
  using L = std::numeric_limits<R>;
  return {0.0,
          -0.0,
          1.0,
          -1.0,
          0.5,
          3.0,
          kInf,
          -kInf,
          kNaN,
          static_cast<double>(L::denorm_min()),
          -static_cast<double>(L::denorm_min()),
          static_cast<double>(L::min()),
          static_cast<double>(L::max()),
          -static_cast<double>(L::max())};
}
std::vector<double> specials(DType d) {
  return is_double(d) ? specials_of<double>() : specials_of<float>();
}

// a (op) b by the built-in operators of R, the operands' precision.
template <class R>
bool compare_ref(const std::string& op, R a, R b) {
  if (op == "greater") return a > b;
  if (op == "greater_equal") return a >= b;
  if (op == "less") return a < b;
  if (op == "less_equal") return a <= b;
  if (op == "equal") return a == b;
  return a != b;
}

using CompareFn = EagerTensor (*)(const EagerTensor&, const EagerTensor&);
struct CompareRow {
  std::string name;
  CompareFn fn;
};
const std::vector<CompareRow>& compare_rows() {
  static const std::vector<CompareRow> rows = {
      {"greater", &prims::greater}, {"greater_equal", &prims::greater_equal},
      {"less", &prims::less},       {"less_equal", &prims::less_equal},
      {"equal", &prims::equal},     {"not_equal", &prims::not_equal},
  };
  return rows;
}

// Every pair of specials: a as a column [n, 1], b as a row [1, n] (broadcast to [n, n]).
TEST_P(PrimsSpecialValues, RealComparisonsFollowIeeeOnEveryPair) {
  for (DType d : {DType::F32, DType::F64}) {
    if (!runs(d)) continue;
    const std::vector<double> s = specials(d);
    const auto n = static_cast<std::int64_t>(s.size());
    std::vector<C> sv(s.begin(), s.end());
    const Ref a = make_ref(d, {n, 1}, sv), b = make_ref(d, {1, n}, sv);
    const EagerTensor ta = up(a), tb = up(b);
    for (const CompareRow& row : compare_rows()) {
      SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)));
      const Ref got = down(row.fn(ta, tb));
      const Ref want = binary_ref(a, b, d, [&](C x, C y) {
        const bool r = d == DType::F32 ? compare_ref<float>(row.name, static_cast<float>(x.real()),
                                                            static_cast<float>(y.real()))
                                       : compare_ref<double>(row.name, x.real(), y.real());
        return C(r ? 1.0 : 0.0, 0.0);
      });
      EXPECT_TRUE(identical(got, want));
    }
  }
}

TEST_P(PrimsSpecialValues, ComplexEqualityComparesBothParts) {
  for (DType d : {DType::C32, DType::C64}) {
    if (!runs(d)) continue;
    const DType r = real_dtype(d);
    const std::vector<double> parts = {0.0,  -0.0, 1.0,
                                       kInf, kNaN, is_double(d) ? 4.9e-324 : 1.4e-45};
    std::vector<C> sv;
    for (double re : parts)
      for (double im : parts) sv.emplace_back(re, im);
    const auto n = static_cast<std::int64_t>(sv.size());
    const Ref a = make_ref(d, {n, 1}, sv), b = make_ref(d, {1, n}, sv);
    const EagerTensor ta = up(a), tb = up(b);
    for (bool eq : {true, false}) {
      SCOPED_TRACE(std::string(eq ? "equal " : "not_equal ") + std::string(dtype_name(d)));
      const Ref got = down(eq ? prims::equal(ta, tb) : prims::not_equal(ta, tb));
      const Ref want = binary_ref(a, b, r, [&](C x, C y) {
        const bool same = x.real() == y.real() && x.imag() == y.imag();
        return C(same == eq ? 1.0 : 0.0, 0.0);
      });
      EXPECT_TRUE(identical(got, want));
    }
    // Complex numbers have no order here: a typed refusal before any kernel runs.
    EXPECT_TRUE(
        throws_kind([&] { prims::greater(ta, tb); }, ErrorKind::Validation, {"greater", "real"}));
    EXPECT_TRUE(throws_kind([&] { prims::less_equal(ta, tb); }, ErrorKind::Validation));
  }
}

TEST_P(PrimsSpecialValues, ComparisonsPromoteAndGiveTheRealDtype) {
  // 0.1f and 0.1 differ once both are F64: equal must see the promoted values.
  if (!runs(DType::F64)) GTEST_SKIP() << "needs F64";
  const EagerTensor a = up(make_ref(DType::F32, {1}, {0.1}));
  const EagerTensor b = up(make_ref(DType::F64, {1}, {0.1}));
  const Ref got = down(prims::equal(a, b));
  EXPECT_EQ(got.dtype, DType::F64);
  EXPECT_EQ(got.v.at(0), C(0.0, 0.0));
  const Ref mixed = down(prims::not_equal(up(make_ref(DType::C64, {1}, {C(1, 0)})),
                                          up(make_ref(DType::F32, {1}, {1.0}))));
  EXPECT_EQ(mixed.dtype, DType::F64);
  EXPECT_EQ(mixed.v.at(0), C(0.0, 0.0));
}

bool nonzero_ref(C c) {
  return c.real() != 0.0 || c.imag() != 0.0 || std::isnan(c.real()) || std::isnan(c.imag());
}

// cond [m, 1], x [1, k], y [m, k]: every special condition against every special branch pair;
// the result must be the chosen branch bit for bit (signed zeros included), never a mix.
TEST_P(PrimsSpecialValues, WherePicksTheBranchBitForBit) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(std::string(dtype_name(d)));
    const std::vector<double> s = specials(real_dtype(d));
    std::vector<C> conds(s.begin(), s.end());
    std::vector<C> xs, ys;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double im = is_complex(d) ? s[(i + 3) % s.size()] : 0.0;
      xs.emplace_back(s[i], im);
    }
    const auto m = static_cast<std::int64_t>(conds.size());
    const auto k = static_cast<std::int64_t>(xs.size());
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < k; ++j) {
        // y[i, j] (column-major k = i + m j): a value unlike x's, Inf/NaN included.
        const auto idx = static_cast<std::size_t>((i * 5 + j * 7) % k);
        ys.push_back(C(s[idx], is_complex(d) ? -s[idx] : 0.0));
      }
    const Ref c = make_ref(d, {m, 1}, conds), x = make_ref(d, {1, k}, xs),
              y = make_ref(d, {m, k}, ys);
    const Ref got = down(prims::where(up(c), up(x), up(y)));
    Ref want{d, {m, k}, {}};
    for (std::int64_t j = 0; j < k; ++j)
      for (std::int64_t i = 0; i < m; ++i)
        want.v.push_back(nonzero_ref(c.v[static_cast<std::size_t>(i)])
                             ? x.v[static_cast<std::size_t>(j)]
                             : y.v[static_cast<std::size_t>(i + m * j)]);
    // The loop above runs j outer, i inner: column-major over [m, k].
    EXPECT_TRUE(identical(got, want));
  }
}

TEST_P(PrimsSpecialValues, WhereWithAComplexConditionAndRealBranchesStaysReal) {
  const DType cd = runs(DType::C64) ? DType::C64 : DType::C32;
  const Ref c = make_ref(cd, {4}, {C(0, 0), C(0, 1), C(-0.0, -0.0), C(kNaN, 0)});
  const Ref x = make_ref(DType::F32, {4}, {1, 2, 3, 4});
  const Ref y = make_ref(DType::F32, {4}, {kInf, kNaN, -kInf, kNaN});
  const Ref got = down(prims::where(up(c), up(x), up(y)));
  EXPECT_TRUE(identical(got, make_ref(DType::F32, {4}, {kInf, 2, -kInf, 4})));
}

TEST_P(PrimsSpecialValues, ClassificationsMatchStdOnSpecials) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(std::string(dtype_name(d)));
    const std::vector<double> s = specials(real_dtype(d));
    std::vector<C> v;
    for (std::size_t i = 0; i < s.size(); ++i) {
      v.emplace_back(s[i], is_complex(d) ? s[(i * 5 + 2) % s.size()] : 0.0);
    }
    const Ref x = make_ref(d, {static_cast<std::int64_t>(v.size())}, v);
    const EagerTensor tx = up(x);
    const DType r = real_dtype(d);
    const auto flag = [](bool b) { return C(b ? 1.0 : 0.0, 0.0); };
    EXPECT_TRUE(identical(down(prims::isfinite(tx)), unary_ref(x, r, [&](C z) {
                            return flag(std::isfinite(z.real()) && std::isfinite(z.imag()));
                          })));
    EXPECT_TRUE(identical(down(prims::isnan(tx)), unary_ref(x, r, [&](C z) {
                            return flag(std::isnan(z.real()) || std::isnan(z.imag()));
                          })));
    EXPECT_TRUE(identical(down(prims::isinf(tx)), unary_ref(x, r, [&](C z) {
                            return flag(std::isinf(z.real()) || std::isinf(z.imag()));
                          })));
  }
}

// A division result against the same division in R: NaN, infinities, zeros (with their sign)
// exactly; finite nonzero values within 4 ulp (WGSL bounds f32 division by 2.5 ulp; the CPU and
// CUDA kernels round once, so they agree exactly).
template <class R>
::testing::AssertionResult division_matches(const Ref& got, const std::vector<R>& want) {
  if (got.v.size() != want.size()) return ::testing::AssertionFailure() << "size mismatch";
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double g = got.v[i].real(), w = static_cast<double>(want[i]);
    bool ok;
    if (std::isnan(w) || !std::isfinite(w) || w == 0.0) {
      ok = (std::isnan(w) && std::isnan(g)) || (g == w && std::signbit(g) == std::signbit(w));
    } else {
      ok = std::abs(g - w) <= 4.0 * std::numeric_limits<R>::epsilon() * std::abs(w);
    }
    if (!ok || got.v[i].imag() != 0.0) {
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << fmt(got.v[i]) << ", expected " << w;
    }
  }
  return ::testing::AssertionSuccess();
}

template <class R>
void PrimsSpecialValues::check_scalar_division(DType d) {
  const std::vector<double> s = specials_of<R>();
  const Ref x = make_ref(d, {static_cast<std::int64_t>(s.size())}, {s.begin(), s.end()});
  const EagerTensor tx = up(x);
  const double tiny = static_cast<double>(std::numeric_limits<R>::denorm_min()) * 3;
  for (double v : {0.0, -0.0, kInf, -kInf, kNaN, 3.0, -0.5, tiny}) {
    SCOPED_TRACE("v = " + fmt(C(v, 0)) + " " + std::string(dtype_name(d)));
    const R rv = static_cast<R>(v);
    std::vector<R> quotient, reflected;
    for (double e : s) {
      quotient.push_back(static_cast<R>(e) / rv);
      reflected.push_back(rv / static_cast<R>(e));
    }
    const Ref q = down(prims::div(tx, prims::Scalar(v)));
    EXPECT_EQ(q.dtype, d) << "a real scalar must keep the real dtype";
    EXPECT_TRUE(division_matches(q, quotient));
    EXPECT_TRUE(division_matches(down(tx / prims::Scalar(v)), quotient));
    const Ref r = down(prims::div(prims::Scalar(v), tx));
    EXPECT_EQ(r.dtype, d);
    EXPECT_TRUE(division_matches(r, reflected));
  }
}

TEST_P(PrimsSpecialValues, DivisionByAScalarIsIeeeAndStaysReal) {
  if (runs(DType::F32)) check_scalar_division<float>(DType::F32);
  if (runs(DType::F64)) check_scalar_division<double>(DType::F64);
}

TEST_P(PrimsSpecialValues, DivisionByATinyScalarDoesNotOverflowItsReciprocal) {
  if (!runs(DType::F64)) GTEST_SKIP() << "needs F64 (1e-310 is an F64 subnormal)";
  // 1 / 1e-310 overflows; 1e-300 / 1e-310 = 1e10 does not.
  const Ref got = down(prims::div(up(make_ref(DType::F64, {1}, {1e-300})), prims::Scalar(1e-310)));
  EXPECT_EQ(got.dtype, DType::F64);
  EXPECT_NEAR(got.v.at(0).real(), 1e-300 / 1e-310, 1e-5);
}

TEST_P(PrimsSpecialValues, DivisionByAComplexScalarPromotesARealTensor) {
  const EagerTensor x = up(make_ref(DType::F32, {2}, {1.0, -2.0}));
  const Ref got = down(prims::div(x, prims::Scalar(0.0, 2.0)));
  EXPECT_EQ(got.dtype, DType::C32);
  EXPECT_TRUE(close(got, make_ref(DType::C32, {2}, {C(0, -0.5), C(0, 1)}), tol_for(DType::C32)));
}

// A complex quotient by a real divisor (imaginary part zero) is part by part where the general
// rule's products overflow or meet inf * 0: (1 + 1e308i) / 0.5 gave NaN + inf i, NumPy 2 + inf i.
// Contiguous (the vector kernels) and strided (the scalar loops) operands agree.
TEST_P(PrimsSpecialValues, ComplexQuotientsByARealDivisorHaveNoSpuriousNaN) {
  for (DType d : {DType::C32, DType::C64}) {
    if (!runs(d)) continue;
    SCOPED_TRACE(std::string(dtype_name(d)));
    const double big = is_double(d) ? 1e308 : 3e38;
    const std::vector<C> num = {C(1, big), C(big, 1), C(-big, -big), C(big, big), C(3, 4)};
    const std::vector<C> den = {C(0.5, 0), C(0.5, -0.0), C(0.25, 0), C(-0.125, 0), C(2, 0)};
    const std::int64_t n = static_cast<std::int64_t>(num.size());
    // Each value twice, as a column-major [2, n]: its row 0 is a view with stride 2.
    std::vector<C> num2, den2;
    for (std::size_t i = 0; i < num.size(); ++i) {
      num2.insert(num2.end(), {num[i], num[i]});
      den2.insert(den2.end(), {den[i], den[i]});
    }
    const std::vector<prims::Slice> row0 = {prims::Slice{0, 1, 1}};
    const Ref dense = down(prims::div(up(make_ref(d, {n}, num)), up(make_ref(d, {n}, den))));
    const Ref strided = down(prims::div(prims::slice(up(make_ref(d, {2, n}, num2)), row0),
                                        prims::slice(up(make_ref(d, {2, n}, den2)), row0)));
    for (std::int64_t i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      // Part by part in the dtype's precision (the exact quotient by a real number, rounded).
      const double re = is_double(d) ? num[u].real() / den[u].real()
                                     : static_cast<float>(static_cast<float>(num[u].real()) /
                                                          static_cast<float>(den[u].real()));
      const double im = is_double(d) ? num[u].imag() / den[u].real()
                                     : static_cast<float>(static_cast<float>(num[u].imag()) /
                                                          static_cast<float>(den[u].real()));
      for (const C g : {dense.v[u], strided.v[u]}) {
        EXPECT_FALSE(std::isnan(g.real()) || std::isnan(g.imag()))
            << num[u] << " / " << den[u] << " = " << g;
        EXPECT_EQ(g.real(), re) << num[u] << " / " << den[u] << " = " << g;
        EXPECT_EQ(g.imag(), im) << num[u] << " / " << den[u] << " = " << g;
      }
    }
  }
}

// An infinite numerator over a real divisor keeps the general rule's result on every backend,
// as NumPy's: (inf + 1i) / 2 = inf + NaN i (the repair above is for finite numerators only).
TEST_P(PrimsSpecialValues, ComplexQuotientsOfAnInfiniteNumeratorAreNumPys) {
  for (DType d : {DType::C32, DType::C64}) {
    if (!runs(d)) continue;
    SCOPED_TRACE(std::string(dtype_name(d)));
    const Ref got = down(prims::div(up(make_ref(d, {2}, {C(kInf, 1), C(1, kInf)})),
                                    up(make_ref(d, {2}, {C(2, 0), C(2, 0)}))));
    EXPECT_TRUE(std::isinf(got.v[0].real()) && std::isnan(got.v[0].imag())) << got.v[0];
    EXPECT_TRUE(std::isnan(got.v[1].real()) && std::isinf(got.v[1].imag())) << got.v[1];
  }
}

// NumPy 2's sign of a complex value: z/|z|, an infinite part giving the direction whatever the
// other part (NaN included), two infinite parts or a NaN part NaN, and no overflow or lost
// digits at the dtype's extremes (complex infinities gave NaN; 3e38 + 3e38i in complex64 gave
// 0). The expected values: NumPy 2.4's, and z/|z| in long double for the finite ones.
TEST_P(PrimsSpecialValues, ComplexSignFollowsNumPyAtInfinitiesAndExtremes) {
  for (DType d : {DType::C32, DType::C64}) {
    if (!runs(d)) continue;
    SCOPED_TRACE(std::string(dtype_name(d)));
    const bool wide = is_double(d);
    const double big = wide ? 1.5e308 : 3e38;
    // Subnormal parts, but not on WebGPU, which may flush them to zero (WGSL allows it).
    const bool subnormals = kind() != RuntimeKind::WebGpu;
    const double tiny = wide ? 3e-320 : 3e-44;
    std::vector<C> in = {C(kInf, 0),    C(0, kInf),       C(-kInf, 1),   C(1, -kInf),
                         C(kInf, kNaN), C(kNaN, -kInf),   C(kInf, kInf), C(-kInf, kInf),
                         C(kNaN, 0),    C(0, kNaN),       C(0, 0),       C(-0.0, 0.0),
                         C(big, big),   C(-big, big / 4), C(3, -4),      C(0, -2)};
    if (subnormals) in.push_back(C(tiny, tiny / 3));
    const std::vector<C> special = {C(1, 0),       C(0, 1),       C(-1, 0),      C(0, -1),
                                    C(1, 0),       C(0, -1),      C(kNaN, kNaN), C(kNaN, kNaN),
                                    C(kNaN, kNaN), C(kNaN, kNaN), C(0, 0),       C(0, 0)};
    const Ref got = down(prims::sign(up(make_ref(d, {static_cast<std::int64_t>(in.size())}, in))));
    ASSERT_EQ(got.v.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      const C g = got.v[i];
      if (i < special.size()) {
        const C w = special[i];
        const bool ok = (std::isnan(w.real()) ? std::isnan(g.real()) : g.real() == w.real()) &&
                        (std::isnan(w.imag()) ? std::isnan(g.imag()) : g.imag() == w.imag());
        EXPECT_TRUE(ok) << "sign(" << in[i] << ") = " << g << ", NumPy gives " << w;
        continue;
      }
      // The input as the dtype holds it, then z/|z| in long double.
      const long double re = wide ? in[i].real() : static_cast<float>(in[i].real());
      const long double im = wide ? in[i].imag() : static_cast<float>(in[i].imag());
      const long double m = std::sqrt(re * re + im * im);
      const double tol = wide ? 4e-16 : 4e-7;
      EXPECT_NEAR(g.real(), static_cast<double>(re / m), tol) << "sign(" << in[i] << ") = " << g;
      EXPECT_NEAR(g.imag(), static_cast<double>(im / m), tol) << "sign(" << in[i] << ") = " << g;
    }
  }
}

}  // namespace
}  // namespace tenferro::prims_test
