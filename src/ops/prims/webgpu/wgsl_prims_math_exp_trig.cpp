// The exponential, circular and hyperbolic functions of the WGSL function library of the WebGPU
// prims kernels (wgsl_prims_math.hpp): exp, exp2, expm1, sin, cos, tan, sinh, cosh and tanh on f32
// and on C (the real sinh and cosh are what the complex sin, cos and tanh are built on; the
// complex tan, sinh and cosh are those rotated by i). One part because they call each other:
// the hyperbolic functions and c_exp call r_exp, the complex functions r_sin and r_cos.
//
// Accuracy. WGSL allows builtins loose error bounds where cancellation hurts: sinh/cosh/tanh
// are "inherited from" (exp(x) - exp(-x)) / 2, so sinh(1e-5) would lose half its digits. Those
// are replaced by short series or reductions below whose error is a few f32 roundings. NaN and
// Inf: see wgsl_prims_math_core.cpp.
#include "ops/prims/webgpu/wgsl_prims_math.hpp"

namespace tenferro::prims_webgpu::wgsl {

std::string_view exp_trig_math_library() {
  static constexpr std::string_view kLibrary = R"(
// e^(p0 + p1) for |p1| much smaller than |p0|, with p0 seen exactly by the range reduction:
// x = n ln2 + r with |r| <= ln2 / 2 (Cody-Waite: ln2 in two parts, the first with 9
// significant bits so that n * 0.693359375 is exact and p0 minus it too). The builtin's error
// grows with its argument (WGSL allows 3 + 2|x| ULP), so it only sees r; the scaling by 2^n is
// exact, in two halves so that neither leaves ldexp's range.
// p0 + p1 = n ln2 + r (|n| < 2^15 keeps n * 0.693359375 exact).
struct Ln2Reduced { r: f32, n: i32 }
fn reduce_ln2(p0: f32, p1: f32) -> Ln2Reduced {
  let n = round((p0 + p1) * 1.44269504088896);
  return Ln2Reduced(((p0 - n * 0.693359375) - n * -2.12194440e-4) + p1, i32(n));
}
fn exp_sum(p0: f32, p1: f32) -> f32 {
  let x = p0 + p1;
  if (is_nan(x)) { return x; }
  // Above the largest f32 below ln(FLT_MAX) (88.7228317; the cut at 88.7228 made e^x of the
  // four f32 above it inf, though e^x <= FLT_MAX there).
  if (x > 88.72283) { return f_inf(); }
  if (x < -103.98) { return 0.0; }
  let red = reduce_ln2(p0, p1);
  let k = red.n;
  return ldexp(ldexp(exp(red.r), k / 2), k - k / 2);
}
fn r_exp(x: f32) -> f32 { return exp_sum(x, 0.0); }
// 2^x as m 2^e: x = n + f with n = round(x) and f exact, |f| <= 1/2 (x clamped to +-400 first,
// far past both ends of the range, so that n is an i32); m = 2^f by its Taylor series in
// f ln 2 to degree 7 (truncation below 2^-27; the builtin exp2 was 4 ulp off there under
// lavapipe).
fn exp2_split(x: f32) -> Split {
  let c = clamp(x, -400.0, 400.0);
  let n = round(c);
  let f = c - n;
  let m = 1.0 + f * (0.693147180559945 + f * (0.240226506959101 + f * (0.0555041086648216 +
          f * (0.00961812910762848 + f * (0.00133335581464284 + f * (1.54035303933816e-4 +
          f * 1.52527338040598e-5))))));
  return Split(m, i32(n));
}
// 2^x, with 2^n applied by split_value (inf past f32's range, subnormals formed by a product).
fn r_exp2(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  let s = exp2_split(x);
  return split_value(s.m, s.e);
}
// e^x - 1. For |x| <= 1, Kahan's form: u = e^x rounds, and (u - 1) x / ln u undoes that
// rounding to first order (u - 1 alone would lose the digits of a small x). Beyond, e^x - 1
// loses at most a factor 1.6 of e^x's accuracy, and (u - 1) x could overflow near e^88.
fn r_expm1(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  // Near 0 by its series: r_exp of a tiny negative x is 1 - 2^-24, not 1, and (u - 1) x then
  // underflowed (expm1(-1e-38) came out -2.35e-38, expm1(-1e-40) -0).
  if (abs(x) < 1e-4) { return x * (1.0 + x * (0.5 + x * (1.0 / 6.0))); }
  if (abs(x) > 1.0) {
    if (x < -17.4) { return -1.0; }  // e^x is below half an ULP of 1
    return r_exp(x) - 1.0;
  }
  let u = r_exp(x);
  if (u == 1.0) { return x; }  // |x| below half an ULP of 1 (and -0)
  let l = log_pair(u);  // ln u, relatively accurate (the builtin is not, on [0.5, 2])
  return (u - 1.0) * x / (l.x + l.y);
}

// sin and cos: the builtins are only specified to 2^-11 absolute error on [-pi, pi] and are
// meaningless far outside it (lavapipe returns +-1 from 1e9 on), so both reduce the argument
// to r in [-pi/4, pi/4] plus a quadrant, then evaluate Taylor polynomials whose truncation error
// there (r^11/11!, r^12/12!) is below one f32 rounding.
//  * |x| < 8192: Cody-Waite, x - q*(DP1 + ... + DP5) with pi/2 split so that q*DP1 to q*DP4
//    are exact in f32 (DP1 has 8 significant bits, DP2 to DP4 11, q < 2^13).
//  * larger |x| (up to FLT_MAX): Payne-Hanek. x = m * 2^e with a 24-bit integer m; only the
//    bits of 2/pi from position e - 1 on matter modulo 4, so x * 2/pi mod 4 is the low 128
//    bits of m times a 128-bit window of 2/pi, scaled by 2^-126: its top two bits are the
//    quadrant, the rest the fraction.
// TWO_OVER_PI_BITS: 64 zero bits (positions before the binary point), then the first 256 bits
// of 2/pi (0.A2F9836E 4E441529 ...), computed with exact integer arithmetic.
const TWO_OVER_PI_BITS = array<u32, 10>(0u, 0u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u,
                                        0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu,
                                        0xdebbc561u);
struct Reduced { r: f32, quadrant: u32 }
fn padded_pi_word(i: u32) -> u32 {
  var bits = TWO_OVER_PI_BITS;
  return bits[min(i, 9u)];
}
fn reduce_half_pi(a: f32) -> Reduced {  // a = |x|, finite
  if (a < 8192.0) {
    // pi/2 in five parts: the first four of 8, 11, 11 and 11 significant bits, so that q times
    // each is exact (q < 2^13) and each difference cancels exactly, the fifth the rest in f32.
    // With three parts (the third all of f32's 24 bits), the third's own rounding times q was
    // 1e-11 absolute: sin(505.79642) came out 478 ulp off, cos(6715.1543) 974.
    let q = round(a * 0.636619772367581);
    let r = ((((a - q * 1.5703125) - q * 4.837512969970703e-4) - q * 7.549533620476723e-8) -
             q * 2.5632829192545614e-12) - q * 6.123234262925839e-17;
    return Reduced(r, u32(q) & 3u);
  }
  let bits = bitcast<u32>(a);
  let m = (bits & 0x7fffffu) | 0x800000u;
  let e = i32((bits >> 23u) & 0xffu) - 150;  // a = m * 2^e, e >= -10 here
  let p0 = u32(e + 62);                      // padded bit position of 2/pi bit e - 1
  let wi = p0 / 32u;
  let s = p0 % 32u;
  var w: array<u32, 4>;
  for (var k = 0u; k < 4u; k++) {
    let hi = padded_pi_word(wi + k);
    let lo = padded_pi_word(wi + k + 1u);
    w[k] = select((hi << s) | (lo >> (32u - s)), hi, s == 0u);
  }
  // Low 128 bits of m * w, most significant word first.
  let t3 = mul_hi_lo(m, w[3]);
  let t2 = mul_hi_lo(m, w[2]);
  let t1 = mul_hi_lo(m, w[1]);
  let t0 = mul_hi_lo(m, w[0]);
  let l3 = t3.y;
  let l2 = t2.y + t3.x;
  let c2 = t2.x + select(0u, 1u, l2 < t2.y);
  let l1 = t1.y + c2;
  let c1 = t1.x + select(0u, 1u, l1 < t1.y);
  let l0 = t0.y + c1;
  // The top two bits are the quadrant; the 126 below them the fraction. A fraction of 1/2 or more
  // becomes fraction - 1 of the next quadrant, negated in integer arithmetic (subtracting in f32
  // would cancel the leading bits).
  var quadrant = l0 >> 30u;
  var f0 = l0 & 0x3fffffffu;
  var f1 = l1;
  var f2 = l2;
  var f3 = l3;
  var negative = false;
  if ((f0 & 0x20000000u) != 0u) {
    quadrant = quadrant + 1u;
    negative = true;
    f3 = ~f3 + 1u;
    var carry = select(0u, 1u, f3 == 0u);
    f2 = ~f2 + carry;
    carry = select(0u, 1u, carry == 1u && f2 == 0u);
    f1 = ~f1 + carry;
    carry = select(0u, 1u, carry == 1u && f1 == 0u);
    f0 = (~f0 + carry) & 0x3fffffffu;
  }
  let f = f32(f0) * 9.313225746154785e-10  // 2^-30
          + f32(f1) * 2.168404344971009e-19   // 2^-62
          + f32(f2) * 5.048709793414476e-29   // 2^-94
          + f32(f3) * 1.1754943508222875e-38; // 2^-126
  return Reduced(select(f, -f, negative) * HALF_PI, quadrant & 3u);
}
fn sin_poly(r: f32) -> f32 {
  let t = r * r;
  return r + r * t * (-1.0 / 6.0 + t * (1.0 / 120.0 + t * (-1.0 / 5040.0 + t * (1.0 / 362880.0))));
}
fn cos_poly(r: f32) -> f32 {
  let t = r * r;
  return 1.0 + t * (-0.5 + t * (1.0 / 24.0 + t * (-1.0 / 720.0 + t * (1.0 / 40320.0 +
                                                                    t * (-1.0 / 3628800.0)))));
}
fn r_sin(x: f32) -> f32 {
  if (!is_finite(x)) { return f_nan(); }
  let red = reduce_half_pi(abs(x));
  var v: f32;
  switch red.quadrant {
    case 0u: { v = sin_poly(red.r); }
    case 1u: { v = cos_poly(red.r); }
    case 2u: { v = -sin_poly(red.r); }
    default: { v = -cos_poly(red.r); }
  }
  return select(v, -v, sign_bit(x));
}
fn r_cos(x: f32) -> f32 {
  if (!is_finite(x)) { return f_nan(); }
  let red = reduce_half_pi(abs(x));
  switch red.quadrant {
    case 0u: { return cos_poly(red.r); }
    case 1u: { return -sin_poly(red.r); }
    case 2u: { return -cos_poly(red.r); }
    default: { return sin_poly(red.r); }
  }
}
// tan x from the same reduction: s / c in quadrants 0 and 2, -c / s in 1 and 3 (period pi).
fn r_tan(x: f32) -> f32 {
  if (!is_finite(x)) { return f_nan(); }
  let red = reduce_half_pi(abs(x));
  let s = sin_poly(red.r);
  let c = cos_poly(red.r);
  var v = r_div(s, c);
  if ((red.quadrant & 1u) == 1u) { v = -r_div(c, s); }
  return select(v, -v, sign_bit(x));
}
fn r_sinh(x: f32) -> f32 {
  let a = abs(x);
  if (a < 0.5) {
    let t = x * x;
    return x * (1.0 + t * (1.0 / 6.0 + t * (1.0 / 120.0 + t * (1.0 / 5040.0 + t * (1.0 / 362880.0)))));
  }
  if (a > 88.0) {  // e^a / 2 without overflowing e^a (a / 2 is exact, a - ln 2 would round)
    let h = r_exp(0.5 * a);
    return copysign((0.5 * h) * h, x);
  }
  let e = r_exp(a);
  return copysign(0.5 * (e - 1.0 / e), x);
}
fn r_cosh(x: f32) -> f32 {
  let a = abs(x);
  if (a > 88.0) {
    let h = r_exp(0.5 * a);
    return (0.5 * h) * h;
  }
  let e = r_exp(a);
  return 0.5 * (e + 1.0 / e);
}
fn r_tanh(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  let a = abs(x);
  if (a < 0.5) { return r_sinh(x) / r_cosh(x); }
  if (a > 9.1) { return copysign(1.0, x); }  // 1 - tanh(9.1) is below half an ULP of 1
  let e = r_exp(-2.0 * a);
  return copysign((1.0 - e) / (1.0 + e), x);
}
// v e^x (v e^x / 2 when `half`) for x > 88, where e^x alone overflows f32 but its product with
// v may not: x = n ln2 + r (reduce_ln2), v = m 2^e, and m e^r 2^(e + n) formed by split_value
// (inf past f32's range). A half step e^(x/2) twice overflowed from x = 177.4: exp(178 +
// 1e-40i) had an infinite imaginary part for 2.0e37. (Constant factors of e^64 would not do:
// the shader compiler folds e^64 e^64 into inf.)
fn times_exp(v: f32, x0: f32, half: bool) -> f32 {
  if (is_zero(v)) { return v; }
  // Past 200 every product overflows (2^-149 e^200 > FLT_MAX): the clamp keeps n below 2^9, so
  // that reduce_ln2 stays exact and i32(n) in range (x = 1e10 gave 0, FLT_MAX -inf).
  let red = reduce_ln2(min(x0, 200.0), 0.0);
  let f = split_of(v);
  return split_value(f.m * exp(red.r), f.e + red.n - select(0, 1, half));
}
fn c_exp(z: C) -> C {
  let x = z.x;
  let y = z.y;
  if (is_zero(y)) { return C(r_exp(x), y); }
  if (is_inf(x) && !is_finite(y)) {
    if (sign_bit(x)) { return C(0.0, 0.0); }
    return C(x, f_nan());
  }
  // Annex G: a finite x with an infinite or NaN y is NaN + NaN i (the e^x > FLT_MAX branch below
  // scaled cos(inf) = NaN into inf + inf i from x = 88 on).
  if (!is_finite(y)) { return C(f_nan(), f_nan()); }
  let c = r_cos(y);
  let s = r_sin(y);
  if (x > 88.0) { return C(times_exp(c, x, false), times_exp(s, x, false)); }
  let e = r_exp(x);
  return C(e * c, e * s);
}
// 2^z = exp(z ln 2), NumPy's definition, as 2^x (cos t + i sin t) with t = y ln 2. 2^x is
// taken whole (rounding x ln 2 would cost |x| ulp), and t is the exact product y ln2_f32
// (two_product) plus a small rest q (its rounding error and y (ln 2 - ln2_f32)), applied to the
// sine and cosine of the product to second order: the angle rounded to f32 cost |y| ulp
// (2000 ulp at y = 1000; NumPy's complex64 exp2 has that error). Good while q^3 is below an ulp,
// |y| up to about 1e5. Non-finite parts go through c_exp, whose Annex G values scaling by ln 2
// keeps.
fn c_exp2(z: C) -> C {
  if (!is_finite(z.x) || !is_finite(z.y)) { return c_exp(z * 0.693147180559945); }
  if (is_zero(z.y)) { return C(r_exp2(z.x), z.y); }
  let t = two_product(z.y, 0.693147182464599609375);
  let q = t.y + z.y * -1.904654323148236e-9;
  let s = r_sin(t.x);
  let c = r_cos(t.x);
  let h = 1.0 - 0.5 * q * q;
  let m = exp2_split(z.x);
  return C(split_value(m.m * (c * h - q * s), m.e), split_value(m.m * (s * h + q * c), m.e));
}
// e^z - 1 as the CPU's: (expm1(x) cos y - 2 sin^2(y/2)) + i e^x sin y, which keeps the real
// part's digits near 0; exp's values on the real axis and at non-finite parts.
fn c_expm1(z: C) -> C {
  let x = z.x;
  let y = z.y;
  if (is_zero(y)) { return C(r_expm1(x), y); }
  if (!is_finite(x) || !is_finite(y) || x > 88.0) {  // e^x - 1 is e^x's value where it overflows
    let e = c_exp(z);
    return C(e.x - 1.0, e.y);
  }
  let h = r_sin(0.5 * y);
  return C(r_expm1(x) * r_cos(y) - 2.0 * h * h, r_exp(x) * r_sin(y));
}
// C99 Annex G's csinh and ccosh of a + ib where a part is infinite or NaN (G.6.2.4-5): sin z is
// -i sinh(iz) and cos z is cosh(iz), so c_sin and c_cos hand their non-finite inputs here
// (the formulas below gave NaN + iNaN where Annex G keeps an infinity or a zero).
fn c_sinh_nonfinite(a: f32, b: f32) -> C {
  if (is_inf(a)) {
    if (is_zero(b)) { return C(a, b); }
    // +-inf cos b + i inf sin b: sinh is odd and cosh even, so only the real part takes a's
    // sign (a * sin b gave sinh(inf + 1i) = inf - inf i, and sin(1 + inf i) = -inf + inf i).
    if (is_finite(b)) { return C(a * r_cos(b), f_inf() * r_sin(b)); }
    return C(a, f_nan());
  }
  if (is_nan(a)) { return C(a, select(f_nan(), b, is_zero(b))); }
  return C(select(f_nan(), a, is_zero(a)), f_nan());  // a finite, b infinite or NaN
}
fn c_cosh_nonfinite(a: f32, b: f32) -> C {
  if (is_inf(a)) {
    if (is_zero(b)) { return C(f_inf(), copysign(0.0, a) * b); }
    if (is_finite(b)) { return C(f_inf() * r_cos(b), a * r_sin(b)); }
    return C(f_inf(), f_nan());
  }
  if (is_nan(a)) { return C(a, select(f_nan(), 0.0, is_zero(b))); }
  return C(f_nan(), select(f_nan(), 0.0, is_zero(a)));  // a finite, b infinite or NaN
}
fn c_sin(z: C) -> C {
  if (!is_finite(z.x) || !is_finite(z.y)) {
    let s = c_sinh_nonfinite(-z.y, z.x);
    return C(s.y, -s.x);
  }
  if (is_zero(z.x)) { return C(z.x, r_sinh(z.y)); }
  if (abs(z.y) > 88.0 && is_finite(z.y)) {  // cosh y = |sinh y| = e^|y| / 2 in f32 there
    let a = abs(z.y);
    let sh = times_exp(r_cos(z.x), a, true);  // cos x |sinh y|
    return C(times_exp(r_sin(z.x), a, true), select(sh, -sh, z.y < 0.0));
  }
  return C(r_sin(z.x) * r_cosh(z.y), r_cos(z.x) * r_sinh(z.y));
}
fn c_cos(z: C) -> C {
  if (!is_finite(z.x) || !is_finite(z.y)) { return c_cosh_nonfinite(-z.y, z.x); }
  if (is_zero(z.x)) {
    let sh = r_sinh(z.y);
    return C(r_cosh(z.y), select(copysign(0.0, -z.x * z.y), -z.x * sh, is_finite(sh)));
  }
  if (abs(z.y) > 88.0 && is_finite(z.y)) {
    let a = abs(z.y);
    let sh = times_exp(r_sin(z.x), a, true);  // sin x |sinh y|
    return C(times_exp(r_cos(z.x), a, true), select(-sh, sh, z.y < 0.0));
  }
  return C(r_cos(z.x) * r_cosh(z.y), -(r_sin(z.x) * r_sinh(z.y)));
}
// tanh(x + iy) = (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y): a denominator of two
// squares, so no cancellation; for large |x| the real part is +-1 and the imaginary part
// 4 sin y cos y e^(-2|x|).
fn c_tanh(z: C) -> C {
  let x = z.x;
  let y = z.y;
  if (is_zero(y)) { return C(r_tanh(x), y); }
  if (is_inf(x)) {
    if (!is_finite(y)) { return C(copysign(1.0, x), 0.0); }
    return C(copysign(1.0, x), copysign(0.0, r_sin(y) * r_cos(y)));
  }
  if (is_nan(x) || !is_finite(y)) { return C(f_nan(), f_nan()); }
  let s = r_sin(y);
  let c = r_cos(y);
  if (abs(x) > 9.1) {
    return C(copysign(1.0, x), 4.0 * s * c * r_exp(-2.0 * abs(x)));
  }
  let sh = r_sinh(x);
  let ch = r_cosh(x);
  let den = sh * sh + c * c;
  return C(sh * ch / den, s * c / den);
}
// sinh z = -i sin(iz), cosh z = cos(iz), tan z = -i tanh(iz) (Annex G defines the special
// values of csin, ccos and ctanh through these identities; a product with i is exact).
fn c_sinh(z: C) -> C {
  let s = c_sin(C(-z.y, z.x));
  return C(s.y, -s.x);
}
fn c_cosh(z: C) -> C { return c_cos(C(-z.y, z.x)); }
fn c_tan(z: C) -> C {
  let t = c_tanh(C(-z.y, z.x));
  return C(t.y, -t.x);
}
)";
  return kLibrary;
}

}  // namespace tenferro::prims_webgpu::wgsl
