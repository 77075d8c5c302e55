// The core of the WGSL function library of the WebGPU prims kernels (wgsl_prims_math.hpp):
// constants, IEEE classification by bit pattern, the real functions that are plain arithmetic
// (division, maximum and minimum, comparisons, sign, roundings, square root, hypot, fmod and
// NumPy's floor division and remainder), the u32
// product mul_hi_lo (for the sin/cos argument reduction and Philox), and complex arithmetic on C =
// vec2<f32> (re, im): product, modulus, quotient, sign, square root.
//
// Why so much is spelled out by hand:
//  * NaN and Inf. Shader compilers may assume floats are finite (Mesa folds `x != x` to false
//    on instructions not marked exact), and SPIR-V leaves log(0), sqrt(-1), sin(inf) and
//    min/max with a NaN undefined. So every classification reads the bit pattern, NaN and Inf
//    constants are made from bits at run time (a constant expression may not be non-finite),
//    and each real function handles its non-finite and out-of-domain inputs before calling the
//    builtin.
//  * Accuracy: see the notes of the other parts (wgsl_prims_math_exp_trig.cpp,
//    wgsl_prims_math_log_pow.cpp).
// Complex functions follow C99 Annex G (what NumPy and std::complex do): principal branches with
// the cut on the negative real axis, the sign of a zero imaginary part picking the side; division
// by Smith's algorithm with Annex G's recovery of infinite results; |z| scaled so that squaring
// never overflows.
#include "ops/prims/webgpu/wgsl_prims_math.hpp"

