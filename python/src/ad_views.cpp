#include "ad_views.hpp"

#include <algorithm>
#include <string>

#include "bindings.hpp"
#include "operands.hpp"
#include "tenferro/core/error.hpp"
#include "views.hpp"

namespace tenferro::python {

ad::Variable permute_v(const ad::Variable& x, const std::vector<std::int64_t>& perm) {
  return ad::permute(x, perm);
}

ad::Variable matrix_transpose_v(const ad::Variable& x) {
  if (x.rank() < 2) throw_validation("matrix_transpose", "needs at least 2 axes");
  return ad::transpose(x, x.rank() - 2, x.rank() - 1);
}

ad::Variable reshape_c_v(const ad::Variable& x, Shape shape) {
  // As reshape_c: a row-major reshape is the axis reversal of the column-major reshape of the
  // reversed tensor (ad::reshape copies to a compact layout first when no view exists).
  std::reverse(shape.begin(), shape.end());
  const ad::Variable r = ad::reshape(ad::permute(x, reversed_axes(x.rank())), shape);
  return ad::permute(r, reversed_axes(r.rank()));
}

ad::Variable c_contiguous_v(const ad::Variable& x) {
  const auto rev = reversed_axes(x.rank());
  return ad::permute(ad::contiguous(ad::permute(x, rev)), rev);
}

ad::Variable index_v(const ad::Variable& x, nb::handle key) {
  std::vector<prims::Slice> slices;  // one per axis of x
  Shape kept;  // the result's shape: integer-indexed axes dropped, new axes of extent 1
  for (const IndexItem& item : parse_index(key, x.shape(), "index")) {
    switch (item.kind) {
      case IndexItem::Kind::NewAxis:
        kept.push_back(1);
        break;
      case IndexItem::Kind::Slice:
        // stop: one past the last element taken (never beyond the extent).
        slices.push_back(
            {item.start,
             item.length > 0 ? item.start + (item.length - 1) * item.step + 1 : item.start,
             item.step});
        kept.push_back(item.length);
        break;
      case IndexItem::Kind::Integer:
        slices.push_back({item.start, item.start + 1, 1});
        break;
      case IndexItem::Kind::Ellipsis:
        break;  // parse_index expands it into whole-axis slices
    }
  }
  return released([&] { return reshape_c_v(ad::slice(x, slices), kept); });
}

ad::Variable matmul_v(const ad::Variable& a, const ad::Variable& b) {
  require_matmul_operands(a.shape(), b.shape());
  const char* subscripts = a.rank() == 1   ? (b.rank() == 1 ? "j,j->" : "j,...jk->...k")
                           : b.rank() == 1 ? "...ij,j->...i"
                                           : "...ij,...jk->...ik";
  if (a.dtype() != b.dtype()) {  // NumPy's promotion, as the plain matmul
    std::vector<ad::Variable> ab{a, b};
    promote_operands(ab);
    return matmul_v(ab[0], ab[1]);
  }
  return released([&] { return ad::einsum(subscripts, {a, b}); });
}

ad::Variable batch_to_cpp_v(const ad::Variable& x, int core_axes) {
  return ad::permute(x, batch_to_cpp_perm(x.rank(), core_axes));
}

ad::Variable batch_from_cpp_v(const ad::Variable& x, int core_axes) {
  return ad::permute(x, batch_from_cpp_perm(x.rank(), core_axes));
}

}  // namespace tenferro::python
