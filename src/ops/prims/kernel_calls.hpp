// What a backend's prims kernels receive: fully resolved calls. The generic executor
// (prims_executor.cpp) has already checked the runtime, admission, shapes, broadcasting and
// dtypes, allocated the output and skipped empty outputs; a kernel only computes.
//
// Layouts are in elements: dtype, shape, strides (any sign is NOT allowed: strides are >= 0;
// a broadcast axis has stride 0), offset from the start of the buffer. Indices run in
// column-major order (first axis fastest) over the call's shape.
#pragma once

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>

#include "ops/prims/prim_kind.hpp"
#include "tenferro/config.hpp"  // TENFERRO_HAS_* for the declarations below
#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/backend.hpp"

namespace tenferro {
class ExecutionContext;
}

namespace tenferro::prims_internal {

// A buffer of the call's runtime seen through a strided layout.
struct StridedOperand {
  const Buffer* buffer = nullptr;
  TensorLayout layout;
};

// out[i] = f(in0[i], in1[i], in2[i]) over the output's shape; inputs are already broadcast to it.
//  - Unary kinds (Neg..Sign): out = f(in0); out dtype = kernel_output_dtype(kind, in dtype).
//  - Binary kinds (Add..Pow): out = in0 (op) in1, one dtype throughout.
//  - Complex: out = in0 + i*in1, inputs real (F32/F64), out C32/C64.
//  - Comparisons (Greater..NotEqual): out = 1 if in0 (op) in1 else 0, in out's real dtype;
//    IEEE (NaN compares false, except NotEqual; -0 == +0). Equal/NotEqual of complex values
//    compare both parts.
//  - Where (arity 3): out = in0 != 0 ? in1 : in2, one dtype throughout (a complex condition is
//    nonzero when either part is; NaN is nonzero).
//  - Affine: out = alpha * in0 + beta.   Axpby: out = alpha * in0 + beta * in1.
//    alpha/beta are converted to the operand dtype (their imaginary part is zero for real ones).
//    Affine adds beta unless adds_beta says it is the additive identity (-0, -0), which
//    prims::scale passes: x + (-0) is x for every x, -0 included, while x + 0 makes -0 a +0
//    (IEEE, NumPy), so a shift by +0 adds and a scale leaves -0 alone.
//  - Cast: out = in0 converted to out's dtype (real -> complex gets zero imaginary parts; never
//    complex -> real). `out` may be a strided view into a larger buffer (concatenate).
inline bool adds_beta(std::complex<double> beta) {
  return !(beta.real() == 0.0 && beta.imag() == 0.0 && std::signbit(beta.real()) &&
           std::signbit(beta.imag()));
}

struct ElementwiseCall {
  PrimKind kind{};
  int arity = 1;
  std::array<StridedOperand, 3> in;
  StridedOperand out;
  std::complex<double> alpha{1.0, 0.0};
  std::complex<double> beta{0.0, 0.0};
};

// out = reduce over the axes with reduced[axis] != 0 of `in`. out is compact with in's shape,
// reduced axes set to 1. Sum/Prod/Max/Min/Mean keep the dtype (Mean divides by the number of
// reduced elements: NaN when it is 0); Norm = sqrt(sum |x|^2) has the real dtype. Zero
// reduced elements give the identity (0 for Sum/Norm, 1 for Prod); Max/Min never get them.
// ArgMax/ArgMin (real dtypes) reduce exactly one axis, of at least one element, and write the
// index along it of the first largest (smallest) value, or of the first NaN when there is
// one (NumPy's argmax/argmin), as a value of the input's dtype (exact: the API bounds the
// axis to 2^24 elements for F32 and 2^53 for F64).
// Kernels must stay accurate for long reductions (10^7 elements): pairwise/tree sums, or a
// wider accumulator.
struct ReduceCall {
  PrimKind kind{};
  StridedOperand in;
  std::array<std::uint8_t, 64> reduced{};  // by axis; rank <= 64
  StridedOperand out;
};

// out = the inclusive running sum (CumSum, NumPy's cumsum) or product (CumProd, cumprod) of `in`
// along `axis`: out[.., j, ..] = in[.., 0, ..] (op) ... (op) in[.., j, ..], one dtype throughout;
// out has in's shape and its own buffer, dense in in's memory order (column-major when in is a
// broadcast). The terms may be associated in blocks (a parallel scan) rather than strictly left to
// right, so finite results can differ from a sequential loop's in the last bits; an Inf/NaN of
// `in` propagates as in that loop, but one made on the way by an overflow need not (1e300, 1e300,
// 0 multiplied left to right give inf * 0 = NaN, associated as 1e300 * (1e300 * 0) they give 0).
// F32/C32 may accumulate in a wider type and round each output once.
struct ScanCall {
  PrimKind kind{};
  StridedOperand in;
  std::int64_t axis = 0;
  StridedOperand out;
};

// out (compact) filled by index k = column-major linear index:
//  - Fill: value.                 - Eye: 1 where col - row == offset, else 0 (out is 2-D).
//  - Arange: start + k * step (complex: zero imaginary part).
//  - RandomUniform / RandomNormal: from Philox4x32-10 (philox.hpp): key = seed, counter =
//    (k low 32, k high 32, 0, 0); see philox.hpp for how words become values. a = low/mean,
//    b = high/stddev.
struct GenerateCall {
  PrimKind kind{};
  StridedOperand out;
  std::complex<double> value{0.0, 0.0};
  std::int64_t offset = 0;
  double start = 0.0, step = 1.0;
  double a = 0.0, b = 1.0;
  std::uint64_t seed = 0;
};

// One backend's prims kernels and exactly what they run: runs[kind] is the mask of kernel
// input dtypes (Generate: output dtypes) the backend computes for that op. The family's
// admission table and modules are derived from these sets (registration.cpp).
struct PrimsKernels {
  BackendKind backend{};
  std::array<DTypeMask, kPrimKindCount> runs{};
  void (*elementwise)(const ExecutionContext&, const ElementwiseCall&) = nullptr;
  void (*reduce)(const ExecutionContext&, const ReduceCall&) = nullptr;
  void (*scan)(const ExecutionContext&, const ScanCall&) = nullptr;
  void (*generate)(const ExecutionContext&, const GenerateCall&) = nullptr;
};

// Each backend folder defines its kernel set (only in builds that have the backend).
const PrimsKernels& cpu_prims_kernels();
#if TENFERRO_HAS_WEBGPU
const PrimsKernels& webgpu_prims_kernels();
#endif
#if TENFERRO_HAS_CUDA
const PrimsKernels& cuda_prims_kernels();
#endif

}  // namespace tenferro::prims_internal
