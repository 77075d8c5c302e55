// The WGSL function library of the WebGPU prims kernels: classification, constants and real
// functions.
//
// Why so much is spelled out by hand:
//  * NaN and Inf. Shader compilers may assume floats are finite (Mesa folds `x != x` to false
//    on instructions not marked exact), and SPIR-V leaves log(0), sqrt(-1), sin(inf) and
//    min/max with a NaN undefined. So every classification reads the bit pattern, NaN and Inf
//    constants are made from bits at run time (a constant expression may not be non-finite),
//    and each real function handles its non-finite and out-of-domain inputs before calling the
//    builtin.
//  * Accuracy. WGSL allows builtins loose error bounds where cancellation hurts: sinh/cosh/tanh
//    are "inherited from" (exp(x) - exp(-x)) / 2, so sinh(1e-5) would lose half its digits;
//    log has only an absolute bound near 1; atan2 has 4096 ULP. Those are replaced by short
//    series or reductions below whose error is a few f32 roundings.
// The complex functions built on these are in wgsl_prims_complex_math.cpp.
#include "ops/prims/webgpu/wgsl_prims_math.hpp"

namespace tenferro::prims_webgpu::wgsl {

std::string_view real_math_library() {
  static constexpr std::string_view kLibrary = R"(
const PI: f32 = 3.14159265358979;
const HALF_PI: f32 = 1.57079632679490;
const QUARTER_PI: f32 = 0.785398163397448;

fn is_nan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn is_inf(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }
fn is_finite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }
fn is_zero(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0u; }
fn sign_bit(x: f32) -> bool { return (bitcast<u32>(x) & 0x80000000u) != 0u; }
fn copysign(m: f32, s: f32) -> f32 {
  return bitcast<f32>((bitcast<u32>(m) & 0x7fffffffu) | (bitcast<u32>(s) & 0x80000000u));
}
// Run-time constants: a constant expression may not evaluate to Inf or NaN.
fn f_inf() -> f32 { var b = 0x7f800000u; return bitcast<f32>(b); }
fn f_nan() -> f32 { var b = 0x7fc00000u; return bitcast<f32>(b); }

// --- Real functions -------------------------------------------------------------------------
fn r_div(x: f32, y: f32) -> f32 {
  if (is_zero(y) && !is_nan(x)) {
    if (is_zero(x)) { return f_nan(); }
    return copysign(f_inf(), bitcast<f32>((bitcast<u32>(x) ^ bitcast<u32>(y)) & 0x80000000u));
  }
  return x / y;
}
// NaN-propagating, and -0 < +0 as IEEE 754-2019's maximum/minimum (NumPy's x86 SIMD answer
// for a pair of zeros depends on the operand order; this one does not).
fn r_max(a: f32, b: f32) -> f32 {
  if (is_nan(a)) { return a; }
  if (is_nan(b)) { return b; }
  if (is_zero(a) && is_zero(b)) { return select(a, b, sign_bit(a)); }
  return select(a, b, r_less(a, b));
}
fn r_min(a: f32, b: f32) -> f32 {
  if (is_nan(a)) { return a; }
  if (is_nan(b)) { return b; }
  if (is_zero(a) && is_zero(b)) { return select(b, a, sign_bit(a)); }
  return select(a, b, r_less(b, a));
}
// Comparisons on bit patterns: r_key maps f32 to u32 in the order of the values (-0 as +0), so
// a device that flushes subnormal operands to zero in arithmetic still orders 1e-40 above 0,
// and no compiler can fold a NaN test away. NaN compares false (r_less, r_equal).
fn r_key(x: f32) -> u32 {
  var b = bitcast<u32>(x);
  if ((b & 0x7fffffffu) == 0u) { b = 0u; }
  return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}
fn r_less(x: f32, y: f32) -> bool { return !is_nan(x) && !is_nan(y) && r_key(x) < r_key(y); }
fn r_equal(x: f32, y: f32) -> bool { return !is_nan(x) && !is_nan(y) && r_key(x) == r_key(y); }
fn r_flag(b: bool) -> f32 { return select(0.0, 1.0, b); }
fn r_sign(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  if (is_zero(x)) { return 0.0; }
  return select(1.0, -1.0, sign_bit(x));
}
fn r_sqrt(x: f32) -> f32 {
  if (is_nan(x) || is_zero(x)) { return x; }
  if (sign_bit(x)) { return f_nan(); }
  if (is_inf(x)) { return x; }
  return sqrt(x);
}
// e^(p0 + p1) for |p1| much smaller than |p0|, with p0 seen exactly by the range reduction:
// x = n ln2 + r with |r| <= ln2 / 2 (Cody-Waite: ln2 in two parts, the first with 9
// significant bits so that n * 0.693359375 is exact and p0 minus it too). The builtin's error
// grows with its argument (WGSL allows 3 + 2|x| ULP), so it only sees r; the scaling by 2^n is
// exact, in two halves so that neither leaves ldexp's range.
fn exp_sum(p0: f32, p1: f32) -> f32 {
  let x = p0 + p1;
  if (is_nan(x)) { return x; }
  if (x > 88.7228) { return f_inf(); }
  if (x < -103.98) { return 0.0; }
  let n = round(x * 1.44269504088896);
  let r = ((p0 - n * 0.693359375) - n * -2.12194440e-4) + p1;
  let k = i32(n);
  return ldexp(ldexp(exp(r), k / 2), k - k / 2);
}
fn r_exp(x: f32) -> f32 { return exp_sum(x, 0.0); }
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
// (high, low) words of a * b, in u32 arithmetic (WGSL has no 64-bit integers).
fn mul_hi_lo(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>(a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u), a * b);
}

// sin and cos: the builtins are only specified to 2^-11 absolute error on [-pi, pi] and are
// meaningless far outside it (lavapipe returns +-1 from 1e9 on), so both reduce the argument
// to r in [-pi/4, pi/4] plus a quadrant, then evaluate Taylor polynomials whose truncation error
// there (r^11/11!, r^12/12!) is below one f32 rounding.
//  * |x| < 8192: Cody-Waite, x - q*(DP1 + DP2 + DP3) with pi/2 split so that q*DP1 and q*DP2
//    are exact in f32 (DP1 has 8 significant bits, DP2 11, q < 2^13).
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
    let q = round(a * 0.636619772367581);
    let r = ((a - q * 1.5703125) - q * 4.837512969970703e-4) - q * 7.549790126404332e-8;
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
  let s = f / (2.0 + f);
  let z = s * s;
  let r = z * (2.0 / 3.0 + z * (2.0 / 5.0 + z * (2.0 / 7.0 + z * (2.0 / 9.0 + z * (2.0 / 11.0 +
          z * (2.0 / 13.0))))));
  let c = f32(k) * -2.12194440e-4 - s * (f - r);
  if (k == 0) { return vec2<f32>(f, c); }
  // a + f by Fast2Sum (|a| >= ln 2 > |f|): its rounding error goes to lo, not lost.
  let a = f32(k) * 0.693359375;
  let hi = a + f;
  return vec2<f32>(hi, ((a - hi) + f) + c);
}
// The leading 12 significant bits of x (bit masking, which no compiler reassociates away).
fn head12(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) & 0xfffff000u); }
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

)";
  return kLibrary;
}

}  // namespace tenferro::prims_webgpu::wgsl
