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

using Groups = std::vector<std::pair<std::int64_t, int>>;
using Ones = std::vector<std::int64_t>;

// The groups for_each_lane_group runs (the one at `decline_at` declines) and the matrices it
// hands to one(b), in order.
Groups groups(std::int64_t first, std::int64_t last, int lanes, std::int64_t decline_at,
              Ones* ones) {
  Groups seen;
  ones->clear();
  tenferro::linalg_cpu::for_each_lane_group(
      first, last, lanes,
      [&](std::int64_t begin, int count) {
        if (begin == decline_at) return false;
        seen.emplace_back(begin, count);
        return true;
      },
      [&](std::int64_t b) { ones->push_back(b); });
  return seen;
}

TEST(LinalgBatchChunks, LaneGroupsTakeFullGroupsAndALastOneAtLeastHalfFull) {
  Ones ones;
  EXPECT_EQ(groups(0, 20, 8, -1, &ones), (Groups{{0, 8}, {8, 8}, {16, 4}}));
  EXPECT_EQ(ones, Ones{});
  EXPECT_EQ(groups(8, 19, 8, -1, &ones), (Groups{{8, 8}}));  // 3 left: fewer than half
  EXPECT_EQ(ones, (Ones{16, 17, 18}));
  EXPECT_EQ(groups(0, 3, 8, -1, &ones), Groups{});
  EXPECT_EQ(ones, (Ones{0, 1, 2}));
  EXPECT_EQ(groups(5, 8, 0, -1, &ones), Groups{});  // no kernel
  EXPECT_EQ(ones, (Ones{5, 6, 7}));
}

// A declined group's matrices go one by one and the groups after it still run, so which path a
// matrix takes does not depend on where a thread's chunk begins (found by an adversarial test:
// one declining matrix changed the last bits, and the signs of an R's rows, of every matrix
// after it in its chunk when the walk stopped at the decline).
TEST(LinalgBatchChunks, ADeclinedGroupGoesOneByOneAndTheNextGroupsRun) {
  Ones ones;
  EXPECT_EQ(groups(0, 24, 8, 8, &ones), (Groups{{0, 8}, {16, 8}}));
  EXPECT_EQ(ones, (Ones{8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(groups(0, 21, 8, 16, &ones), (Groups{{0, 8}, {8, 8}}));  // the last group of 5
  EXPECT_EQ(ones, (Ones{16, 17, 18, 19, 20}));
}

}  // namespace
