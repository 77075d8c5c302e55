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
  constexpr T kEps = std::numeric_limits<T>::epsilon();
  constexpr T kTiny = std::numeric_limits<T>::min() / (kEps * kEps);
  constexpr T kHuge = 1 / kTiny;
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
    if (!(below >= kTiny && below <= kHuge && alpha2 <= kHuge)) return false;
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
    if (i < q_cols - 1) {
      x[0] = 1;
      reflect(x, tau[i], a, m, i, i + 1, q_cols);
    }
    for (std::int64_t l = 1; l <= len; ++l) x[l] *= -tau[i];
    x[0] = 1 - tau[i];
    fill(a + i * m, i, T(0));
  }
}

}  // namespace

#undef TENFERRO_QR_INLINE

bool householder_qr_f32_avx2(std::int64_t m, std::int64_t n, float* a, float* tau) {
  return factor(m, n, a, tau);
}
bool householder_qr_f64_avx2(std::int64_t m, std::int64_t n, double* a, double* tau) {
  return factor(m, n, a, tau);
}
void householder_q_f32_avx2(std::int64_t m, std::int64_t q_cols, std::int64_t k, float* a,
                            const float* tau) {
  form_q(m, q_cols, k, a, tau);
}
void householder_q_f64_avx2(std::int64_t m, std::int64_t q_cols, std::int64_t k, double* a,
                            const double* tau) {
  form_q(m, q_cols, k, a, tau);
}

}  // namespace tenferro::cpu_blas::isa
