// Splitting one element-wise host kernel (copy, sum over trailing axes, product) over the host
// kernel threads: the views are cut into slabs along one shared axis, each thread running the
// serial kernel on its slab. Only large kernels are cut: they are memory-bound, and below a few
// megabytes starting threads costs more than it saves.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "backends/cpu/host_parallel.hpp"
#include "ops/einsum/contraction_kernels.hpp"

namespace tenferro::einsum_internal::cpu_slabs {

// Kernels reading at least this many distinct elements (in their largest input) are cut. A
// kernel that mostly writes (an outer product of two vectors) stays on one thread: its output
// is freshly allocated, and the page faults of its first touch serialise in the kernel, so
// two threads measured slower than one (docs/perf/einsum.md).
inline constexpr std::int64_t kParallelElements = std::int64_t{1} << 18;

// Distinct elements a view addresses: the product of its extents along non-zero strides.
std::int64_t footprint(const KernelView& v);

// The axis to cut, among the first dst.shape.size() axes (which every view shares at the same
// position): preferably no view's contiguous axis (every slab keeps its inner loops), then an
// input's, dst's own last; the longest among equals. -1 when dst writes could overlap across
// slabs (a zero stride) or no axis is longer than 1.
int cut_axis(const KernelView* const* views, std::size_t count);

// Runs kernel(views) directly, or on slabs of them over the host kernel threads.
// views[0] is the destination. The views are the caller's, by pointer: a direct run copies none
// of them (a copy of a view of rank above DimVector::kInline allocates its shape and strides,
// and the small permuting copies of a warm einsum call made sixty such allocations a call).
template <std::size_t N, class Kernel>
void run_in_slabs(const std::array<const KernelView*, N>& views, Kernel&& kernel) {
  const int threads = cpu_parallel::host_kernel_threads();
  std::int64_t largest = 0;
  for (std::size_t i = 1; i < N; ++i) largest = std::max(largest, footprint(*views[i]));
  if (threads < 2 || largest < kParallelElements) return kernel(views);
  const int axis = cut_axis(views.data(), N);
  if (axis < 0) return kernel(views);
  const auto a = static_cast<std::size_t>(axis);
  cpu_parallel::parallel_chunks(views[0]->shape[a], threads,
                                [&](std::int64_t begin, std::int64_t end) {
                                  std::array<KernelView, N> slab;
                                  std::array<const KernelView*, N> slab_views;
                                  for (std::size_t i = 0; i < N; ++i) {
                                    slab[i] = *views[i];
                                    slab[i].offset += begin * slab[i].strides[a];
                                    slab[i].shape[a] = end - begin;
                                    slab_views[i] = &slab[i];
                                  }
                                  kernel(slab_views);
                                });
}

}  // namespace tenferro::einsum_internal::cpu_slabs
