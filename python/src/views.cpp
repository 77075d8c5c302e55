#include <nanobind/stl/string.h>

#include "views.hpp"

#include <algorithm>
#include <numeric>
#include <string>

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
  EagerTensor r;
  try {
    r = prims::reshape(x.permute(rev), shape);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Validation || is_c_contiguous(x.layout())) throw;
    r = prims::reshape(c_contiguous(x).permute(rev), shape);  // no view exists: copy first
  }
  return r.permute(reversed_axes(r.rank()));
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
  std::vector<nb::handle> items;
  if (nb::isinstance<nb::tuple>(key)) {
    for (nb::handle item : nb::borrow<nb::tuple>(key)) items.push_back(item);
  } else {
    items.push_back(key);
  }
  // How many axes of x the items consume (Ellipsis fills the rest).
  std::int64_t consumed = 0;
  int ellipses = 0;
  for (nb::handle item : items) {
    if (item.is(Py_Ellipsis)) {
      ++ellipses;
    } else if (!item.is_none()) {
      ++consumed;
    }
  }
  if (ellipses > 1) throw_validation("index", "an index can only have a single ellipsis ('...')");
  if (consumed > x.rank()) {
    throw_validation("index", "too many indices: the tensor has " + std::to_string(x.rank()) +
                                  " axes but " + std::to_string(consumed) + " were indexed");
  }
  const TensorLayout& in = x.layout();
  TensorLayout out{in.dtype, {}, {}, in.offset};
  std::size_t axis = 0;
  auto take_whole = [&](std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i, ++axis) {
      out.shape.push_back(in.shape[axis]);
      out.strides.push_back(in.strides[axis]);
    }
  };
  for (nb::handle item : items) {
    if (item.is(Py_Ellipsis)) {
      take_whole(x.rank() - consumed);
    } else if (item.is_none()) {
      out.shape.push_back(1);
      out.strides.push_back(0);
    } else if (PySlice_Check(item.ptr())) {
      Py_ssize_t start = 0, stop = 0, step = 0;
      if (PySlice_Unpack(item.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
      if (step < 0) {
        throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "index",
                    "negative slice steps would need negative strides, which tenferro's kernels "
                    "do not take; reverse with an explicit copy instead");
      }
      const Py_ssize_t len = PySlice_AdjustIndices(in.shape[axis], &start, &stop, step);
      out.offset += static_cast<std::int64_t>(start) * in.strides[axis];
      out.shape.push_back(len);
      out.strides.push_back(in.strides[axis] * step);
      ++axis;
    } else if (PyIndex_Check(item.ptr())) {
      const std::int64_t n = in.shape[axis];
      std::int64_t i = nb::cast<std::int64_t>(nb::steal(PyNumber_Index(item.ptr())));
      if (i < -n || i >= n) {
        throw_validation("index", "index " + std::to_string(i) + " is out of bounds for axis " +
                                      std::to_string(axis) + " with size " + std::to_string(n));
      }
      out.offset += (i < 0 ? i + n : i) * in.strides[axis];
      ++axis;
    } else {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "index",
                  "only integers, slices, Ellipsis and None are supported (basic indexing; "
                  "views). Got " +
                      nb::cast<std::string>(nb::str(nb::handle(Py_TYPE(item.ptr())))));
    }
  }
  take_whole(x.rank() - static_cast<std::int64_t>(axis));
  return EagerTensor(x.runtime(), x.buffer(), std::move(out));
}

std::optional<std::vector<std::int64_t>> axes_arg(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  if (PyIndex_Check(axis.ptr())) return std::vector<std::int64_t>{nb::cast<std::int64_t>(axis)};
  std::vector<std::int64_t> out;
  for (nb::handle a : axis) out.push_back(nb::cast<std::int64_t>(a));
  return out;
}

Shape shape_arg(nb::handle shape) {
  if (PyIndex_Check(shape.ptr())) return Shape{nb::cast<std::int64_t>(shape)};
  Shape out;
  for (nb::handle a : shape) out.push_back(nb::cast<std::int64_t>(a));
  return out;
}

}  // namespace tenferro::python