namespace tenferro::prims_webgpu::wgsl {

std::string_view core_math_library() {
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
// To an integral value (exact); round is WGSL's ties-to-even rounding (NumPy's rint).
fn r_floor(x: f32) -> f32 { return select(floor(x), x, !is_finite(x)); }
fn r_ceil(x: f32) -> f32 { return select(ceil(x), x, !is_finite(x)); }
fn r_rint(x: f32) -> f32 { return select(round(x), x, !is_finite(x)); }
fn r_trunc(x: f32) -> f32 { return select(trunc(x), x, !is_finite(x)); }
fn r_sqrt(x: f32) -> f32 {
  if (is_nan(x) || is_zero(x)) { return x; }
  if (sign_bit(x)) { return f_nan(); }
  if (is_inf(x)) { return x; }
  return sqrt(x);
}
// sqrt(x^2 + y^2) as C's hypot: inf if either is infinite (a NaN other one included), the
// larger magnitude times sqrt(1 + r^2), r <= 1, so nothing overflows or underflows in between.
fn r_hypot(x: f32, y: f32) -> f32 {
  let a = abs(x);
  let b = abs(y);
  if (is_inf(a) || is_inf(b)) { return f_inf(); }
  if (is_nan(a) || is_nan(b)) { return f_nan(); }
  let big = max(a, b);
  let small = min(a, b);
  if (is_zero(big)) { return 0.0; }
  let r = small / big;
  return big * sqrt(1.0 + r * r);
}
// C's fmod, exact: |x| = mx 2^ex and |y| = my 2^ey with integer significands below 2^24, and
// mx 2^(ex - ey) mod my by long division, 8 bits a step (r < my < 2^24, so r << 8 fits a u32).
// The result, r 2^ey with r < my, is a multiple of y's last place below |y|: representable.
fn r_fmod(x: f32, y: f32) -> f32 {
  if (is_nan(x) || is_nan(y) || is_inf(x) || is_zero(y)) { return f_nan(); }
  if (is_inf(y) || is_zero(x)) { return x; }
  let bx = bitcast<u32>(x) & 0x7fffffffu;
  let by = bitcast<u32>(y) & 0x7fffffffu;
  if (bx < by) { return x; }  // |x| < |y| (the bit patterns of non-negative floats are ordered)
  // A subnormal (exponent field 0) has no hidden bit and the exponent of the smallest normal.
  var ex = i32(bx >> 23u);
  var mx = bx & 0x7fffffu;
  if (ex == 0) { ex = 1; } else { mx = mx | 0x800000u; }
  var ey = i32(by >> 23u);
  var my = by & 0x7fffffu;
  if (ey == 0) { ey = 1; } else { my = my | 0x800000u; }
  var r = mx % my;
  var d = ex - ey;
  loop {
    if (d <= 0) { break; }
    let step = min(d, 8);
    r = (r << u32(step)) % my;
    d = d - step;
  }
  if (r == 0u) { return copysign(0.0, x); }
  // r 2^(ey - 150): exact (split_value forms a subnormal by a product, exact here).
  return copysign(split_value(f32(r), ey - 150), x);
}
// NumPy's floor division and remainder (shared_real_math.hpp's rule, in f32): (x // y, x % y).
// The quotient of x - fmod(x, y) by y is near an integer, which rounding to nearest takes, so
// the division's own error (WGSL allows 2.5 ulp) moves no result below 2^23.
fn r_divmod(x: f32, y: f32) -> vec2<f32> {
  var m = r_fmod(x, y);
  if (is_zero(y)) { return vec2<f32>(r_div(x, y), m); }
  var q = r_div(x - m, y);
  if (!is_zero(m)) {
    if (r_less(y, 0.0) != r_less(m, 0.0)) {
      m = m + y;
      q = q - 1.0;
    }
  } else {
    m = copysign(0.0, y);
  }
  var f = 0.0;
  if (!is_zero(q)) {
    f = r_floor(q);
    if (r_less(0.5, q - f)) { f = f + 1.0; }
  } else {
    f = copysign(0.0, r_div(x, y));
  }
  return vec2<f32>(f, m);
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

// --- Complex arithmetic ---------------------------------------------------------------------
alias C = vec2<f32>;  // (re, im)
// Annex G's recovery steps: an infinite value "boxed" (each part +-1 where infinite, +-0
// elsewhere) and a value's NaN parts as +-0.
fn has_inf(z: C) -> bool { return is_inf(z.x) || is_inf(z.y); }
fn boxed(z: C) -> C {
  return C(copysign(select(0.0, 1.0, is_inf(z.x)), z.x),
           copysign(select(0.0, 1.0, is_inf(z.y)), z.y));
}
fn nan_as_zero(z: C) -> C {
  return C(select(z.x, copysign(0.0, z.x), is_nan(z.x)),
           select(z.y, copysign(0.0, z.y), is_nan(z.y)));
}
// Annex G's recovery when a product came out NaN + iNaN: an infinite factor boxed (and the
// other's NaN parts as 0), or parts whose products overflowed, recomputed times inf, so
// (nan + inf i) * i is -inf + nan i as std::complex gives, not NaN + iNaN.
fn c_mul_recover(z: C, w: C, q: C) -> C {
  var a = z;
  var b = w;
  if (has_inf(z)) {
    a = boxed(z);
    b = nan_as_zero(b);
  }
  if (has_inf(w)) {
    b = boxed(w);
    a = nan_as_zero(a);
  }
  if (!has_inf(z) && !has_inf(w)) {
    if (!(is_inf(z.x * w.x) || is_inf(z.y * w.y) || is_inf(z.x * w.y) || is_inf(z.y * w.x))) {
      return q;
    }
    a = nan_as_zero(z);
    b = nan_as_zero(w);
  }
  return C(f_inf() * (a.x * b.x - a.y * b.y), f_inf() * (a.x * b.y + a.y * b.x));
}
fn c_mul(a: C, b: C) -> C {
  let q = C(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
  if (is_nan(q.x) && is_nan(q.y)) { return c_mul_recover(a, b, q); }
  return q;
}
// z * z with its imaginary part as 2 p, p = x y, doubled by ldexp: the same value as
// c_mul(z, z)'s x y + y x, but a shader compiler that reassociates (lavapipe's does) turned
// that into y (x + x), and p + p into x (2 y): 0 * inf = NaN for z = 3e38 or 3e38i.
fn c_square(z: C) -> C {
  let p = z.x * z.y;
  let q = C(z.x * z.x - z.y * z.y, ldexp(p, 1));
  if (is_nan(q.x) && is_nan(q.y)) { return c_mul_recover(z, z, q); }
  return q;
}
fn c_abs(z: C) -> f32 {
  let a = abs(z.x);
  let b = abs(z.y);
  if (is_inf(a) || is_inf(b)) { return f_inf(); }
  if (is_nan(a) || is_nan(b)) { return f_nan(); }
  let m = select(b, a, a > b);
  let n = select(a, b, a > b);
  if (is_zero(m)) { return 0.0; }
  let r = n / m;
  return m * sqrt(1.0 + r * r);
}
// Annex G's recovery when Smith's quotient came out NaN + iNaN.
fn c_div_recover(a: C, b: C, q: C) -> C {
  let c = b.x;
  let d = b.y;
  if (is_zero(c) && is_zero(d) && (!is_nan(a.x) || !is_nan(a.y))) {
    let s = copysign(f_inf(), c);
    return C(s * a.x, s * a.y);
  }
  if (has_inf(a) && is_finite(c) && is_finite(d)) {
    let u = boxed(a);
    return C(f_inf() * (u.x * c + u.y * d), f_inf() * (u.y * c - u.x * d));
  }
  if (has_inf(b) && is_finite(a.x) && is_finite(a.y)) {
    let u = boxed(b);
    return C(copysign(0.0, a.x * u.x + a.y * u.y), copysign(0.0, a.y * u.x - a.x * u.y));
  }
  return q;
}
// m1 2^e1 + m2 2^e2 for |m1|, |m2| < 1 as m 2^e with |m| < 2 (a zero term has no exponent; a
// term 2^126 times smaller than the other is below its rounding and may be dropped).
struct Split { m: f32, e: i32 }
fn split_add(m1: f32, e1: i32, m2: f32, e2: i32) -> Split {
  if (m1 == 0.0 && m2 == 0.0) { return Split(m1 + m2, 0); }  // IEEE's sign of a sum of zeros
  if (m1 == 0.0) { return Split(m2, e2); }
  if (m2 == 0.0) { return Split(m1, e1); }
  let e = max(e1, e2);
  return Split(ldexp(m1, max(e1 - e, -126)) + ldexp(m2, max(e2 - e, -126)), e);
}
// x as m 2^e, 0.5 <= |m| < 1 (0 as 0). A subnormal x is scaled into the normal range first:
// lavapipe's frexp takes subnormals as 0.
fn split_of(x: f32) -> Split {
  if (abs(x) >= 1.1754944e-38 || is_zero(x)) {
    let f = frexp(x);
    return Split(f.fract, f.exp);
  }
  let f = frexp(x * 1.8446744e19);  // 2^64: exact
  return Split(f.fract, f.exp - 64);
}
// m 2^e rounded to f32: inf past its range, a subnormal formed by a product (ldexp may flush
// it to zero), and no ldexp beyond its exponent range (WGSL leaves that undefined).
fn split_value(m: f32, e: i32) -> f32 {
  if (is_zero(m)) { return m; }
  let f = split_of(m);
  let t = f.e + e;
  if (t > 128) { return copysign(f_inf(), m); }
  if (t >= -125) { return ldexp(f.m, t); }
  if (t < -200) { return copysign(0.0, m); }
  return ldexp(f.m, t + 64) * 5.421010862e-20;  // 2^-64
}
// a / b for finite parts and b != 0, with every part as m 2^e (frexp) so that no product,
// square or ratio leaves f32's range: (a.x c + a.y d) / (c^2 + d^2) and (a.y c - a.x d) / (...)
// from mantissa products, each sum aligned to its larger exponent, and the exponents applied
// once at the end. Smith's algorithm, which this replaces for finite operands, lost its ratio
// d/c to underflow: (1e37 + 1e-9i) / (1e-20 + 1e26i) had half its real part, some quotients
// with a subnormal divisor part were 25% off, and some changed sign.
fn c_div_finite(a: C, b: C) -> C {
  let fa = split_of(a.x);
  let fb = split_of(a.y);
  let fc = split_of(b.x);
  let fd = split_of(b.y);
  let den = split_add(fc.m * fc.m, 2 * fc.e, fd.m * fd.m, 2 * fd.e);
  let re = split_add(fa.m * fc.m, fa.e + fc.e, fb.m * fd.m, fb.e + fd.e);
  let im = split_add(fb.m * fc.m, fb.e + fc.e, -(fa.m * fd.m), fa.e + fd.e);
  return C(split_value(re.m / den.m, re.e - den.e), split_value(im.m / den.m, im.e - den.e));
}
// Smith's algorithm: divide through by the larger part of the divisor. Its sums (a.x + a.y r,
// c + d r) reach twice their largest term, so an operand with a part above 2^125 is divided
// by 16 first and the quotient corrected after ((3e38 + 3e38i) / (1 + i) overflowed to inf).
// Only for infinite, NaN and zero operands now (C99 Annex G's recovery follows it).
fn c_div(a0: C, b0: C) -> C {
  if (is_finite(a0.x) && is_finite(a0.y) && is_finite(b0.x) && is_finite(b0.y) &&
      !(is_zero(b0.x) && is_zero(b0.y))) {
    return c_div_finite(a0, b0);
  }
  let big = 4.2535296e37;  // 2^125
  let sa = select(1.0, 0.0625, max(abs(a0.x), abs(a0.y)) > big);
  let sb = select(1.0, 0.0625, max(abs(b0.x), abs(b0.y)) > big);
  let a = C(a0.x * sa, a0.y * sa);
  let c = b0.x * sb;
  let d = b0.y * sb;
  var q: C;
  if (abs(c) >= abs(d)) {
    let r = d / c;
    let den = c + d * r;
    q = C((a.x + a.y * r) / den, (a.y - a.x * r) / den);
  } else {
    let r = c / d;
    let den = c * r + d;
    q = C((a.x * r + a.y) / den, (a.y * r - a.x) / den);
  }
  let back = sb / sa;  // 1, 16 or 1/16: exact
  q = C(q.x * back, q.y * back);
  if (is_nan(q.x) && is_nan(q.y)) { q = c_div_recover(a0, b0, q); }
  return q;
}
// NumPy 2's sign, as the CPU's: an infinite part is the direction whatever the other, two
// infinite parts or a NaN part give NaN; the parts are divided by the larger one first, so that
// |z| of values near f32's largest does not overflow (its sign was 0).
fn c_sign(z: C) -> C {
  let re_inf = is_inf(z.x);
  let im_inf = is_inf(z.y);
  if (re_inf != im_inf) {
    return C(select(0.0, sign(z.x), re_inf), select(0.0, sign(z.y), im_inf));
  }
  if (re_inf || is_nan(z.x) || is_nan(z.y)) { return C(f_nan(), f_nan()); }
  let big = max(abs(z.x), abs(z.y));
  if (is_zero(big)) { return C(0.0, 0.0); }
  let a = z.x / big;
  let b = z.y / big;
  let m = sqrt(a * a + b * b);
  return C(a / m, b / m);
}
fn c_sqrt(z: C) -> C {
  let x = z.x;
  let y = z.y;
  if (is_zero(x) && is_zero(y)) { return C(0.0, y); }
  if (is_inf(y)) { return C(f_inf(), y); }
  if (is_nan(x)) { return C(x, f_nan()); }
  if (is_inf(x)) {
    if (sign_bit(x)) {
      if (is_nan(y)) { return C(f_nan(), f_inf()); }
      return C(0.0, copysign(f_inf(), y));
    }
    if (is_nan(y)) { return C(x, y); }
    return C(x, copysign(0.0, y));
  }
  if (is_nan(y)) { return C(f_nan(), f_nan()); }
  // t = sqrt((|x| + |z|) / 2), computed on z / 4 near the top of the range and on z * 2^64
  // near the bottom (where (|x| + |z|) / 2 underflowed to 0 and y / (2t) was inf).
  var ax = abs(x);
  var ay = abs(y);
  var scale = 1.0;
  if (ax > 1.0e37 || ay > 1.0e37) {
    ax = ax * 0.25;
    ay = ay * 0.25;
    scale = 2.0;
  } else if (max(ax, ay) < 1.0e-30) {
    ax = ax * 1.8446744e19;  // 2^64
    ay = ay * 1.8446744e19;
    scale = 2.3283064e-10;  // 2^-32
  }
  let t = sqrt(0.5 * (ax + c_abs(C(ax, ay)))) * scale;
  if (!sign_bit(x)) { return C(t, y / (2.0 * t)); }
  return C(abs(y) / (2.0 * t), copysign(t, y));
}
)";
  return kLibrary;
}

}  // namespace tenferro::prims_webgpu::wgsl
