// The tenferro.prims.v1 family: element-wise arithmetic, reductions, casts, views and creation
// on every backend. Every op keeps the placement contract: inputs from one runtime, the output
// on the same runtime and placement, no transfer, a typed Unsupported error before execution
// where a backend lacks an op or dtype, a typed Validation error naming the operand and axis
// for shape and broadcast errors.
//
//   auto y = prims::axpby(2.0, x, -1.0, z);           // 2x - z, one kernel
//   auto n = prims::norm(y);                           // Frobenius norm, 0-d, real
//   auto s = prims::sum(x, {{0, 2}}, /*keepdims=*/true);
//   auto w = a * 2.0 + b;                              // operators on EagerTensor
//
// Conventions (NumPy's, on logical shapes):
// - Broadcasting aligns shapes from the last axis; a size-1 axis stretches, 0-d stretches to
//   anything, a zero-size axis broadcasts against 1 or itself.
// - Promotion of two operands: F32+F64 -> F64, F32+C32 -> C32, F32+C64 -> C64, F64+C32 -> C64
//   (the smallest dtype that holds both, as NumPy). A complex scalar on a real tensor promotes
//   it to complex; a real scalar never changes the tensor's dtype.
// - Complex -> real happens only through an explicit real/imag/abs/norm; cast() refuses it.
// - reshape() is in column-major (Fortran) order, like Tensor::reshape: the first index runs
//   fastest. It is a view when the strides allow, else a Validation error that says to call
//   contiguous() first.
// - sqrt and log of complex values use NumPy's principal branches (the cut on the negative real
//   axis; the sign of a zero imaginary part picks the side).
// - maximum/minimum/max/min propagate NaN, as NumPy's maximum/minimum/max/min.
// - An element-wise result is compact in the memory order of the first input that has the
//   result's whole shape (NumPy's order K): column-major from column-major inputs, the reversed
//   axis order from a transpose. Casts (contiguous) and the other ops give column-major results.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tenferro/core/dtype.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/runtime/admission.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

class EagerRuntime;

