// The CPU backend's one-pass multiply-sum (src/backends/cpu/strided_multiply_sum.hpp), under
// einsum's matrix-vector steps: random shapes of rank 2 to 5, each axis kept or folded, A compact
// in a random axis order (so kept and folded axes interleave, and either comes first), B a
// compact view of a random subset of the axes (broadcast over the rest) in its own order, the
// output strided; small and above the threading threshold, against a naive long-double sum.
// Every kernel path runs: kept-then-folded and folded-then-kept planes, B constant or moving
// along the kept axis, and plain runs. CTest runs this suite again with 3 host threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "backends/cpu/strided_multiply_sum.hpp"
#include "core/real_type.hpp"
#include "strided_layouts.hpp"

namespace tenferro {
namespace {

using testing::random_shape;
using testing::span_of;
using testing::strides_for;

template <class T>
T random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-0.5, 1.5);
  if constexpr (kIsComplexType<T>) {
    return {static_cast<RealType<T>>(u(rng)), static_cast<RealType<T>>(u(rng))};
  } else {
    return static_cast<T>(u(rng));
  }
}

template <class T>
void check_random_products(std::mt19937_64& rng, std::int64_t target_elements) {
  using Wide = std::complex<long double>;
  std::uniform_int_distribution<int> rank_of(2, 5);
  for (int round = 0; round < 30; ++round) {
    const auto rank = static_cast<std::size_t>(rank_of(rng));
    const std::vector<std::int64_t> shape = random_shape(rng, rank, target_elements, 40, 9);
    std::int64_t total = 1;
    for (std::int64_t e : shape) total *= e;
    const std::size_t kept_rank = 1 + rng() % (rank - 1);  // at least one kept, one folded
    // A: every axis, compact in a random order. B: a random subset (the folded ones more
    // often), broadcast elsewhere, compact in another order.
    std::vector<std::size_t> a_order(rank), b_order;
    std::iota(a_order.begin(), a_order.end(), 0);
    std::shuffle(a_order.begin(), a_order.end(), rng);
    std::vector<std::int64_t> b_shape = shape;
    for (std::size_t a = 0; a < rank; ++a) {
      const bool in_b = a >= kept_rank ? rng() % 4 != 0 : rng() % 3 == 0;
      if (in_b)
        b_order.push_back(a);
      else
        b_shape[a] = 1;
    }
    std::shuffle(b_order.begin(), b_order.end(), rng);
    const auto a_strides = strides_for(shape, a_order, 1);
    auto b_strides = strides_for(b_shape, b_order, 1);
    for (std::size_t a = 0; a < rank; ++a)
      if (b_shape[a] == 1) b_strides[a] = 0;
    const std::vector<std::int64_t> kept_shape(shape.begin(), shape.begin() + kept_rank);
    std::vector<std::size_t> dst_order(kept_rank);
    std::iota(dst_order.begin(), dst_order.end(), 0);
    std::shuffle(dst_order.begin(), dst_order.end(), rng);
    const auto dst_strides = strides_for(kept_shape, dst_order, 2);  // gaps in the output

    std::vector<T> a(static_cast<std::size_t>(span_of(shape, a_strides)));
    std::vector<T> b(static_cast<std::size_t>(span_of(b_shape, b_strides)));
    for (auto& x : a) x = random_value<T>(rng);
    for (auto& x : b) x = random_value<T>(rng);
    const std::int64_t dst_offset = 1;
    std::vector<T> dst(static_cast<std::size_t>(span_of(kept_shape, dst_strides) + dst_offset),
                       T(-7));
    std::vector<Wide> want(dst.size(), Wide(-7));
    std::vector<long double> magnitude(dst.size(), 0);
    // The naive sum: per element of the full shape, into its output.
    std::vector<std::int64_t> index(rank, 0);
    std::vector<char> touched(dst.size(), 0);
    for (std::int64_t e = 0; e < total; ++e) {
      std::int64_t at_a = 0, at_b = 0, at_d = dst_offset;
      for (std::size_t x = 0; x < rank; ++x) {
        at_a += index[x] * a_strides[x];
        at_b += index[x] * b_strides[x];
        if (x < kept_rank) at_d += index[x] * dst_strides[x];
      }
      const auto d = static_cast<std::size_t>(at_d);
      if (!touched[d]) want[d] = 0;
      touched[d] = 1;
      const Wide term =
          Wide(a[static_cast<std::size_t>(at_a)]) * Wide(b[static_cast<std::size_t>(at_b)]);
      want[d] += term;
      magnitude[d] += std::abs(term);
      for (std::size_t x = 0; x < rank && ++index[x] == shape[x]; ++x) index[x] = 0;
    }
    cpu_strided::multiply_sum<T>(
        a.data(), b.data(), dst.data(),
        {shape, kept_rank, a_strides, b_strides, dst_strides, 0, 0, dst_offset});
    // Each output within the a-priori bound of a sum in the accumulator's precision, terms * eps
    // * sum |term| (double: single-precision dtypes accumulate in double, where that bound is
    // far below their own rounding, so theirs is a few roundings of the result), and elements
    // between outputs untouched. A lost, doubled or misplaced term moves an output by about
    // 1/terms of it: outside either.
    const std::int64_t terms =
        total / std::max<std::int64_t>(1, std::accumulate(kept_shape.begin(), kept_shape.end(),
                                                          std::int64_t{1}, std::multiplies<>()));
    const double relative =
        sizeof(RealType<T>) == 4
            ? 4 * static_cast<double>(std::numeric_limits<float>::epsilon())
            : static_cast<double>(terms) * std::numeric_limits<double>::epsilon();
    for (std::size_t i = 0; i < dst.size(); ++i) {
      const double error = static_cast<double>(std::abs(Wide(dst[i]) - want[i]));
      const double bound = touched[i] ? relative * static_cast<double>(magnitude[i]) : 0;
      ASSERT_LE(error, bound) << "round " << round << ", rank " << rank << ", kept " << kept_rank
                              << ", " << total << " elements, output slot " << i;
    }
  }
}

TEST(CpuStridedMultiplySum, RandomLayoutsMatchTheNaiveSum) {
  std::mt19937_64 rng(11);
  for (const std::int64_t elements :
       {std::int64_t{40}, std::int64_t{3000}, std::int64_t{1} << 18}) {
    SCOPED_TRACE(elements);
    check_random_products<float>(rng, elements);
    check_random_products<double>(rng, elements);
    check_random_products<std::complex<float>>(rng, elements);
    check_random_products<std::complex<double>>(rng, elements);
  }
}

TEST(CpuStridedMultiplySum, AnEmptyFoldWritesZeros) {
  const std::vector<double> a(1, 5.0), b(1, 3.0);
  std::vector<double> dst(3, 7.0);
  const std::vector<std::int64_t> shape{3, 0}, a_strides{1, 3}, b_strides{0, 1}, dst_strides{1};
  cpu_strided::multiply_sum<double>(a.data(), b.data(), dst.data(),
                                    {shape, 1, a_strides, b_strides, dst_strides, 0, 0, 0});
  EXPECT_EQ(dst, std::vector<double>(3, 0.0));
}

}  // namespace
}  // namespace tenferro
