#include "ad_views.hpp"

#include <algorithm>
#include <string>

#include "bindings.hpp"
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
  std::vector<nb::handle> items;
  if (nb::isinstance<nb::tuple>(key)) {
    for (nb::handle item : nb::borrow<nb::tuple>(key)) items.push_back(item);
  } else {
    items.push_back(key);
  }
  std::int64_t consumed = 0;
  for (nb::handle item : items) consumed += item.is(Py_Ellipsis) ? 0 : 1;
  if (consumed > x.rank()) throw_validation("index", "too many indices for the tracer");
  std::vector<prims::Slice> slices;
  Shape kept;  // the result's shape: integer-indexed axes dropped
  auto whole = [&](std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i) {
      kept.push_back(x.shape()[slices.size()]);
      slices.push_back({});
    }
  };
  for (nb::handle item : items) {
    const std::size_t axis = slices.size();
    if (item.is(Py_Ellipsis)) {
      whole(x.rank() - consumed);
    } else if (PySlice_Check(item.ptr())) {
      Py_ssize_t start = 0, stop = 0, step = 0;
      if (PySlice_Unpack(item.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
      if (step < 0) {
        throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "index",
                    "negative slice steps are not supported (as on Tensor)");
      }
      const Py_ssize_t len = PySlice_AdjustIndices(x.shape()[axis], &start, &stop, step);
      // stop: one past the last element taken (never beyond the extent).
      slices.push_back({start, len > 0 ? start + (len - 1) * step + 1 : start, step});
      kept.push_back(len);
    } else if (PyIndex_Check(item.ptr())) {
      const std::int64_t n = x.shape()[axis];
      std::int64_t i = nb::cast<std::int64_t>(nb::steal(PyNumber_Index(item.ptr())));
      if (i < -n || i >= n) {
        throw_validation("index", "index " + std::to_string(i) + " is out of bounds for axis " +
                                      std::to_string(axis) + " with size " + std::to_string(n));
      }
      if (i < 0) i += n;
      slices.push_back({i, i + 1, 1});
    } else {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "index",
                  "a traced value takes integers, slices and Ellipsis (no None or arrays)");
    }
  }
  whole(x.rank() - static_cast<std::int64_t>(slices.size()));
  return released([&] { return reshape_c_v(ad::slice(x, slices), kept); });
}

ad::Variable matmul_v(const ad::Variable& a, const ad::Variable& b) {
  if (a.rank() == 0 || b.rank() == 0) {
    throw_validation("matmul", "operands must have at least one axis (use * for scalars)");
  }
  const char* subscripts = a.rank() == 1   ? (b.rank() == 1 ? "j,j->" : "j,...jk->...k")
                           : b.rank() == 1 ? "...ij,j->...i"
                                           : "...ij,...jk->...ik";
  return released([&] { return ad::einsum(subscripts, {a, b}); });
}

ad::Variable batch_to_cpp_v(const ad::Variable& x, int core_axes) {
  return ad::permute(x, batch_to_cpp_perm(x.rank(), core_axes));
}

ad::Variable batch_from_cpp_v(const ad::Variable& x, int core_axes) {
  return ad::permute(x, batch_from_cpp_perm(x.rank(), core_axes));
}

}  // namespace tenferro::python
