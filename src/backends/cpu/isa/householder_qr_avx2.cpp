// The small-QR kernels (backends/cpu/householder_qr.hpp), compiled with -mavx2 -mfma and entered
// only on a CPU that has both. One ISA only: the work is a dot product and an update per
// (reflector, column) pair on columns of at most 128 entries, bound by their dependency chains
// more than by vector width, and AVX-512 ran no faster (8x8 to 128x128, float64).
#include <cstdint>
#include <limits>

#include "backends/cpu/isa/householder_qr_entry.hpp"

namespace tenferro::cpu_blas::isa {
namespace {

#include "backends/cpu/isa/isa_vectors.inc"
#include "backends/cpu/isa/sums_of_squares.inc"

constexpr int kBytes = 32;

// Nothing from the standard library that is a function: at -O0 (and in the sanitizer builds) an
// std::fill_n or std::sqrt instance here would be a weak AVX2 symbol the linker may keep for
// every caller in the library (tests/prims/check_isa_objects.cmake checks this object).
double square_root(double x) {
  return __builtin_sqrt(x);
}
float square_root(float x) {
  return __builtin_sqrtf(x);
}
double with_sign_of(double x, double sign) {
  return __builtin_copysign(x, sign);
}
float with_sign_of(float x, float sign) {
  return __builtin_copysignf(x, sign);
}
template <class T>
void fill(T* x, std::int64_t n, T value) {
  for (std::int64_t i = 0; i < n; ++i) x[i] = value;
}

// The helpers are inlined into reflect's column loop: on 8x8 matrices (columns of at most seven
// entries below the diagonal) a call per dot product was a quarter of the time.
#define TENFERRO_QR_INLINE inline __attribute__((always_inline))

// sum_i x[i] y[i], i < len: two vector accumulators, then the rest one by one.
template <class T>
TENFERRO_QR_INLINE T dot(const T* x, const T* y, std::int64_t len) {
  constexpr int W = kBytes / static_cast<int>(sizeof(T));
  Vec<T, kBytes> acc0 = {}, acc1 = {};
  std::int64_t i = 0;
  for (; i + 2 * W <= len; i += 2 * W) {
    acc0 += load<T, kBytes>(x + i) * load<T, kBytes>(y + i);
    acc1 += load<T, kBytes>(x + i + W) * load<T, kBytes>(y + i + W);
  }
  if (i + W <= len) {
    acc0 += load<T, kBytes>(x + i) * load<T, kBytes>(y + i);
    i += W;
  }
  acc0 += acc1;
  T sum = 0;
  for (int l = 0; l < W; ++l) sum += acc0[l];
  for (; i < len; ++i) sum += x[i] * y[i];
  return sum;
}

// y[i] -= s x[i], i < len.
template <class T>
TENFERRO_QR_INLINE void subtract_scaled(T s, const T* x, T* y, std::int64_t len) {
  constexpr int W = kBytes / static_cast<int>(sizeof(T));
  std::int64_t i = 0;
  for (; i + W <= len; i += W)
    store<T, kBytes>(y + i, load<T, kBytes>(y + i) - s * load<T, kBytes>(x + i));
  for (; i < len; ++i) y[i] -= s * x[i];
}

// Applies H = I - tau v v^T from the left to columns [c0, c1) of rows [j, m) of `a` (leading
// dimension m), v = (1, x[1], ..., x[m - j - 1]): LAPACK's dlarf, one column at a time.
template <class T>
void reflect(const T* x, T tau, T* a, std::int64_t m, std::int64_t j, std::int64_t c0,
             std::int64_t c1) {
  const std::int64_t len = m - j - 1;
  for (std::int64_t c = c0; c < c1; ++c) {
    T* y = a + j + c * m;
    const T w = tau * (y[0] + dot(x + 1, y + 1, len));
    y[0] -= w;
    subtract_scaled(w, x + 1, y + 1, len);
  }
}


template <class T>
bool factor(std::int64_t m, std::int64_t n, T* a, T* tau) {
  const std::int64_t k = m < n ? m : n;
  for (std::int64_t j = 0; j < k; ++j) {
    T* x = a + j + j * m;
    const std::int64_t len = m - j - 1;
    const T alpha = x[0];
    const T below = dot(x + 1, x + 1, len);
    if (below == 0) {
      // Nothing below the diagonal to annihilate (H = I, as dlarfg), unless the squares of
      // nonzero entries underflowed.
      for (std::int64_t i = 1; i <= len; ++i)
        if (x[i] != 0) return false;
      tau[j] = 0;
      continue;
    }
    const T alpha2 = alpha * alpha;
    if (!Squares<T>::carried(below) || !(alpha2 <= Squares<T>::kHuge)) return false;
    const T beta = -with_sign_of(square_root(alpha2 + below), alpha);
    tau[j] = (beta - alpha) / beta;
    const T scale = 1 / (alpha - beta);
    for (std::int64_t i = 1; i <= len; ++i) x[i] *= scale;
    x[0] = beta;
    reflect(x, tau[j], a, m, j, j + 1, n);
  }
  return true;
}

template <class T>
void form_q(std::int64_t m, std::int64_t q_cols, std::int64_t k, T* a, const T* tau) {
  for (std::int64_t j = k; j < q_cols; ++j) {  // the columns past the reflectors: I's
    fill(a + j * m, m, T(0));
    a[j + j * m] = 1;
  }
  for (std::int64_t i = k - 1; i >= 0; --i) {
    T* x = a + i + i * m;
    const std::int64_t len = m - i - 1;
    if (i < q_cols - 1 && tau[i] != 0) {  // H = I: nothing to apply (as LAPACK's dlarf)
      x[0] = 1;
      reflect(x, tau[i], a, m, i, i + 1, q_cols);
    }
    for (std::int64_t l = 1; l <= len; ++l) x[l] *= -tau[i];
    x[0] = 1 - tau[i];
    fill(a + i * m, i, T(0));
  }
}

// Complex matrices, as LAPACK's zgeqr2/zlarfg/zlarf/zung2r: arrays of interleaved (re, im)
// pairs of R, the arithmetic written out on the parts (std::complex's operator* calls __muldc3
// and is an inline function this file must not instantiate).

// The (re, im) pairs of a vector swapped: (im, re, ...).
template <class R>
TENFERRO_QR_INLINE Vec<R, kBytes> swap_pairs(Vec<R, kBytes> v) {
  if constexpr (sizeof(R) == 8)
    return __builtin_shufflevector(v, v, 1, 0, 3, 2);
  else
    return __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
}

// sum_i conj(x_i) y_i, i < len (complex entries). Over whole vectors: the products x * y
// summed give the real part, x * swap(y) the imaginary part as its even lanes less its odd ones.
template <class R>
TENFERRO_QR_INLINE void conj_dot(const R* x, const R* y, std::int64_t len, R& re, R& im) {
  constexpr int W = kBytes / static_cast<int>(sizeof(R));
  Vec<R, kBytes> real_parts = {}, cross = {};
  std::int64_t i = 0;  // in reals: 2 per entry
  for (; i + W <= 2 * len; i += W) {
    const Vec<R, kBytes> xv = load<R, kBytes>(x + i), yv = load<R, kBytes>(y + i);
    real_parts += xv * yv;
    cross += xv * swap_pairs<R>(yv);
  }
  R sr = 0, si = 0;
  for (int l = 0; l < W; l += 2) {
    sr += real_parts[l] + real_parts[l + 1];
    si += cross[l] - cross[l + 1];
  }
  for (; i < 2 * len; i += 2) {
    const R xr = x[i], xi = x[i + 1], yr = y[i], yi = y[i + 1];
    sr += xr * yr + xi * yi;
    si += xr * yi - xi * yr;
  }
  re = sr;
  im = si;
}

// conj_dot of x against two columns at once.
template <class R>
TENFERRO_QR_INLINE void conj_dot_two(const R* x, const R* y0, const R* y1, std::int64_t len, R& re0,
                                     R& im0, R& re1, R& im1) {
  constexpr int W = kBytes / static_cast<int>(sizeof(R));
  Vec<R, kBytes> real0 = {}, cross0 = {}, real1 = {}, cross1 = {};
  std::int64_t i = 0;
  for (; i + W <= 2 * len; i += W) {
    const Vec<R, kBytes> xv = load<R, kBytes>(x + i);
    const Vec<R, kBytes> a = load<R, kBytes>(y0 + i), b = load<R, kBytes>(y1 + i);
    real0 += xv * a;
    cross0 += xv * swap_pairs<R>(a);
    real1 += xv * b;
    cross1 += xv * swap_pairs<R>(b);
  }
  R s0r = 0, s0i = 0, s1r = 0, s1i = 0;
  for (int l = 0; l < W; l += 2) {
    s0r += real0[l] + real0[l + 1];
    s0i += cross0[l] - cross0[l + 1];
    s1r += real1[l] + real1[l + 1];
    s1i += cross1[l] - cross1[l + 1];
  }
  for (; i < 2 * len; i += 2) {
    const R xr = x[i], xi = x[i + 1];
    s0r += xr * y0[i] + xi * y0[i + 1];
    s0i += xr * y0[i + 1] - xi * y0[i];
    s1r += xr * y1[i] + xi * y1[i + 1];
    s1i += xr * y1[i + 1] - xi * y1[i];
  }
  re0 = s0r;
  im0 = s0i;
  re1 = s1r;
  im1 = s1i;
}

// y_i -= t x_i, i < len (complex entries and t): y -= tr x + ti (-x_im, x_re).
template <class R>
TENFERRO_QR_INLINE void subtract_scaled_complex(R tr, R ti, const R* x, R* y, std::int64_t len) {
  constexpr int W = kBytes / static_cast<int>(sizeof(R));
  Vec<R, kBytes> signs;
  for (int l = 0; l < W; ++l) signs[l] = (l % 2 == 0) ? -ti : ti;
  std::int64_t i = 0;
  for (; i + W <= 2 * len; i += W) {
    const Vec<R, kBytes> xv = load<R, kBytes>(x + i);
    store<R, kBytes>(y + i, load<R, kBytes>(y + i) - (tr * xv + signs * swap_pairs<R>(xv)));
  }
  for (; i < 2 * len; i += 2) {
    const R xr = x[i], xi = x[i + 1];
    y[i] -= tr * xr - ti * xi;
    y[i + 1] -= tr * xi + ti * xr;
  }
}

// x_i *= s, i < len (complex).
template <class R>
void scale_complex(R sr, R si, R* x, std::int64_t len) {
  for (std::int64_t i = 0; i < len; ++i) {
    const R xr = x[2 * i], xi = x[2 * i + 1];
    x[2 * i] = sr * xr - si * xi;
    x[2 * i + 1] = sr * xi + si * xr;
  }
}

// Applies I - t v v^H from the left to columns [c0, c1) of rows [j, m) (zlarf), v = (1, x[1],
// ...): per column w = v^H y, y -= t w v. Two columns per pass share the loads of v and keep two
// dot products in flight.
template <class R>
void reflect_complex(const R* x, R tr, R ti, R* a, std::int64_t m, std::int64_t j, std::int64_t c0,
                     std::int64_t c1) {
  const std::int64_t len = m - j - 1;
  const auto update = [&](R* y, R wr, R wi) {
    wr += y[0];
    wi += y[1];
    const R sr = tr * wr - ti * wi, si = tr * wi + ti * wr;  // t w
    y[0] -= sr;
    y[1] -= si;
    subtract_scaled_complex(sr, si, x + 2, y + 2, len);
  };
  std::int64_t c = c0;
  for (; c + 1 < c1; c += 2) {
    R* y0 = a + 2 * (j + c * m);
    R* y1 = y0 + 2 * m;
    R w0r = 0, w0i = 0, w1r = 0, w1i = 0;
    conj_dot_two(x + 2, y0 + 2, y1 + 2, len, w0r, w0i, w1r, w1i);
    update(y0, w0r, w0i);
    update(y1, w1r, w1i);
  }
  if (c < c1) {
    R* y = a + 2 * (j + c * m);
    R wr = 0, wi = 0;
    conj_dot(x + 2, y + 2, len, wr, wi);
    update(y, wr, wi);
  }
}

template <class R>
bool factor_complex(std::int64_t m, std::int64_t n, R* a, R* tau) {
  const std::int64_t k = m < n ? m : n;
  for (std::int64_t j = 0; j < k; ++j) {
    R* x = a + 2 * (j + j * m);
    const std::int64_t len = m - j - 1;
    const R alphr = x[0], alphi = x[1];
    const R below = dot(x + 2, x + 2, 2 * len);  // sum |x_i|^2
    if (below == 0) {
      for (std::int64_t i = 2; i < 2 * (len + 1); ++i)
        if (x[i] != 0) return false;  // squares underflowed
      if (alphi == 0) {               // H = I, as zlarfg
        tau[2 * j] = tau[2 * j + 1] = 0;
        continue;
      }
    }
    const R norm2 = alphr * alphr + alphi * alphi + below;
    if (!Squares<R>::carried(norm2)) return false;
    const R beta = -with_sign_of(square_root(norm2), alphr);
    const R tr = (beta - alphr) / beta, ti = -alphi / beta;
    tau[2 * j] = tr;
    tau[2 * j + 1] = ti;
    const R dr = alphr - beta, di = alphi, d2 = dr * dr + di * di;  // 1 / (alpha - beta)
    scale_complex(dr / d2, -di / d2, x + 2, len);
    x[0] = beta;
    x[1] = 0;
    reflect_complex(x, tr, -ti, a, m, j, j + 1, n);  // H^H: conj(tau)
  }
  return true;
}

template <class R>
void form_q_complex(std::int64_t m, std::int64_t q_cols, std::int64_t k, R* a, const R* tau) {
  for (std::int64_t j = k; j < q_cols; ++j) {
    fill(a + 2 * j * m, 2 * m, R(0));
    a[2 * (j + j * m)] = 1;
  }
  for (std::int64_t i = k - 1; i >= 0; --i) {
    R* x = a + 2 * (i + i * m);
    const std::int64_t len = m - i - 1;
    const R tr = tau[2 * i], ti = tau[2 * i + 1];
    if (i < q_cols - 1) {
      x[0] = 1;
      x[1] = 0;
      reflect_complex(x, tr, ti, a, m, i, i + 1, q_cols);
    }
    scale_complex(-tr, -ti, x + 2, len);
    x[0] = 1 - tr;
    x[1] = -ti;
    fill(a + 2 * i * m, 2 * i, R(0));
  }
}

}  // namespace

#undef TENFERRO_QR_INLINE

#define TENFERRO_HOUSEHOLDER_QR_DEFINE(suffix, R, complex)                                      \
  bool householder_qr_##suffix##_avx2(std::int64_t m, std::int64_t n, R* a, R* tau) {           \
    if constexpr (complex)                                                                      \
      return factor_complex(m, n, a, tau);                                                      \
    else                                                                                        \
      return factor(m, n, a, tau);                                                              \
  }                                                                                             \
  void householder_q_##suffix##_avx2(std::int64_t m, std::int64_t q_cols, std::int64_t k, R* a, \
                                     const R* tau) {                                            \
    if constexpr (complex)                                                                      \
      form_q_complex(m, q_cols, k, a, tau);                                                     \
    else                                                                                        \
      form_q(m, q_cols, k, a, tau);                                                             \
  }
TENFERRO_HOUSEHOLDER_QR_KINDS(TENFERRO_HOUSEHOLDER_QR_DEFINE)
#undef TENFERRO_HOUSEHOLDER_QR_DEFINE

}  // namespace tenferro::cpu_blas::isa
