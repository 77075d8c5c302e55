// Internals shared by the distributed matrix code: Matrix::Parts and the walk over a rank's
// block-cyclic runs.
#pragma once

#include <cstdint>

#include "dist/blacs.hpp"
#include "tenferro/dist.hpp"

namespace tenferro::dist {

struct Matrix::Parts {
  std::shared_ptr<Context> ctx;
  std::int64_t rows = 0, cols = 0;
  BlockCyclic layout;  // grid resolved (never 0 x 0)
  Tensor local;
};

namespace detail {

// Calls run(global_row, global_col, local_row, local_col, length) for every run of
// consecutive rows of one block column segment held by grid position (prow, pcol): the
// same run is contiguous in a column-major global matrix and in the local array.
template <typename F>
void for_each_local_run(std::int64_t rows, std::int64_t cols, const BlockCyclic& l, int prow,
                        int pcol, F&& run) {
  const int pr = l.grid.rows, pc = l.grid.cols;
  const std::int64_t mb = l.block_rows, nb = l.block_cols;
  const std::int64_t local_cols = local_extent(cols, nb, pcol, pc);
  const std::int64_t local_rows = local_extent(rows, mb, prow, pr);
  for (std::int64_t lj = 0; lj < local_cols; ++lj) {
    const std::int64_t gj = global_index(lj, nb, pcol, pc);
    for (std::int64_t li = 0; li < local_rows; li += mb) {
      const std::int64_t gi = global_index(li, mb, prow, pr);
      run(gi, gj, li, lj, std::min(mb, local_rows - li));
    }
  }
}

// A fresh (zero) local part of a rows x cols matrix of `dtype` on this rank's grid position.
Tensor local_part(DType dtype, std::int64_t rows, std::int64_t cols, const BlockCyclic& layout,
                  const Grid& grid);

// The resolved layout (grid chosen) for `ctx`, Validation on bad block sizes.
BlockCyclic resolve_layout(const Context::Impl& ctx, BlockCyclic layout);

}  // namespace detail
}  // namespace tenferro::dist
