// A program's kernel calls, recorded on one call and played back by the next calls whose
// operands have the same shapes and strides (any offsets). Every layout choice of the executor
// (executor.cpp: labelled views, pre-sums, stride sorts, candidate orders, batching, copies)
// depends on the plan and on those strides alone, and an intermediate's strides follow from
// the choices before it; so the calls of one run are the calls of every such run, with other
// buffers. On a warm call of a network of small tensors the search was about 40% of the time.
//
// The recorder sits between the executor and the backend's kernels (it forwards every call,
// so the recording call computes its result as before) and watches the workspace's
// allocations; a call it cannot name every buffer of (inputs sharing a buffer, a scratch of
// zero bytes) is not recorded. Play-back on the CPU takes the buffers of the recording's scratch
// plan (Replay::slots) from the workspace's pool at once and gives them back at once; on a
// device it allocates the same scratch in the same order from the same workspace and returns
// them at the call's end.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <vector>

#include "core/flat_hash_map.hpp"
#include "core/fork_reset.hpp"
#include "ops/einsum/contraction_kernels.hpp"
#include "ops/einsum/workspace.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::einsum_internal {

// Which operand a recorded view reads or writes: input `index`, scratch `index` (in the order
// allocated) or the output.
struct OperandRef {
  enum class Kind : std::uint8_t { Input, Scratch, Output };
  Kind kind = Kind::Input;
  int index = 0;
};

// A kernel view as recorded: its shape and strides are `rank` entries each at `dims_at` in the
// replay's `dims` (shape first), its offset relative to its operand's own. Views are kept out
// of line because a KernelView holds both inline (168 bytes): a call of three of them and a
// GEMM was 800 bytes, and a first call's recording of a 60-tensor network grew a vector past
// malloc's mmap threshold, a tenth of that call in page faults.
struct RecordedView {
  static constexpr std::size_t kMaxRank = 65535;  // a view of more axes is not recorded
  std::uint32_t dims_at = 0;
  std::uint16_t rank = 0;
  DType dtype = DType::F32;
  std::int64_t offset = 0;
};

struct ReplayCall {
  enum class Op : std::uint8_t {
    Allocate,
    Copy,
    SumTrailing,
    Multiply,
    Gemm,
    MultiplySum,
    FillZero,
    Accumulate
  };
  Op op = Op::Copy;
  int reduced_rank = 0;
  // The views and whose they are. Allocate: scratch `refs[0].index` of views[0]'s dtype and
  // shape (no strides). Gemm: refs[0..2] are A, B, C of `gemms[gemm]`.
  RecordedView views[3];
  OperandRef refs[3];
  std::uint32_t gemm = 0;
  // The scratch whose last use is this call: last_uses[last_use_begin, last_use_end).
  std::uint32_t last_use_begin = 0, last_use_end = 0;
};

struct Replay {
  // The kernels it was recorded on: the calls are another backend's choices (a multiply-sum
  // only some kernels offer), so only those kernels play it back.
  const ContractionKernels* kernels = nullptr;
  std::vector<Shape> input_shapes;
  std::vector<Strides> input_strides;
  Shape output_shape;
  Strides output_strides;
  std::vector<ReplayCall> calls;
  std::vector<std::int64_t> dims;  // the views' shapes and strides
  std::vector<GemmProblem> gemms;  // buffers null, offsets relative to their operands'
  std::vector<int> last_uses;
  int scratch = 0;
  // The scratch plan of a play-back that returns each scratch after its last use (the CPU):
  // scratch s lives in buffer scratch_slot[s], of slots[scratch_slot[s]].bytes, and a buffer
  // serves each scratch of its size whose first use comes after the last use of the one
  // before (the reuse the workspace's pool gave one scratch at a time: the same buffers, the
  // same bytes). The buffers are taken from the pool in one visit at the call's start and
  // given back in one at its end, where each scratch took two (a lock, a table and a tensor
  // each: 7% of a warm call of a 60-tensor network). live_peak_bytes and
  // largest_scratch_bytes are what the workspace's statistics counted for the call before.
  std::vector<ScratchSlot> slots;
  std::vector<std::uint32_t> scratch_slot;
  std::size_t live_peak_bytes = 0, largest_scratch_bytes = 0;

