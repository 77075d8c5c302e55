// The WebGPU prims kernels (one file each); webgpu_prims_kernels.cpp binds them into the
// kernel set. F32 and C32 only: WGSL has no f64.
#pragma once

#include "ops/prims/kernel_calls.hpp"

namespace tenferro::prims_webgpu {

void elementwise(const ExecutionContext& ctx, const prims_internal::ElementwiseCall& call);
void reduce(const ExecutionContext& ctx, const prims_internal::ReduceCall& call);
void scan(const ExecutionContext& ctx, const prims_internal::ScanCall& call);
void generate(const ExecutionContext& ctx, const prims_internal::GenerateCall& call);

}  // namespace tenferro::prims_webgpu
