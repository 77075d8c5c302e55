// The execution program of one einsum: everything that depends only on the expression, the
// operand shapes and the dtype (parsed labels, label sizes, the pairwise path and, per step,
// which labels are still needed afterwards). Built once, cached in the runtime's
// ExtensionCacheStore, and run by run_program (executor.hpp) on any backend's
// ContractionKernels. Stride-dependent choices (zero-copy matricization or a permute-copy)
// are made at run time, because views of the same shape may have any strides; only a
// two-operand plan's single GEMM is also worked out ahead, for the two memory orders callers
// hand in most (DirectGemm).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/einsum/contraction_kernels.hpp"
#include "ops/einsum/expression.hpp"
#include "tenferro/core/dtype.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::einsum_internal {

// One pairwise contraction: operands `lhs` and `rhs` of the current list are removed and
// their result is appended (opt_einsum's convention). `lhs_slot` and `rhs_slot` name the same
// two operands by slot: inputs 0..n-1, then step s's result is slot n + s, so the executor
// finds them in O(1) (erasing from a list of positions at every step was O(n^2) on a
// 200000-operand network). `kept` are the labels of the step's two operands that the output
// or an operand still waiting carries: the labels of its result, the only ones the executor
// asks about (a flag per label of the network, per step, was most of building the program of
// a 200-operand network: O(steps x labels)).
//
// `next_contracted` looks one step ahead: the labels of this step's result that the step
// consuming it will contract (shared with its other operand and needed by no one after it).
// The executor lays the result out with those labels together, so that step can hand it to
// GEMM without a permute-copy (a DMRG matvec's intermediates were copied at every step).
struct ProgramStep {
  int lhs = 0;
  int rhs = 0;
  int lhs_slot = 0;
  int rhs_slot = 0;
  std::vector<Label> kept;
  std::vector<Label> next_contracted;
};

class ReplaySlot;  // replay.hpp

// A two-operand call as the one GEMM that computes it, for operands with exactly these strides
// (column-major compact, or row-major compact: what C++ users and NumPy users hand in) and a
// fresh output with `out_strides` (result_strides' choice for them). A warm call whose operands
// match runs it at once (direct_gemm.hpp): the layout search it skips cost more than a 4x4
// product itself.
struct DirectGemm {
  Strides input_strides[2];
  Strides out_strides;
  GemmProblem problem;  // buffers null, offsets 0
  int a_input = 0;      // the input that is the problem's A (the step's lhs); the other is B
};

struct EinsumPlan {
  EinsumExpression expr;
  std::vector<std::int64_t> sizes;  // per label
  EinsumPath path;
  DType dtype = DType::F64;
  std::vector<Shape> input_shapes;
  Shape output_shape;
  std::vector<ProgramStep> steps;
  std::vector<char> in_output;  // per label
  bool output_has_repeats = false;
  // Shape-level precondition of the direct binary-dot path (see direct_binary_applicable).
  bool direct_candidate = false;
  std::vector<DirectGemm> direct_gemms;  // at most two; empty unless direct_candidate
  // The kernel calls of a run, played back by runs with the same operand strides (replay.hpp);
  // null for programs of more than kMaxReplaySteps steps, whose recording would outweigh the
  // plan (each call's views are kept).
  std::shared_ptr<ReplaySlot> replay;
  // The same for the program of one slice of a sliced plan (sliced_executor.cpp), kept here so
  // that it outlives one call; null when the plan is not sliced or keeps no replay.
  std::shared_ptr<ReplaySlot> slice_replay;
  // Per operand, the broadcast axes the plan leaves out (broadcast_axes.hpp; bit a for axis a),
  // or empty when it leaves none out. `expr` and `input_shapes` are the operands' without them,
  // and einsum's execute() hands the executors views without them.
  std::vector<std::uint64_t> dropped_axes;

  std::size_t retained_bytes() const;
};

inline constexpr std::size_t kMaxReplaySteps = 1024;

// Builds the program for an already validated expression, its label sizes and a path.
EinsumPlan build_plan(EinsumExpression expr, std::vector<std::int64_t> sizes, EinsumPath path,
                      DType dtype, std::vector<Shape> input_shapes);

// Whether an (rows x cols) matrix with these element strides can be handed to a column-major
// BLAS GEMM, as itself (`transposed` = false, leading dimension `ld`) or as the transpose of
// a column-major matrix (`transposed` = true). Size-1 extents accept any stride.
struct BlasMatrix {
  bool ok = false;
  bool transposed = false;
  std::int64_t ld = 1;
};
BlasMatrix blas_matrix(std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                       std::int64_t col_stride);

}  // namespace tenferro::einsum_internal
