#include "ops/einsum/cpu/parallel_slabs.hpp"

#include <cstdlib>

namespace tenferro::einsum_internal::cpu_slabs {
namespace {

// The axis along which a view is contiguous: its smallest non-zero stride among axes longer
// than 1 (-1 when there is none).
int contiguous_axis(const KernelView& v) {
  int best = -1;
  for (std::size_t a = 0; a < v.shape.size(); ++a) {
    if (v.shape[a] <= 1 || v.strides[a] == 0) continue;
    if (best < 0 || std::abs(v.strides[a]) < std::abs(v.strides[static_cast<std::size_t>(best)]))
      best = static_cast<int>(a);
  }
  return best;
}

}  // namespace

std::int64_t footprint(const KernelView& v) {
  std::int64_t n = 1;
  for (std::size_t a = 0; a < v.shape.size(); ++a)
    if (v.strides[a] != 0) n *= v.shape[a];
  return n;
}

int cut_axis(const KernelView* const* views, std::size_t count) {
  const KernelView& dst = *views[0];
  for (std::size_t a = 0; a < dst.shape.size(); ++a)
    if (dst.shape[a] > 1 && dst.strides[a] == 0) return -1;  // slabs would write one element
  // Rank 0 best: an axis that is no view's contiguous one; 1: dst's is elsewhere (an input
  // reads across slabs, the writes stay long runs); 2: anything longer than 1.
  int best = -1, best_rank = 3;
  const int dst_contiguous = contiguous_axis(dst);
  for (std::size_t a = 0; a < dst.shape.size(); ++a) {
    if (dst.shape[a] <= 1) continue;
    bool inputs_contiguous = false;
    for (std::size_t v = 1; v < count; ++v)
      inputs_contiguous = inputs_contiguous || contiguous_axis(*views[v]) == int(a);
    const int rank = dst_contiguous == int(a) ? 2 : inputs_contiguous ? 1 : 0;
    if (rank < best_rank ||
        (rank == best_rank && dst.shape[a] > dst.shape[static_cast<std::size_t>(best)])) {
      best = static_cast<int>(a);
      best_rank = rank;
    }
  }
  return best;
}

}  // namespace tenferro::einsum_internal::cpu_slabs
