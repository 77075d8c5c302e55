#include "ops/einsum/replay.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
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

std::size_t Replay::bytes_estimate(std::size_t steps) {
  const std::size_t calls = steps * 4 + 2;
  // A scratch per call at most, each with its slot in the plan.
  return sizeof(Replay) + calls * (sizeof(ReplayCall) + 16 * sizeof(std::int64_t)) +
         calls / 2 * sizeof(GemmProblem) + calls * (sizeof(ScratchSlot) + sizeof(std::uint32_t));
}

namespace {

// The buffers of a play-back's scratch plan, back to the pool when the call ends (also when a
// kernel throws).
class SlotBuffers {
 public:
  SlotBuffers(Workspace& workspace, const Replay& replay)
      : workspace_(workspace),
        live_peak_(replay.live_peak_bytes),
        buffers_(workspace.take_slots(replay.slots, replay.live_peak_bytes,
                                      replay.largest_scratch_bytes)) {}
  ~SlotBuffers() { workspace_.give_back_slots(buffers_, live_peak_); }
  SlotBuffers(const SlotBuffers&) = delete;
  SlotBuffers& operator=(const SlotBuffers&) = delete;
  Buffer* operator[](std::uint32_t slot) const { return buffers_[slot].get(); }

 private:
  Workspace& workspace_;
  std::size_t live_peak_;
  std::vector<std::shared_ptr<Buffer>> buffers_;
};

}  // namespace

