// Runs an einsum program on one backend's ContractionKernels. Backend-agnostic: every buffer
// (inputs, intermediates, output) belongs to `runtime`, and intermediates are allocated with
// runtime.empty(), so a WebGPU or CUDA executor calls run_program with its own kernels.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "ops/einsum/contraction_kernels.hpp"
#include "ops/einsum/program.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::einsum_internal {

// Evaluates `plan` for `inputs` (shapes and dtype already checked against the plan) and
// returns a fresh compact output of `runtime`.
EagerTensor run_program(EagerRuntime& runtime, ContractionKernels& kernels, const EinsumPlan& plan,
                        std::span<const EagerTensor> inputs);

// The same, writing into `result` (the plan's output shape and dtype, any strides; e.g. a
// view of a larger tensor, as sliced execution uses).
void run_program_into(EagerRuntime& runtime, ContractionKernels& kernels, const EinsumPlan& plan,
                      std::span<const EagerTensor> inputs, const EagerTensor& result);

// Which slices of a sliced plan to run: slices [first, first + count) in the order of
// PreparedEinsum::run_slices; count < 0 means all of them.
struct SliceRange {
  std::int64_t first = 0;
  std::int64_t count = -1;
  bool operator==(const SliceRange&) const = default;
};

// A sliced plan (plan.path.sliced_labels not empty) on the CPU: runs the program once per
// slice of `range` on views of the inputs, writing or summing each slice's result into the
// output (zero where the range's slices write nothing); every workspace buffer stays within
// the plan's memory limit (sliced_executor.cpp). The range is checked by the caller.
EagerTensor run_sliced_program(EagerRuntime& runtime, ContractionKernels& kernels,
                               const EinsumPlan& plan, std::span<const EagerTensor> inputs,
                               SliceRange range = {});

// The direct binary-dot path's test: a two-operand plan that one GEMM computes with no copy,
// no pre-sum and no diagonal, given the operands' actual strides and a fresh compact output.
bool direct_binary_applicable(const EinsumPlan& plan, std::span<const EagerTensor> inputs);

}  // namespace tenferro::einsum_internal
