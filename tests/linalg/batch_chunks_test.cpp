// for_each_batch_chunk (ops/linalg/cpu/batch_chunks.hpp): the chunks cover the batch once, and
// with a granule each begins at a multiple of it, so that the batched Jacobi kernels' groups of
// lanes are the same whatever the thread count (LinalgThreadsSplit reruns this with three).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "ops/linalg/cpu/batch_chunks.hpp"

namespace {

std::vector<std::pair<std::int64_t, std::int64_t>> chunks(std::int64_t batch,
                                                          std::int64_t granule) {
  std::mutex mutex;
  std::vector<std::pair<std::int64_t, std::int64_t>> seen;
  tenferro::linalg_cpu::for_each_batch_chunk(
      batch, 8,
      [&](std::int64_t first, std::int64_t last) {
        std::lock_guard<std::mutex> lock(mutex);
        seen.emplace_back(first, last);
      },
      granule);
  std::sort(seen.begin(), seen.end());
  return seen;
}

TEST(LinalgBatchChunks, CoverTheBatchOnceAndBeginAtMultiplesOfTheGranule) {
  for (std::int64_t granule : {1, 4, 8, 16})
    for (std::int64_t batch : {1, 2, 7, 8, 9, 15, 16, 17, 37, 64, 100}) {
      SCOPED_TRACE("granule " + std::to_string(granule) + " batch " + std::to_string(batch));
      const auto seen = chunks(batch, granule);
      ASSERT_FALSE(seen.empty());
      std::int64_t next = 0;
      for (const auto& [first, last] : seen) {
        EXPECT_EQ(first, next);
        EXPECT_LT(first, last);
        EXPECT_EQ(first % granule, 0);
        next = last;
      }
      EXPECT_EQ(next, batch);
    }
}

std::vector<std::pair<std::int64_t, int>> groups(std::int64_t first, std::int64_t last, int lanes,
                                                 int decline_at, std::int64_t* rest) {
  std::vector<std::pair<std::int64_t, int>> seen;
  *rest = tenferro::linalg_cpu::for_each_lane_group(first, last, lanes,
                                                    [&](std::int64_t begin, int count) {
                                                      if (begin == decline_at) return false;
                                                      seen.emplace_back(begin, count);
                                                      return true;
                                                    });
  return seen;
}

using Groups = std::vector<std::pair<std::int64_t, int>>;

TEST(LinalgBatchChunks, LaneGroupsTakeFullGroupsAndALastOneAtLeastHalfFull) {
  std::int64_t rest = -1;
  EXPECT_EQ(groups(0, 20, 8, -1, &rest), (Groups{{0, 8}, {8, 8}, {16, 4}}));
  EXPECT_EQ(rest, 20);
  EXPECT_EQ(groups(8, 19, 8, -1, &rest), (Groups{{8, 8}}));  // 3 left: fewer than half
  EXPECT_EQ(rest, 16);
  EXPECT_EQ(groups(0, 3, 8, -1, &rest), Groups{});
  EXPECT_EQ(rest, 0);
  EXPECT_EQ(groups(0, 24, 8, 8, &rest), (Groups{{0, 8}}));  // the second group declined
  EXPECT_EQ(rest, 8);
  EXPECT_EQ(groups(5, 40, 0, -1, &rest), Groups{});  // no kernel
  EXPECT_EQ(rest, 5);
}

}  // namespace
