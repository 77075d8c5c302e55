// NumPy-semantics tables for the element-wise prims (unary, binary with broadcasting and
// promotion, the scalar forms and the operators), run on every runtime kind available. The
// expected values come from prims_reference.hpp: plain loops on std::complex<double>.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsElementwise : public PrimsRuntimeTest {};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsElementwise);

// --- Unary ---------------------------------------------------------------------------------

struct UnaryRow {
  std::string name;
  std::function<EagerTensor(const EagerTensor&)> op;
  // NumPy's value for one element; `cplx` says whether the dtype is complex.
  std::function<C(C, bool cplx)> ref;
  bool to_real = false;  // complex in, real dtype out (abs/real/imag)
  // Inputs the row leaves out (values where NumPy and C disagree or the result is unspecified).
  std::function<bool(C, bool cplx)> skip = [](C, bool) { return false; };
  bool real_only = false;  // no complex dtype (RealOnlyOpsRefuseComplex checks the refusal)
};

// A real-only row: libm's function of the real part.
UnaryRow real_row(std::string name, EagerTensor (*op)(const EagerTensor&), double (*f)(double)) {
  UnaryRow row{std::move(name), op, [f](C z, bool) { return C(f(z.real()), 0.0); }};
  row.real_only = true;
  return row;
}

// Independent references for the complex expm1 and log1p: their Taylor series inside |z| < 1/2
// (where exp(z) - 1 and log(1 + z) lose the digits of a small z), the plain forms outside.
C series_expm1(C z) {
  if (std::abs(z) >= 0.5 || has_nan(z)) return std::exp(z) - 1.0;
  C term = z, sum = 0.0;
  for (int k = 2; k < 40; ++k) {
    sum += term;
    term *= z / static_cast<double>(k);
  }
  return sum;
}
C series_log1p(C z) {
  if (std::abs(z) >= 0.5 || has_nan(z)) return std::log(1.0 + z);
  C power = z, sum = 0.0;
  for (int k = 1; k < 70; ++k) {
    sum += (k % 2 ? 1.0 : -1.0) * power / static_cast<double>(k);
    power *= z;
  }
  return sum;
}

double real_sqrt(double x) {
  return std::sqrt(x);  // NaN below 0 (and -0 stays -0), as NumPy
}

