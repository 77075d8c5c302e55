// Scratch buffers for einsum intermediates, reused across calls. A fresh allocation per step
// costs page faults and zero-filling that can exceed the step's arithmetic; the pool keeps
// released buffers of one runtime (in its ExtensionCacheStore) and hands them out again by
// exact byte size. Device-agnostic: buffers come from the runtime's own backend.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <vector>

#include "core/flat_hash_map.hpp"
#include "core/fork_reset.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::einsum_internal {

// What the einsum calls of one runtime held in workspace since the last reset: the bytes live
// at once at the peak, and the largest single buffer (what EinsumOptions::memory_limit
// bounds: no intermediate of a sliced plan exceeds it).
struct WorkspaceStats {
  std::size_t live_bytes = 0;
  std::size_t high_water_bytes = 0;
  std::size_t largest_buffer_bytes = 0;
};

// One buffer of a play-back's scratch plan (replay.hpp, Replay::slots): its bytes, and the
// dtype and element count it is allocated as when the pool has no buffer of that size.
struct ScratchSlot {
  std::size_t bytes = 0;
  DType dtype = DType::F64;
  std::int64_t numel = 0;
};

class WorkspacePool {
 public:
  static constexpr std::size_t kMaxRetainedBytes = std::size_t{64} << 20;
  // `max_retained`: the most bytes of released buffers kept (kMaxRetainedBytes, or a quarter
  // of a smaller cache's byte bound: the store accounts the pool at this size, and a pool
  // larger than the bound would evict every plan on every call).
  explicit WorkspacePool(std::size_t max_retained = kMaxRetainedBytes)
      : max_retained_(max_retained) {}
  static constexpr std::size_t kMaxSizes = 1024;  // byte sizes free_ keeps an entry for
  // A released buffer of exactly `bytes`, counted as allocated (see note_allocated), or null.
  std::shared_ptr<Buffer> take(std::size_t bytes);
  void give_back(std::vector<std::shared_ptr<Buffer>>& buffers);
  // Counts a buffer of `bytes` handed out that take() did not provide.
  void note_allocated(std::size_t bytes);
  // A released buffer of exactly each slot's bytes, or null where there is none (the caller
  // allocates those), in one visit; the statistics count `live_peak` bytes live (a call's
  // scratch at its peak) until give_back_slots and `largest` as the largest buffer.
  void take_slots(std::span<const ScratchSlot> slots, std::size_t live_peak, std::size_t largest,
                  std::vector<std::shared_ptr<Buffer>>& out);
  // Keeps the buffers take_slots handed out (and those allocated for it) for reuse; `live_peak`
  // as given to take_slots.
  void give_back_slots(std::vector<std::shared_ptr<Buffer>>& buffers, std::size_t live_peak);
  WorkspaceStats stats();
  void reset_stats();
  std::size_t retained_buffers();  // released buffers kept for reuse

 private:
  void count_locked(std::size_t bytes);  // the stats of a buffer handed out; mutex_ held
  // Keeps `buffers` for reuse as far as the byte bound allows (the rest are dropped); mutex_
  // held.
  void keep_locked(std::vector<std::shared_ptr<Buffer>>& buffers);

  const std::size_t max_retained_;
  std::mutex mutex_;
  WorkspaceStats stats_;
  // Released buffers by exact byte size (a vector per size keeps its capacity: a multimap
  // allocated a node for every buffer given back).
  FlatHashMap<std::size_t, std::vector<std::shared_ptr<Buffer>>> free_;
  std::size_t retained_ = 0;
  // Last, so it unregisters first: a forked child whose parent held mutex_ at the fork starts
  // with an empty pool and a fresh lock (core/fork_reset.hpp).
  core::ForkReset fork_reset_{[this] {
    if (!core::remake_if_held(mutex_)) return;
    new (&free_) decltype(free_);
    stats_ = {};
    retained_ = 0;
  }};
};

// Told of every buffer a Workspace hands out (the replay recorder, replay.hpp, names them).
class WorkspaceObserver {
 public:
  virtual ~WorkspaceObserver() = default;
  virtual void allocated(const EagerTensor& scratch) = 0;
};

// The intermediates of one einsum call: compact tensors of `runtime` whose buffers return
// to the runtime's pool when the call ends.
class Workspace {
 public:
  explicit Workspace(EagerRuntime& runtime);
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  EagerTensor allocate(DType dtype, const Shape& shape);
  // Returns to the pool, now, the buffers that nothing but this workspace refers to any more
  // among those allocated since the last call (a step's temporaries) and `consumed` (the
  // intermediates the step used up), so later steps of the same call reuse them and the live
  // workspace stays near the steps' own needs. Only those are looked at: checking every held
  // buffer at every step was O(n^2) on a network of n operands (50 s at 200000). Only for
  // backends whose kernels have finished when they return (the CPU): a device queue may still
  // be reading such a buffer.
  void release_unused(std::initializer_list<const Buffer*> consumed);
  void observe(WorkspaceObserver* observer) { observer_ = observer; }
  // The buffers of a play-back's scratch plan, taken from the pool in one visit (those it lacks
  // allocated here), and given back in one; see WorkspacePool::take_slots.
  std::vector<std::shared_ptr<Buffer>> take_slots(std::span<const ScratchSlot> slots,
                                                  std::size_t live_peak, std::size_t largest);
  void give_back_slots(std::vector<std::shared_ptr<Buffer>>& buffers, std::size_t live_peak);

 private:
  EagerRuntime& runtime_;
  WorkspaceObserver* observer_ = nullptr;
  std::shared_ptr<WorkspacePool> pool_;
  FlatHashMap<const Buffer*, std::shared_ptr<Buffer>> held_;
  std::vector<const Buffer*> fresh_;  // allocated since the last release_unused
};

WorkspaceStats workspace_stats(EagerRuntime& runtime);
std::size_t workspace_retained_buffers(EagerRuntime& runtime);
void reset_workspace_stats(EagerRuntime& runtime);  // the peak and largest restart from now

}  // namespace tenferro::einsum_internal