void Replay::play(Workspace& workspace, ContractionKernels& kernels,
                  std::span<const EagerTensor> inputs, const EagerTensor& result,
                  bool release_early) const {
  // Scratch from the plan's buffers (release_early) or, one at a time, from the workspace,
  // which keeps them to the call's end (a device queue may still read them).
  const bool planned = release_early;
  std::optional<SlotBuffers> slot_buffers;
  if (planned) slot_buffers.emplace(workspace, *this);
  std::vector<EagerTensor> scratch(planned ? 0 : static_cast<std::size_t>(this->scratch));
  // Where an operand's elements start (a planned scratch's at 0: it is compact, as the
  // workspace allocates it).
  const auto place = [&](const OperandRef& ref) -> OperandPlace {
    const auto i = static_cast<std::size_t>(ref.index);
    switch (ref.kind) {
      case OperandRef::Kind::Input:
        return {inputs[i].buffer().get(), inputs[i].layout().offset};
      case OperandRef::Kind::Scratch:
        if (planned) return {(*slot_buffers)[scratch_slot[i]], 0};
        return {scratch[i].buffer().get(), scratch[i].layout().offset};
      case OperandRef::Kind::Output:
        break;
    }
    return {result.buffer().get(), result.layout().offset};
  };
  // The kernel views of the call at hand, rebuilt in place (their inline dims are reused).
  KernelView views[3];
  const auto bind = [&](const ReplayCall& c, int v) -> const KernelView& {
    const RecordedView& r = c.views[v];
    const OperandPlace at = place(c.refs[v]);
    KernelView& view = views[v];
    const std::int64_t* d = dims.data() + r.dims_at;
    view.buffer = at.buffer;
    view.dtype = r.dtype;
    view.shape.assign(d, d + r.rank);
    view.strides.assign(d + r.rank, d + 2 * r.rank);
    view.offset = r.offset + at.offset;
    return view;
  };
  for (const ReplayCall& c : calls) {
    switch (c.op) {
      case ReplayCall::Op::Allocate: {
        if (planned) break;  // the plan's buffer is already there
        const RecordedView& r = c.views[0];
        const std::int64_t* d = dims.data() + r.dims_at;
        scratch[static_cast<std::size_t>(c.refs[0].index)] =
            workspace.allocate(r.dtype, Shape(d, d + r.rank));
        break;
      }
      case ReplayCall::Op::Copy:
        kernels.copy(bind(c, 0), bind(c, 1));
        break;
      case ReplayCall::Op::SumTrailing:
        kernels.sum_trailing(bind(c, 0), bind(c, 1), c.reduced_rank);
        break;
      case ReplayCall::Op::Multiply:
        kernels.multiply(bind(c, 0), bind(c, 1), bind(c, 2));
        break;
      case ReplayCall::Op::MultiplySum:
        kernels.multiply_sum(bind(c, 0), bind(c, 1), bind(c, 2), c.reduced_rank);
        break;
      case ReplayCall::Op::FillZero:
        kernels.fill_zero(bind(c, 0));
        break;
      case ReplayCall::Op::Accumulate:
        kernels.accumulate(bind(c, 0), bind(c, 1));
        break;
      case ReplayCall::Op::Gemm:
        kernels.gemm(
            on_places(gemms[c.gemm], place(c.refs[0]), place(c.refs[1]), place(c.refs[2])));
        break;
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

namespace {

void plan_scratch(Replay& replay) {
  // The calls in order: a scratch takes the buffer of its size released last (the pool's
  // order), or a new one; after the call of its last use (its allocation, if no call reads or
  // writes it) its buffer is free again.
  replay.scratch_slot.assign(static_cast<std::size_t>(replay.scratch), 0);
  replay.slots.clear();
  FlatHashMap<std::size_t, std::vector<std::uint32_t>> free_by_size;
  std::size_t live = 0;
  for (const ReplayCall& c : replay.calls) {
    if (c.op == ReplayCall::Op::Allocate) {
      const RecordedView& r = c.views[0];
      const std::int64_t* d = replay.dims.data() + r.dims_at;
      const std::int64_t numel = checked_numel(std::span<const std::int64_t>(d, r.rank));
      const std::size_t bytes = checked_bytes(numel, dtype_size(r.dtype));
      std::vector<std::uint32_t>& same_size = free_by_size[bytes];
      std::uint32_t slot;
      if (same_size.empty()) {
        slot = static_cast<std::uint32_t>(replay.slots.size());
        replay.slots.push_back(ScratchSlot{bytes, r.dtype, numel});
      } else {
        slot = same_size.back();
        same_size.pop_back();
      }
      replay.scratch_slot[static_cast<std::size_t>(c.refs[0].index)] = slot;
      live += bytes;
      replay.live_peak_bytes = std::max(replay.live_peak_bytes, live);
      replay.largest_scratch_bytes = std::max(replay.largest_scratch_bytes, bytes);
    }
    for (std::uint32_t u = c.last_use_begin; u < c.last_use_end; ++u) {
      const std::uint32_t slot = replay.scratch_slot[static_cast<std::size_t>(replay.last_uses[u])];
      const std::size_t bytes = replay.slots[slot].bytes;
      free_by_size.find(bytes)->push_back(slot);
      live -= bytes;
    }
  }
}

}  // namespace

ReplayRecorder::ReplayRecorder(ContractionKernels& kernels, std::span<const EagerTensor> inputs,
                               const EagerTensor& result, std::size_t steps)
    : kernels_(kernels), replay_(std::make_unique<Replay>()) {
  replay_->kernels = &kernels;
  replay_->calls.reserve(steps * 4 + 2);
  replay_->dims.reserve(steps * 24);
  replay_->gemms.reserve(steps);
  names_.reserve(inputs.size() + steps + 1);
  const auto add = [&](const EagerTensor& t, OperandRef ref) {
    // Two operands on one buffer could not be told apart in the calls.
    bool inserted = false;
    names_.find_or_insert(
        t.buffer().get(),
        [&] {
          return Named{ref, t.layout().offset};
        },
        &inserted);
    if (!inserted) ok_ = false;
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
  const Named* named = names_.find(buffer);
  if (buffer == nullptr || scratch.numel() == 0 ||
      (named != nullptr && named->ref.kind != OperandRef::Kind::Scratch)) {
    ok_ = false;
    return;
  }
  const Shape& shape = scratch.shape();
  if (!fits(shape.size())) return;
  ReplayCall call;
  call.op = ReplayCall::Op::Allocate;
  call.views[0].dims_at = static_cast<std::uint32_t>(replay_->dims.size());
  call.views[0].rank = static_cast<std::uint16_t>(shape.size());
  call.views[0].dtype = scratch.dtype();
  replay_->dims.insert(replay_->dims.end(), shape.begin(), shape.end());
  call.refs[0] = {OperandRef::Kind::Scratch, replay_->scratch++};
  // A buffer handed out again after its release names the new scratch from now on.
  names_[buffer] = Named{call.refs[0], scratch.layout().offset};
  replay_->calls.push_back(call);
}

bool ReplayRecorder::name(Buffer*& buffer, std::int64_t& offset, OperandRef& ref) {
  const Named* named = names_.find(buffer);
  if (named == nullptr) {
    ok_ = false;
    return false;
  }
  ref = named->ref;
  offset -= named->base_offset;
  buffer = nullptr;
  return true;
}

bool ReplayRecorder::fits(std::size_t rank) {
  if (rank > RecordedView::kMaxRank || replay_->dims.size() + 2 * rank > UINT32_MAX) ok_ = false;
  return ok_;
}

RecordedView ReplayRecorder::keep(const KernelView& view, std::int64_t offset) {
  RecordedView r;
  r.dims_at = static_cast<std::uint32_t>(replay_->dims.size());
  r.rank = static_cast<std::uint16_t>(view.shape.size());
  r.dtype = view.dtype;
  r.offset = offset;
  std::vector<std::int64_t>& dims = replay_->dims;
  dims.insert(dims.end(), view.shape.begin(), view.shape.end());
  dims.insert(dims.end(), view.strides.begin(), view.strides.end());
  return r;
}

void ReplayRecorder::record(ReplayCall::Op op, std::initializer_list<KernelView> views,
                            int reduced_rank) {
  if (!ok_) return;
  ReplayCall call;
  call.op = op;
  call.reduced_rank = reduced_rank;
  int v = 0;
  for (const KernelView& view : views) {
    Buffer* buffer = view.buffer;
    std::int64_t offset = view.offset;
    if (!name(buffer, offset, call.refs[v]) || !fits(view.shape.size())) return;
    call.views[v++] = keep(view, offset);
  }
  replay_->calls.push_back(call);
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
  GemmProblem g = problem;
  if (!name(g.a, g.a_offset, call.refs[0]) || !name(g.b, g.b_offset, call.refs[1]) ||
      !name(g.c, g.c_offset, call.refs[2]))
    return;
  call.gemm = static_cast<std::uint32_t>(replay_->gemms.size());
  replay_->gemms.push_back(g);
  replay_->calls.push_back(call);
}

std::shared_ptr<const Replay> ReplayRecorder::finish() {
  if (!ok_) return nullptr;
  // Each scratch's last use: play-back returns it to the workspace right after. Grouped by
  // that call (a counting sort), each call's own in increasing scratch order.
  std::vector<ReplayCall>& calls = replay_->calls;
  std::vector<int> last(static_cast<std::size_t>(replay_->scratch), -1);
  for (std::size_t i = 0; i < calls.size(); ++i)
    for (const OperandRef& r : calls[i].refs)
      if (r.kind == OperandRef::Kind::Scratch) last[static_cast<std::size_t>(r.index)] = int(i);
  for (int call : last)
    if (call >= 0) ++calls[static_cast<std::size_t>(call)].last_use_end;
  std::uint32_t at = 0;
  for (ReplayCall& c : calls) {
    const std::uint32_t count = c.last_use_end;
    c.last_use_begin = c.last_use_end = at;
    at += count;
  }
  replay_->last_uses.resize(at);
  for (std::size_t s = 0; s < last.size(); ++s) {
    if (last[s] < 0) continue;
    ReplayCall& c = calls[static_cast<std::size_t>(last[s])];
    replay_->last_uses[c.last_use_end++] = static_cast<int>(s);
  }
  plan_scratch(*replay_);
  return std::shared_ptr<const Replay>(std::move(replay_));
}

}  // namespace tenferro::einsum_internal
