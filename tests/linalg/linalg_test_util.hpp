// Helpers for the linalg tests: random inputs of every dtype, batched host matrices in
// complex<double> for checking by reconstruction, and tolerances derived from the dtype's
// machine epsilon (never loosened per test).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tenferro/linalg.hpp"
#include "tenferro/tenferro.hpp"

namespace linalg_test {

using tenferro::DType;
using tenferro::EagerTensor;
using tenferro::Shape;
using tenferro::Tensor;
using cd = std::complex<double>;

// A batch of matrices [rows, cols, batch...] (or vectors [rows, batch...] with cols = 1), widened
// to complex<double>; batch entries in column-major order.
struct Mats {
  std::int64_t rows = 0, cols = 0, batch = 1;
  std::vector<cd> data;
  cd& at(std::int64_t b, std::int64_t i, std::int64_t j) { return data[(b * cols + j) * rows + i]; }
  cd at(std::int64_t b, std::int64_t i, std::int64_t j) const {
    return data[(b * cols + j) * rows + i];
  }
};

inline std::vector<cd> widen(const Tensor& host) {
  return tenferro::visit_dtype(host.dtype(), [&](auto zero) {
    using T = decltype(zero);
    std::vector<cd> out;
    for (const T& v : host.to_vector<T>()) out.emplace_back(v);
    return out;
  });
}

inline std::int64_t product(const Shape& s, std::size_t from) {
  std::int64_t p = 1;
  for (std::size_t i = from; i < s.size(); ++i) p *= s[i];
  return p;
}

// Matrices of a [rows, cols, batch...] value.
inline Mats matrices(const EagerTensor& t) {
  const Tensor host = t.download();
  Mats m{host.shape().at(0), host.shape().at(1), product(host.shape(), 2), widen(host)};
  return m;
}
// A [rows, batch...] value as one-column matrices (`batch_rank` trailing axes).
inline Mats vectors(const EagerTensor& t) {
  const Tensor host = t.download();
  return Mats{host.shape().at(0), 1, product(host.shape(), 1), widen(host)};
}
// A [batch...] value.
inline std::vector<cd> scalars(const EagerTensor& t) {
  return widen(t.download());
}

inline Mats multiply(const Mats& a, const Mats& b) {
  EXPECT_EQ(a.cols, b.rows);
  EXPECT_EQ(a.batch, b.batch);
  Mats c{a.rows, b.cols, a.batch,
         std::vector<cd>(static_cast<std::size_t>(a.rows * b.cols * a.batch))};
  for (std::int64_t bb = 0; bb < a.batch; ++bb)
    for (std::int64_t j = 0; j < b.cols; ++j)
      for (std::int64_t l = 0; l < a.cols; ++l) {
        const cd blj = b.at(bb, l, j);
        for (std::int64_t i = 0; i < a.rows; ++i) c.at(bb, i, j) += a.at(bb, i, l) * blj;
      }
  return c;
}

inline Mats adjoint(const Mats& a) {
  Mats t{a.cols, a.rows, a.batch, std::vector<cd>(a.data.size())};
  for (std::int64_t b = 0; b < a.batch; ++b)
    for (std::int64_t i = 0; i < a.rows; ++i)
      for (std::int64_t j = 0; j < a.cols; ++j) t.at(b, j, i) = std::conj(a.at(b, i, j));
  return t;
}

inline Mats identity(std::int64_t n, std::int64_t batch) {
  Mats m{n, n, batch, std::vector<cd>(static_cast<std::size_t>(n * n * batch))};
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t i = 0; i < n; ++i) m.at(b, i, i) = 1;
  return m;
}

// Frobenius norm of batch entry b (0 for an empty batch).
inline double norm(const Mats& a, std::int64_t b) {
  if (b >= a.batch) return 0;
  double s = 0;
  for (std::int64_t j = 0; j < a.cols; ++j)
    for (std::int64_t i = 0; i < a.rows; ++i) s += std::norm(a.at(b, i, j));
  return std::sqrt(s);
}
inline double diff_norm(const Mats& a, const Mats& b, std::int64_t bb) {
  double s = 0;
  for (std::int64_t j = 0; j < a.cols; ++j)
    for (std::int64_t i = 0; i < a.rows; ++i) s += std::norm(a.at(bb, i, j) - b.at(bb, i, j));
  return std::sqrt(s);
}

