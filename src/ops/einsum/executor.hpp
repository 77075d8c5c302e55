// Runs an einsum program on one backend's ContractionKernels. Backend-agnostic: every buffer
// (inputs, intermediates, output) belongs to `runtime`, and intermediates are allocated with
// runtime.empty(), so a WebGPU or CUDA executor calls run_program with its own kernels.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "ops/einsum/contraction_kernels.hpp"
#include "ops/einsum/program.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::einsum_internal {

// The strides of run_program's result: NumPy's C order when the operands are C-ordered blocks
// (a NumPy user's arrays, whose results then keep their order, as NumPy's einsum returns them,
// and whose last GEMM writes the result in place instead of through a transposing copy),
// column-major otherwise. Both are compact.
Strides result_strides(const EinsumPlan& plan, std::span<const EagerTensor> inputs);
// The same for operands of the plan's input shapes and these strides.
Strides result_strides_for(const EinsumPlan& plan, std::span<const Strides> input_strides);

// A new compact output of the plan's shape and dtype in `runtime`, with `strides` (column- or
// row-major compact, as result_strides gives).
EagerTensor fresh_output(EagerRuntime& runtime, const EinsumPlan& plan, const Strides& strides);

// Evaluates `plan` for `inputs` (shapes and dtype already checked against the plan) and
// returns a fresh compact output of `runtime`, laid out by result_strides.
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

// When the slices of a sliced plan are spread over host threads (docs/perf/planning.md,
// "Sliced execution"): never below kMinSlicesPerWorker slices per worker; never when one
// slice does fewer than kMinParallelSliceFlops (measured on 2 cores: 2 workers ran 0.69x as
// fast as 1 at 1e6 FLOPs per slice, 0.98x at 5e6, 1.24x at 2e7, 1.68x at 6e7: each step of a
// slice takes workspace from the runtime's shared pool, and small slices spend their time
// there) or kThreadedSliceFlops or more (opt_einsum FLOP count), where the kernels inside a
// slice already keep the threads busy and each worker would hold a large workspace; and, when
// summed labels are sliced, at most one worker per kFlopsPerPartialElement x output elements
// of the range's work (each extra worker zeroes and adds one full partial output).
inline constexpr std::int64_t kMinSlicesPerWorker = 2;
inline constexpr double kMinParallelSliceFlops = double(1 << 23);
inline constexpr double kThreadedSliceFlops = double(1 << 27);
inline constexpr double kFlopsPerPartialElement = 64;

// How many workers run `slices` slices of `plan` given `threads` host threads (1: one after
// the other), by the rule above.
int slice_workers(const EinsumPlan& plan, std::int64_t slices, int threads);

// A sliced plan (plan.path.sliced_labels not empty) on the CPU: runs the program once per
// slice of `range` on views of the inputs, writing or summing each slice's result into the
// output (zero where the range's slices write nothing); every workspace buffer stays within
// the plan's memory limit (sliced_executor.cpp). The range is checked by the caller.
// `workers` > 0 runs the range on that many workers (at most one per slice); 0 asks
// slice_workers with kernels.slice_threads(). A given worker count always gives the same bits;
// different counts differ by rounding order only when summed labels are sliced.
EagerTensor run_sliced_program(EagerRuntime& runtime, ContractionKernels& kernels,
                               const EinsumPlan& plan, std::span<const EagerTensor> inputs,
                               SliceRange range = {}, int workers = 0);

// The two-operand plan as the one GEMM run_program would hand its kernels, for operands of the
// plan's shapes with `input_strides` (any offsets) and an output with `out_strides`: buffers
// null and offsets 0, to be filled per call. Nothing when the call needs more than that GEMM
// (a permute-copy, a pre-sum, a diagonal).
std::optional<GemmProblem> single_gemm(const EinsumPlan& plan,
                                       std::span<const Strides> input_strides,
                                       const Strides& out_strides);

// The direct binary-dot path's test: a two-operand plan that one GEMM computes with no copy,
// no pre-sum and no diagonal, given the operands' actual strides and a fresh compact output.
bool direct_binary_applicable(const EinsumPlan& plan, std::span<const EagerTensor> inputs);

}  // namespace tenferro::einsum_internal