std::vector<UnaryRow> unary_rows() {
  return {
      {"neg", [](const EagerTensor& x) { return prims::neg(x); }, [](C z, bool) { return -z; }},
      {"conj", [](const EagerTensor& x) { return prims::conj(x); },
       [](C z, bool) { return std::conj(z); }},
      {"abs", [](const EagerTensor& x) { return prims::abs(x); },
       [](C z, bool) { return C(std::abs(z), 0.0); }, true},
      {"real", [](const EagerTensor& x) { return prims::real(x); },
       [](C z, bool) { return C(z.real(), 0.0); }, true},
      {"imag", [](const EagerTensor& x) { return prims::imag(x); },
       [](C z, bool) { return C(z.imag(), 0.0); }, true},
      {"sqrt", [](const EagerTensor& x) { return prims::sqrt(x); },
       [](C z, bool cplx) { return cplx ? std::sqrt(z) : C(real_sqrt(z.real()), 0.0); }},
      {"exp", [](const EagerTensor& x) { return prims::exp(x); },
       [](C z, bool cplx) { return cplx ? std::exp(z) : C(std::exp(z.real()), 0.0); }},
      {"log", [](const EagerTensor& x) { return prims::log(x); },
       [](C z, bool cplx) { return cplx ? std::log(z) : C(std::log(z.real()), 0.0); }},
      // On the real axis expm1 keeps exp's zero imaginary part; NaN + 0i is C99's exp's.
      {"expm1", [](const EagerTensor& x) { return prims::expm1(x); },
       [](C z, bool cplx) {
         if (cplx && z.imag() == 0.0) return C(std::expm1(z.real()), z.imag());
         return cplx ? series_expm1(z) : C(std::expm1(z.real()), 0.0);
       }},
      {"log1p", [](const EagerTensor& x) { return prims::log1p(x); },
       [](C z, bool cplx) { return cplx ? series_log1p(z) : C(std::log1p(z.real()), 0.0); }},
      {"log2", [](const EagerTensor& x) { return prims::log2(x); },
       [](C z, bool cplx) {
         return cplx ? std::log(z) / std::log(2.0) : C(std::log2(z.real()), 0.0);
       }},
      {"log10", [](const EagerTensor& x) { return prims::log10(x); },
       [](C z, bool cplx) {
         return cplx ? std::log(z) / std::log(10.0) : C(std::log10(z.real()), 0.0);
       }},
      {"sin", [](const EagerTensor& x) { return prims::sin(x); },
       [](C z, bool cplx) { return cplx ? std::sin(z) : C(std::sin(z.real()), 0.0); }},
      {"cos", [](const EagerTensor& x) { return prims::cos(x); },
       [](C z, bool cplx) { return cplx ? std::cos(z) : C(std::cos(z.real()), 0.0); }},
      {"tanh", [](const EagerTensor& x) { return prims::tanh(x); },
       [](C z, bool cplx) { return cplx ? std::tanh(z) : C(std::tanh(z.real()), 0.0); }},
      {"tan", [](const EagerTensor& x) { return prims::tan(x); },
       [](C z, bool cplx) { return cplx ? std::tan(z) : C(std::tan(z.real()), 0.0); }},
      {"sinh", [](const EagerTensor& x) { return prims::sinh(x); },
       [](C z, bool cplx) { return cplx ? std::sinh(z) : C(std::sinh(z.real()), 0.0); }},
      {"cosh", [](const EagerTensor& x) { return prims::cosh(x); },
       [](C z, bool cplx) { return cplx ? std::cosh(z) : C(std::cosh(z.real()), 0.0); }},
      real_row("asin", prims::asin, [](double x) { return std::asin(x); }),
      real_row("acos", prims::acos, [](double x) { return std::acos(x); }),
      real_row("atan", prims::atan, [](double x) { return std::atan(x); }),
      real_row("asinh", prims::asinh, [](double x) { return std::asinh(x); }),
      real_row("acosh", prims::acosh, [](double x) { return std::acosh(x); }),
      real_row("atanh", prims::atanh, [](double x) { return std::atanh(x); }),
      real_row("floor", prims::floor, [](double x) { return std::floor(x); }),
      real_row("ceil", prims::ceil, [](double x) { return std::ceil(x); }),
      real_row("rint", prims::rint, [](double x) { return std::nearbyint(x); }),
      real_row("trunc", prims::trunc, [](double x) { return std::trunc(x); }),
      real_row("cbrt", prims::cbrt, [](double x) { return std::cbrt(x); }),
      {"exp2", [](const EagerTensor& x) { return prims::exp2(x); },
       [](C z, bool cplx) {
         return cplx ? std::exp(z * std::numbers::ln2) : C(std::exp2(z.real()), 0.0);
       }},
      // 1/(0+0i) is left out: C and NumPy give different infinities/NaNs there.
      {"reciprocal", [](const EagerTensor& x) { return prims::reciprocal(x); },
       [](C z, bool cplx) { return cplx ? 1.0 / z : C(1.0 / z.real(), 0.0); }, false,
       [](C z, bool cplx) { return cplx && z == C(0.0, 0.0); }},
      {"square", [](const EagerTensor& x) { return prims::square(x); },
       [](C z, bool cplx) { return cplx ? z * z : C(z.real() * z.real(), 0.0); }},
      {"sign", [](const EagerTensor& x) { return prims::sign(x); },
       [](C z, bool cplx) {
         if (!cplx) {
           const double v = z.real();
           return C(std::isnan(v) ? v : (v > 0) - (v < 0), 0.0);
         }
         if (has_nan(z)) return C(kNaN, kNaN);
         return std::abs(z) == 0.0 ? C(0.0, 0.0) : z / std::abs(z);
       }},
  };
}

// Real inputs: ordinary values, signed zeros, NaN and both infinities.
std::vector<C> real_inputs() {
  return {-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 1e-3, -7.25, kNaN, kInf, -kInf};
}
// Complex inputs: a spread of quadrants, both sides of the negative real axis (+0 and -0
// imaginary parts), the imaginary axis, zero, and NaN parts. No complex infinities: C99 and
// NumPy treat some of them differently.
std::vector<C> complex_inputs() {
  return {{-4.0, 0.0},  {-4.0, -0.0}, {-1.0, 0.0}, {-1.0, -0.0}, {2.0, 3.0},  {-0.5, 1.5},
          {1e-3, -2.0}, {3.0, -1.0},  {0.0, -2.0}, {0.0, 0.0},   {kNaN, 0.0}, {1.0, kNaN}};
}

