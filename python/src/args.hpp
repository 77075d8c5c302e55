// The one argument-conversion layer of the Python boundary: integers, shapes, axes, index
// keys. Everything NumPy takes is taken (Python ints, NumPy integers, 0-d integer arrays,
// NumPy integer arrays as shapes and axes); everything else is a typed tenferro error, never
// nanobind's std::bad_cast or a crash. Must be called with the GIL held.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tenferro/core/shape.hpp"

namespace tenferro::python {

namespace nb = nanobind;

// NumPy's limit on the number of axes of an array (NPY_MAXDIMS): tensors of more axes cannot
// cross into NumPy, so the boundary refuses them (ValidationError).
inline constexpr std::int64_t kMaxNumpyRank = 64;
void check_numpy_rank(std::int64_t rank, const char* op);

// Raised as tenferro.AxisError (a ValidationError and numpy.exceptions.AxisError, so also an
// IndexError and a ValueError, as NumPy's) and tenferro.IndexingError (a ValidationError and
// an IndexError: an out-of-bounds index or a key that is no index, where NumPy raises
// IndexError).
[[noreturn]] void throw_axis_error(const char* op, std::int64_t axis, std::int64_t ndim);
[[noreturn]] void throw_indexing_error(const char* op, const std::string& message);
// The type of obj as str(type(obj)) shows it ("<class 'int'>"), for error messages.
std::string python_type_name(nb::handle obj);
// A Python object of the wrong type where an argument or operand is due: tf.ArgumentTypeError,
// a ValidationError and, as NumPy raises, a TypeError.
[[noreturn]] void throw_argument_type_error(const char* op, const std::string& message);

// An integer: anything with __index__ (bool counts as 0/1, as in NumPy shapes). `what` names
// the argument in the error ("shape entry", "axis", ...).
std::int64_t int_arg(nb::handle obj, const char* op, const char* what);
// An int, or an iterable of ints (a tuple, a list, a NumPy integer array); not a str/bytes.
std::vector<std::int64_t> int_list_arg(nb::handle obj, const char* op, const char* what);
inline Shape shape_arg(nb::handle obj, const char* op = "shape") {
  return int_list_arg(obj, op, "shape entry");
}
// reshape(*args) and transpose(*args): one sequence or the values spread out.
std::vector<std::int64_t> spread_int_args(const nb::args& args, const char* op, const char* what);

// NumPy's normalize_axis_index: -ndim <= axis < ndim, else AxisError.
std::int64_t normalize_axis(std::int64_t axis, std::int64_t ndim, const char* op);
// None -> nullopt; an int or a sequence of ints, each normalised, repeats refused.
std::optional<std::vector<std::int64_t>> axes_arg(nb::handle axis, std::int64_t ndim,
                                                  const char* op);
// transpose's axes: empty (reversed) or a permutation of 0..ndim-1 after normalisation.
std::vector<std::int64_t> permutation_arg(const nb::args& args, std::int64_t ndim, const char* op);

// One item of a basic-indexing key.
struct IndexItem {
  enum class Kind { Integer, Slice, Ellipsis, NewAxis } kind;
  std::int64_t start = 0;   // Integer: the normalised index; Slice: the first element
  std::int64_t step = 1;    // Slice: > 0
  std::int64_t length = 0;  // Slice: number of elements taken
};
// The items of `key` against `shape` (ints bounds-checked, slices resolved, one Ellipsis
// expanded to whole-axis slices). Boolean and integer-array (fancy) indexing are refused with
// an UnsupportedError that says what to do instead.
std::vector<IndexItem> parse_index(nb::handle key, const Shape& shape, const char* op);

}  // namespace tenferro::python
