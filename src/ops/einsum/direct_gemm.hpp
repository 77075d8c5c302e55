// The warm form of the direct binary-dot path: a two-operand einsum that one GEMM computes,
// worked out when the plan is built for the memory orders callers hand in most, so that a call
// with those strides is a stride compare, an output and the GEMM. The layout search of
// run_program (labelled views, stride sorts, candidate orders) took about 70% of a warm 4x4
// `ij,jk->ik`.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ops/einsum/contraction_kernels.hpp"
#include "ops/einsum/program.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::einsum_internal {

// The plan's DirectGemms: for both operands column-major compact, and both row-major compact,
// where run_program would run one GEMM with no copy. Empty unless plan.direct_candidate.
std::vector<DirectGemm> plan_direct_gemms(const EinsumPlan& plan);

// The DirectGemm whose strides are the inputs' own, or nullptr.
const DirectGemm* matching_direct_gemm(const EinsumPlan& plan, std::span<const EagerTensor> inputs);

// Where an operand's elements start: its buffer and its offset in elements.
struct OperandPlace {
  Buffer* buffer = nullptr;
  std::int64_t offset = 0;
};

// `problem` (buffers null, offsets relative to each operand's own) on operands at these
// places (a replay's scratch is a buffer of its plan, no tensor), or on these tensors.
GemmProblem on_places(GemmProblem problem, OperandPlace a, OperandPlace b, OperandPlace c);
GemmProblem on_operands(GemmProblem problem, const EagerTensor& a, const EagerTensor& b,
                        const EagerTensor& c);

// Runs it: a fresh output of `runtime` with the DirectGemm's strides, written by one GEMM.
EagerTensor run_direct_gemm(EagerRuntime& runtime, ContractionKernels& kernels,
                            const EinsumPlan& plan, const DirectGemm& direct,
                            std::span<const EagerTensor> inputs);

}  // namespace tenferro::einsum_internal
