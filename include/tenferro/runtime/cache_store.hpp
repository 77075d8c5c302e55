// ExtensionCacheStore: runtime-owned, bounded LRU of type-erased values (einsum plans, FFT
// plans, solver workspaces). Keys are (family, cache name, discriminator); the exact key data
// is stored with the value and re-checked on every hit, so a discriminator collision reads as
// a miss. Thread-safe. Nothing global, nothing thread-local.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <unordered_map>

namespace tenferro {

struct CacheKey {
  std::string family;           // e.g. "tenferro.einsum.v1"
  std::string name;             // e.g. "plan"
  std::uint64_t discriminator;  // a hash of `exact` (or any caller-chosen value)
  std::string exact;            // the complete key data, compared on hit

  // Discriminator computed from `exact`.
  static CacheKey of(std::string family, std::string name, std::string exact);
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
  std::shared_ptr<T> find(const CacheKey& key) {
    return std::static_pointer_cast<T>(find_erased(key, typeid(T)));
  }
  // Stores `value` (replacing any entry under the same key), evicting least recently used
  // entries beyond the limits. `bytes` is the retained size the value accounts for.
  template <class T>
  void insert(const CacheKey& key, std::shared_ptr<T> value, std::size_t bytes) {
    insert_erased(key, std::move(value), typeid(T), bytes);
  }
  // find, or make() + insert on a miss. `make` runs outside the store's lock.
  template <class T, class Make>
  std::shared_ptr<T> get_or_create(const CacheKey& key, Make&& make,
                                   std::size_t bytes = sizeof(T)) {
    if (auto hit = find<T>(key)) return hit;
    std::shared_ptr<T> made = make();
    insert<T>(key, made, bytes);
    return made;
  }

  CacheStats stats(const CacheSelector& selector = {}) const;
  void clear(const CacheSelector& selector = {});
  const CacheLimits& limits() const noexcept { return limits_; }

 private:
  struct Entry {
    std::string slot;  // family \0 name \0 discriminator: the lookup key
    CacheKey key;      // the exact key, re-checked on hit
    std::type_index type;
    std::shared_ptr<void> value;
    std::size_t bytes;
  };
  struct Counters {
    std::uint64_t hits = 0, misses = 0, evictions = 0;
  };
  std::shared_ptr<void> find_erased(const CacheKey& key, std::type_index type);
  void insert_erased(const CacheKey& key, std::shared_ptr<void> value, std::type_index type,
                     std::size_t bytes);
  void evict_locked();
  Counters& counters_locked(const std::string& family, const std::string& name);

  CacheLimits limits_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;                                               // front = most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;  // slot key -> entry
  std::unordered_map<std::string, Counters> counters_;                 // "family\0name"
  std::size_t bytes_ = 0;
};

}  // namespace tenferro
