// Process grids and block-cyclic bookkeeping shared by scatter/gather and the ScaLAPACK calls.
#include <algorithm>
#include <climits>
#include <string>

#include "dist/blacs.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::dist::detail {

int as_int(std::int64_t v, const char* what) {
  if (v < 0 || v > INT_MAX) {
    throw_validation("dist", std::string(what) + " = " + std::to_string(v) +
                                 " does not fit ScaLAPACK's 32-bit indices");
  }
  return static_cast<int>(v);
}

GridShape choose_grid(int size, GridShape requested) {
  if (requested.rows == 0 && requested.cols == 0) {
    GridShape g{1, size};
    for (int r = 1; r * r <= size; ++r)
      if (size % r == 0) g = {r, size / r};
    return g;
  }
  if (requested.rows < 1 || requested.cols < 1 || requested.rows * requested.cols != size) {
    throw_validation("dist", "a " + std::to_string(requested.rows) + " x " +
                                 std::to_string(requested.cols) +
                                 " process grid does not cover the " + std::to_string(size) +
                                 " ranks of the context");
  }
  return requested;
}

Grid grid_of(Context::Impl& ctx, GridShape shape) {
  Grid g;
  const auto key = std::make_pair(shape.rows, shape.cols);
  auto it = ctx.grids.find(key);
  if (it == ctx.grids.end()) {
    if (ctx.blacs_handle < 0) ctx.blacs_handle = Csys2blacs_handle(ctx.comm);
    int context = ctx.blacs_handle;
    Cblacs_gridinit(&context, "Row", shape.rows, shape.cols);
    it = ctx.grids.emplace(key, context).first;
  }
  g.context = it->second;
  Cblacs_gridinfo(g.context, &g.rows, &g.cols, &g.my_row, &g.my_col);
  return g;
}

std::int64_t local_extent(std::int64_t n, std::int64_t block, int coord, int procs) {
  const std::int64_t blocks = n / block;  // whole blocks
  std::int64_t extent = (blocks / procs) * block;
  const std::int64_t extra = blocks % procs;
  if (coord < extra) {
    extent += block;
  } else if (coord == extra) {
    extent += n % block;
  }
  return extent;
}

Descriptor describe(const Grid& grid, std::int64_t rows, std::int64_t cols, std::int64_t mb,
                    std::int64_t nb, std::int64_t lld) {
  Descriptor desc{};
  const int m = as_int(rows, "rows"), n = as_int(cols, "cols");
  const int bm = as_int(mb, "block_rows"), bn = as_int(nb, "block_cols");
  const int ld = as_int(std::max<std::int64_t>(lld, 1), "local rows");
  const int zero = 0;
  int info = 0;
  descinit_(desc.d, &m, &n, &bm, &bn, &zero, &zero, &grid.context, &ld, &info);
  if (info != 0) {
    throw_error(ErrorKind::Backend, ErrorPhase::Execute, "dist",
                "descinit rejected argument " + std::to_string(-info));
  }
  return desc;
}

}  // namespace tenferro::dist::detail