namespace prims {

// A scalar operand of the scalar forms. A real value (imag == 0) keeps the tensor's dtype.
using Scalar = std::complex<double>;
// Axes of a reduction; negative axes count from the end. std::nullopt means all axes.
using Axes = std::vector<std::int64_t>;

// --- Unary (same dtype, except abs/real/imag: complex -> its real dtype) ---
EagerTensor neg(const EagerTensor& x);
EagerTensor conj(const EagerTensor& x);  // a copy for real dtypes
EagerTensor abs(const EagerTensor& x);
EagerTensor real(const EagerTensor& x);
EagerTensor imag(const EagerTensor& x);  // zeros for real dtypes
EagerTensor sqrt(const EagerTensor& x);  // real: NaN below 0, as NumPy
EagerTensor exp(const EagerTensor& x);
EagerTensor exp2(const EagerTensor& x);   // 2^x; complex: exp(x ln 2), as NumPy
EagerTensor expm1(const EagerTensor& x);  // exp(x) - 1, accurate near 0
EagerTensor log(const EagerTensor& x);    // real: -inf at 0, NaN below 0
EagerTensor log1p(const EagerTensor& x);  // log(1 + x), accurate near 0; real: NaN below -1
EagerTensor log2(const EagerTensor& x);
EagerTensor log10(const EagerTensor& x);
EagerTensor sin(const EagerTensor& x);
EagerTensor cos(const EagerTensor& x);
EagerTensor tan(const EagerTensor& x);
EagerTensor sinh(const EagerTensor& x);
EagerTensor cosh(const EagerTensor& x);
EagerTensor tanh(const EagerTensor& x);
// Inverse circular and hyperbolic functions, real dtypes only (a complex input is a Validation
// error): NaN outside the domain (|x| > 1 for asin, acos and atanh, x < 1 for acosh), as NumPy.
EagerTensor asin(const EagerTensor& x);
EagerTensor acos(const EagerTensor& x);
EagerTensor atan(const EagerTensor& x);
EagerTensor asinh(const EagerTensor& x);
EagerTensor acosh(const EagerTensor& x);
EagerTensor atanh(const EagerTensor& x);  // +-inf at +-1
// To an integral value in the same dtype, real dtypes only: rint rounds to nearest, ties to even.
EagerTensor floor(const EagerTensor& x);
EagerTensor ceil(const EagerTensor& x);
EagerTensor rint(const EagerTensor& x);
EagerTensor trunc(const EagerTensor& x);
EagerTensor cbrt(const EagerTensor& x);  // the real cube root (cbrt(-8) = -2); real dtypes only
EagerTensor reciprocal(const EagerTensor& x);
EagerTensor square(const EagerTensor& x);
EagerTensor sign(const EagerTensor& x);  // complex: x/|x| (0 at 0), as NumPy 2

// --- Binary, with broadcasting and promotion ---
EagerTensor add(const EagerTensor& a, const EagerTensor& b);
EagerTensor sub(const EagerTensor& a, const EagerTensor& b);
EagerTensor mul(const EagerTensor& a, const EagerTensor& b);
EagerTensor div(const EagerTensor& a, const EagerTensor& b);
// NumPy's floor_divide and remainder (Python's // and %: floor(a / b) of the exact quotient, and
// a - b floor(a / b) with the divisor's sign), and C's fmod (the dividend's sign); exact where
// the result is representable, NumPy's values at zeros, infinities and NaNs; real dtypes only.
EagerTensor floor_div(const EagerTensor& a, const EagerTensor& b);
EagerTensor mod(const EagerTensor& a, const EagerTensor& b);
EagerTensor fmod(const EagerTensor& a, const EagerTensor& b);
EagerTensor maximum(const EagerTensor& a, const EagerTensor& b);  // real dtypes only
EagerTensor minimum(const EagerTensor& a, const EagerTensor& b);  // real dtypes only
EagerTensor pow(const EagerTensor& a, const EagerTensor& b);      // real dtypes only
// The angle of the point (b, a) (C's atan2(a, b): signed zeros and infinities included) and
// sqrt(a^2 + b^2) without overflow or underflow in between; real dtypes only.
EagerTensor atan2(const EagerTensor& a, const EagerTensor& b);
EagerTensor hypot(const EagerTensor& a, const EagerTensor& b);
// |a| with b's sign bit (-0 and NaN signs included); real dtypes only.
EagerTensor copysign(const EagerTensor& a, const EagerTensor& b);
// re + i*im from two real tensors of one dtype (F32 -> C32, F64 -> C64), broadcast.
EagerTensor complex(const EagerTensor& re, const EagerTensor& im);

// --- Comparisons: 1.0 where true, 0.0 where false, in the real dtype of the promoted operands
// (tenferro has no bool dtype), broadcast. IEEE: a NaN operand makes every comparison false
// except not_equal; -0 == +0; inf == inf. Complex operands: equal/not_equal compare both
// parts; the orderings refuse them with a Validation error (NumPy's lexicographic order of
// complex numbers is rarely what is meant: compare real() or abs() explicitly). ---
EagerTensor greater(const EagerTensor& a, const EagerTensor& b);
EagerTensor greater_equal(const EagerTensor& a, const EagerTensor& b);
EagerTensor less(const EagerTensor& a, const EagerTensor& b);
EagerTensor less_equal(const EagerTensor& a, const EagerTensor& b);
EagerTensor equal(const EagerTensor& a, const EagerTensor& b);
EagerTensor not_equal(const EagerTensor& a, const EagerTensor& b);
// x where cond != 0, else y (NumPy's where; NaN counts as nonzero, a complex cond when either
// part is nonzero). x and y are promoted, all three broadcast; one kernel that never reads the
// branch it does not choose into the result, so its Inf/NaN never leak.
EagerTensor where(const EagerTensor& cond, const EagerTensor& x, const EagerTensor& y);
// 1.0/0.0 in x's real dtype, as NumPy's (complex: isfinite when both parts are, isnan/isinf
// when either part is). Compositions of the comparisons above.
EagerTensor isfinite(const EagerTensor& x);
EagerTensor isnan(const EagerTensor& x);
EagerTensor isinf(const EagerTensor& x);

// --- Division by a scalar: x / v and v / x as IEEE divisions (a 0-d tensor of x's dtype, then
// div: two kernels, not scale(x, 1 / v)), so x / 0 is +-inf or NaN as NumPy and a tiny v does
// not overflow 1 / v. A real v keeps x's dtype; a complex v (nonzero imaginary part) makes a
// real x complex, as the scalar forms below. ---
EagerTensor div(const EagerTensor& x, Scalar v);
EagerTensor div(Scalar v, const EagerTensor& x);

// --- Scalar forms (no scalar tensor is materialised; one kernel each) ---
EagerTensor scale(const EagerTensor& x, Scalar alpha);  // alpha * x
EagerTensor shift(const EagerTensor& x, Scalar beta);   // x + beta
// alpha * x + beta * y, broadcast and promoted like add.
EagerTensor axpby(Scalar alpha, const EagerTensor& x, Scalar beta, const EagerTensor& y);

// --- Reductions over `axes` (all axes when nullopt); keepdims keeps them as size 1 ---
EagerTensor sum(const EagerTensor& x, std::optional<Axes> axes = std::nullopt,
                bool keepdims = false);
EagerTensor mean(const EagerTensor& x, std::optional<Axes> axes = std::nullopt,
                 bool keepdims = false);  // NaN over zero elements, as NumPy
EagerTensor prod(const EagerTensor& x, std::optional<Axes> axes = std::nullopt,
                 bool keepdims = false);
// max/min: real dtypes; a reduction over zero elements is a Validation error (no identity).
EagerTensor max(const EagerTensor& x, std::optional<Axes> axes = std::nullopt,
                bool keepdims = false);
EagerTensor min(const EagerTensor& x, std::optional<Axes> axes = std::nullopt,
                bool keepdims = false);
// sqrt(sum |x|^2): the vector 2-norm, or the Frobenius norm over two or more axes. Real output.
EagerTensor norm(const EagerTensor& x, std::optional<Axes> axes = std::nullopt,
                 bool keepdims = false);
// The index along `axis` of the first largest (smallest) value, or of the first NaN (NumPy's
// argmax/argmin along one axis), as a value of x's dtype: real dtypes; the axis must be
// non-empty and its indices exact in the dtype (at most 2^24 entries in F32). Piecewise
// constant: under AD its output is a constant.
EagerTensor argmax(const EagerTensor& x, std::int64_t axis, bool keepdims = false);
EagerTensor argmin(const EagerTensor& x, std::int64_t axis, bool keepdims = false);
// The inclusive running sum along `axis` (NumPy's cumsum along one axis): same shape and dtype.
// Associated in blocks, as a parallel scan: finite results can differ from a left-to-right loop
// in the last bits (float32 runs accumulate in float64 on the CPU). Linear under AD.
EagerTensor cumsum(const EagerTensor& x, std::int64_t axis);
// The inclusive running product along `axis` (NumPy's cumprod), associated in blocks as cumsum
// (a partial product can overflow, or not, where a left-to-right loop's would not, or would).
EagerTensor cumprod(const EagerTensor& x, std::int64_t axis);

// --- Casts: F32 <-> F64, real -> complex, C32 <-> C64. Complex -> real is refused: call
// real() or abs() to say which. Casting to the same dtype makes a compact copy. ---
EagerTensor cast(const EagerTensor& x, DType to);

// --- Views (metadata only: same buffer, no kernel) and layout ---
EagerTensor permute(const EagerTensor& x, std::span<const std::int64_t> perm);
EagerTensor transpose(const EagerTensor& x, std::int64_t axis_a = 0, std::int64_t axis_b = 1);
EagerTensor reshape(const EagerTensor& x, Shape shape);  // column-major order; -1 infers one extent
// One entry per leading axis (missing trailing axes are taken whole). Python's rules: negative
// start/stop count from the end, out-of-range values clamp; step > 0.
struct Slice {
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> stop;
  std::int64_t step = 1;
};
EagerTensor slice(const EagerTensor& x, std::span<const Slice> slices);
// The diagonal of axes (axis_a, axis_b) with `offset` (> 0 above), as NumPy: both axes are
// removed and the diagonal becomes the last axis.
EagerTensor diagonal(const EagerTensor& x, std::int64_t offset = 0, std::int64_t axis_a = 0,
                     std::int64_t axis_b = 1);
EagerTensor broadcast_to(const EagerTensor& x, Shape shape);  // stride-0 view
// A compact column-major copy made inside the runtime (a kernel, not a transfer), or x itself
// when it is already compact.
EagerTensor contiguous(const EagerTensor& x);
// x reversed along `axes` (all axes when nullopt), as numpy.flip: a copy made inside the runtime
// (tensors have no negative strides, so no view can be one), in x's memory order.
EagerTensor flip(const EagerTensor& x, std::optional<Axes> axes = std::nullopt);
// Joins tensors of one runtime along an existing axis (concatenate) or a new one (stack),
// promoting their dtypes. One output allocation; the inputs are copied into it on the device.
EagerTensor concatenate(std::span<const EagerTensor> xs, std::int64_t axis = 0);
EagerTensor stack(std::span<const EagerTensor> xs, std::int64_t axis = 0);

// --- Creation inside a runtime ---
EagerTensor zeros(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape);
EagerTensor ones(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape);
EagerTensor full(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape, Scalar value);
// n x m (m = n when absent) with ones on the diagonal `offset` (> 0 above).
EagerTensor eye(const std::shared_ptr<EagerRuntime>& rt, DType dtype, std::int64_t n,
                std::optional<std::int64_t> m = std::nullopt, std::int64_t offset = 0);
// start, start + step, ... toward stop, as NumPy: ceil((stop-start)/step) elements (one where
// that quotient underflows to 0 with stop != start), so rounding can put the last past stop.
// A real dtype (a complex one gets zero imaginary parts).
EagerTensor arange(const std::shared_ptr<EagerRuntime>& rt, DType dtype, double start, double stop,
                   double step = 1.0);
// Counter-based (Philox4x32-10) random numbers: element k (column-major) depends only on
// (seed, k), so the same seed gives the same numbers on every call, every shape prefix and every
// thread count. The underlying uniform numbers in [0, 1) are bit-identical on every backend
// (src/ops/prims/philox.hpp says how); low + (high - low) * u and the normal values (through
// log/cos/sin) agree across backends to the device's rounding. Uniform values are in
// [low, high) ((high, low] for low > high; docs/prims.md says how rounding is kept off high);
// a bound or span not finite in the dtype is a Validation error. Complex values: real and
// imaginary parts are independent, each uniform on [low, high); complex normal values have
// variance stddev^2 split evenly between the parts (PyTorch's convention).
EagerTensor random_uniform(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape,
                           std::uint64_t seed, double low = 0.0, double high = 1.0);
EagerTensor random_normal(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape,
                          std::uint64_t seed, double mean = 0.0, double stddev = 1.0);

}  // namespace prims

