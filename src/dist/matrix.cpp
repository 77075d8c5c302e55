// dist::Matrix, scatter, gather and broadcast: the explicit, counted movements between the
// root's host tensors and the ranks' block-cyclic parts (MPI_Scatterv / MPI_Gatherv of
// packed parts; ScaLAPACK's redistribution routines are not needed for one-to-all moves).
#include <cstring>
#include <string>
#include <vector>

#include "dist/collective.hpp"
#include "dist/matrix_impl.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::dist {

Matrix::Matrix(Parts parts)
    : ctx_(std::move(parts.ctx)),
      rows_(parts.rows),
      cols_(parts.cols),
      layout_(parts.layout),
      local_(std::move(parts.local)) {}

namespace detail {

BlockCyclic resolve_layout(const Context::Impl& ctx, BlockCyclic layout) {
  if (layout.block_rows < 1 || layout.block_cols < 1) {
    throw_validation("dist", "block sizes must be >= 1, got " + std::to_string(layout.block_rows) +
                                 " x " + std::to_string(layout.block_cols));
  }
  layout.grid = choose_grid(ctx.size, layout.grid);
  return layout;
}

Tensor local_part(DType dtype, std::int64_t rows, std::int64_t cols, const BlockCyclic& layout,
                  const Grid& grid) {
  return Tensor::zeros(dtype, {local_extent(rows, layout.block_rows, grid.my_row, grid.rows),
                               local_extent(cols, layout.block_cols, grid.my_col, grid.cols)});
}

}  // namespace detail

namespace {

using detail::Grid;

std::string layout_text(const BlockCyclic& l) {
  return std::to_string(l.block_rows) + "x" + std::to_string(l.block_cols) + " blocks on " +
         std::to_string(l.grid.rows) + "x" + std::to_string(l.grid.cols);
}

// Each rank's grid position, on every rank.
std::vector<std::pair<int, int>> positions(const Context::Impl& ctx, const Grid& grid) {
  const int mine[2] = {grid.my_row, grid.my_col};
  std::vector<int> all(2 * static_cast<std::size_t>(ctx.size));
  MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, ctx.comm);
  std::vector<std::pair<int, int>> out;
  for (int r = 0; r < ctx.size; ++r) out.emplace_back(all[2 * r], all[2 * r + 1]);
  return out;
}

// Byte counts and displacements of every rank's part, for Scatterv/Gatherv.
struct Counts {
  std::vector<int> bytes, offsets;
  std::size_t total = 0;
};
Counts part_counts(const std::vector<std::pair<int, int>>& where, std::int64_t rows,
                   std::int64_t cols, const BlockCyclic& l, std::size_t element) {
  Counts c;
  for (const auto& [prow, pcol] : where) {
    const std::int64_t n = detail::local_extent(rows, l.block_rows, prow, l.grid.rows) *
                           detail::local_extent(cols, l.block_cols, pcol, l.grid.cols);
    c.offsets.push_back(detail::as_int(static_cast<std::int64_t>(c.total), "scatter offset"));
    c.bytes.push_back(
        detail::as_int(n * static_cast<std::int64_t>(element), "bytes of one rank's part"));
    c.total += static_cast<std::size_t>(c.bytes.back());
  }
  return c;
}

}  // namespace

LocalPart local_part_of(const std::shared_ptr<Context>& ctx, std::int64_t rows, std::int64_t cols,
                        BlockCyclic layout) {
  Context::Impl& c = ctx->impl();
  detail::check_same_call(c, "dist.local_part_of",
                          "local_part_of " + std::to_string(rows) + "x" + std::to_string(cols) +
                              " " + layout_text(layout));
  layout = detail::agreed(c, [&] {
    if (rows < 0 || cols < 0) {
      throw_validation("dist.local_part_of",
                       "negative extent " + std::to_string(rows) + " x " + std::to_string(cols));
    }
    return detail::resolve_layout(c, layout);
  });
  const Grid g = detail::grid_of(c, layout.grid);
  return LocalPart{layout, g.my_row, g.my_col,
                   detail::local_extent(rows, layout.block_rows, g.my_row, g.rows),
                   detail::local_extent(cols, layout.block_cols, g.my_col, g.cols)};
}

Matrix from_local(const std::shared_ptr<Context>& ctx, std::int64_t rows, std::int64_t cols,
                  const Tensor& local, BlockCyclic layout) {
  Context::Impl& c = ctx->impl();
  detail::check_same_call(c, "dist.from_local",
                          "from_local " + std::string(dtype_name(local.dtype())) + " " +
                              std::to_string(rows) + "x" + std::to_string(cols) + " " +
                              layout_text(layout));
  const LocalPart part = local_part_of(ctx, rows, cols, layout);
  detail::agreed(c, [&] {
    if (local.shape() != Shape{part.rows, part.cols}) {
      throw_validation("dist.from_local", "this rank's part must be " +
                                              shape_to_string(Shape{part.rows, part.cols}) +
                                              " (grid position " + std::to_string(part.grid_row) +
                                              ", " + std::to_string(part.grid_col) + "), got " +
                                              shape_to_string(local.shape()));
    }
  });
  return Matrix(Matrix::Parts{ctx, rows, cols, part.layout, local.contiguous()});
}

