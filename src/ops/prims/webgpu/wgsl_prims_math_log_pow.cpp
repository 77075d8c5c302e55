// The logarithm and power of the WGSL function library of the WebGPU prims kernels
// (wgsl_prims_math.hpp): log on f32 and on C, pow and cbrt on f32, and what they need: ln x as an
// unevaluated pair, atan2 (the argument of a complex log), exact squares.
//
// Accuracy. WGSL's log has only an absolute bound near 1; atan2 has 4096 ULP. Those are
// replaced by short series or reductions below whose error is a few f32 roundings. The complex
// log takes the principal branch (C99 Annex G, see wgsl_prims_math_core.cpp), with log |z| near
// the unit circle from exact squares. NaN and Inf: see wgsl_prims_math_core.cpp.
#include "ops/prims/webgpu/wgsl_prims_math.hpp"

namespace tenferro::prims_webgpu::wgsl {

std::string_view log_pow_math_library() {
  static constexpr std::string_view kLibrary = R"(
fn r_log(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  if (is_zero(x)) { return -f_inf(); }
  if (sign_bit(x)) { return f_nan(); }
  if (is_inf(x)) { return x; }
  let bits = bitcast<u32>(x);
  if (bits < 0x00800000u) {
    // A subnormal: x = m 2^-149 with m its bits, exactly. The builtin may flush it or, as
    // lavapipe does, misread it (log(2^-149) came out -88.03, not -103.28), so take the log of
    // the normal f32(m) and subtract 149 ln 2.
    return log(f32(bits)) - 103.27892990343185;
  }
  if (x > 0.7 && x < 1.4) {
    // log x = 2 atanh(s), s = (x - 1) / (x + 1), |s| < 1/6: x - 1 is exact here and the odd
    // series below is accurate to f32 rounding, where the builtin has only an absolute bound.
    let s = (x - 1.0) / (x + 1.0);
    let t = s * s;
    let q = 1.0 + t * (1.0 / 3.0 + t * (1.0 / 5.0 + t * (1.0 / 7.0 + t * (1.0 / 9.0 +
            t * (1.0 / 11.0 + t * (1.0 / 13.0))))));
    return 2.0 * s * q;
  }
  return log(x);
}
// The leading 12 significant bits of x (bit masking, which no compiler reassociates away).
fn head12(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) & 0xfffff000u); }
// a b = hi + lo exactly (Dekker's product on 12-bit halves: every partial product is exact;
// WGSL's fma may be unfused, so it cannot give the error term).
fn two_product(a: f32, b: f32) -> vec2<f32> {
  let p = a * b;
  let ah = head12(a);
  let al = a - ah;
  let bh = head12(b);
  let bl = b - bh;
  return vec2<f32>(p, (((ah * bh - p) + ah * bl) + al * bh) + al * bl);
}
// ln x as an unevaluated sum hi + lo, for finite x > 0: x = (1 + f) 2^k with 1 + f in
// [sqrt 1/2, sqrt 2) (f exact), ln(1 + f) = 2 atanh(s) = f - s (f - R(s^2)) with
// s = f / (2 + f) (fdlibm's form: the leading term f is exact, the rest is about f^2 / 2), and
// k ln 2 with ln 2 in two parts, the first exact times k. For x near 1 (k = 0) the pair is
// (f, correction), so its error is about 2^-24 f^2, far below 2^-24 |ln x|.
fn log_pair(x: f32) -> vec2<f32> {
  var v = x;
  var k = 0;
  if (v < 1.17549435e-38) {  // subnormal: scale into the normal range first
    v = v * 16777216.0;
    k = -24;
  }
  let fe = frexp(v);
  var m = fe.fract;
  k = k + fe.exp;
  if (m < 0.707106781) {
    m = 2.0 * m;
    k = k - 1;
  }
  let f = m - 1.0;
  // ln(1 + f) = f - s f + s r with s = f / (2 + f) and r = R(s^2) about 2 s^2 / 3. Rounded in
  // f32, s f (up to 0.09) and s r (up to 0.005) left ln x off by up to 4e-9 absolutely, which
  // y then multiplies (pow(1.5, 128) was 10 ulp off, 45 ulp at |y ln x| = 85). So s is carried
  // as s + s_lo, both products as exact pairs (two_product) and z = s^2 with s_lo's share:
  // what is left is r's own relative rounding, about 5e-10 of ln x at most.
  let d = 2.0 + f;
  let d_lo = (2.0 - d) + f;  // Fast2Sum: 2 >= |f|
  let s = f / d;
  let sd = two_product(s, d);
  let s_lo = (((f - sd.x) - sd.y) - s * d_lo) / d;
  let sf = two_product(s, f);
  let zz = two_product(s, s);
  let z = zz.x + (zz.y + 2.0 * s * s_lo);
  let r = z * (2.0 / 3.0 + z * (2.0 / 5.0 + z * (2.0 / 7.0 + z * (2.0 / 9.0 + z * (2.0 / 11.0 +
          z * (2.0 / 13.0))))));
  let sr = two_product(s, r);
  // f - (s f)'s head, then + (s r)'s head, each by Fast2Sum (|s f| <= |f|, |s r| <= |f - s f|),
  // their errors and the products' low parts in e.
  let t = f - sf.x;
  let u = t + sr.x;
  let e = (((f - t) - sf.x) - (sf.y + s_lo * f)) + (sr.y + s_lo * r) + ((t - u) + sr.x);
  if (k == 0) { return vec2<f32>(u, e); }
  // k ln 2 = a + kl (a exact: 0.693359375 has 9 significant bits); a + u and then + kl by
  // Fast2Sum (|a| >= ln 2 > |u|; |a + u| > 0.34 > |kl|), their rounding errors kept in lo.
  let a = f32(k) * 0.693359375;
  let kl = f32(k) * -2.12194440e-4;
  let h1 = a + u;
  let hi = h1 + kl;
  return vec2<f32>(hi, (((a - h1) + u) + ((h1 - hi) + kl)) + e);
}

