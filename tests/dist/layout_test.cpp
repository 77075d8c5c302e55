// Block-cyclic scatter and gather: a round trip returns the root's matrix bit for bit for every
// dtype, odd sizes, several block sizes and grid shapes; each rank holds exactly its blocks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>

#include "dist_context.hpp"

namespace tenferro::dist {
namespace {

using testing::at;
using testing::context;

std::vector<GridShape> grids(int size) {
  std::vector<GridShape> g{{0, 0}, {1, size}, {size, 1}};
  if (size == 4) g.push_back({2, 2});
  return g;
}

TEST(DistLayout, ScatterThenGatherIsTheIdentity) {
  const auto& ctx = context();
  for (DType dtype : {DType::F32, DType::F64, DType::C32, DType::C64}) {
    for (auto [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
             {1, 1}, {7, 5}, {13, 17}, {64, 3}, {0, 4}}) {
      for (auto [mb, nb] :
           std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1}, {2, 3}, {4, 4}, {64, 64}}) {
        for (GridShape grid : grids(ctx->size())) {
          const Tensor x = testing::random_matrix(dtype, rows, cols, 1000 + rows * 7 + cols);
          const Matrix m = scatter(ctx, ctx->is_root() ? x : Tensor(), {mb, nb, grid});
          EXPECT_EQ(m.rows(), rows);
          EXPECT_EQ(m.cols(), cols);
          EXPECT_EQ(m.dtype(), dtype);
          EXPECT_EQ(m.layout().grid.rows * m.layout().grid.cols, ctx->size());
          // Every element sits on exactly one rank: the local sizes add up.
          std::int64_t mine = m.local().numel(), all = 0;
          MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
          EXPECT_EQ(all, rows * cols);
          const Tensor back = gather(m);
          if (ctx->is_root()) {
            ASSERT_EQ(back.shape(), x.shape());
            for (std::int64_t j = 0; j < cols; ++j)
              for (std::int64_t i = 0; i < rows; ++i)
                ASSERT_EQ(at(back, i, j), at(x, i, j))
                    << dtype_name(dtype) << " " << rows << "x" << cols << " blocks " << mb << "x"
                    << nb << " grid " << m.layout().grid.rows << "x" << m.layout().grid.cols;
          }
        }
      }
    }
  }
}

TEST(DistLayout, PartsBuiltInPlaceGatherToTheWholeMatrixWithoutMessages) {
  const auto& ctx = context();
  for (DType dtype : {DType::F64, DType::C32})
    for (GridShape grid : grids(ctx->size())) {
      const std::int64_t rows = 11, cols = 6;
      // Every rank knows the whole matrix here (same seed) and copies out only its own part.
      const Tensor x = testing::random_matrix(dtype, rows, cols, 77);
      const LocalPart part = local_part_of(ctx, rows, cols, {3, 2, grid});
      Tensor mine = Tensor::zeros(dtype, {part.rows, part.cols});
      const std::size_t es = dtype_size(dtype);
      for (std::int64_t j = 0; j < part.cols; ++j)
        for (std::int64_t i = 0; i < part.rows; ++i) {
          std::memcpy(mine.raw_data() + (j * part.rows + i) * es,
                      x.raw_data() + (part.global_col(j) * rows + part.global_row(i)) * es, es);
        }
      const DistStats before = ctx->stats();
      const Matrix m = from_local(ctx, rows, cols, mine, {3, 2, grid});
      EXPECT_EQ(ctx->stats().bytes_sent, before.bytes_sent);
      const Tensor back = gather(m);
      if (!ctx->is_root()) continue;
      for (std::int64_t j = 0; j < cols; ++j)
        for (std::int64_t i = 0; i < rows; ++i)
          ASSERT_EQ(at(back, i, j), at(x, i, j)) << dtype_name(dtype) << " " << i << "," << j;
    }
}

TEST(DistLayout, APartOfTheWrongShapeIsAValidationErrorOnEveryRank) {
  const auto& ctx = context();
  const LocalPart part = local_part_of(ctx, 8, 8, {2, 2, {}});
  // Only the root gets it wrong.
  const Tensor mine = Tensor::zeros(DType::F64, {part.rows + (ctx->is_root() ? 1 : 0), part.cols});
  bool validation = false;
  try {
    (void)from_local(ctx, 8, 8, mine, {2, 2, {}});
  } catch (const Error& e) {
    validation = e.kind() == ErrorKind::Validation;
  }
  EXPECT_TRUE(testing::on_every_rank(validation));
}

TEST(DistLayout, MovementsAreCountedAndBroadcastCopiesTheRootsTensor) {
  const auto& ctx = context();
  const DistStats before = ctx->stats();
  const Tensor x = testing::random_matrix(DType::F64, 6, 4, 5);
  const Tensor b = broadcast(ctx, ctx->is_root() ? x : Tensor());
  ASSERT_EQ(b.shape(), x.shape());
  for (std::int64_t j = 0; j < 4; ++j)
    for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(at(b, i, j), at(x, i, j));
  const Matrix m = scatter(ctx, ctx->is_root() ? x : Tensor(), {2, 2, {}});
  (void)gather(m);
  const DistStats after = ctx->stats();
  if (ctx->is_root()) {
    EXPECT_EQ(after.broadcasts, before.broadcasts + 1);
    EXPECT_EQ(after.scatters, before.scatters + 1);
    EXPECT_EQ(after.gathers, before.gathers + 1);
    EXPECT_GE(after.bytes_sent, before.bytes_sent + 6 * 4 * 8);
  }
}

TEST(DistLayout, BadLayoutsAreValidationErrorsOnEveryRank) {
  const auto& ctx = context();
  const Tensor x = testing::random_matrix(DType::F64, 4, 4, 1);
  for (BlockCyclic bad : {BlockCyclic{0, 2, {}}, BlockCyclic{2, 2, {ctx->size() + 1, 1}}}) {
    bool validation = false;
    try {
      (void)scatter(ctx, x, bad);
    } catch (const Error& e) {
      validation = e.kind() == ErrorKind::Validation;
    }
    EXPECT_TRUE(testing::on_every_rank(validation));
  }
  // The root's tensor is not a matrix: the root finds it, every rank throws.
  bool validation = false;
  try {
    (void)scatter(ctx, ctx->is_root() ? Tensor::zeros(DType::F64, {2, 2, 2}) : Tensor(), {});
  } catch (const Error& e) {
    validation = e.kind() == ErrorKind::Validation;
  }
  EXPECT_TRUE(testing::on_every_rank(validation));
}

}  // namespace
}  // namespace tenferro::dist