TEST_P(PrimsElementwise, UnaryTable) {
  for (const UnaryRow& row : unary_rows()) {
    for (DType d : dtypes()) {
      if (row.real_only && is_complex(d)) continue;
      SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)));
      std::vector<C> values;
      for (C z : is_complex(d) ? complex_inputs() : real_inputs()) {
        if (!row.skip(z, is_complex(d))) values.push_back(z);
      }
      const auto n = static_cast<std::int64_t>(values.size());
      const Ref x = make_ref(d, {n}, values);
      const DType out = row.to_real ? real_dtype(d) : d;
      const Ref want = unary_ref(x, out, [&](C z) { return row.ref(z, is_complex(d)); });
      EXPECT_TRUE(close(down(row.op(up(x))), want, tol_for(d)));
    }
  }
}

// Magnitudes far from 1: tiny and huge arguments, exp close to overflow and underflow of F32,
// trigonometric arguments that need a real range reduction, squares and reciprocals that
// overflow F32 (the reference rounds the exact result to the dtype, so F32 expects inf there).
TEST_P(PrimsElementwise, UnaryWideRange) {
  const std::vector<C> reals = {1e-30, -1e-20, 1e30, 88.0, -85.0, 30.5, -100.25, 1e3, 6.0e4, 1e8};
  const std::vector<C> complexes = {{1e-20, 1e-20}, {30.0, -0.5}, {-1e10, 1e-10}, {1e3, 1e-3},
                                    {-2e-3, 50.0},  {80.0, 3.0},  {1e-30, -1e30}, {7.0, 100.0}};
  for (const UnaryRow& row : unary_rows()) {
    for (DType d : dtypes()) {
      if (row.real_only && is_complex(d)) continue;
      SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)));
      std::vector<C> values;
      for (C z : is_complex(d) ? complexes : reals) {
        if (row.skip(z, is_complex(d))) continue;
        // Complex exp/sin/cos/tanh of large parts overflow differently in C and NumPy.
        const bool big = std::abs(z.real()) > 20 || std::abs(z.imag()) > 20;
        // (exp2's angle y ln 2: a large y's product is not defined to a float's precision.)
        const bool trig = row.name == "exp" || row.name == "exp2" || row.name == "expm1" ||
                          row.name == "sin" || row.name == "cos" || row.name == "tanh" ||
                          row.name == "tan" || row.name == "sinh" || row.name == "cosh";
        if (is_complex(d) && trig && big) continue;
        values.push_back(z);
      }
      const auto n = static_cast<std::int64_t>(values.size());
      const Ref x = make_ref(d, {n}, values);
      const DType out = row.to_real ? real_dtype(d) : d;
      const Ref want = unary_ref(x, out, [&](C z) { return row.ref(z, is_complex(d)); });
      EXPECT_TRUE(close(down(row.op(up(x))), want, tol_for(d)));
    }
  }
}

// On 2-D values with a non-trivial layout too (a permuted view), where the kernel must follow
// strides rather than walk memory.
TEST_P(PrimsElementwise, UnaryOnPermutedView) {
  for (const UnaryRow& row : unary_rows()) {
    for (DType d : dtypes()) {
      if (row.real_only && is_complex(d)) continue;
      SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)));
      const Ref x = random_ref(d, {3, 4, 5}, 7, 0.1, 2.0);  // positive: every row defined
      const std::vector<std::int64_t> perm{2, 0, 1};
      const EagerTensor view = prims::permute(up(x), perm);
      const Ref px = permute_ref(x, perm);
      const DType out = row.to_real ? real_dtype(d) : d;
      const Ref want = unary_ref(px, out, [&](C z) { return row.ref(z, is_complex(d)); });
      EXPECT_TRUE(close(down(row.op(view)), want, tol_for(d)));
    }
  }
}

