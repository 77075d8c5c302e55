// The per-op WGSL of the WebGPU prims kernels: what one element, one reduction or one created
// value computes, as functions the kernel skeletons (wgsl_prims_sources.cpp) call. Written on
// the math library (wgsl_prims_math.hpp).
#pragma once

#include <string>

#include "ops/prims/prim_kind.hpp"
#include "tenferro/core/dtype.hpp"

namespace tenferro::prims_webgpu::wgsl {

// `fn op(x: TI) -> TO` (arity 1), `fn op(x: TI, y: TI) -> TO` (arity 2) or
// `fn op(x: TI, y: TI, z: TI) -> TO` (arity 3: Where). May call alpha(),
// beta() and flag(bit), which the skeleton defines from the parameter block.
std::string elementwise_function(prims_internal::PrimKind kind, DType in, DType out);

// A reduction as a monoid on accumulators A: `alias A`, `fn identity() -> A`,
// `fn combine(a: A, b: A) -> A`, `fn lift(v: TI, j: i32) -> A` (j: the element's index in the
// reduced block, which argmax/argmin keep) and `fn finish(a: A) -> TO` (which may read count(),
// the number of reduced elements, for the mean).
std::string reduce_functions(prims_internal::PrimKind kind, DType in);
bool reduce_accumulator_is_pair(prims_internal::PrimKind kind, DType in);

// `fn value(k: i32) -> TO`: element k (column-major) of a creation op. May read p[] words
// 1.. (see generate's parameter block in wgsl_prims_sources.cpp) and philox_words(k).
std::string generate_function(prims_internal::PrimKind kind, DType out);

}  // namespace tenferro::prims_webgpu::wgsl
