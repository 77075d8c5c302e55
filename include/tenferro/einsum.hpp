// Einsum: N-ary tensor contraction with contraction-order optimisation.
//   auto c = tenferro::einsum("ij,jk,kl->il", {a, b, c});
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tenferro/runtime/admission.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

enum class PathStrategy : std::uint8_t {
  Auto,      // exact up to 10 operands (FLOPs plus one per intermediate element written, so
             // of two paths with about the same FLOPs the one that writes less); beyond,
             // greedy + subtree reconfiguration, then a Hyper search whose trial count grows
             // with that path's estimated execution time (a few percent of it, capped by
             // time_budget_seconds; no clock: reproducible)
  Greedy,    // opt_einsum-style greedy cost
  Optimal,   // exact dynamic programming over subsets (guarded by time/size)
  Explicit,  // the user's path (EinsumOptions::path)
  Hyper,     // sampled randomised-greedy and recursive-bisection trees + subtree reconfiguration
};

// What PathStrategy::Hyper minimises (the other strategies minimise FLOPs; Auto's exact search
// adds one per element written, see Auto).
enum class PathObjective : std::uint8_t {
  Flops,  // total FLOPs (opt_einsum's count)
  Size,   // the largest intermediate, then FLOPs
  Combo,  // FLOPs + combo_factor * elements written to intermediates (cotengra's "combo")
};

struct EinsumOptions {
  PathStrategy strategy = PathStrategy::Auto;
  // A planner by name (tenferro/einsum_planner.hpp): one the caller registered, or a built-in
  // name ("auto", "greedy", "optimal", "hyper"), which means the same as that `strategy`.
  // Empty: `strategy` decides. Naming a planner while `strategy` is Explicit is a Validation
  // error (two answers to one question), as is a name nobody registered.
  std::string planner;
  // For PathStrategy::Explicit: pairwise steps in opt_einsum's convention (each step removes
  // operands i and j of the current list and appends their result at the end).
  std::vector<std::pair<int, int>> path;
  // Allow the direct binary-dot path (two operands in natural GEMM order -> one GEMM call).
  bool allow_direct_binary = true;

  // PathStrategy::Hyper (Auto uses `seed`, `objective` and `combo_factor` with its own trial
  // count, from its cost estimate; `time_budget_seconds` caps that count through a fixed model
  // of a trial's time, never the clock). The search samples `hyper_trials` trees in rounds on the
  // host's threads; a tree depends only on `seed`, its index and the earlier rounds, never on
  // thread timing, so the path is deterministic for a given seed whenever the whole search
  // finishes within the time budget. When the budget runs out first (no new trial starts
  // after half of it; the other half reconfigures the best trees), the result depends on how
  // far it got and EinsumPath::method says so. 0 means "no limit" for either bound, not for both.
  double time_budget_seconds = 1.0;
  int hyper_trials = 128;
  std::uint64_t seed = 0;
  PathObjective objective = PathObjective::Flops;
  double combo_factor = 64;

  // Slicing: the most elements any intermediate may hold (0: no limit). When the planned
  // path needs more, the planner slices labels (each slice fixes their values and the
  // slices' results are summed or written into the output) until every intermediate of
  // one slice fits. The inputs and the output are held whole, so a limit below any of them
  // is a Validation error; an operand that repeats a label (a diagonal, "bbc") counts its
  // distinct labels' extents (the b x c entries the contraction reads), not what it stores. Sliced plans run on every backend, on the device that holds the
  // operands (the slices' results are summed there, never on the host). On the CPU, many small
  // slices are spread over the host threads (TENFERRO_NUM_THREADS, else OpenBLAS's count), each
  // thread holding one slice's intermediates and, with summed labels sliced, one partial output:
  // the limit still bounds each buffer, not their sum (docs/perf/planning.md, "Sliced execution").
  // Results repeat bit for bit per thread count.
  double memory_limit = 0;

  // Path reuse across shapes (Auto, Optimal and Hyper): when an einsum call misses the runtime's
  // plan cache but the same equation (same operands' ranks and options) was planned on that
  // runtime for other shapes, the earlier plan's steps are kept if, at the new shapes, they cost
  // no more than the greedy path does (by the strategy's objective); otherwise the call plans
  // afresh. The check costs one greedy pass, not a search. A DMRG sweep, whose bond dimensions
  // change site by site, so plans once per equation. The result's rounding may then depend on
  // which shapes came first; set false for results that depend on the shapes alone.
  // EinsumPath::origin says what happened.
  bool reuse_path_across_shapes = true;

  // Interruption: when set, the built-in planners call it every few milliseconds of work
  // (path search, refinement, the hyper search's trials, slicing, path evaluation) so that a
  // long plan can be stopped. To stop, it throws; the exception reaches einsum's caller
  // unchanged and nothing is cached. It may be called from several planning threads at
  // once. It does not shape the plan (it is not part of the plan cache's key), is not polled
  // inside a user planner (which runs the caller's own code), and not during execution. The
  // Python binding installs one that raises a pending KeyboardInterrupt (docs/reliability.md).
  std::function<void()> interrupt;
};

// One pairwise contraction of a path, for reports.
struct EinsumPathStep {
  std::string subscripts;  // e.g. "jk,ij->ik" (labels renamed to letters when needed)
  std::string remaining;   // the contraction still to do after this step
  double flops = 0;        // opt_einsum FLOP count of this step
  int scaling = 0;         // number of distinct labels the step loops over
};