// NumPy's principal branches: the cut lies on the negative real axis and the sign of a zero
// imaginary part picks the side (sqrt(-4+0i) = +2i, sqrt(-4-0i) = -2i; log(-1±0i) = ±i pi).
TEST_P(PrimsElementwise, ComplexBranchCutsFollowTheSignOfZero) {
  const double pi = std::numbers::pi;
  struct Case {
    const char* what;
    C in;
    bool is_log;
    C want;
  };
  const Case cases[] = {
      {"sqrt(-4+0i)", {-4.0, 0.0}, false, {0.0, 2.0}},
      {"sqrt(-4-0i)", {-4.0, -0.0}, false, {0.0, -2.0}},
      {"sqrt(-0.25+0i)", {-0.25, 0.0}, false, {0.0, 0.5}},
      {"sqrt(-0.25-0i)", {-0.25, -0.0}, false, {0.0, -0.5}},
      {"log(-1+0i)", {-1.0, 0.0}, true, {0.0, pi}},
      {"log(-1-0i)", {-1.0, -0.0}, true, {0.0, -pi}},
      {"log(-e+0i)", {-std::numbers::e, 0.0}, true, {1.0, pi}},
      {"log(-e-0i)", {-std::numbers::e, -0.0}, true, {1.0, -pi}},
  };
  for (DType d : {DType::C32, DType::C64}) {
    if (!runs(d)) continue;
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c.what) + " " + std::string(dtype_name(d)));
      const EagerTensor x = up(make_ref(d, {1}, {c.in}));
      const Ref got = down(c.is_log ? prims::log(x) : prims::sqrt(x));
      ASSERT_EQ(got.v.size(), 1u);
      EXPECT_EQ(std::signbit(got.v[0].imag()), std::signbit(c.want.imag()))
          << "got " << fmt(got.v[0]) << " on the wrong side of the cut";
      EXPECT_TRUE(close(got, make_ref(d, {1}, {c.want}), tol_for(d)));
    }
  }
}

// --- Binary with broadcasting --------------------------------------------------------------

struct BinaryRow {
  std::string name;
  std::function<EagerTensor(const EagerTensor&, const EagerTensor&)> op;
  std::function<C(C, C)> ref;
  bool real_only = false;
};

// Python's floor division and remainder from their definitions, independently of the kernels'
// rule: floor of the exact quotient (long double holds these tests' quotients' digits), and
// a - b floor(a / b) with the divisor's sign; b = 0 gives a / b and NaN, an infinite or NaN a
// NaN, an infinite b keeps a when the signs agree (Python: -3 // inf = -1, -3 % inf = inf).
double py_floor_div(double a, double b) {
  if (b == 0) return a / b;
  if (std::isnan(a) || std::isnan(b) || std::isinf(a)) return kNaN;
  if (std::isinf(b)) return a == 0 || (a > 0) == (b > 0) ? std::copysign(0.0, a / b) : -1.0;
  const long double q = std::floor(static_cast<long double>(a) / b);
  return q == 0 ? std::copysign(0.0, a / b) : static_cast<double>(q);
}
double py_mod(double a, double b) {
  if (b == 0 || std::isnan(a) || std::isnan(b) || std::isinf(a)) return kNaN;
  if (std::isinf(b)) return a == 0 || (a > 0) == (b > 0) ? a : b;
  const long double q = std::floor(static_cast<long double>(a) / b);
  const auto r = static_cast<double>(static_cast<long double>(a) - q * b);
  return r == 0 ? std::copysign(0.0, b) : r;
}

double np_maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;  // NaN propagates, either side
  return a > b ? a : b;
}
double np_minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return kNaN;
  return a < b ? a : b;
}

std::vector<BinaryRow> binary_rows() {
  return {
      {"add", [](auto& a, auto& b) { return prims::add(a, b); }, [](C a, C b) { return a + b; }},
      {"sub", [](auto& a, auto& b) { return prims::sub(a, b); }, [](C a, C b) { return a - b; }},
      {"mul", [](auto& a, auto& b) { return prims::mul(a, b); }, [](C a, C b) { return a * b; }},
      {"div", [](auto& a, auto& b) { return prims::div(a, b); }, [](C a, C b) { return a / b; }},
      {"maximum", [](auto& a, auto& b) { return prims::maximum(a, b); },
       [](C a, C b) { return C(np_maximum(a.real(), b.real()), 0.0); }, true},
      {"minimum", [](auto& a, auto& b) { return prims::minimum(a, b); },
       [](C a, C b) { return C(np_minimum(a.real(), b.real()), 0.0); }, true},
      {"pow", [](auto& a, auto& b) { return prims::pow(a, b); },
       [](C a, C b) { return C(std::pow(a.real(), b.real()), 0.0); }, true},
      {"atan2", [](auto& a, auto& b) { return prims::atan2(a, b); },
       [](C a, C b) { return C(std::atan2(a.real(), b.real()), 0.0); }, true},
      {"hypot", [](auto& a, auto& b) { return prims::hypot(a, b); },
       [](C a, C b) { return C(std::hypot(a.real(), b.real()), 0.0); }, true},
      {"floor_div", [](auto& a, auto& b) { return prims::floor_div(a, b); },
       [](C a, C b) { return C(py_floor_div(a.real(), b.real()), 0.0); }, true},
      {"mod", [](auto& a, auto& b) { return prims::mod(a, b); },
       [](C a, C b) { return C(py_mod(a.real(), b.real()), 0.0); }, true},
      {"fmod", [](auto& a, auto& b) { return prims::fmod(a, b); },
       [](C a, C b) { return C(std::fmod(a.real(), b.real()), 0.0); }, true},
      {"copysign", [](auto& a, auto& b) { return prims::copysign(a, b); },
       [](C a, C b) { return C(std::copysign(a.real(), b.real()), 0.0); }, true},
  };
}

