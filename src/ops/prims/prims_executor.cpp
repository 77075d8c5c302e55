// The executor every backend's prims module registers: it re-checks the op against its inputs,
// allocates the output in the runtime, and turns the resolved op into kernel calls on the
// backend's kernel set. Views of inputs for broadcasting and of the output for concatenation
// are built here, so that kernels only see strided operands.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "ops/prims/registration.hpp"
#include "runtime/op_cast.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::prims_internal {
namespace {

// `t` as a kernel operand, written into `o` in place (a temporary moved in cost a tenth of a
// warm small add).
void set_operand(StridedOperand& o, const EagerTensor& t) {
  o.buffer = t.buffer().get();
  o.layout = t.layout();
}

// `t` seen with `shape` (NumPy broadcasting from the last axis): stride 0 on stretched axes.
// Written into `o` in place, as set_operand.
void set_broadcast_operand(StridedOperand& o, const EagerTensor& t, const Shape& shape) {
  set_operand(o, t);
  if (t.shape() == shape) return;  // the common case: nothing is stretched
  TensorLayout& l = o.layout;      // dtype and offset stay t's
  l.shape = shape;
  l.strides.assign(shape.size(), 0);
  const std::size_t lead = shape.size() - t.shape().size();
  for (std::size_t j = lead; j < shape.size(); ++j) {
    const std::size_t i = j - lead;
    if (t.shape()[i] == shape[j]) l.strides[j] = t.strides()[i];
  }
}

void run_elementwise(const PrimsKernels& k, const ExecutionContext& ctx, const PrimsOp& op,
                     std::span<const EagerTensor> inputs, const EagerTensor& out) {
  const PrimsPayload& p = op.payload();
  if (op.kind() == PrimKind::Cast && inputs.size() != 1) {
    // Concatenation: each input is cast into its slab of the output along p.axis.
    std::int64_t start = 0;
    for (const EagerTensor& in : inputs) {
      const std::int64_t extent = in.shape()[static_cast<std::size_t>(p.axis)];
      if (in.numel() > 0) {
        ElementwiseCall call;
        call.kind = PrimKind::Cast;
        call.arity = 1;
        set_operand(call.in[0], in);
        set_operand(call.out, out);
        call.out.layout.shape[static_cast<std::size_t>(p.axis)] = extent;
        call.out.layout.offset += start * out.strides()[static_cast<std::size_t>(p.axis)];
        ctx.record_kernel_launch();
        k.elementwise(ctx, call);
      }
      start += extent;
    }
    return;
  }
  if (op.kind() == PrimKind::Flip) {
    // A reversal is a copy that reads its input backwards along the flipped axes (p.reduced):
    // every backend's same-dtype Cast kernel, handed the input's view with those strides
    // negated and its offset at their last elements. No view of the result could be one: a
    // tensor's strides are not negative.
    ElementwiseCall call;
    call.kind = PrimKind::Cast;
    call.arity = 1;
    set_operand(call.in[0], inputs[0]);
    set_operand(call.out, out);
    TensorLayout& l = call.in[0].layout;
    for (std::size_t a = 0; a < l.shape.size(); ++a) {
      if (p.reduced[a] == 0 || l.shape[a] < 2) continue;
      l.offset += (l.shape[a] - 1) * l.strides[a];
      l.strides[a] = -l.strides[a];
    }
    ctx.record_kernel_launch();
    k.elementwise(ctx, call);
    return;
  }
  ElementwiseCall call;
  call.kind = op.kind();
  call.arity = static_cast<int>(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    set_broadcast_operand(call.in[i], inputs[i], out.shape());
  set_operand(call.out, out);
  call.alpha = p.alpha;
  call.beta = p.beta;
  ctx.record_kernel_launch();
  k.elementwise(ctx, call);
}

// The output of an element-wise op or a scan takes the memory order of its first input of the
// output's whole shape that is not a broadcast (NumPy's order K): C-ordered operands from NumPy
// give a C-ordered result, so every operand walks one dense block in one order (the flat loops and
// vector kernels) instead of a column-major result read across the inputs' rows. Column-major
// inputs, broadcast-only inputs, casts (contiguous() is column-major by definition) and every other
// kernel shape keep the column-major output. `out` is the compact column-major allocation; the
// result is a view of its buffer.
EagerTensor in_inputs_order(EagerTensor out, const PrimsOp& op,
                            std::span<const EagerTensor> inputs) {
  const KernelShape kernel = info(op.kind()).shape;
  if ((kernel != KernelShape::Elementwise && kernel != KernelShape::Scan) ||
      op.kind() == PrimKind::Cast || out.shape().size() < 2) {
    return out;
  }
  // A broadcast view (a zero stride on an axis longer than 1) has the whole shape but no memory
  // order of its own: it never leads.
  const auto leads = [&](const EagerTensor& in) {
    if (in.shape() != out.shape()) return false;
    for (std::size_t a = 0; a < in.shape().size(); ++a) {
      if (in.shape()[a] > 1 && in.strides()[a] == 0) return false;
    }
    return true;
  };
  const EagerTensor* leader = nullptr;
  for (const EagerTensor& in : inputs) {
    if (leads(in)) {
      leader = &in;
      break;
    }
  }
  if (leader == nullptr) return out;
  const Shape& shape = out.shape();
  const Strides& by = leader->strides();
  // The axes longer than 1 by the leader's |stride| (stable); the extent-1 axes, whose strides
  // address nothing, after them.
  SmallVector<std::size_t, 8> order;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (shape[a] != 1) order.push_back(a);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return std::abs(by[x]) < std::abs(by[y]); });
  if (std::is_sorted(order.begin(), order.end())) return out;  // column-major already
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (shape[a] == 1) order.push_back(a);
  }
  TensorLayout layout = out.layout();
  std::int64_t stride = 1;
  for (std::size_t a : order) {
    layout.strides[a] = stride;
    stride *= shape[a];
  }
  return EagerTensor(out.runtime(), out.buffer(), std::move(layout));
}

}  // namespace

