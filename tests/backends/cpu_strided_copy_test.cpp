// The CPU backend's strided copy (src/backends/cpu/strided_copy.hpp), under einsum's permuting
// copies and prims' same-dtype casts: random shapes of rank 1 to 4 (and 4 to 8 of small extents),
// the destination compact in one axis order and the source in another (with gaps between its
// elements, zero strides on extent-1 axes), small and above the threading threshold, against a
// naive per-element copy. CTest runs this suite once more with TENFERRO_NUM_THREADS=3
// (extra.cmake), so the split over threads (uneven chunks, tiles and runs) runs on any machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "backends/cpu/strided_copy.hpp"
#include "strided_layouts.hpp"

namespace tenferro {
namespace {

using testing::random_shape;
using testing::span_of;
using testing::strides_for;

template <class T>
T value_at(std::int64_t i) {
  if constexpr (std::is_same_v<T, std::complex<double>>) {
    return {static_cast<double>(i), -static_cast<double>(i) - 0.5};
  } else {
    return static_cast<T>(i % 1000003);
  }
}

template <class T>
void check_random_copies(std::mt19937_64& rng, std::int64_t target_elements, int min_rank = 1,
                         int max_rank = 4, std::int64_t cap = 300, bool broadcast = false) {
  std::uniform_int_distribution<int> rank_of(min_rank, max_rank);
  for (int round = 0; round < 40; ++round) {
    const auto rank = static_cast<std::size_t>(rank_of(rng));
    // Extents whose product is near target_elements, each but the last at most `cap`, some 1.
    const std::vector<std::int64_t> shape = random_shape(rng, rank, target_elements, cap, 7);
    std::int64_t total = 1;
    for (std::int64_t e : shape) total *= e;
    std::vector<std::size_t> dst_order(rank), src_order(rank);
    std::iota(dst_order.begin(), dst_order.end(), 0);
    std::iota(src_order.begin(), src_order.end(), 0);
    std::shuffle(dst_order.begin(), dst_order.end(), rng);
    std::shuffle(src_order.begin(), src_order.end(), rng);
    const auto dst_strides = strides_for(shape, dst_order, 1);
    auto src_strides = strides_for(shape, src_order, 1 + static_cast<std::int64_t>(rng() % 2));
    if (broadcast) {
      // A broadcast source (numpy.repeat's, tile's): zero strides on some axes, half the time
      // on the destination's fastest one (each run a fill).
      for (std::size_t a = 0; a < rank; ++a)
        if (rng() % 3 == 0) src_strides[a] = 0;
      if (rng() % 2 == 0) src_strides[dst_order[0]] = 0;
    }
    std::vector<T> src(static_cast<std::size_t>(span_of(shape, src_strides)));
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = value_at<T>(static_cast<std::int64_t>(i));
    // Offsets within the buffers, so that the pointers handed in are not the allocations'.
    const std::int64_t dst_offset = 3, src_offset = 0;
    std::vector<T> dst(static_cast<std::size_t>(span_of(shape, dst_strides) + dst_offset), T(-1));
    std::vector<T> want = dst;
    std::vector<std::int64_t> index(rank, 0);
    for (std::int64_t i = 0; i < total; ++i) {
      std::int64_t d = dst_offset, s = src_offset;
      for (std::size_t a = 0; a < rank; ++a) {
        d += index[a] * dst_strides[a];
        s += index[a] * src_strides[a];
      }
      want[static_cast<std::size_t>(d)] = src[static_cast<std::size_t>(s)];
      for (std::size_t a = 0; a < rank && ++index[a] == shape[a]; ++a) index[a] = 0;
    }
    cpu_strided::copy<T>(shape, dst.data() + dst_offset, dst_strides, src.data() + src_offset,
                         src_strides);
    ASSERT_EQ(dst, want) << "round " << round << ", rank " << rank << ", " << total << " elements";
  }
}

TEST(CpuStridedCopy, RandomLayoutsMatchTheNaiveCopy) {
  std::mt19937_64 rng(5);
  for (const std::int64_t elements :
       {std::int64_t{50}, std::int64_t{5000}, std::int64_t{1} << 18}) {
    SCOPED_TRACE(elements);
    check_random_copies<float>(rng, elements);
    check_random_copies<double>(rng, elements);
    check_random_copies<std::complex<double>>(rng, elements);
  }
}

TEST(CpuStridedCopy, BroadcastSourcesMatchTheNaiveCopy) {
  std::mt19937_64 rng(17);
  for (const std::int64_t elements :
       {std::int64_t{50}, std::int64_t{5000}, std::int64_t{1} << 18}) {
    SCOPED_TRACE(elements);
    check_random_copies<float>(rng, elements, 1, 4, 300, true);
    check_random_copies<double>(rng, elements, 2, 6, 40, true);
    check_random_copies<std::complex<double>>(rng, elements, 1, 4, 300, true);
  }
}

// Permutations of many small axes (hypernetworks' intermediates: short runs on both sides), the
// layouts the composite-block copy takes.
TEST(CpuStridedCopy, PermutationsOfManySmallAxesMatchTheNaiveCopy) {
  std::mt19937_64 rng(11);
  for (const std::int64_t elements : {std::int64_t{3000}, std::int64_t{1} << 18}) {
    SCOPED_TRACE(elements);
    check_random_copies<float>(rng, elements, 4, 8, 12);
    check_random_copies<double>(rng, elements, 4, 8, 12);
    check_random_copies<std::complex<double>>(rng, elements, 4, 8, 12);
  }
}

// Small permutations of many axes of extents 2-3 (a regular graph's intermediates: one block
// covers the whole copy, no outer axis), and ranks past the loop nest's inline capacity.
TEST(CpuStridedCopy, SmallPermutationsOfManyTinyAxesMatchTheNaiveCopy) {
  std::mt19937_64 rng(17);
  for (const std::int64_t elements : {std::int64_t{100}, std::int64_t{700}, std::int64_t{9000}}) {
    SCOPED_TRACE(elements);
    check_random_copies<float>(rng, elements, 5, 12, 3);
    check_random_copies<double>(rng, elements, 5, 12, 3);
    check_random_copies<std::complex<double>>(rng, elements, 5, 12, 3);
  }
  check_random_copies<double>(rng, std::int64_t{1} << 15, 13, 16, 2);
}

TEST(CpuStridedCopy, EmptyShapesWriteNothing) {
  std::vector<double> dst(4, 7.0), src(4, 1.0);
  const std::vector<std::int64_t> shape{2, 0}, strides{1, 2};
  cpu_strided::copy<double>(shape, dst.data(), strides, src.data(), strides);
  EXPECT_EQ(dst, std::vector<double>(4, 7.0));
}

}  // namespace
}  // namespace tenferro