// Shape pairs that broadcast, NumPy's corner cases among them.
struct ShapePair {
  Shape a, b;
};
std::vector<ShapePair> broadcasting_pairs() {
  return {
      {{3, 4}, {3, 4}},        // equal
      {{3, 1}, {1, 4}},        // size-1 axes on both sides
      {{4}, {3, 4}},           // rank mismatch: aligned from the last axis
      {{3, 4}, {4}},           //
      {{}, {2, 3}},            // 0-d against anything
      {{2, 3}, {}},            //
      {{}, {}},                // 0-d with 0-d
      {{2, 1, 3}, {4, 1}},     // -> [2, 4, 3]
      {{5, 1, 1}, {1, 6, 1}},  // -> [5, 6, 1]
      {{0, 3}, {1, 3}},        // zero-size against 1
      {{0}, {}},               // zero-size against 0-d
      {{1}, {0}},              //
      {{2, 0}, {2, 1}},        //
  };
}

TEST_P(PrimsElementwise, BinaryBroadcastingTable) {
  unsigned seed = 100;
  for (const BinaryRow& row : binary_rows()) {
    for (DType d : dtypes()) {
      if (row.real_only && is_complex(d)) continue;
      for (const ShapePair& s : broadcasting_pairs()) {
        SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)) + " " + shape_to_string(s.a) +
                     " with " + shape_to_string(s.b));
        // pow on a positive base; div away from zero (special values have their own test).
        const Ref a = random_ref(d, s.a, ++seed, 0.25, 2.0);
        const Ref b = random_ref(d, s.b, ++seed, row.name == "pow" ? -2.0 : 0.25, 2.0);
        const Ref want = binary_ref(a, b, d, row.ref);
        EXPECT_TRUE(close(down(row.op(up(a), up(b))), want, tol_for(d)));
      }
    }
  }
}

// NaN and infinities through the binary ops, and pow's special cases (as C's pow, which NumPy
// uses): a negative base with an integer exponent, a fractional one (NaN), 0^-1 = inf, x^0 = 1.
TEST_P(PrimsElementwise, BinarySpecialValues) {
  const std::vector<C> a = {1.0, kNaN, 2.0, -kInf, 0.0, kInf, -2.0, -8.0, 0.0, 2.0, 0.0, -3.0};
  const std::vector<C> b = {kNaN, 1.0, 3.0, 5.0, 0.0, kInf, 3.0, 1.0 / 3, -1.0, -2.0, 0.0, 2.0};
  for (const BinaryRow& row : binary_rows()) {
    for (DType d : dtypes()) {
      if (is_complex(d)) continue;  // complex NaN/inf arithmetic has no single convention
      SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)));
      const auto n = static_cast<std::int64_t>(a.size());
      const Ref ra = make_ref(d, {n}, a), rb = make_ref(d, {n}, b);
      const Ref want = binary_ref(ra, rb, d, row.ref);
      EXPECT_TRUE(close(down(row.op(up(ra), up(rb))), want, tol_for(d)));
    }
  }
}

