// What every distributed linear-algebra op shares: describing a call for the same-call check,
// validating operands, picking the element type, ScaLAPACK descriptors, info codes as typed
// errors, and masking triangles of a block-cyclic part.
#pragma once

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "core/real_type.hpp"
#include "core/workspace_count.hpp"
#include "dist/matrix_impl.hpp"
#include "dist/scalapack.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::dist::detail {

// "op F64[9x7 b2x2 g1x2] ..." for the same-call check.
std::string describe_call(std::string_view op, std::initializer_list<const Matrix*> ms);

void require_same_layout(std::string_view op, const Matrix& a, const Matrix& b);
void require_square(std::string_view op, const Matrix& a);
// The drivers that need block_rows == block_cols (p?syevd, p?gesvd, p?getrf, p?potrf, p?gesv).
void require_square_blocks(std::string_view op, const Matrix& a, std::string_view driver);

// The checks of this rank's part that can fail on one rank alone, so they run inside
// detail::agreed once the grid exists:
// - the part has the shape the layout gives this rank and is compact (Matrix::local() is
//   mutable; a part that does not fit makes ScaLAPACK reject its descriptor on this rank while
//   the others wait in a collective);
// - unless `reads` is Reads::Nothing, no NaN or Inf where the driver reads (the lower triangle
//   for Reads::Lower): ScaLAPACK and ELPA loop, hang across ranks or abort the job on them, so
//   they are refused up front, as linalg:: does on one node.
enum class Reads { Nothing, Whole, Lower };
void check_part(std::string_view op, const Matrix& m, const Grid& g, const char* name, Reads reads);

// A Numerical error (`numerical`) for info > 0, a Backend error for an argument ScaLAPACK
// rejected: agreed, so every rank throws the same one even where a driver's info is not the
// same on every rank (p?syevd's is not documented to be). One allreduce, after the driver.
void check_info(const Context::Impl& c, std::string_view op, int info,
                const std::string& numerical);

Descriptor desc_of(const Grid& g, const Matrix& m);

// A matrix of `like`'s context and layout with the given extent and local part.
Matrix with_local(const Matrix& like, std::int64_t rows, std::int64_t cols, Tensor local);

// The rows x cols leading sub-matrix of `m` in the same layout: the global-to-local map of a
// row or column does not depend on the extent, so its part is the leading block of m's part.
Matrix leading(const Matrix& m, std::int64_t rows, std::int64_t cols, const Grid& g);

// Runs `body.template operator()<T>()` for the element type.
template <typename F>
auto by_dtype(DType dtype, F&& body) {
  switch (dtype) {
    case DType::F32:
      return body.template operator()<float>();
    case DType::F64:
      return body.template operator()<double>();
    case DType::C32:
      return body.template operator()<c32>();
    case DType::C64:
      return body.template operator()<c64>();
  }
  throw_validation("dist", "unknown dtype");
}

template <typename T>
T* data_of(Tensor& t) {
  return reinterpret_cast<T*>(t.raw_data());
}
template <typename T>
const T* data_of(const Tensor& t) {
  return reinterpret_cast<const T*>(t.raw_data());
}

// Keeps one triangle of this rank's part: Upper keeps row <= col, Lower row >= col,
// StrictLower row > col, UnitLower row > col with ones on the diagonal (LU's L); the rest
// becomes zero.
enum class Triangle { Upper, Lower, StrictLower, UnitLower };
template <typename T>
void keep_triangle(Matrix& m, const Grid& g, Triangle keep) {
  T* data = data_of<T>(m.local());
  const std::int64_t lrows = m.local().shape()[0];
  for_each_local_run(
      m.rows(), m.cols(), m.layout(), g.my_row, g.my_col,
      [&](std::int64_t gi, std::int64_t gj, std::int64_t li, std::int64_t lj, std::int64_t n) {
        for (std::int64_t k = 0; k < n; ++k) {
          T& x = data[lj * lrows + li + k];
          const std::int64_t i = gi + k;
          if (keep == Triangle::Upper ? i > gj : i < gj) x = T(0);
          if (keep == Triangle::StrictLower && i == gj) x = T(0);
          if (keep == Triangle::UnitLower && i == gj) x = T(1);
        }
      });
}

}  // namespace tenferro::dist::detail
