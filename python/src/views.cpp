#include <nanobind/stl/string.h>

#include "views.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "args.hpp"
#include "ops/prims/resolve.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::python {

std::vector<std::int64_t> reversed_axes(std::int64_t rank) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(rank));
  std::iota(perm.rbegin(), perm.rend(), 0);
  return perm;
}

namespace {

bool is_c_contiguous(const TensorLayout& l) {
  std::int64_t expected = 1;
  for (std::size_t i = l.shape.size(); i-- > 0;) {
    if (l.shape[i] == 1) continue;
    if (l.strides[i] != expected) return false;
    expected *= l.shape[i];
  }
  return true;
}

}  // namespace

EagerTensor c_contiguous(const EagerTensor& x) {
  if (is_c_contiguous(x.layout())) return x;
  // A C-contiguous tensor is the axis reversal of a column-major compact one.
  const auto rev = reversed_axes(x.rank());
  return prims::contiguous(x.permute(rev)).permute(rev);
}

EagerTensor reshape_c(const EagerTensor& x, Shape shape) {
  // Row-major reshape of x == axis reversal of the column-major reshape of x reversed.
  std::reverse(shape.begin(), shape.end());
  const auto rev = reversed_axes(x.rank());
  std::optional<EagerTensor> r = prims_internal::reshape_view(x.permute(rev), shape);
  // No view exists: copy first (a C-contiguous tensor always has one).
  if (!r) r = prims::reshape(c_contiguous(x).permute(rev), shape);
  return r->permute(reversed_axes(r->rank()));
}

EagerTensor transpose_axes(const EagerTensor& x, std::vector<std::int64_t> axes) {
  if (axes.empty()) return x.permute(reversed_axes(x.rank()));
  return x.permute(axes);
}

EagerTensor matrix_transpose(const EagerTensor& x) {
  if (x.rank() < 2) throw_validation("matrix_transpose", "needs at least 2 axes");
  std::vector<std::int64_t> perm(static_cast<std::size_t>(x.rank()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return x.permute(perm);
}

std::vector<std::int64_t> batch_to_cpp_perm(std::int64_t rank, int core_axes) {
  if (rank < core_axes) {
    throw_validation("linalg", "needs at least " + std::to_string(core_axes) + " axes, got " +
                                   std::to_string(rank));
  }
  std::vector<std::int64_t> perm;
  for (std::int64_t i = rank - core_axes; i < rank; ++i) perm.push_back(i);
  for (std::int64_t i = 0; i < rank - core_axes; ++i) perm.push_back(i);
  return perm;
}

std::vector<std::int64_t> batch_from_cpp_perm(std::int64_t rank, int core_axes) {
  std::vector<std::int64_t> perm;
  for (std::int64_t i = core_axes; i < rank; ++i) perm.push_back(i);
  for (std::int64_t i = 0; i < core_axes; ++i) perm.push_back(i);
  return perm;
}

EagerTensor batch_to_cpp(const EagerTensor& x, int core_axes) {
  return x.permute(batch_to_cpp_perm(x.rank(), core_axes));
}

EagerTensor batch_from_cpp(const EagerTensor& x, int core_axes) {
  return x.permute(batch_from_cpp_perm(x.rank(), core_axes));
}

EagerTensor index(const EagerTensor& x, nb::handle key) {
  const TensorLayout& in = x.layout();
  TensorLayout out{in.dtype, {}, {}, in.offset};
  std::size_t axis = 0;
  for (const IndexItem& item : parse_index(key, in.shape, "index")) {
    switch (item.kind) {
      case IndexItem::Kind::NewAxis:
        out.shape.push_back(1);
        out.strides.push_back(0);
        continue;
      case IndexItem::Kind::Slice:
        out.offset += item.start * in.strides[axis];
        out.shape.push_back(item.length);
        // A stride times a step that leaves at most one element is never used and may
        // overflow (x[0:4:2**63-1]): the axis's own stride stands for it.
        out.strides.push_back(item.length > 1 ? in.strides[axis] * item.step : in.strides[axis]);
        break;
      case IndexItem::Kind::Integer:
        out.offset += item.start * in.strides[axis];
        break;
      case IndexItem::Kind::Ellipsis:
        break;  // parse_index expands it into whole-axis slices
    }
    ++axis;
  }
  return EagerTensor(x.runtime(), x.buffer(), std::move(out));
}

}  // namespace tenferro::python