TEST_P(PrimsElementwise, MismatchedShapesAreValidationErrorsNamingOperandAndAxis) {
  const std::vector<ShapePair> bad = {
      {{3}, {4}}, {{2, 3}, {3, 2}}, {{0}, {2}}, {{4, 3}, {2, 4, 2}}};
  for (const ShapePair& s : bad) {
    SCOPED_TRACE(shape_to_string(s.a) + " with " + shape_to_string(s.b));
    const EagerTensor a = up(random_ref(DType::F32, s.a, 1));
    const EagerTensor b = up(random_ref(DType::F32, s.b, 2));
    const RuntimeStats before = rt_->stats();
    EXPECT_TRUE(
        throws_kind([&] { (void)prims::add(a, b); }, ErrorKind::Validation, {"operand", "axis"}));
    EXPECT_TRUE(throws_kind([&] { (void)(a * b); }, ErrorKind::Validation, {"operand", "axis"}));
    EXPECT_TRUE(throws_kind([&] { (void)prims::axpby(1.0, a, 2.0, b); }, ErrorKind::Validation,
                            {"operand", "axis"}));
    EXPECT_EQ(rt_->stats().kernel_launches, before.kernel_launches) << "a kernel ran anyway";
  }
}

// NumPy's promotion: F32+F64 -> F64, F32+C32 -> C32, F64+C32 -> C64, F32+C64 -> C64, in either
// operand order, with broadcasting at the same time.
TEST_P(PrimsElementwise, MixedDtypesPromote) {
  const std::pair<DType, DType> pairs[] = {
      {DType::F32, DType::F64}, {DType::F64, DType::F32}, {DType::F32, DType::C32},
      {DType::C32, DType::F32}, {DType::F64, DType::C32}, {DType::C32, DType::F64},
      {DType::F32, DType::C64}, {DType::C64, DType::C32}, {DType::F64, DType::C64}};
  for (const auto& [da, db] : pairs) {
    if (!runs(da) || !runs(db)) continue;
    const DType want_dtype = promote_ref(da, db);
    SCOPED_TRACE(std::string(dtype_name(da)) + " with " + std::string(dtype_name(db)) + " -> " +
                 std::string(dtype_name(want_dtype)));
    const Ref a = random_ref(da, {3, 1}, 11), b = random_ref(db, {4}, 12);
    // An F32 operand holds only F32 values, so a promoted result is computed from exact inputs
    // in the promoted precision: that dtype's tolerance applies.
    const Tol wide = tol_for(want_dtype);
    const auto run = [&](const char* what, EagerTensor got, std::function<C(C, C)> f) {
      SCOPED_TRACE(what);
      EXPECT_EQ(got.dtype(), want_dtype);
      EXPECT_TRUE(close(down(got), binary_ref(a, b, want_dtype, f), wide));
    };
    const EagerTensor ea = up(a), eb = up(b);
    run("add", prims::add(ea, eb), [](C x, C y) { return x + y; });
    run("sub", ea - eb, [](C x, C y) { return x - y; });
    run("mul", prims::mul(ea, eb), [](C x, C y) { return x * y; });
    run("axpby", prims::axpby(2.0, ea, -0.5, eb), [](C x, C y) { return 2.0 * x - 0.5 * y; });
    // A 0-d operand promotes like any other (NumPy 2: only Python scalars are weak).
    const Ref s = random_ref(db, {}, 13);
    const EagerTensor sum0 = prims::add(ea, up(s));
    EXPECT_EQ(sum0.dtype(), want_dtype) << "with a 0-d operand";
    EXPECT_TRUE(
        close(down(sum0), binary_ref(a, s, want_dtype, [](C x, C y) { return x + y; }), wide));
  }
}

TEST_P(PrimsElementwise, RealOnlyOpsRefuseComplex) {
  const EagerTensor z = up(random_ref(DType::C32, {3}, 1));
  const EagerTensor r = up(random_ref(DType::F32, {3}, 2));
  for (const UnaryRow& row : unary_rows()) {
    if (!row.real_only) continue;
    SCOPED_TRACE(row.name);
    EXPECT_TRUE(throws_kind([&] { (void)row.op(z); }, ErrorKind::Validation));
  }
  EXPECT_TRUE(throws_kind([&] { (void)prims::maximum(z, r); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::minimum(r, z); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::pow(z, z); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::atan2(z, r); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::hypot(r, z); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::floor_div(z, r); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::mod(r, z); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::fmod(z, z); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::copysign(z, r); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::cbrt(z); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::complex(z, r); }, ErrorKind::Validation));
}

