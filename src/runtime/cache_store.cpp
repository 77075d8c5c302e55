#include "tenferro/runtime/cache_store.hpp"

#include <functional>
#include <new>
#include <string_view>

#include "core/fork_reset.hpp"

namespace tenferro {

namespace {
// The index slot is the discriminator itself: entries of other (family, name) pairs that share
// it are told apart by comparing the fields, so the slot need not hash the names again.
std::uint64_t slot_of(const CacheKeyView& key) {
  return key.discriminator;
}
bool matches(const CacheSelector& sel, std::string_view family, std::string_view name) {
  return (sel.family.empty() || sel.family == family) && (sel.name.empty() || sel.name == name);
}
}  // namespace

CacheKeyView CacheKeyView::of(std::string_view family, std::string_view name,
                              std::string_view exact) noexcept {
  return CacheKeyView{family, name, std::hash<std::string_view>{}(exact), exact};
}

CacheKey CacheKey::of(std::string family, std::string name, std::string exact) {
  const std::uint64_t d = std::hash<std::string_view>{}(exact);
  return CacheKey{std::move(family), std::move(name), d, std::move(exact)};
}

CacheKey CacheKey::of(const CacheKeyView& view) {
  return CacheKey{std::string(view.family), std::string(view.name), view.discriminator,
                  std::string(view.exact)};
}

ExtensionCacheStore::ExtensionCacheStore(CacheLimits limits)
    : limits_(limits), fork_reset_(std::make_shared<core::ForkReset>([this] {
        if (!core::remake_if_held(mutex_)) return;
        // Held at the fork: the lists may be half-changed. Abandoned (leaked), not destroyed.
        new (&lru_) Lru;
        new (&index_) decltype(index_);
        new (&counters_) decltype(counters_);
        bytes_ = 0;
      })) {}

ExtensionCacheStore::Counters& ExtensionCacheStore::counters_locked(std::string_view family,
                                                                    std::string_view name) {
  auto f = counters_.find(family);
  if (f == counters_.end()) f = counters_.emplace(std::string(family), StringMap<Counters>{}).first;
  auto n = f->second.find(name);
  if (n == f->second.end()) n = f->second.emplace(std::string(name), Counters{}).first;
  return n->second;
}

ExtensionCacheStore::Lru::iterator ExtensionCacheStore::locate_locked(std::uint64_t slot,
                                                                      const CacheKeyView& key) {
  const auto [first, last] = index_.equal_range(slot);
  for (auto it = first; it != last; ++it) {
    const CacheKey& k = it->second->key;
    if (k.discriminator == key.discriminator && k.family == key.family && k.name == key.name)
      return it->second;
  }
  return lru_.end();
}

void ExtensionCacheStore::erase_locked(Lru::iterator entry) {
  const auto [first, last] = index_.equal_range(entry->slot);
  for (auto it = first; it != last; ++it) {
    if (it->second == entry) {
      index_.erase(it);
      break;
    }
  }
  bytes_ -= entry->bytes;
  lru_.erase(entry);
}

std::shared_ptr<void> ExtensionCacheStore::find_erased(const CacheKeyView& key,
                                                       std::type_index type) {
  const std::uint64_t slot = slot_of(key);
  std::lock_guard lock(mutex_);
  const auto entry = locate_locked(slot, key);
  // A discriminator collision (same slot, other exact data) or another value type is a miss.
  if (entry == lru_.end() || entry->key.exact != key.exact || entry->type != type) {
    ++counters_locked(key.family, key.name).misses;
    return nullptr;
  }
  ++entry->counters->hits;
  lru_.splice(lru_.begin(), lru_, entry);
  return entry->value;
}

void ExtensionCacheStore::insert_erased(const CacheKey& key, std::shared_ptr<void> value,
                                        std::type_index type, std::size_t bytes) {
  const std::uint64_t slot = slot_of(key.view());
  std::lock_guard lock(mutex_);
  // Made here so stats() lists the cache even before a hit.
  Counters* counters = &counters_locked(key.family, key.name);
  if (const auto old = locate_locked(slot, key.view()); old != lru_.end()) erase_locked(old);
  lru_.push_front(Entry{slot, key, type, std::move(value), bytes, counters});
  index_.emplace(slot, lru_.begin());
  bytes_ += bytes;
  evict_locked();
}

void ExtensionCacheStore::evict_locked() {
  // Keep at least the newest entry even when it alone exceeds the byte bound.
  while (lru_.size() > 1 && (lru_.size() > limits_.max_entries || bytes_ > limits_.max_bytes)) {
    const auto victim = std::prev(lru_.end());
    ++victim->counters->evictions;
    erase_locked(victim);
  }
}

CacheStats ExtensionCacheStore::stats(const CacheSelector& selector) const {
  std::lock_guard lock(mutex_);
  CacheStats s;
  for (const Entry& e : lru_) {
    if (!matches(selector, e.key.family, e.key.name)) continue;
    ++s.entries;
    s.bytes += e.bytes;
  }
  for (const auto& [family, names] : counters_)
    for (const auto& [name, c] : names) {
      if (!matches(selector, family, name)) continue;
      s.hits += c.hits;
      s.misses += c.misses;
      s.evictions += c.evictions;
    }
  return s;
}

void ExtensionCacheStore::clear(const CacheSelector& selector) {
  std::lock_guard lock(mutex_);
  for (auto it = lru_.begin(); it != lru_.end();) {
    if (matches(selector, it->key.family, it->key.name)) {
      erase_locked(it++);
    } else {
      ++it;
    }
  }
}

}  // namespace tenferro
