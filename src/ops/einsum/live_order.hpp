// The operand list of opt_einsum's linear path convention, without its O(n) erase per step.
// Live terms sit in slots numbered in creation order (inputs 0..n-1, then one slot per step's
// result), and the linear list is always the live slots in ascending order: a step removes two
// and appends its result, which takes the next, largest slot. A Fenwick tree over "slot is
// live" answers position(slot) and slot_at(position) in O(log slots), so converting or
// validating a path of n operands costs O(n log n) instead of O(n^2). A removed slot is never
// live again, so next() skips dead slots through a union-find with path compression: listing
// the first k live terms (a report line) costs O(k), not O(k log n).
#pragma once

#include <cstddef>
#include <vector>

namespace tenferro::einsum_internal {

class LiveOrder {
 public:
  // `slots` slots, the first `live` of them live.
  LiveOrder(int slots, int live)
      : tree_(static_cast<std::size_t>(slots) + 1, 0), skip_(static_cast<std::size_t>(slots) + 1) {
    for (int s = 0; s <= slots; ++s) skip_[static_cast<std::size_t>(s)] = s;
    for (int s = 0; s < live; ++s) add(s);
  }
  int size() const { return live_; }
  void add(int slot) { update(slot, +1); }
  void remove(int slot) {
    update(slot, -1);
    skip_[static_cast<std::size_t>(slot)] = slot + 1;
  }
  // The first live slot >= slot (the slot count when there is none; a slot not yet added counts
  // as live).
  int next(int slot) {
    int root = slot;
    while (skip_[static_cast<std::size_t>(root)] != root)
      root = skip_[static_cast<std::size_t>(root)];
    while (slot != root) {  // path compression
      const int up = skip_[static_cast<std::size_t>(slot)];
      skip_[static_cast<std::size_t>(slot)] = root;
      slot = up;
    }
    return root;
  }
  // How many live slots come before `slot`.
  int position(int slot) const {
    int count = 0;
    for (int i = slot; i > 0; i -= i & -i) count += tree_[static_cast<std::size_t>(i)];
    return count;
  }
  // The live slot at `position` (0-based); requires 0 <= position < size().
  int slot_at(int position) const {
    int slot = 0;  // binary descent: the largest prefix holding <= position live slots
    int rest = position;
    int step = 1;
    while (step * 2 < static_cast<int>(tree_.size())) step *= 2;
    for (; step > 0; step /= 2) {
      const int next = slot + step;
      if (next < static_cast<int>(tree_.size()) && tree_[static_cast<std::size_t>(next)] <= rest) {
        slot = next;
        rest -= tree_[static_cast<std::size_t>(next)];
      }
    }
    return slot;  // 1-based prefix length == 0-based slot index of the next live one
  }

 private:
  void update(int slot, int delta) {
    live_ += delta;
    for (int i = slot + 1; i < static_cast<int>(tree_.size()); i += i & -i)
      tree_[static_cast<std::size_t>(i)] += delta;
  }
  std::vector<int> tree_;  // 1-based Fenwick tree of live counts
  std::vector<int> skip_;  // union-find parent: a dead slot points past itself
  int live_ = 0;
};

}  // namespace tenferro::einsum_internal