TEST_P(PrimsElementwise, ComplexFromRealAndImaginaryParts) {
  for (DType d : {DType::F32, DType::F64}) {
    if (!runs(d)) continue;
    for (const ShapePair& s : broadcasting_pairs()) {
      SCOPED_TRACE(std::string(dtype_name(d)) + " " + shape_to_string(s.a) + " with " +
                   shape_to_string(s.b));
      const Ref re = random_ref(d, s.a, 21), im = random_ref(d, s.b, 22);
      const Ref want =
          binary_ref(re, im, complex_dtype(d), [](C x, C y) { return C(x.real(), y.real()); });
      EXPECT_TRUE(identical(down(prims::complex(up(re), up(im))), want));
    }
  }
}

// --- Strided operands ----------------------------------------------------------------------

// Views as operands: a permuted tensor, a stepped slice of it and a stride-0 broadcast view must
// read exactly the elements NumPy's views would.
TEST_P(PrimsElementwise, StridedAndPermutedOperands) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref x = random_ref(d, {4, 5, 6}, 31);
    const EagerTensor ex = up(x);
    const std::vector<std::int64_t> perm{2, 0, 1};
    const EagerTensor p = prims::permute(ex, perm);  // [6, 4, 5]
    const prims::Slice sl[] = {{1, std::nullopt, 2}, {std::nullopt, std::nullopt, 1}, {-4, 5, 3}};
    const EagerTensor s = prims::slice(p, sl);  // [3, 4, 2]
    Ref rs = permute_ref(x, perm);
    rs = slice_ref(rs, 0, 1, 6, 2);
    rs = slice_ref(rs, 2, -4, 5, 3);
    ASSERT_EQ(s.shape(), rs.shape);

    const Ref y = random_ref(d, {1, 2}, 32);
    const EagerTensor b = prims::broadcast_to(up(y), {3, 4, 2});  // stride-0 on the first axes
    EXPECT_TRUE(close(down(prims::add(s, b)), binary_ref(rs, y, d, [](C u, C v) { return u + v; }),
                      tol_for(d)));
    EXPECT_TRUE(close(down(prims::mul(b, s)), binary_ref(y, rs, d, [](C u, C v) { return u * v; }),
                      tol_for(d)));
    EXPECT_TRUE(close(down(prims::sub(s, prims::transpose(prims::transpose(s, 0, 2), 0, 2))),
                      binary_ref(rs, rs, d, [](C u, C v) { return u - v; }), tol_for(d)));
    EXPECT_TRUE(close(down(prims::axpby(3.0, s, -1.0, b)),
                      binary_ref(rs, y, d, [](C u, C v) { return 3.0 * u - v; }), tol_for(d)));
    EXPECT_TRUE(identical(down(prims::neg(s)), unary_ref(rs, d, [](C u) { return -u; })));
  }
}

// --- Scalar forms and operators ------------------------------------------------------------

TEST_P(PrimsElementwise, ScalarForms) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref x = random_ref(d, {3, 4}, 41), y = random_ref(d, {4}, 42);
    const EagerTensor ex = up(x), ey = up(y);
    const Tol t = tol_for(d);
    EXPECT_TRUE(
        close(down(prims::scale(ex, 2.5)), unary_ref(x, d, [](C u) { return 2.5 * u; }), t));
    EXPECT_TRUE(
        close(down(prims::shift(ex, -1.25)), unary_ref(x, d, [](C u) { return u - 1.25; }), t));
    EXPECT_TRUE(close(down(prims::axpby(2.0, ex, -3.0, ey)),
                      binary_ref(x, y, d, [](C u, C v) { return 2.0 * u - 3.0 * v; }), t));
    EXPECT_TRUE(close(down(prims::axpby(0.5, ey, 1.0, ex)),
                      binary_ref(y, x, d, [](C u, C v) { return 0.5 * u + v; }), t));
    // A real scalar never changes the dtype, also for complex tensors.
    EXPECT_EQ(prims::scale(ex, 3.0).dtype(), d);
    EXPECT_EQ(prims::shift(ex, 3.0).dtype(), d);
    // A complex scalar promotes a real tensor to its complex dtype.
    const C i(0.0, 1.0);
    const DType cd = complex_dtype(d);
    EXPECT_TRUE(close(down(prims::scale(ex, C(0.5, -2.0))),
                      unary_ref(x, cd, [](C u) { return C(0.5, -2.0) * u; }), t));
    EXPECT_TRUE(close(down(prims::shift(ex, i)), unary_ref(x, cd, [&](C u) { return u + i; }), t));
    EXPECT_TRUE(close(down(prims::axpby(i, ex, 1.0, ey)),
                      binary_ref(x, y, cd, [&](C u, C v) { return i * u + v; }), t));
  }
}