// Operators on EagerTensor (element-wise, broadcasting, promoting: the prims above).
EagerTensor operator-(const EagerTensor& x);
EagerTensor operator+(const EagerTensor& a, const EagerTensor& b);
EagerTensor operator-(const EagerTensor& a, const EagerTensor& b);
EagerTensor operator*(const EagerTensor& a, const EagerTensor& b);
EagerTensor operator/(const EagerTensor& a, const EagerTensor& b);
EagerTensor operator*(const EagerTensor& x, prims::Scalar alpha);
EagerTensor operator*(prims::Scalar alpha, const EagerTensor& x);
EagerTensor operator/(const EagerTensor& x, prims::Scalar alpha);
EagerTensor operator+(const EagerTensor& x, prims::Scalar beta);
EagerTensor operator+(prims::Scalar beta, const EagerTensor& x);
EagerTensor operator-(const EagerTensor& x, prims::Scalar beta);
EagerTensor operator-(prims::Scalar beta, const EagerTensor& x);

namespace prims_family {
inline constexpr std::string_view kFamily = "tenferro.prims.v1";
// Derived from the family's registration table: exactly what each backend's kernels run.
const AdmissionTable& admission_table();
}  // namespace prims_family

}  // namespace tenferro

#pragma GCC visibility pop
