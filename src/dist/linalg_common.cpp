#include "dist/linalg_common.hpp"

#include "dist/collective.hpp"

#include <cmath>
#include <complex>
#include <cstring>

namespace tenferro::dist::detail {

std::string describe_call(std::string_view op, std::initializer_list<const Matrix*> ms) {
  std::string s(op);
  for (const Matrix* m : ms) {
    s += " " + std::string(dtype_name(m->dtype())) + "[" + std::to_string(m->rows()) + "x" +
         std::to_string(m->cols()) + " b" + std::to_string(m->layout().block_rows) + "x" +
         std::to_string(m->layout().block_cols) + " g" + std::to_string(m->layout().grid.rows) +
         "x" + std::to_string(m->layout().grid.cols) + "]";
  }
  return s;
}

void require_same_layout(std::string_view op, const Matrix& a, const Matrix& b) {
  if (a.context() != b.context()) {
    throw_error(ErrorKind::ContextMismatch, ErrorPhase::Input, std::string(op),
                "the operands belong to different distributed contexts");
  }
  if (a.dtype() != b.dtype()) {
    throw_validation(std::string(op),
                     "the operands' dtypes differ: " + std::string(dtype_name(a.dtype())) +
                         " and " + std::string(dtype_name(b.dtype())));
  }
  const BlockCyclic &la = a.layout(), &lb = b.layout();
  if (la.block_rows != lb.block_rows || la.block_cols != lb.block_cols ||
      la.grid.rows != lb.grid.rows || la.grid.cols != lb.grid.cols) {
    throw_validation(std::string(op),
                     "the operands' block-cyclic layouts differ; scatter them "
                     "with the same BlockCyclic");
  }
}

void require_square(std::string_view op, const Matrix& a) {
  if (a.rows() != a.cols()) {
    throw_validation(std::string(op), "needs a square matrix, got " + std::to_string(a.rows()) +
                                          " x " + std::to_string(a.cols()));
  }
}

void require_square_blocks(std::string_view op, const Matrix& a, std::string_view driver) {
  if (a.layout().block_rows != a.layout().block_cols) {
    throw_validation(std::string(op), std::string(driver) + " needs square blocks, got " +
                                          std::to_string(a.layout().block_rows) + " x " +
                                          std::to_string(a.layout().block_cols));
  }
}

void check_part(std::string_view op, const Matrix& m, const Grid& g, const char* name,
                Reads reads) {
  const Tensor& part = m.local();
  const std::int64_t rows = local_extent(m.rows(), m.layout().block_rows, g.my_row, g.rows);
  const std::int64_t cols = local_extent(m.cols(), m.layout().block_cols, g.my_col, g.cols);
  if (part.rank() != 2 || part.shape()[0] != rows || part.shape()[1] != cols ||
      !part.is_compact()) {
    throw_validation(std::string(op),
                     std::string("this rank's part of ") + name + " is " +
                         shape_to_string(part.shape()) + (part.is_compact() ? "" : " strided") +
                         ", its layout gives this rank a compact [" + std::to_string(rows) + ", " +
                         std::to_string(cols) +
                         "] (was Matrix::local() replaced? build matrices with scatter or "
                         "from_local)");
  }
  if (reads == Reads::Nothing) return;
  const bool finite = by_dtype(m.dtype(), [&]<typename T>() {
    const T* data = data_of<T>(part);
    bool all = true;
    for_each_local_run(
        m.rows(), m.cols(), m.layout(), g.my_row, g.my_col,
        [&](std::int64_t gi, std::int64_t gj, std::int64_t li, std::int64_t lj, std::int64_t n) {
          for (std::int64_t k = 0; k < n && all; ++k) {
            if (reads == Reads::Lower && gi + k < gj) continue;
            const T x = data[lj * rows + li + k];
            all = std::isfinite(std::real(x)) && std::isfinite(std::imag(x));
          }
        });
    return all;
  });
  if (!finite) {
    throw_error(ErrorKind::Numerical, ErrorPhase::Input, std::string(op),
                std::string("input ") + name +
                    " contains a non-finite value (NaN or Inf); ScaLAPACK was not called");
  }
}

void check_info(const Context::Impl& c, std::string_view op, int info,
                const std::string& numerical) {
  agreed(c, [&] {
    if (info > 0) {
      throw_error(ErrorKind::Numerical, ErrorPhase::Execute, std::string(op), numerical);
    }
    if (info < 0) {
      throw_error(ErrorKind::Backend, ErrorPhase::Execute, std::string(op),
                  "ScaLAPACK rejected argument " + std::to_string(-info));
    }
  });
}

Descriptor desc_of(const Grid& g, const Matrix& m) {
  return describe(g, m.rows(), m.cols(), m.layout().block_rows, m.layout().block_cols,
                  m.local().rank() == 2 ? m.local().shape()[0] : 1);
}

Matrix with_local(const Matrix& like, std::int64_t rows, std::int64_t cols, Tensor local) {
  return Matrix(Matrix::Parts{like.context(), rows, cols, like.layout(), std::move(local)});
}

Matrix leading(const Matrix& m, std::int64_t rows, std::int64_t cols, const Grid& g) {
  Tensor part = local_part(m.dtype(), rows, cols, m.layout(), g);
  const std::int64_t from_rows = m.local().shape()[0];
  const std::int64_t to_rows = part.shape()[0], to_cols = part.shape()[1];
  const std::size_t es = dtype_size(m.dtype());
  const auto* src = static_cast<const std::byte*>(m.local().raw_data());
  auto* dst = static_cast<std::byte*>(part.raw_data());
  for (std::int64_t j = 0; to_rows > 0 && j < to_cols; ++j) {
    std::memcpy(dst + static_cast<std::size_t>(j * to_rows) * es,
                src + static_cast<std::size_t>(j * from_rows) * es,
                static_cast<std::size_t>(to_rows) * es);
  }
  return with_local(m, rows, cols, std::move(part));
}

}  // namespace tenferro::dist::detail