std::vector<EagerTensor> execute(const PrimsKernels& k, const ExecutionContext& ctx,
                                 const ExtensionOp& base, std::span<const EagerTensor> inputs) {
  const PrimsOp* op = runtime_internal::op_as<PrimsOp>(base);
  if (op == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(base.name()),
                "the prims executor was handed an op of another family");
  }
  const PrimsPayload& p = op->payload();
  // The inputs must be the metas the op was resolved for; compared in place (a warm call copies
  // no shapes), with infer_outputs building the error when they are not.
  bool resolved_for = inputs.size() == p.inputs.size();
  for (std::size_t i = 0; resolved_for && i < inputs.size(); ++i)
    resolved_for = inputs[i].dtype() == p.inputs[i].dtype && inputs[i].shape() == p.inputs[i].shape;
  if (!resolved_for) {
    std::vector<TensorMeta> metas;
    for (const EagerTensor& in : inputs) metas.push_back(in.meta());
    op->infer_outputs(metas);
  }
  const DType key = op->admission_dtype();
  const auto mask = k.runs[static_cast<std::size_t>(op->kind())];
  const bool cast_target_ok = op->kind() != PrimKind::Cast || (mask & dtype_bit(p.out.dtype)) != 0;
  if ((mask & dtype_bit(key)) == 0 || !cast_target_ok) {
    // The factory checks admission before execution; reaching this is a wiring defect.
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op->name()),
                "the prims executor was reached for an op its backend does not run");
  }

  std::vector<EagerTensor> result;  // the output moved in (a braced list would copy it)
  result.push_back(in_inputs_order(ctx.allocate(p.out.dtype, p.out.shape), *op, inputs));
  const EagerTensor& out = result.front();
  if (out.numel() == 0) return result;
  switch (info(op->kind()).shape) {
    case KernelShape::Elementwise:
      run_elementwise(k, ctx, *op, inputs, out);
      break;
    case KernelShape::Reduce: {
      ReduceCall call;
      call.kind = op->kind();
      set_operand(call.in, inputs[0]);
      call.reduced = p.reduced;
      set_operand(call.out, out);
      ctx.record_kernel_launch();
      k.reduce(ctx, call);
      break;
    }
    case KernelShape::Scan: {
      ScanCall call;
      call.kind = op->kind();
      set_operand(call.in, inputs[0]);
      call.axis = p.axis;
      set_operand(call.out, out);
      ctx.record_kernel_launch();
      k.scan(ctx, call);
      break;
    }
    case KernelShape::Generate: {
      GenerateCall call;
      call.kind = op->kind();
      set_operand(call.out, out);
      call.value = p.value;
      call.offset = p.offset;
      call.start = p.start;
      call.step = p.step;
      call.a = p.a;
      call.b = p.b;
      call.seed = p.seed;
      ctx.record_kernel_launch();
      k.generate(ctx, call);
      break;
    }
  }
  return result;
}

}  // namespace tenferro::prims_internal
