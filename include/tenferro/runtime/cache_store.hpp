// ExtensionCacheStore: runtime-owned, bounded LRU of type-erased values (einsum plans, FFT
// plans, solver workspaces). Keys are (family, cache name, discriminator); the exact key data
// is stored with the value and re-checked on every hit, so a discriminator collision reads as
// a miss. Thread-safe. Nothing global, nothing thread-local.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <typeindex>
#include <unordered_map>
#include <utility>

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

// The same fields as CacheKey, as views: what a lookup needs, so a warm hit builds no string.
struct CacheKeyView {
  std::string_view family;
  std::string_view name;
  std::uint64_t discriminator;
  std::string_view exact;

  // Discriminator computed from `exact` (the same one CacheKey::of computes).
  static CacheKeyView of(std::string_view family, std::string_view name,
                         std::string_view exact) noexcept;
};

struct CacheKey {
  std::string family;           // e.g. "tenferro.einsum.v1"
  std::string name;             // e.g. "plan"
  std::uint64_t discriminator;  // a hash of `exact` (or any caller-chosen value)
  std::string exact;            // the complete key data, compared on hit

  // Discriminator computed from `exact`.
  static CacheKey of(std::string family, std::string name, std::string exact);
  static CacheKey of(const CacheKeyView& view);
  CacheKeyView view() const noexcept { return {family, name, discriminator, exact}; }
};

// Which part of the store an operation applies to; empty fields match everything.
struct CacheSelector {
  std::string family;
  std::string name;
};

struct CacheStats {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t evictions = 0;
};

struct CacheLimits {
  std::size_t max_entries = 256;
  std::size_t max_bytes = std::size_t{512} << 20;
};

class ExtensionCacheStore {
 public:
  explicit ExtensionCacheStore(CacheLimits limits = {});

  // The value stored under `key` when its exact data and type match, else nullptr (a miss).
  template <class T>
  std::shared_ptr<T> find(const CacheKeyView& key) {
    return std::static_pointer_cast<T>(find_erased(key, typeid(T)));
  }
  template <class T>
  std::shared_ptr<T> find(const CacheKey& key) {
    return find<T>(key.view());
  }
  // Stores `value` (replacing any entry under the same key), evicting least recently used
  // entries beyond the limits. `bytes` is the retained size the value accounts for.
  template <class T>
  void insert(const CacheKey& key, std::shared_ptr<T> value, std::size_t bytes) {
    insert_erased(key, std::move(value), typeid(T), bytes);
  }
  // find, or make() + insert on a miss. `make` runs outside the store's lock.
  template <class T, class Make>
  std::shared_ptr<T> get_or_create(const CacheKeyView& key, Make&& make,
                                   std::size_t bytes = sizeof(T)) {
    if (auto hit = find<T>(key)) return hit;
    std::shared_ptr<T> made = make();
    insert<T>(CacheKey::of(key), made, bytes);
    return made;
  }
  template <class T, class Make>
  std::shared_ptr<T> get_or_create(const CacheKey& key, Make&& make,
                                   std::size_t bytes = sizeof(T)) {
    return get_or_create<T>(key.view(), std::forward<Make>(make), bytes);
  }

  CacheStats stats(const CacheSelector& selector = {}) const;
  void clear(const CacheSelector& selector = {});
  const CacheLimits& limits() const noexcept { return limits_; }

 private:
  // Lookups index by the discriminator and compare the fields in place, so a hit allocates
  // nothing; keys of different (family, name) or exact data may share a slot, hence the
  // multimap.
  struct Counters {
    std::uint64_t hits = 0, misses = 0, evictions = 0;
  };
  struct Entry {
    std::uint64_t slot;
    CacheKey key;  // the exact key, re-checked on hit
    std::type_index type;
    std::shared_ptr<void> value;
    std::size_t bytes;
    Counters* counters;  // its (family, name) counters: a hit counts without a map lookup
  };
  struct StringHash {  // lets the maps below be searched with a std::string_view
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };
  template <class V>
  using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;
  using Lru = std::list<Entry>;

  std::shared_ptr<void> find_erased(const CacheKeyView& key, std::type_index type);
  void insert_erased(const CacheKey& key, std::shared_ptr<void> value, std::type_index type,
                     std::size_t bytes);
  void evict_locked();
  Counters& counters_locked(std::string_view family, std::string_view name);
  // The entry stored under exactly (family, name, discriminator), or lru_.end().
  Lru::iterator locate_locked(std::uint64_t slot, const CacheKeyView& key);
  void erase_locked(Lru::iterator entry);

  CacheLimits limits_;
  mutable std::mutex mutex_;
  Lru lru_;                                                      // front = most recently used
  std::unordered_multimap<std::uint64_t, Lru::iterator> index_;  // slot -> entries
  // family -> name -> counters; never erased, so the entries' pointers stay valid (the
  // elements of an unordered_map do not move when it rehashes).
  StringMap<StringMap<Counters>> counters_;
  std::size_t bytes_ = 0;
  // Last, so it unregisters first: in a forked child whose parent held mutex_ at the fork, the
  // store starts empty with a fresh lock (src/core/fork_reset.hpp), instead of hanging.
  std::shared_ptr<void> fork_reset_;
};

}  // namespace tenferro

#pragma GCC visibility pop
