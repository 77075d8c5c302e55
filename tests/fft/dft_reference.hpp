// Test-only reference for the FFT tests: a naive O(n^2) DFT in complex<double> over
// column-major data, built up into NumPy's fft/ifft/rfft/irfft and their n-axis forms, plus
// helpers to make inputs and compare results.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include "tenferro/core/tensor.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace fft_test {

using tenferro::DType;
using tenferro::Shape;
using cd = std::complex<double>;

// Column-major compact data in double precision, complex or not.
struct Dense {
  Shape shape;
  std::vector<cd> data;
};

inline std::int64_t numel(const Shape& s) {
  std::int64_t n = 1;
  for (auto e : s) n *= e;
  return n;
}

// A tensor of `dtype`/`shape` with values in [-1, 1) (both parts for complex dtypes).
inline tenferro::Tensor random_tensor(DType dtype, const Shape& shape, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto n = numel(shape);
  return tenferro::visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> v(static_cast<std::size_t>(n));
    for (auto& x : v) {
      if constexpr (std::is_floating_point_v<T>) {
        x = static_cast<T>(u(gen));
      } else {
        using R = typename T::value_type;
        const double re = u(gen);
        x = T(static_cast<R>(re), static_cast<R>(u(gen)));
      }
    }
    return tenferro::Tensor::from_col_major<T>(shape, std::span<const T>(v));
  });
}

// Any tensor (any layout) -> Dense, element for element in logical order.
inline Dense to_dense(const tenferro::Tensor& t) {
  const tenferro::Tensor c = t.contiguous();
  Dense d{c.shape(), {}};
  tenferro::visit_dtype(c.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (const T& x : c.to_vector<T>()) d.data.push_back(cd(x));
  });
  return d;
}

// Unscaled DFT along `axis` with logical length n (the input is zero-padded or truncated to
// n): out[k] = sum_j in[j] exp(sign * 2 pi i j k / n), sign = -1 forward, +1 inverse.
inline Dense dft_axis(const Dense& in, std::int64_t axis, std::int64_t n, bool inverse) {
  const auto len = in.shape[axis];
  std::int64_t inner = 1, outer = 1;
  for (std::int64_t a = 0; a < axis; ++a) inner *= in.shape[a];
  for (std::size_t a = axis + 1; a < in.shape.size(); ++a) outer *= in.shape[a];
  Dense out{in.shape, {}};
  out.shape[axis] = n;
  out.data.assign(static_cast<std::size_t>(numel(out.shape)), cd(0));
  const double sign = inverse ? 1.0 : -1.0;
  const auto used = std::min(len, n);
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      for (std::int64_t k = 0; k < n; ++k) {
        cd sum(0);
        for (std::int64_t j = 0; j < used; ++j) {
          const double angle = sign * 2.0 * std::numbers::pi * static_cast<double>((j * k) % n) /
                               static_cast<double>(n);
          sum += in.data[i + j * inner + o * inner * len] * cd(std::cos(angle), std::sin(angle));
        }
        out.data[i + k * inner + o * inner * n] = sum;
      }
    }
  }
  return out;
}

// Keeps the first `keep` entries along `axis`.
inline Dense take_leading(const Dense& in, std::int64_t axis, std::int64_t keep) {
  std::int64_t inner = 1, outer = 1;
  for (std::int64_t a = 0; a < axis; ++a) inner *= in.shape[a];
  for (std::size_t a = axis + 1; a < in.shape.size(); ++a) outer *= in.shape[a];
  const auto len = in.shape[axis];
  Dense out{in.shape, {}};
  out.shape[axis] = keep;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t k = 0; k < keep; ++k)
      for (std::int64_t i = 0; i < inner; ++i)
        out.data.push_back(in.data[i + k * inner + o * inner * len]);
  // push order above is (o, k, i): i fastest, then k, then o -> column-major.
  return out;
}

