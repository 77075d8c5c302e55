// Sliced execution: the plan's program runs once per combination of the sliced labels'
// values, on views of the inputs where those labels have extent 1. A slice of an output
// label writes its own part of the output (a view, no copy); slices of summed labels add
// up: the first writes the output part directly, each later one writes a compact partial
// result that is then accumulated into it. So the workspace of one slice is that of the
// sliced program (every intermediate within the plan's memory limit) plus, when summed
// labels are sliced, one partial of the output part's size (the output is within the limit).
// A range of slices (PreparedEinsum::run_slices, the unit a distributed run hands each rank)
// enumerates the same combinations from a linear index: the output starts at zero, the first
// slice of the range that reaches an output part writes it, later ones accumulate.
//
// In parallel (slice_workers > 1), worker p runs the p-th of equal contiguous sub-ranges of
// the range. Without sliced summed labels every slice writes its own output part, so all
// workers write into the output (results bitwise those of one worker). With them, worker 0
// sums into the output and worker p > 0 into its own zeroed full-size partial output; the
// partials are then added to the output in worker order on the calling thread, so a given
// worker count always gives the same bits, whichever thread ran which part. Each worker
// holds one slice's workspace at a time: the total is workers x (one slice's workspace) +
// (workers - 1) partial outputs, and every single buffer stays within the limit.
#include <algorithm>

#include "ops/einsum/executor.hpp"
#include "ops/einsum/replay.hpp"
#include "ops/einsum/workspace.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {
namespace {

bool contains(const std::vector<int>& v, Label l) {
  return std::find(v.begin(), v.end(), l) != v.end();
}

// A view of `t` whose axes labelled by a sliced label are fixed at that label's value.
// Axes of extent 1 broadcast against the label and stay where they are.
EagerTensor slice_view(const EagerTensor& t, const std::vector<Label>& labels,
                       const std::vector<int>& sliced, const std::vector<std::int64_t>& values) {
  TensorLayout layout = t.layout();
  for (std::size_t axis = 0; axis < labels.size(); ++axis) {
    const auto it = std::find(sliced.begin(), sliced.end(), labels[axis]);
    if (it == sliced.end() || layout.shape[axis] == 1) continue;
    layout.offset += values[static_cast<std::size_t>(it - sliced.begin())] * layout.strides[axis];
    layout.shape[axis] = 1;
  }
  return EagerTensor(t.runtime(), t.buffer(), std::move(layout));
}

KernelView kernel_view(const EagerTensor& t) {
  return KernelView{t.buffer().get(), t.dtype(), t.shape(), t.strides(), t.layout().offset};
}

// The sliced labels in execution order (output ones outermost: their slices write disjoint
// parts of the output) and the program of one slice (the sliced labels at extent 1).
struct SlicedProgram {
  std::vector<int> sliced;
  std::size_t output_sliced = 0;
  EinsumPlan slice;
  std::int64_t total = 1;  // slices
};

SlicedProgram sliced_program(const EinsumPlan& plan) {
  SlicedProgram p;
  for (int l : plan.path.sliced_labels)
    if (plan.in_output[static_cast<std::size_t>(l)]) p.sliced.push_back(l);
  p.output_sliced = p.sliced.size();
  for (int l : plan.path.sliced_labels)
    if (!plan.in_output[static_cast<std::size_t>(l)]) p.sliced.push_back(l);

  p.slice = plan;
  p.slice.direct_gemms.clear();        // worked out for the whole plan's shapes, not a slice's
  p.slice.replay = plan.slice_replay;  // the slices' own, kept by the plan across calls
  p.slice.slice_replay = nullptr;
  for (int l : p.sliced) p.slice.sizes[static_cast<std::size_t>(l)] = 1;
  for (std::size_t i = 0; i < p.slice.input_shapes.size(); ++i)
    for (std::size_t axis = 0; axis < p.slice.input_shapes[i].size(); ++axis)
      if (contains(p.sliced, plan.expr.inputs[i][axis])) p.slice.input_shapes[i][axis] = 1;
  for (std::size_t axis = 0; axis < p.slice.output_shape.size(); ++axis)
    if (contains(p.sliced, plan.expr.output[axis])) p.slice.output_shape[axis] = 1;
  for (int l : p.sliced) {
    // The planner keeps plans within kMaxSlices; a count that still does not fit is refused,
    // never wrapped (a wrapped count ran no slice and returned zeros).
    if (__builtin_mul_overflow(p.total, plan.sizes[static_cast<std::size_t>(l)], &p.total)) {
      throw_validation("einsum", "the sliced plan's slice count does not fit in 64 bits");
    }
  }
  return p;
}

// Runs slices [first, first + count) into `result` (the full output), which must be zero
// wherever the range writes nothing: the first slice to reach an output part writes it, the
// later ones accumulate.
void run_range(EagerRuntime& runtime, ContractionKernels& kernels, const EinsumPlan& plan,
               const SlicedProgram& program, std::span<const EagerTensor> inputs,
               std::int64_t first, std::int64_t count, const EagerTensor& result) {
  const std::vector<int>& sliced = program.sliced;
  Workspace workspace(runtime);  // the partial result of summed slices
  EagerTensor partial;
  if (program.output_sliced < sliced.size())
    partial = workspace.allocate(plan.dtype, program.slice.output_shape);

  // The combination of slice `first`, the last label fastest (summed labels inner).
  std::vector<std::int64_t> values(sliced.size(), 0);
  for (std::int64_t rest = first, k = static_cast<std::int64_t>(sliced.size()) - 1; k >= 0; --k) {
    const std::int64_t extent = plan.sizes[static_cast<std::size_t>(sliced[k])];
    values[static_cast<std::size_t>(k)] = rest % extent;
    rest /= extent;
  }
  std::vector<EagerTensor> views(inputs.size());
  for (std::int64_t index = first; index < first + count; ++index) {
    for (std::size_t i = 0; i < inputs.size(); ++i)
      views[i] = slice_view(inputs[i], plan.expr.inputs[i], sliced, values);
    const EagerTensor target = slice_view(result, plan.expr.output, sliced, values);
    // Every summed label at value 0, or the range's first slice: this slice is the first to
    // reach its output part, so it writes it rather than accumulating.
    bool first_summed = index == first;
    if (!first_summed) {
      first_summed = true;
      for (std::size_t k = program.output_sliced; k < sliced.size(); ++k)
        first_summed &= values[k] == 0;
    }
    if (first_summed) {
      run_program_into(runtime, kernels, program.slice, views, target);
    } else {
      run_program_into(runtime, kernels, program.slice, views, partial);
      kernels.accumulate(kernel_view(partial), kernel_view(target));
    }
    for (std::size_t k = sliced.size(); k > 0;) {  // next combination
      --k;
      if (++values[k] < plan.sizes[static_cast<std::size_t>(sliced[k])]) break;
      values[k] = 0;
    }
  }
}

}  // namespace

