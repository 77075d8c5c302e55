// FlatHashMap<K, V>: a hash map of trivially copyable keys in one array (open addressing,
// linear probing, at most half full, backward-shift erase: no tombstones). For the hot paths
// of a first einsum call (label ids, buffer names, held scratch), where std::map and
// std::unordered_map spent an allocation on every entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

namespace tenferro {

template <class K, class V>
class FlatHashMap {
  static_assert(std::is_trivially_copyable_v<K>, "keys are compared and moved as values");

 public:
  // The entry of `key`, or null.
  V* find(const K& key) {
    if (slots_.empty()) return nullptr;
    Slot& s = slots_[probe(key)];
    return s.used ? &s.value : nullptr;
  }
  const V* find(const K& key) const { return const_cast<FlatHashMap*>(this)->find(key); }

  // The entry of `key`, made from `make()` when absent; `inserted` says which.
  template <class Make>
  V& find_or_insert(const K& key, Make&& make, bool* inserted = nullptr) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    Slot& s = slots_[probe(key)];
    if (inserted) *inserted = !s.used;
    if (!s.used) {
      s.key = key;
      s.value = make();
      s.used = true;
      ++size_;
    }
    return s.value;
  }
  V& operator[](const K& key) {
    return find_or_insert(key, [] { return V{}; });
  }

  // Removes `key`'s entry when there is one; the entries after it in its probe run move back
  // so that every key stays reachable from its home slot.
  bool erase(const K& key) {
    if (slots_.empty()) return false;
    std::size_t hole = probe(key);
    if (!slots_[hole].used) return false;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = (hole + 1) & mask; slots_[i].used; i = (i + 1) & mask) {
      const std::size_t home = home_of(slots_[i].key);
      // The entry at i may fill the hole when its home is not in (hole, i] (cyclically).
      const bool home_after_hole =
          hole <= i ? (hole < home && home <= i) : (hole < home || home <= i);
      if (home_after_hole) continue;
      slots_[hole] = std::move(slots_[i]);
      hole = i;
    }
    slots_[hole] = Slot{};
    --size_;
    return true;
  }

  std::size_t size() const { return size_; }
  void clear() {
    for (Slot& s : slots_) s = Slot{};
    size_ = 0;
  }
  void reserve(std::size_t entries) {
    while (2 * entries > slots_.size()) grow();
  }
  // Calls fn(key, value) for every entry, in no particular order.
  template <class Fn>
  void for_each(Fn&& fn) {
    for (Slot& s : slots_)
      if (s.used) fn(s.key, s.value);
  }

 private:
  struct Slot {
    K key{};
    V value{};
    bool used = false;
  };

  std::size_t home_of(const K& key) const {
    // Fibonacci hashing of std::hash's value: pointers and code points leave low bits zero or
    // clustered, which a plain mask would keep.
    const auto h = static_cast<std::uint64_t>(std::hash<K>{}(key));
    return static_cast<std::size_t>((h * 0x9E3779B97F4A7C15ull) >> 32) & (slots_.size() - 1);
  }
  // Where `key` is, or the free slot where it would go.
  std::size_t probe(const K& key) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = home_of(key);
    while (slots_[i].used && !(slots_[i].key == key)) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    for (Slot& s : old)
      if (s.used) slots_[probe(s.key)] = std::move(s);
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace tenferro
