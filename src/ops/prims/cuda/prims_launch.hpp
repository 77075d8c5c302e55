// The prims CUDA kernels as plain launch functions (their data: prims_index.hpp), included by
// the host side (cuda_prims_kernels.cpp) and by the .cu files. Every launch queues work on
// `stream` and returns the launch status for the caller's cuda_check; nothing here
// synchronizes.
//
// Views are in elements, axis 0 fastest; the host coalesces axes first (prims_layout.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "ops/prims/cuda/prims_index.hpp"

namespace tenferro::cuda_kernels::prims {

// Operands: 0 = dst, 1 = src. Both launches return cudaErrorInvalidValue for a combination
// the kernels do not have (a complex -> real Cast, Maximum of complex values, a wrong output
// element) rather than computing something else.
cudaError_t launch_unary(PrimKind op, Element in, Element out, void* dst, const void* src,
                         const Index<2>& ix, std::int64_t count, const Scalars& s,
                         cudaStream_t stream);
// Operands: 0 = dst, 1 = a, 2 = b.
cudaError_t launch_binary(PrimKind op, Element in, void* dst, const void* a, const void* b,
                          const Index<3>& ix, std::int64_t count, const Scalars& s,
                          cudaStream_t stream);
// Where: dst = cond != 0 ? a : b, all four of element `in`. Operands: 0 = dst, 1 = cond,
// 2 = a, 3 = b.
cudaError_t launch_select(Element in, void* dst, const void* cond, const void* a, const void* b,
                          const Index<4>& ix, std::int64_t count, cudaStream_t stream);

// A reduction: `kept` indexes dst (operand 0) and src (operand 1) over the kept axes,
// `reduced` indexes src over the reduced axes. Long reductions are split into
// reduce_parts(...) parts per output whose partial results go to `workspace` (16 bytes per
// part and output; may be null when reduce_parts is 1), combined by a second kernel. With
// reduced_count == 0 the output gets the identity (Mean: NaN) and src is not read.
cudaError_t launch_reduce(PrimKind op, Element in, void* dst, const void* src, const Index<2>& kept,
                          std::int64_t kept_count, const Index<1>& reduced,
                          std::int64_t reduced_count, void* workspace, cudaStream_t stream);

// A scan (CumSum, CumProd) along one axis of n elements: `lines` indexes dst (operand 0) and src
// (operand 1) at the first element of each of line_count lines, whose elements are dst_step
// and src_step apart.
cudaError_t launch_scan(PrimKind op, Element in, void* dst, const void* src, const Index<2>& lines,
                        std::int64_t line_count, std::int64_t n, std::int64_t dst_step,
                        std::int64_t src_step, cudaStream_t stream);

// Fills `count` compact elements of `dst` (element k is column-major linear index k).
cudaError_t launch_generate(PrimKind op, Element out, void* dst, std::int64_t count,
                            const GenerateArgs& args, cudaStream_t stream);

}  // namespace tenferro::cuda_kernels::prims
