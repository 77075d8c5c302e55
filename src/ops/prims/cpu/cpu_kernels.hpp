// The CPU prims kernels (one file each); cpu_prims_kernels.cpp binds them into the kernel set.
#pragma once

#include "backends/cpu/cpu_backend.hpp"
#include "ops/prims/kernel_calls.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::prims_cpu {

void elementwise(const ExecutionContext& ctx, const prims_internal::ElementwiseCall& call);
void reduce(const ExecutionContext& ctx, const prims_internal::ReduceCall& call);
// argmax/argmin, which reduce() hands on (cpu_arg_extreme.cpp).
void arg_extreme(const prims_internal::ReduceCall& call);
void generate(const ExecutionContext& ctx, const prims_internal::GenerateCall& call);

}  // namespace tenferro::prims_cpu