// e^(y (hi + lo)) without rounding the exponent: t = y * hi carries an absolute rounding error
// of |t| 2^-24, which e^t turns into a relative one (pow(10, 20) would be off by 40 ULP). With
// y and hi cut into 12-bit heads and tails, y_h * hi_h is exact and the rest is small, so
// exp_sum sees the exponent as an exact part plus a small one.
fn exp_of_product(y: f32, l: vec2<f32>) -> f32 {
  let yh = head12(y);
  let yl = y - yh;
  let hh = head12(l.x);
  let hl = l.x - hh;
  return exp_sum(yh * hh, (yh * hl + yl * hh) + (yl * hl + y * l.y));
}
// The real cube root: |x| = m 2^(3q + r) with m in [0.5, 1) and r in {0, 1, 2}, so cbrt|x| =
// cbrt(m 2^r) 2^q with m 2^r in [0.5, 4). The builtin's estimate exp2(log2(v) / 3) is refined by
// two Newton steps whose residual y^3 - v is formed exactly (two_product), so the last step
// lands within about half an ulp (and on exact cubes: cbrt(8) = 2).
fn r_cbrt(x: f32) -> f32 {
  if (is_nan(x) || is_inf(x) || is_zero(x)) { return x; }
  let s = split_of(abs(x));
  var r = s.e % 3;
  if (r < 0) { r = r + 3; }
  let q = (s.e - r) / 3;
  let v = ldexp(s.m, r);
  var y = exp2(log2(v) * 0.333333333333333);
  for (var i = 0; i < 2; i = i + 1) {
    let yy = two_product(y, y);
    let hi = two_product(yy.x, y);
    let residual = ((hi.x - v) + hi.y) + yy.y * y;
    y = y - residual / (3.0 * y * y);
  }
  return copysign(split_value(y, q), x);
}
// x^y as C's powf: pow(x, 0) = 1 and pow(1, y) = 1 even for NaN, a negative base only with an
// integer exponent, zeros and infinities by their rules.
fn r_pow(x: f32, y: f32) -> f32 {
  if (is_zero(y) || x == 1.0) { return 1.0; }
  if (is_nan(x) || is_nan(y)) { return f_nan(); }
  let ax = abs(x);
  let ay = abs(y);
  if (is_inf(y)) {
    if (ax == 1.0) { return 1.0; }
    return select(0.0, f_inf(), (ax > 1.0) == !sign_bit(y));
  }
  let y_int = floor(y) == y;
  // Above 2^24 every f32 is an even integer.
  let y_odd = y_int && ay < 16777216.0 && (i32(ay) & 1) == 1;
  let negative = sign_bit(x);
  if (negative && !y_int && !is_zero(x) && !is_inf(x)) { return f_nan(); }
  var r = 0.0;
  if (is_zero(x)) {
    r = select(0.0, f_inf(), sign_bit(y));
  } else if (is_inf(x)) {
    r = select(f_inf(), 0.0, sign_bit(y));
  } else {
    r = exp_of_product(y, log_pair(ax));
  }
  return select(r, -r, negative && y_odd);
}
// atan(t) for 0 <= t <= 1: reduced to |u| <= tan(pi/8), then the odd Taylor series (9 terms
// leave an error below 1e-8 relative).
fn atan_series(u: f32) -> f32 {
  let t = u * u;
  var q = 1.0 / 17.0;
  q = -1.0 / 15.0 + t * q;
  q = 1.0 / 13.0 + t * q;
  q = -1.0 / 11.0 + t * q;
  q = 1.0 / 9.0 + t * q;
  q = -1.0 / 7.0 + t * q;
  q = 1.0 / 5.0 + t * q;
  q = -1.0 / 3.0 + t * q;
  q = 1.0 + t * q;
  return u * q;
}
fn atan_unit(t: f32) -> f32 {
  if (t > 0.41421356) { return QUARTER_PI + atan_series((t - 1.0) / (t + 1.0)); }
  return atan_series(t);
}
// C's atan2, signed zeros and infinities included.
fn r_atan2(y: f32, x: f32) -> f32 {
  if (is_nan(x) || is_nan(y)) { return f_nan(); }
  let ax = abs(x);
  let ay = abs(y);
  var a = 0.0;  // the angle of (|x|, |y|), in [0, pi/2]
  if (is_inf(ax) && is_inf(ay)) {
    a = QUARTER_PI;
  } else if (is_zero(ax) && is_zero(ay)) {
    a = 0.0;
  } else if (ay <= ax) {
    a = atan_unit(ay / ax);
  } else {
    a = HALF_PI - atan_unit(ax / ay);
  }
  if (sign_bit(x)) { a = PI - a; }
  return copysign(a, y);
}
// x^2 as an unevaluated sum hi + lo (Dekker's product: 12-bit heads and tails multiply
// exactly, and x_h^2 - hi is exact).
fn square_pair(x: f32) -> vec2<f32> {
  let h = head12(x);
  let l = x - h;
  let p = x * x;
  return vec2<f32>(p, ((h * h - p) + 2.0 * (h * l)) + l * l);
}
// log |z| for 1/2 <= |z|^2 <= 2, where log |z| may be far smaller than one rounding of |z|:
// 0.5 log1p(s) with s = |z|^2 - 1 from the exact squares of the larger part m and the smaller
// n ((m^2)_hi - 1 is exact there, and so is its sum with (n^2)_hi when they cancel), leaving an
// absolute error near 2^-48 instead of 2^-24; then log1p(s) = 2 atanh(s / (2 + s)).
fn log_modulus_near_one(m: f32, n: f32) -> f32 {
  let a = square_pair(m);
  let b = square_pair(n);
  let s = ((a.x - 1.0) + b.x) + (a.y + b.y);
  let u = s / (2.0 + s);
  let t = u * u;
  let q = 1.0 + t * (1.0 / 3.0 + t * (1.0 / 5.0 + t * (1.0 / 7.0 + t * (1.0 / 9.0 +
          t * (1.0 / 11.0 + t * (1.0 / 13.0 + t * (1.0 / 15.0 + t * (1.0 / 17.0))))))));
  return u * q;  // 0.5 * 2 atanh(u)
}
// log2 x and log10 x: ln x as a pair (log_pair) times log2(e) or log10(e) as a pair (c_hi, its
// f32 rounding; c_lo, the rest), so that only the last addition rounds much (log10(1000) is 3).
fn log_scaled(x: f32, c_hi: f32, c_lo: f32) -> f32 {
  if (is_nan(x)) { return x; }
  if (is_zero(x)) { return -f_inf(); }
  if (sign_bit(x)) { return f_nan(); }
  if (is_inf(x)) { return x; }
  let l = log_pair(x);
  let p = two_product(l.x, c_hi);
  return p.x + (p.y + (l.x * c_lo + l.y * c_hi));
}
fn r_log2(x: f32) -> f32 { return log_scaled(x, 1.4426950216293335, 1.925963033500011e-08); }
fn r_log10(x: f32) -> f32 { return log_scaled(x, 0.4342944920063019, -1.0103049952192578e-08); }
// log(1 + x). Near 0 (1 + x in (0.7, 1.4)) as r_log's series there, 2 atanh(s) with
// s = x / (2 + x), which never forms 1 + x: Goldberg's log(u) x / (u - 1) with u = 1 + x does
// not survive the shader compilers, which fold (1 + x) - 1 to x (lavapipe's log1p(1.2e-6) was
// 10% off). Elsewhere 1 + x's rounding costs at most a few ULP of log(1 + x), taken from
// log_pair, relatively accurate everywhere (the builtin has only an absolute bound on [0.5, 2]).
fn r_log1p(x: f32) -> f32 {
  if (is_nan(x) || (is_inf(x) && !sign_bit(x))) { return x; }
  if (abs(x) < 5.9604645e-8) { return x; }  // x^2 / 2 is below half an ULP of x (x / (2 + x) lost the smallest)
  if (x > -0.3 && x < 0.4) {
    let s = x / (2.0 + x);
    let t = s * s;
    let q = 1.0 + t * (1.0 / 3.0 + t * (1.0 / 5.0 + t * (1.0 / 7.0 + t * (1.0 / 9.0 +
            t * (1.0 / 11.0 + t * (1.0 / 13.0))))));
    return 2.0 * s * q;
  }
  let u = 1.0 + x;
  if (u < 0.0 || is_inf(u)) { return f_nan(); }  // x < -1, -inf
  if (is_zero(u)) { return -f_inf(); }
  let l = log_pair(u);
  return l.x + l.y;
}
// The inverse circular and hyperbolic functions on f32 (real-only ops), from r_atan2, r_log1p
// and r_log, whose errors are a few roundings (the builtins' bounds are inherited from
// formulas that cancel: asin's from atan2(x, sqrt(1 - x^2))). Each differences only exact
// values (1 - a for a >= 1/2, x - 1 for x in [1, 2]: Sterbenz), so no compiler rewrite of
// 1 - a^2 can cost digits.
fn r_atan(x: f32) -> f32 { return r_atan2(x, 1.0); }
// asin a = atan(a / sqrt(1 - a^2)) below 1/2; above, pi/2 - 2 asin(z) with z = sqrt((1 - a) / 2).
fn r_asin(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  let a = abs(x);
  if (a > 1.0) { return f_nan(); }
  if (a <= 0.5) { return copysign(r_atan2(a, r_sqrt((1.0 - a) * (1.0 + a))), x); }
  let z = r_sqrt(0.5 * (1.0 - a));
  return copysign(HALF_PI - 2.0 * r_atan2(z, r_sqrt((1.0 - z) * (1.0 + z))), x);
}
// acos x = 2 atan(sqrt((1 - x) / (1 + x))): 1 - x is exact from x >= 1/2, 1 + x to -1/2;
// outside [-1, 1] the quotient is negative (NaN).
fn r_acos(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  if (abs(x) > 1.0) { return f_nan(); }
  return 2.0 * r_atan(r_sqrt(r_div(1.0 - x, 1.0 + x)));
}
// asinh a = log1p(a + a^2 / (1 + sqrt(1 + a^2))); from 2^12 on 1 + a^2 rounds to a^2 and
// asinh a = log 2a to f32's precision (taken as log a + ln 2: 2a may overflow).
fn r_asinh(x: f32) -> f32 {
  if (!is_finite(x)) { return x; }
  let a = abs(x);
  if (a > 4096.0) { return copysign(r_log(a) + 0.6931471805599453, x); }
  return copysign(r_log1p(a + a * a / (1.0 + r_sqrt(1.0 + a * a))), x);
}
// acosh x = log1p(t + sqrt(t (t + 2))) with t = x - 1; from 2^12 on, log 2x.
fn r_acosh(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  if (x < 1.0) { return f_nan(); }
  if (x > 4096.0) { return r_log(x) + 0.6931471805599453; }
  let t = x - 1.0;
  return r_log1p(t + r_sqrt(t * (t + 2.0)));
}
// atanh a = log1p(2a / (1 - a)) / 2; +-inf at +-1, NaN beyond.
fn r_atanh(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  let a = abs(x);
  if (a > 1.0) { return f_nan(); }
  if (a == 1.0) { return copysign(f_inf(), x); }
  return copysign(0.5 * r_log1p(r_div(2.0 * a, 1.0 - a)), x);
}
fn c_log2(z: C) -> C { return c_log(z) * 1.44269504088896; }
fn c_log10(z: C) -> C { return c_log(z) * 0.434294481903252; }
// log(1 + z) as the CPU's: near 0 the real part from log1p(|1 + z|^2 - 1), elsewhere log(1 + z).
fn c_log1p(z: C) -> C {
  let x = z.x;
  let y = z.y;
  if (abs(x) < 0.5 && abs(y) < 0.5) {
    // |1 + z|^2 - 1 = 2x + y^2 + x^2 from exact squares, in the order where each partial sum is
    // exact near the circle |1 + z| = 1 (see circle_distance in cpu/element_math.hpp).
    let xx = square_pair(x);
    let yy = square_pair(y);
    let s = ((2.0 * x + yy.x) + xx.x) + (xx.y + yy.y);
    return C(0.5 * r_log1p(s), r_atan2(y, 1.0 + x));
  }
  return c_log(C(1.0 + x, y));
}
fn c_log(z: C) -> C {
  let a = c_abs(z);
  var re = r_log(a);
  if (is_inf(a) && is_finite(z.x) && is_finite(z.y)) {
    re = r_log(c_abs(0.5 * z)) + 0.693147180559945;  // |z| overflows f32, log |z| does not
  } else if (a < 7.888609e-31) {
    // Below 2^-100 |z| is scaled by 2^64 first: a subnormal |z| kept only its leading bits
    // (log(1.4e-45 + 1.4e-45i) was -103.279 for -102.932).
    re = r_log(c_abs(z * 1.8446744e19)) - 44.3614195558365;
  } else if (a > 0.7 && a < 1.4) {
    let x = abs(z.x);
    let y = abs(z.y);
    re = log_modulus_near_one(select(y, x, x > y), select(x, y, x > y));
  }
  return C(re, r_atan2(z.y, z.x));
}
)";
  return kLibrary;
}

}  // namespace tenferro::prims_webgpu::wgsl
