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
#include <algorithm>

#include "ops/einsum/executor.hpp"
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

}  // namespace

EagerTensor run_sliced_program(EagerRuntime& runtime, ContractionKernels& kernels,
                               const EinsumPlan& plan, std::span<const EagerTensor> inputs,
                               SliceRange range) {
  // Output labels outermost: their slices write disjoint parts of the output.
  std::vector<int> sliced;
  for (int l : plan.path.sliced_labels)
    if (plan.in_output[static_cast<std::size_t>(l)]) sliced.push_back(l);
  const std::size_t output_sliced = sliced.size();
  for (int l : plan.path.sliced_labels)
    if (!plan.in_output[static_cast<std::size_t>(l)]) sliced.push_back(l);

  // The program of one slice: the sliced labels have extent 1.
  EinsumPlan slice = plan;
  for (int l : sliced) slice.sizes[static_cast<std::size_t>(l)] = 1;
  for (std::size_t i = 0; i < slice.input_shapes.size(); ++i)
    for (std::size_t axis = 0; axis < slice.input_shapes[i].size(); ++axis)
      if (contains(sliced, plan.expr.inputs[i][axis])) slice.input_shapes[i][axis] = 1;
  for (std::size_t axis = 0; axis < slice.output_shape.size(); ++axis)
    if (contains(sliced, plan.expr.output[axis])) slice.output_shape[axis] = 1;

  std::int64_t total = 1;
  for (int l : sliced) total *= plan.sizes[static_cast<std::size_t>(l)];
  const std::int64_t first = range.first;
  const std::int64_t count = range.count < 0 ? total - first : range.count;
  const bool partial_range = first != 0 || count != total;

  EagerTensor result = runtime.empty(plan.dtype, plan.output_shape);
  // i->ii leaves the off-diagonal unwritten; a partial range leaves other slices' parts.
  if (plan.output_has_repeats || partial_range) kernels.fill_zero(kernel_view(result));
  Workspace workspace(runtime);  // the partial result of summed slices
  EagerTensor partial;
  if (output_sliced < sliced.size()) partial = workspace.allocate(plan.dtype, slice.output_shape);

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
      for (std::size_t k = output_sliced; k < sliced.size(); ++k) first_summed &= values[k] == 0;
    }
    if (first_summed) {
      run_program_into(runtime, kernels, slice, views, target);
    } else {
      run_program_into(runtime, kernels, slice, views, partial);
      kernels.accumulate(kernel_view(partial), kernel_view(target));
    }
    for (std::size_t k = sliced.size(); k > 0;) {  // next combination
      --k;
      if (++values[k] < plan.sizes[static_cast<std::size_t>(sliced[k])]) break;
      values[k] = 0;
    }
  }
  return result;
}

}  // namespace tenferro::einsum_internal
