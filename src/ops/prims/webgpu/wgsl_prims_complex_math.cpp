// The complex half of the WGSL function library of the WebGPU prims kernels (on the real half,
// wgsl_prims_real_math.cpp). Complex functions follow C99 Annex G (what NumPy and std::complex
// do): principal branches with the cut on the negative real axis, the sign of a zero imaginary
// part picking the side; division by Smith's algorithm with Annex G's recovery of infinite
// results; |z| scaled so that squaring never overflows; log |z| near the unit circle from
// exact squares.
#include "ops/prims/webgpu/wgsl_prims_math.hpp"

namespace tenferro::prims_webgpu::wgsl {

std::string_view complex_math_library() {
  static constexpr std::string_view kLibrary = R"(
alias C = vec2<f32>;  // (re, im)
fn c_mul(a: C, b: C) -> C { return C(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
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
  if ((is_inf(a.x) || is_inf(a.y)) && is_finite(c) && is_finite(d)) {
    let x = copysign(select(0.0, 1.0, is_inf(a.x)), a.x);
    let y = copysign(select(0.0, 1.0, is_inf(a.y)), a.y);
    return C(f_inf() * (x * c + y * d), f_inf() * (y * c - x * d));
  }
  if ((is_inf(c) || is_inf(d)) && is_finite(a.x) && is_finite(a.y)) {
    let x = copysign(select(0.0, 1.0, is_inf(c)), c);
    let y = copysign(select(0.0, 1.0, is_inf(d)), d);
    return C(copysign(0.0, a.x * x + a.y * y), copysign(0.0, a.y * x - a.x * y));
  }
  return q;
}
// Smith's algorithm: divide through by the larger part of the divisor, so no intermediate
// overflows or underflows where the quotient is representable.
fn c_div(a: C, b: C) -> C {
  let c = b.x;
  let d = b.y;
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
  if (is_nan(q.x) && is_nan(q.y)) { q = c_div_recover(a, b, q); }
  return q;
}
fn c_sign(z: C) -> C {
  let m = c_abs(z);
  if (is_zero(m)) { return C(0.0, 0.0); }
  if (is_nan(m)) { return C(f_nan(), f_nan()); }
  return C(z.x / m, z.y / m);
}
fn c_exp(z: C) -> C {
  let x = z.x;
  let y = z.y;
  if (is_zero(y)) { return C(r_exp(x), y); }
  if (is_inf(x) && !is_finite(y)) {
    if (sign_bit(x)) { return C(0.0, 0.0); }
    return C(x, f_nan());
  }
  let c = r_cos(y);
  let s = r_sin(y);
  if (x > 88.0) {  // e^x overflows before e^x cos y does: two half steps
    let h = r_exp(0.5 * x);
    return C(h * c * h, h * s * h);
  }
  let e = r_exp(x);
  return C(e * c, e * s);
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
fn c_log(z: C) -> C {
  let a = c_abs(z);
  var re = r_log(a);
  if (is_inf(a) && is_finite(z.x) && is_finite(z.y)) {
    re = r_log(c_abs(0.5 * z)) + 0.693147180559945;  // |z| overflows f32, log |z| does not
  } else if (a > 0.7 && a < 1.4) {
    let x = abs(z.x);
    let y = abs(z.y);
    re = log_modulus_near_one(select(y, x, x > y), select(x, y, x > y));
  }
  return C(re, r_atan2(z.y, z.x));
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
  // t = sqrt((|x| + |z|) / 2), computed on z / 4 near the top of the range.
  var ax = abs(x);
  var ay = abs(y);
  var scale = 1.0;
  if (ax > 1.0e37 || ay > 1.0e37) {
    ax = ax * 0.25;
    ay = ay * 0.25;
    scale = 2.0;
  }
  let t = sqrt(0.5 * (ax + c_abs(C(ax, ay)))) * scale;
  if (!sign_bit(x)) { return C(t, y / (2.0 * t)); }
  return C(abs(y) / (2.0 * t), copysign(t, y));
}
// (cosh y, sinh y) as h * (h, +-h) for |y| > 88, where cosh y alone may overflow although its
// product with a sine stays finite; the callers multiply by h last. h = e^(|y|/2) / sqrt 2
// (|y| / 2 is exact).
fn big_hyperbolic(y: f32) -> f32 { return r_exp(0.5 * abs(y)) * 0.707106781186548; }
fn c_sin(z: C) -> C {
  if (is_zero(z.x)) { return C(z.x, r_sinh(z.y)); }
  if (abs(z.y) > 88.0 && is_finite(z.y)) {
    let h = big_hyperbolic(z.y);
    return C(r_sin(z.x) * h * h, r_cos(z.x) * h * copysign(h, z.y));
  }
  return C(r_sin(z.x) * r_cosh(z.y), r_cos(z.x) * r_sinh(z.y));
}
fn c_cos(z: C) -> C {
  if (is_zero(z.x)) {
    let sh = r_sinh(z.y);
    return C(r_cosh(z.y), select(copysign(0.0, -z.x * z.y), -z.x * sh, is_finite(sh)));
  }
  if (abs(z.y) > 88.0 && is_finite(z.y)) {
    let h = big_hyperbolic(z.y);
    return C(r_cos(z.x) * h * h, -(r_sin(z.x) * h * copysign(h, z.y)));
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
)";
  return kLibrary;
}

}  // namespace tenferro::prims_webgpu::wgsl