int slice_workers(const EinsumPlan& plan, std::int64_t slices, int threads) {
  if (threads < 2 || slices < 2 * kMinSlicesPerWorker) return 1;
  const double slice_flops = plan.path.sliced_flops / std::max(plan.path.num_slices, 1.0);
  if (slice_flops >= kThreadedSliceFlops) return 1;    // the kernels inside use the threads
  if (slice_flops < kMinParallelSliceFlops) return 1;  // the workers would wait on each other
  std::int64_t workers = std::min<std::int64_t>(threads, slices / kMinSlicesPerWorker);
  bool summed_sliced = false;
  for (int l : plan.path.sliced_labels)
    summed_sliced |= !plan.in_output[static_cast<std::size_t>(l)];
  if (summed_sliced) {  // each extra worker costs zeroing and adding one output
    double output = 1;
    for (std::int64_t e : plan.output_shape) output *= static_cast<double>(e);
    const double work = slice_flops * static_cast<double>(slices);
    workers = std::min<std::int64_t>(
        workers, static_cast<std::int64_t>(work / (kFlopsPerPartialElement * output)));
  }
  return static_cast<int>(std::max<std::int64_t>(workers, 1));
}

EagerTensor run_sliced_program(EagerRuntime& runtime, ContractionKernels& kernels,
                               const EinsumPlan& plan, std::span<const EagerTensor> inputs,
                               SliceRange range, int workers) {
  const SlicedProgram program = sliced_program(plan);
  const std::int64_t first = range.first;
  const std::int64_t count = range.count < 0 ? program.total - first : range.count;
  const bool partial_range = first != 0 || count != program.total;
  if (workers <= 0) workers = slice_workers(plan, count, kernels.slice_threads());
  workers = static_cast<int>(std::min<std::int64_t>(workers, std::max<std::int64_t>(count, 1)));

  EagerTensor result = runtime.empty(plan.dtype, plan.output_shape);
  const bool summed_sliced = program.output_sliced < program.sliced.size();
  // i->ii leaves the off-diagonal unwritten; a partial range leaves other slices' parts, and
  // so does each worker's sub-range when they sum into separate outputs.
  if (plan.output_has_repeats || partial_range || (workers > 1 && summed_sliced))
    kernels.fill_zero(kernel_view(result));
  if (workers <= 1) {
    run_range(runtime, kernels, plan, program, inputs, first, count, result);
    return result;
  }
  Workspace workspace(runtime);  // the partial outputs of workers 1.. (summed labels sliced)
  std::vector<EagerTensor> outputs(static_cast<std::size_t>(workers), result);
  if (summed_sliced)
    for (std::size_t w = 1; w < outputs.size(); ++w)
      outputs[w] = workspace.allocate(plan.dtype, plan.output_shape);
  kernels.run_parts(workers, [&](int w) {
    // In 128 bits: count * w overflows int64 for counts near kMaxSlices.
    const auto part = [&](int k) {
      return static_cast<std::int64_t>(static_cast<__int128>(count) * k / workers);
    };
    const std::int64_t begin = first + part(w);
    const std::int64_t end = first + part(w + 1);
    const EagerTensor& target = outputs[static_cast<std::size_t>(w)];
    if (w > 0 && summed_sliced) kernels.fill_zero(kernel_view(target));
    run_range(runtime, kernels, plan, program, inputs, begin, end - begin, target);
  });
  if (summed_sliced)  // in worker order: the same bits for a given worker count
    for (std::size_t w = 1; w < outputs.size(); ++w)
      kernels.accumulate(kernel_view(outputs[w]), kernel_view(result));
  return result;
}

}  // namespace tenferro::einsum_internal