Matrix scatter(const std::shared_ptr<Context>& ctx, const Tensor& matrix, BlockCyclic layout) {
  Context::Impl& c = ctx->impl();
  detail::check_same_call(
      c, "dist.scatter",
      "scatter " + std::to_string(layout.block_rows) + "x" + std::to_string(layout.block_cols) +
          " grid " + std::to_string(layout.grid.rows) + "x" + std::to_string(layout.grid.cols));
  layout = detail::agreed(c, [&] {
    if (c.rank == 0 && matrix.rank() != 2) {
      throw_validation("dist.scatter", "the root's tensor must be a matrix, got shape " +
                                           shape_to_string(matrix.shape()));
    }
    return detail::resolve_layout(c, layout);
  });
  std::int64_t header[3] = {0, 0, 0};
  if (c.rank == 0) header[0] = static_cast<std::int64_t>(matrix.dtype());
  if (c.rank == 0) header[1] = matrix.shape()[0], header[2] = matrix.shape()[1];
  MPI_Bcast(header, 3, MPI_INT64_T, 0, c.comm);
  const auto dtype = static_cast<DType>(header[0]);
  const std::int64_t rows = header[1], cols = header[2];
  const Grid grid = detail::grid_of(c, layout.grid);
  const auto where = positions(c, grid);
  const std::size_t element = dtype_size(dtype);
  const Counts counts = part_counts(where, rows, cols, layout, element);

  std::vector<std::byte> packed;
  if (c.rank == 0) {
    const Tensor whole = matrix.contiguous();
    const auto* src = whole.raw_data();
    packed.resize(counts.total);
    for (int r = 0; r < c.size; ++r) {
      std::byte* dst = packed.data() + counts.offsets[static_cast<std::size_t>(r)];
      const auto [prow, pcol] = where[static_cast<std::size_t>(r)];
      const std::int64_t lrows = detail::local_extent(rows, layout.block_rows, prow, grid.rows);
      detail::for_each_local_run(
          rows, cols, layout, prow, pcol,
          [&](std::int64_t gi, std::int64_t gj, std::int64_t li, std::int64_t lj, std::int64_t n) {
            std::memcpy(dst + (lj * lrows + li) * element, src + (gj * rows + gi) * element,
                        static_cast<std::size_t>(n) * element);
          });
    }
    c.scatters.fetch_add(1);
    c.bytes_sent.fetch_add(counts.total);
  }
  Tensor local = detail::local_part(dtype, rows, cols, layout, grid);
  MPI_Scatterv(packed.data(), counts.bytes.data(), counts.offsets.data(), MPI_BYTE,
               local.raw_data(), counts.bytes[static_cast<std::size_t>(c.rank)], MPI_BYTE, 0,
               c.comm);
  return Matrix(Matrix::Parts{ctx, rows, cols, layout, std::move(local)});
}

Tensor gather(const Matrix& m) {
  Context::Impl& c = m.context()->impl();
  detail::check_same_call(c, "dist.gather",
                          "gather " + std::string(dtype_name(m.dtype())) + " " +
                              std::to_string(m.rows()) + "x" + std::to_string(m.cols()) + " " +
                              layout_text(m.layout()));
  const Grid grid = detail::grid_of(c, m.layout().grid);
  const auto where = positions(c, grid);
  const std::size_t element = dtype_size(m.dtype());
  const Counts counts = part_counts(where, m.rows(), m.cols(), m.layout(), element);
  std::vector<std::byte> packed(c.rank == 0 ? counts.total : 0);
  MPI_Gatherv(m.local().raw_data(), counts.bytes[static_cast<std::size_t>(c.rank)], MPI_BYTE,
              packed.data(), counts.bytes.data(), counts.offsets.data(), MPI_BYTE, 0, c.comm);
  if (c.rank != 0) return Tensor::zeros(m.dtype(), {0, 0});
  Tensor whole = Tensor::zeros(m.dtype(), {m.rows(), m.cols()});
  std::byte* dst = whole.raw_data();
  for (int r = 0; r < c.size; ++r) {
    const std::byte* src = packed.data() + counts.offsets[static_cast<std::size_t>(r)];
    const auto [prow, pcol] = where[static_cast<std::size_t>(r)];
    const std::int64_t lrows =
        detail::local_extent(m.rows(), m.layout().block_rows, prow, grid.rows);
    detail::for_each_local_run(
        m.rows(), m.cols(), m.layout(), prow, pcol,
        [&](std::int64_t gi, std::int64_t gj, std::int64_t li, std::int64_t lj, std::int64_t n) {
          std::memcpy(dst + (gj * m.rows() + gi) * element, src + (lj * lrows + li) * element,
                      static_cast<std::size_t>(n) * element);
        });
  }
  c.gathers.fetch_add(1);
  return whole;
}

Tensor broadcast(const std::shared_ptr<Context>& ctx, const Tensor& on_root) {
  Context::Impl& c = ctx->impl();
  detail::check_same_call(c, "dist.broadcast", "broadcast");
  std::vector<std::int64_t> header;
  const Tensor compact = c.rank == 0 ? on_root.contiguous() : Tensor();
  if (c.rank == 0) {
    header.push_back(static_cast<std::int64_t>(compact.dtype()));
    for (std::int64_t e : compact.shape()) header.push_back(e);
  }
  int length = static_cast<int>(header.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, c.comm);
  header.resize(static_cast<std::size_t>(length));
  MPI_Bcast(header.data(), length, MPI_INT64_T, 0, c.comm);
  Tensor out = c.rank == 0 ? compact
                           : Tensor::zeros(static_cast<DType>(header[0]),
                                           Shape(header.begin() + 1, header.end()));
  // In chunks: MPI counts are int.
  const std::size_t bytes = out.nbytes();
  constexpr std::size_t kChunk = std::size_t{1} << 30;
  for (std::size_t done = 0; done < bytes; done += kChunk) {
    MPI_Bcast(out.raw_data() + done, static_cast<int>(std::min(kChunk, bytes - done)), MPI_BYTE, 0,
              c.comm);
  }
  if (c.rank == 0) {
    c.broadcasts.fetch_add(1);
    c.bytes_sent.fetch_add(bytes * static_cast<std::size_t>(c.size - 1));
  }
  return out;
}

}  // namespace tenferro::dist