  // What a plan is charged ahead for a replay of `steps` program steps (program.cpp): about
  // four calls per step, two views of rank four each, a GEMM every other call.
  static std::size_t bytes_estimate(std::size_t steps);

  bool matches(const ContractionKernels& kernels, std::span<const EagerTensor> inputs,
               const EagerTensor& result) const;
  // Runs the calls on `inputs` into `result`; the scratch comes from `workspace`: the plan's
  // buffers when `release_early` (kernels done on return: the CPU), else one allocation per
  // scratch, held to the call's end.
  void play(Workspace& workspace, ContractionKernels& kernels, std::span<const EagerTensor> inputs,
            const EagerTensor& result, bool release_early) const;
};

// A plan's two most recently used replays: a plan is one shape of one equation, and its
// callers hand in one memory order or two (a sliced program writes a slice's result into a
// view of the output or into a compact partial sum, of other strides).
class ReplaySlot {
 public:
  static constexpr std::size_t kKept = 2;
  // The replay that plays `inputs` into `result` on `kernels` (now the most recently used), or
  // null.
  std::shared_ptr<const Replay> find(const ContractionKernels& kernels,
                                     std::span<const EagerTensor> inputs,
                                     const EagerTensor& result);
  void add(std::shared_ptr<const Replay> replay);  // the least recently used one goes
  std::shared_ptr<const Replay> get() const;       // the most recently used

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Replay> replays_[kKept];
  // Last, so it unregisters first: a forked child whose parent held mutex_ at the fork starts
  // with no replays and a fresh lock (core/fork_reset.hpp).
  core::ForkReset fork_reset_{[this] {
    if (!core::remake_if_held(mutex_)) return;
    for (auto& r : replays_) new (&r) std::shared_ptr<const Replay>;
  }};
};

class ReplayRecorder final : public ContractionKernels, public WorkspaceObserver {
 public:
  // `steps`: the program's, to size the recording once.
  ReplayRecorder(ContractionKernels& kernels, std::span<const EagerTensor> inputs,
                 const EagerTensor& result, std::size_t steps);
  // The recording, or null when a buffer could not be named.
  std::shared_ptr<const Replay> finish();

  void allocated(const EagerTensor& scratch) override;
  void copy(const KernelView& src, const KernelView& dst) override;
  void sum_trailing(const KernelView& src, const KernelView& dst, int reduced_rank) override;
  void multiply(const KernelView& a, const KernelView& b, const KernelView& dst) override;
  void gemm(const GemmProblem& problem) override;
  bool has_multiply_sum() const override { return kernels_.has_multiply_sum(); }
  void multiply_sum(const KernelView& a, const KernelView& b, const KernelView& dst,
                    int reduced_rank) override;
  void fill_zero(const KernelView& dst) override;
  void accumulate(const KernelView& src, const KernelView& dst) override;
  int slice_threads() override { return kernels_.slice_threads(); }
  void run_parts(int parts, const std::function<void(int)>& body) override {
    kernels_.run_parts(parts, body);
  }

 private:
  struct Named {
    OperandRef ref;
    std::int64_t base_offset = 0;
  };
  // Names `buffer` (then null) and makes `offset` relative to its operand's; false (and the
  // recording given up) when it cannot be named.
  bool name(Buffer*& buffer, std::int64_t& offset, OperandRef& ref);
  // Whether a view of `rank` axes can be recorded (the recording is given up when not).
  bool fits(std::size_t rank);
  // `view`'s shape and strides appended to the replay's dims, its offset as given.
  RecordedView keep(const KernelView& view, std::int64_t offset);
  void record(ReplayCall::Op op, std::initializer_list<KernelView> views, int reduced_rank = 0);

  ContractionKernels& kernels_;
  std::unique_ptr<Replay> replay_;
  FlatHashMap<const Buffer*, Named> names_;
  bool ok_ = true;
};

}  // namespace tenferro::einsum_internal
