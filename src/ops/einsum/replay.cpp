#include "ops/einsum/replay.hpp"

#include <utility>

#include "ops/einsum/direct_gemm.hpp"

namespace tenferro::einsum_internal {

bool Replay::matches(const ContractionKernels& kernels, std::span<const EagerTensor> inputs,
                     const EagerTensor& result) const {
  if (&kernels != this->kernels || inputs.size() != input_shapes.size() ||
      result.shape() != output_shape || result.strides() != output_strides)
    return false;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].strides() != input_strides[i] || inputs[i].shape() != input_shapes[i])
      return false;
  return true;
}

void Replay::play(Workspace& workspace, ContractionKernels& kernels,
                  std::span<const EagerTensor> inputs, const EagerTensor& result,
                  bool release_early) const {
  std::vector<EagerTensor> scratch(static_cast<std::size_t>(this->scratch));
  const auto operand = [&](const OperandRef& ref) -> const EagerTensor& {
    switch (ref.kind) {
      case OperandRef::Kind::Input:
        return inputs[static_cast<std::size_t>(ref.index)];
      case OperandRef::Kind::Scratch:
        return scratch[static_cast<std::size_t>(ref.index)];
      case OperandRef::Kind::Output:
        break;
    }
    return result;
  };
  const auto bind = [&](KernelView view, const OperandRef& ref) {
    const EagerTensor& t = operand(ref);
    view.buffer = t.buffer().get();
    view.offset += t.layout().offset;
    return view;
  };
  for (const ReplayCall& c : calls) {
    switch (c.op) {
      case ReplayCall::Op::Allocate:
        scratch[static_cast<std::size_t>(c.refs[0].index)] = workspace.allocate(c.dtype, c.shape);
        break;
      case ReplayCall::Op::Copy:
        kernels.copy(bind(c.views[0], c.refs[0]), bind(c.views[1], c.refs[1]));
        break;
      case ReplayCall::Op::SumTrailing:
        kernels.sum_trailing(bind(c.views[0], c.refs[0]), bind(c.views[1], c.refs[1]),
                             c.reduced_rank);
        break;
      case ReplayCall::Op::Multiply:
        kernels.multiply(bind(c.views[0], c.refs[0]), bind(c.views[1], c.refs[1]),
                         bind(c.views[2], c.refs[2]));
        break;
      case ReplayCall::Op::MultiplySum:
        kernels.multiply_sum(bind(c.views[0], c.refs[0]), bind(c.views[1], c.refs[1]),
                             bind(c.views[2], c.refs[2]), c.reduced_rank);
        break;
      case ReplayCall::Op::FillZero:
        kernels.fill_zero(bind(c.views[0], c.refs[0]));
        break;
      case ReplayCall::Op::Accumulate:
        kernels.accumulate(bind(c.views[0], c.refs[0]), bind(c.views[1], c.refs[1]));
        break;
      case ReplayCall::Op::Gemm:
        kernels.gemm(
            on_operands(c.gemm, operand(c.refs[0]), operand(c.refs[1]), operand(c.refs[2])));
        break;
    }
    if (!release_early) continue;
    for (int s : c.last_use) {
      EagerTensor& t = scratch[static_cast<std::size_t>(s)];
      const Buffer* buffer = t.buffer().get();
      t = EagerTensor();
      workspace.release_unused({buffer});
    }
  }
}

std::shared_ptr<const Replay> ReplaySlot::find(const ContractionKernels& kernels,
                                               std::span<const EagerTensor> inputs,
                                               const EagerTensor& result) {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < kKept; ++i) {
    if (!replays_[i] || !replays_[i]->matches(kernels, inputs, result)) continue;
    for (std::size_t j = i; j > 0; --j) std::swap(replays_[j], replays_[j - 1]);
    return replays_[0];
  }
  return nullptr;
}

void ReplaySlot::add(std::shared_ptr<const Replay> replay) {
  std::lock_guard lock(mutex_);
  for (std::size_t j = kKept - 1; j > 0; --j) replays_[j] = std::move(replays_[j - 1]);
  replays_[0] = std::move(replay);
}

std::shared_ptr<const Replay> ReplaySlot::get() const {
  std::lock_guard lock(mutex_);
  return replays_[0];
}

ReplayRecorder::ReplayRecorder(ContractionKernels& kernels, std::span<const EagerTensor> inputs,
                               const EagerTensor& result)
    : kernels_(kernels), replay_(std::make_unique<Replay>()) {
  replay_->kernels = &kernels;
  const auto add = [&](const EagerTensor& t, OperandRef ref) {
    // Two operands on one buffer could not be told apart in the calls.
    if (!names_.emplace(t.buffer().get(), Named{ref, t.layout().offset}).second) ok_ = false;
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    add(inputs[i], {OperandRef::Kind::Input, static_cast<int>(i)});
    replay_->input_shapes.push_back(inputs[i].shape());
    replay_->input_strides.push_back(inputs[i].strides());
  }
  add(result, {OperandRef::Kind::Output, 0});
  replay_->output_shape = result.shape();
  replay_->output_strides = result.strides();
}

