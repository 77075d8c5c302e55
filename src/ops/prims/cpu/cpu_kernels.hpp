// The CPU prims kernels (one file each); cpu_prims_kernels.cpp binds them into the kernel set.
#pragma once

#include "backends/cpu/cpu_backend.hpp"
#include "ops/prims/kernel_calls.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::cpu_strided {
struct ReduceView;  // backends/cpu/strided_reduce.hpp
}  // namespace tenferro::cpu_strided

namespace tenferro::prims_cpu {

void elementwise(const ExecutionContext& ctx, const prims_internal::ElementwiseCall& call);
void reduce(const ExecutionContext& ctx, const prims_internal::ReduceCall& call);
// argmax/argmin, which reduce() hands on with its view of the call (cpu_arg_extreme.cpp).
void arg_extreme(const prims_internal::ReduceCall& call, const cpu_strided::ReduceView& view);
void scan(const ExecutionContext& ctx, const prims_internal::ScanCall& call);
void generate(const ExecutionContext& ctx, const prims_internal::GenerateCall& call);

}  // namespace tenferro::prims_cpu