inline double eps(DType d) {
  return tenferro::is_double(d) ? std::numeric_limits<double>::epsilon()
                                : static_cast<double>(std::numeric_limits<float>::epsilon());
}
// Backward-error tolerance for an n-sized factorisation (relative to the input's norm).
inline double tol(DType d, std::int64_t n) {
  return 50.0 * static_cast<double>(std::max<std::int64_t>(n, 1)) * eps(d);
}

// Expects every batch entry of `got` to equal `want` within tol * (scale + 1).
inline void expect_close(const Mats& got, const Mats& want, double tolerance, double scale,
                         const std::string& what) {
  ASSERT_EQ(got.rows, want.rows) << what;
  ASSERT_EQ(got.cols, want.cols) << what;
  ASSERT_EQ(got.batch, want.batch) << what;
  for (std::int64_t b = 0; b < got.batch; ++b) {
    EXPECT_LE(diff_norm(got, want, b), tolerance * (scale + 1.0)) << what << " batch entry " << b;
  }
}

inline Tensor random_tensor(DType dtype, Shape shape, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const std::int64_t n = tenferro::checked_numel(shape);
  return tenferro::visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> values(static_cast<std::size_t>(n));
    for (auto& v : values) {
      if constexpr (tenferro::is_complex(tenferro::dtype_of_v<T>)) {
        const double re = uni(gen), im = uni(gen);
        v = T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
      } else {
        v = static_cast<T>(uni(gen));
      }
    }
    return Tensor::from_col_major<T>(shape, std::span<const T>(values));
  });
}

// A tensor of `dtype` from complex<double> matrices (imaginary parts dropped for real dtypes).
inline Tensor tensor_from(DType dtype, const Shape& shape, const std::vector<cd>& values) {
  return tenferro::visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> out;
    out.reserve(values.size());
    for (const cd& v : values) {
      if constexpr (tenferro::is_complex(tenferro::dtype_of_v<T>)) {
        out.emplace_back(static_cast<typename T::value_type>(v.real()),
                         static_cast<typename T::value_type>(v.imag()));
      } else {
        out.push_back(static_cast<T>(v.real()));
      }
    }
    return Tensor::from_col_major<T>(shape, std::span<const T>(out));
  });
}

inline Shape with_batch(std::initializer_list<std::int64_t> head, const Shape& batch) {
  Shape s(head);
  s.insert(s.end(), batch.begin(), batch.end());
  return s;
}

// The sweep every op is checked over.
inline const std::vector<Shape>& batch_shapes() {
  static const std::vector<Shape> shapes{{}, {3}, {2, 3}, {0}};
  return shapes;
}
struct Size {
  std::int64_t m, n;
};
inline const std::vector<Size>& matrix_sizes() {
  static const std::vector<Size> sizes{{0, 0}, {1, 1}, {4, 4}, {6, 3}, {3, 6}, {3, 0}, {0, 3}};
  return sizes;
}
inline const std::vector<std::int64_t>& square_sizes() {
  static const std::vector<std::int64_t> sizes{0, 1, 2, 5};
  return sizes;
}

inline std::string case_name(DType d, const Shape& batch, std::int64_t m, std::int64_t n) {
  return std::string(tenferro::dtype_name(d)) + " " + std::to_string(m) + "x" + std::to_string(n) +
         " batch " + tenferro::shape_to_string(batch);
}

// The typed error an eager call threw (its first tenferro::Error), or fails the test.
template <class F>
tenferro::Error expect_error(F&& call, tenferro::ErrorKind kind) {
  try {
    call();
  } catch (const std::exception& e) {
    const tenferro::Error* r = tenferro::reason(e);
    if (r == nullptr) {
      ADD_FAILURE() << "untyped exception: " << e.what();
      return tenferro::Error(tenferro::ErrorKind::RuntimeState, tenferro::ErrorPhase::Runtime, "",
                             "");
    }
    EXPECT_EQ(r->kind(), kind) << r->what();
    return *r;
  }
  ADD_FAILURE() << "no error thrown";
  return tenferro::Error(tenferro::ErrorKind::RuntimeState, tenferro::ErrorPhase::Runtime, "", "");
}

}  // namespace linalg_test