void ReplayRecorder::allocated(const EagerTensor& scratch) {
  const Buffer* buffer = scratch.buffer().get();
  // A scratch of zero bytes may have no buffer of its own; a buffer that is an operand's
  // cannot be a new scratch's (the workspace hands out only what it holds).
  const auto it = names_.find(buffer);
  if (buffer == nullptr || scratch.numel() == 0 ||
      (it != names_.end() && it->second.ref.kind != OperandRef::Kind::Scratch)) {
    ok_ = false;
    return;
  }
  ReplayCall call;
  call.op = ReplayCall::Op::Allocate;
  call.dtype = scratch.dtype();
  call.shape = scratch.shape();
  call.refs[0] = {OperandRef::Kind::Scratch, replay_->scratch++};
  // A buffer handed out again after its release names the new scratch from now on.
  names_[buffer] = Named{call.refs[0], scratch.layout().offset};
  replay_->calls.push_back(std::move(call));
}

bool ReplayRecorder::name(Buffer*& buffer, std::int64_t& offset, OperandRef& ref) {
  const auto it = names_.find(buffer);
  if (it == names_.end()) {
    ok_ = false;
    return false;
  }
  ref = it->second.ref;
  offset -= it->second.base_offset;
  buffer = nullptr;
  return true;
}

void ReplayRecorder::record(ReplayCall::Op op, std::initializer_list<KernelView> views,
                            int reduced_rank) {
  if (!ok_) return;
  ReplayCall call;
  call.op = op;
  call.reduced_rank = reduced_rank;
  int v = 0;
  for (const KernelView& view : views) {
    call.views[v] = view;
    if (!name(call.views[v].buffer, call.views[v].offset, call.refs[v])) return;
    ++v;
  }
  replay_->calls.push_back(std::move(call));
}

void ReplayRecorder::copy(const KernelView& src, const KernelView& dst) {
  kernels_.copy(src, dst);
  record(ReplayCall::Op::Copy, {src, dst});
}

void ReplayRecorder::sum_trailing(const KernelView& src, const KernelView& dst, int reduced_rank) {
  kernels_.sum_trailing(src, dst, reduced_rank);
  record(ReplayCall::Op::SumTrailing, {src, dst}, reduced_rank);
}

void ReplayRecorder::multiply(const KernelView& a, const KernelView& b, const KernelView& dst) {
  kernels_.multiply(a, b, dst);
  record(ReplayCall::Op::Multiply, {a, b, dst});
}

void ReplayRecorder::multiply_sum(const KernelView& a, const KernelView& b, const KernelView& dst,
                                  int reduced_rank) {
  kernels_.multiply_sum(a, b, dst, reduced_rank);
  record(ReplayCall::Op::MultiplySum, {a, b, dst}, reduced_rank);
}

void ReplayRecorder::fill_zero(const KernelView& dst) {
  kernels_.fill_zero(dst);
  record(ReplayCall::Op::FillZero, {dst});
}

void ReplayRecorder::accumulate(const KernelView& src, const KernelView& dst) {
  kernels_.accumulate(src, dst);
  record(ReplayCall::Op::Accumulate, {src, dst});
}

void ReplayRecorder::gemm(const GemmProblem& problem) {
  kernels_.gemm(problem);
  if (!ok_) return;
  ReplayCall call;
  call.op = ReplayCall::Op::Gemm;
  call.gemm = problem;
  if (!name(call.gemm.a, call.gemm.a_offset, call.refs[0]) ||
      !name(call.gemm.b, call.gemm.b_offset, call.refs[1]) ||
      !name(call.gemm.c, call.gemm.c_offset, call.refs[2]))
    return;
  replay_->calls.push_back(std::move(call));
}

std::shared_ptr<const Replay> ReplayRecorder::finish() {
  if (!ok_) return nullptr;
  // Each scratch's last use: play-back returns it to the workspace right after.
  std::vector<int> last(static_cast<std::size_t>(replay_->scratch), -1);
  for (std::size_t i = 0; i < replay_->calls.size(); ++i) {
    const ReplayCall& c = replay_->calls[i];
    for (const OperandRef& r : c.refs)
      if (r.kind == OperandRef::Kind::Scratch) last[static_cast<std::size_t>(r.index)] = int(i);
  }
  for (std::size_t s = 0; s < last.size(); ++s)
    if (last[s] >= 0) replay_->calls[static_cast<std::size_t>(last[s])].last_use.push_back(int(s));
  return std::shared_ptr<const Replay>(std::move(replay_));
}

}  // namespace tenferro::einsum_internal