// NumPy's irfft along one axis: the input is truncated/padded to n/2+1 bins, extended by
// Hermitian symmetry to n and inverse-transformed; the real part is the result.
inline Dense irfft_axis(const Dense& in, std::int64_t axis, std::int64_t n) {
  const auto half = n / 2 + 1;
  const auto len = in.shape[axis];
  std::int64_t inner = 1, outer = 1;
  for (std::int64_t a = 0; a < axis; ++a) inner *= in.shape[a];
  for (std::size_t a = axis + 1; a < in.shape.size(); ++a) outer *= in.shape[a];
  Dense full{in.shape, {}};
  full.shape[axis] = n;
  full.data.assign(static_cast<std::size_t>(numel(full.shape)), cd(0));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i)
      for (std::int64_t k = 0; k < n; ++k) {
        const std::int64_t src = k < half ? k : n - k;
        cd v = src < len ? in.data[i + src * inner + o * inner * len] : cd(0);
        if (k >= half) v = std::conj(v);
        full.data[i + k * inner + o * inner * n] = v;
      }
  Dense out = dft_axis(full, axis, n, /*inverse=*/true);
  for (auto& v : out.data) v = cd(v.real(), 0.0);
  return out;
}

inline double norm_scale(tenferro::fft::Norm norm, bool forward, double n) {
  switch (norm) {
    case tenferro::fft::Norm::Backward:
      return forward ? 1.0 : 1.0 / n;
    case tenferro::fft::Norm::Forward:
      return forward ? 1.0 / n : 1.0;
    case tenferro::fft::Norm::Ortho:
      break;
  }
  return 1.0 / std::sqrt(n);
}

inline Dense scaled(Dense d, double s) {
  for (auto& v : d.data) v *= s;
  return d;
}

// Reference n-axis transforms with NumPy's order of passes (axes normalized, s resolved).
inline Dense ref_fftn(Dense x, const std::vector<std::int64_t>& axes,
                      const std::vector<std::int64_t>& s, bool inverse, tenferro::fft::Norm norm) {
  double n = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    x = dft_axis(x, axes[i], s[i], inverse);
    n *= static_cast<double>(s[i]);
  }
  return scaled(std::move(x), norm_scale(norm, !inverse, n));
}
inline Dense ref_rfftn(Dense x, const std::vector<std::int64_t>& axes,
                       const std::vector<std::int64_t>& s, tenferro::fft::Norm norm) {
  const auto last = axes.back();
  x = take_leading(dft_axis(x, last, s.back(), false), last, s.back() / 2 + 1);
  double n = static_cast<double>(s.back());
  for (std::size_t i = 0; i + 1 < axes.size(); ++i) {
    x = dft_axis(x, axes[i], s[i], false);
    n *= static_cast<double>(s[i]);
  }
  return scaled(std::move(x), norm_scale(norm, true, n));
}
inline Dense ref_irfftn(Dense x, const std::vector<std::int64_t>& axes,
                        const std::vector<std::int64_t>& s, tenferro::fft::Norm norm) {
  double n = 1;
  for (std::size_t i = 0; i + 1 < axes.size(); ++i) {
    x = dft_axis(x, axes[i], s[i], true);
    n *= static_cast<double>(s[i]);
  }
  x = irfft_axis(x, axes.back(), s.back());
  n *= static_cast<double>(s.back());
  return scaled(std::move(x), norm_scale(norm, false, n));
}

// Tolerance relative to the largest reference magnitude, by precision of the result.
inline double tolerance(DType d) {
  return tenferro::is_double(d) ? 1e-12 : 2e-6;
}

inline void expect_close(const tenferro::EagerTensor& got, const Dense& want, DType dtype,
                         const std::string& what) {
  ASSERT_EQ(got.dtype(), dtype) << what;
  ASSERT_EQ(got.shape(), want.shape) << what;
  const Dense g = to_dense(got.download());
  double scale = 1.0, worst = 0.0;
  for (std::size_t i = 0; i < want.data.size(); ++i) {
    scale = std::max(scale, std::abs(want.data[i]));
    worst = std::max(worst, std::abs(g.data[i] - want.data[i]));
  }
  EXPECT_LE(worst, tolerance(dtype) * scale) << what;
}

inline const char* dtype_str(DType d) {
  return tenferro::dtype_name(d).data();
}

}  // namespace fft_test