// Where a plan came from (EinsumPath::origin).
enum class PlanOrigin : std::uint8_t {
  Planned,  // planned by this call
  Cached,   // the runtime's plan cache, from an earlier call with the same shapes
  Reused,   // the steps of an earlier plan of the same equation for other shapes, checked at
            // these shapes (EinsumOptions::reuse_path_across_shapes)
};

// The chosen pairwise path with its cost, like NumPy's einsum_path.
struct EinsumPath {
  std::vector<std::pair<int, int>> steps;
  // Estimated multiply-adds of the whole path: opt_einsum's FLOP count of the path as it runs,
  // which first sums each operand's private labels (in no other operand and not in the output)
  // on its own, so it can be below opt_einsum's figure for the same pairs (abc,bd->ad: 108
  // against 240).
  double flops = 0;
  double naive_flops = 0;  // single-loop cost, for comparison
  double largest_intermediate = 0;  // elements
  std::string to_string() const;    // a readable report
  // Report details filled by the planner: the whole contraction, the strategy that produced
  // the steps (with the reason when a guard made it fall back), the naive loop nest's
  // scaling, and one entry per step.
  std::string expression;
  std::string method;
  int naive_scaling = 0;
  std::vector<EinsumPathStep> details;
  // Slicing under EinsumOptions::memory_limit (empty / 1 slice when none was needed).
  std::vector<int> sliced_labels;         // the expression's label ids, in slicing order
  std::vector<std::string> sliced_names;  // the same labels as written
  double num_slices = 1;                  // product of the sliced labels' extents
  double sliced_flops = 0;                // FLOPs of all slices together
  double slicing_overhead = 1;            // sliced_flops / flops
  double slice_largest_intermediate = 0;  // elements, within one slice
  // Wall time plan_path took (seconds; a cached plan keeps its first planning's figure) and the
  // hyper trials it ran when that is a fixed count (Auto's, or Hyper's without a time budget);
  // 0 otherwise. Auto's method line says why it chose that effort.
  double planning_seconds = 0;
  int planning_trials = 0;
  // Planned / Cached only from the runtime-aware einsum_path (operands, not shapes) and inside
  // einsum; `steps_planned_for` names the operands' shapes the steps were first planned for when
  // they were reused (also on a later cache hit of that plan), else it is empty.
  PlanOrigin origin = PlanOrigin::Planned;
  std::string steps_planned_for;
};

// Integer-label form: one label vector per operand plus the output labels.
struct EinsumLabels {
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
};

// NumPy's semantics: traces and diagonals (a label repeated in an operand, its axes of equal
// extent), diagonal embedding (repeated in the output), "..." broadcasting, and an extent of 1
// broadcasting against the same label's longer extent in another operand (read with stride 0).
// An operand that is a broadcast view (an axis of stride 0, prims::broadcast_to) is read at its
// distinct elements where another operand carries that axis's label: the plan leaves the axis
// out (einsum_path's expression shows the contraction without it). An axis whose label only it
// carries is read as it is, and copied whole where a step needs a compact block.
EagerTensor einsum(std::string_view subscripts, std::span<const EagerTensor> operands,
                   const EinsumOptions& options = {});
EagerTensor einsum(std::string_view subscripts, std::initializer_list<EagerTensor> operands,
                   const EinsumOptions& options = {});
EagerTensor einsum(const EinsumLabels& labels, std::span<const EagerTensor> operands,
                   const EinsumOptions& options = {});

EinsumPath einsum_path(std::string_view subscripts, std::span<const Shape> shapes,
                       const EinsumOptions& options = {});
// The plan einsum would run for these operands on their runtime: taken from, or planned into,
// the runtime's plan cache exactly as einsum does (so a later einsum call hits it), with
// EinsumPath::origin saying which. Reads no tensor data and runs nothing.
EinsumPath einsum_path(std::string_view subscripts, std::span<const EagerTensor> operands,
                       const EinsumOptions& options = {});

// A prepared plan for hot loops: parsing and path planning happen once; each call checks
// the operands' shapes/dtype against the plan and runs it.
class PreparedEinsum {
 public:
  PreparedEinsum(std::string_view subscripts, std::span<const TensorMeta> operands,
                 const EinsumOptions& options = {});
  EagerTensor operator()(std::span<const EagerTensor> operands) const;
  const EinsumPath& path() const;

  // Slice by slice (a plan sliced under EinsumOptions::memory_limit; an unsliced plan has one
  // slice): runs slices [first, first + count) and returns their contribution, a tensor of the
  // full output shape that is zero where those slices write nothing. The results of ranges
  // that partition [0, num_slices()) add up to operator()'s result (up to rounding order):
  // the unit a caller hands to other threads or processes. Validation for an empty or
  // out-of-bounds range; the same backend rule as operator(): the slices run on the runtime
  // that holds the operands, whatever its backend (EinsumOptions::memory_limit).
  std::int64_t num_slices() const;
  // The output's dtype and shape.
  TensorMeta output() const;
  EagerTensor run_slices(std::span<const EagerTensor> operands, std::int64_t first,
                         std::int64_t count) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

namespace einsum_family {
inline constexpr std::string_view kFamily = "tenferro.einsum.v1";
const AdmissionTable& admission_table();
}  // namespace einsum_family

}  // namespace tenferro

#pragma GCC visibility pop
