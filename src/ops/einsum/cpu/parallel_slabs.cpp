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

std::int64_t element_count(const KernelView& v) {
  std::int64_t n = 1;
  for (std::int64_t e : v.shape) n *= e;
  return n;
}

int cut_axis(const KernelView* const* views, std::size_t count) {
  const KernelView& dst = *views[0];
  for (std::size_t a = 0; a < dst.shape.size(); ++a)
    if (dst.shape[a] > 1 && dst.strides[a] == 0) return -1;  // slabs would write one element
  int preferred = -1, any = -1;
  for (std::size_t a = 0; a < dst.shape.size(); ++a) {
    if (dst.shape[a] <= 1) continue;
    bool someones_contiguous = false;
    for (std::size_t v = 0; v < count; ++v)
      someones_contiguous = someones_contiguous || contiguous_axis(*views[v]) == int(a);
    auto longer = [&](int current) {
      return current < 0 || dst.shape[a] > dst.shape[static_cast<std::size_t>(current)];
    };
    if (longer(any)) any = static_cast<int>(a);
    if (!someones_contiguous && longer(preferred)) preferred = static_cast<int>(a);
  }
  return preferred >= 0 ? preferred : any;
}

}  // namespace tenferro::einsum_internal::cpu_slabs