// A shift by zero is an addition (-0 + 0 = +0, IEEE and NumPy), and a scale a product alone (-0
// * 2 stays -0): the Affine kernels tell "no shift" from "+ 0" on every backend (kernel_calls.hpp's
// adds_beta). Zeros of both signs in both parts of complex values, beside other values.
TEST_P(PrimsElementwise, ShiftByZeroAddsAndScaleOnlyMultiplies) {
  const std::vector<C> x = {C(-0.0, -0.0), C(0.0, -0.0), C(-0.0, 0.0), C(0.0, 0.0), C(-1.5, 2.0)};
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref rx = make_ref(d, {static_cast<std::int64_t>(x.size())}, x);
    const EagerTensor ex = up(rx);
    // std::complex<double> adds part by part, so these are the IEEE sums of each part.
    for (const double beta : {0.0, -0.0}) {
      SCOPED_TRACE(beta);
      EXPECT_TRUE(identical(down(prims::shift(ex, beta)),
                            unary_ref(rx, d, [&](C u) { return u + C(beta, 0.0); })));
      EXPECT_TRUE(
          identical(down(ex + beta), unary_ref(rx, d, [&](C u) { return u + C(beta, 0.0); })));
      EXPECT_TRUE(
          identical(down(ex - beta), unary_ref(rx, d, [&](C u) { return u - C(beta, 0.0); })));
    }
    EXPECT_TRUE(identical(down(prims::scale(ex, 2.0)),
                          unary_ref(rx, d, [](C u) { return C(2.0 * u.real(), 2.0 * u.imag()); })));
  }
}

TEST_P(PrimsElementwise, Operators) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref a = random_ref(d, {2, 3}, 51), b = random_ref(d, {1, 3}, 52, 0.5, 2.0);
    const EagerTensor ea = up(a), eb = up(b);
    const Tol t = tol_for(d);
    const auto bin = [&](std::function<C(C, C)> f) { return binary_ref(a, b, d, f); };
    const auto un = [&](std::function<C(C)> f) { return unary_ref(a, d, f); };
    EXPECT_TRUE(close(down(ea + eb), bin([](C u, C v) { return u + v; }), t));
    EXPECT_TRUE(close(down(ea - eb), bin([](C u, C v) { return u - v; }), t));
    EXPECT_TRUE(close(down(ea * eb), bin([](C u, C v) { return u * v; }), t));
    EXPECT_TRUE(close(down(ea / eb), bin([](C u, C v) { return u / v; }), t));
    EXPECT_TRUE(identical(down(-ea), un([](C u) { return -u; })));
    EXPECT_TRUE(close(down(ea * 2.0), un([](C u) { return u * 2.0; }), t));
    EXPECT_TRUE(close(down(2.0 * ea), un([](C u) { return 2.0 * u; }), t));
    EXPECT_TRUE(close(down(ea / 4.0), un([](C u) { return u / 4.0; }), t));
    EXPECT_TRUE(close(down(ea + 1.5), un([](C u) { return u + 1.5; }), t));
    EXPECT_TRUE(close(down(1.5 + ea), un([](C u) { return 1.5 + u; }), t));
    EXPECT_TRUE(close(down(ea - 1.5), un([](C u) { return u - 1.5; }), t));
    EXPECT_TRUE(close(down(1.5 - ea), un([](C u) { return 1.5 - u; }), t));
    // A complex scalar on a real tensor promotes it (NumPy: float32 array * 1j -> complex64).
    const EagerTensor zi = ea * C(0.0, 1.0);
    EXPECT_EQ(zi.dtype(), complex_dtype(d));
    EXPECT_TRUE(
        close(down(zi), unary_ref(a, complex_dtype(d), [](C u) { return u * C(0, 1); }), t));
    // A chain reads like the math: 2a - b/2 + 1.
    EXPECT_TRUE(close(down(2.0 * ea - eb / 2.0 + 1.0),
                      bin([](C u, C v) { return 2.0 * u - v / 2.0 + 1.0; }), t));
  }
}

}  // namespace
}  // namespace tenferro::prims_test
