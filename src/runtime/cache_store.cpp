#include "tenferro/runtime/cache_store.hpp"

#include <functional>

namespace tenferro {

namespace {
std::string slot_of(const CacheKey& key) {
  std::string s;
  s.reserve(key.family.size() + key.name.size() + 2 + sizeof(key.discriminator));
  s += key.family;
  s += '\0';
  s += key.name;
  s += '\0';
  s.append(reinterpret_cast<const char*>(&key.discriminator), sizeof(key.discriminator));
  return s;
}
std::string counters_key(const std::string& family, const std::string& name) {
  return family + '\0' + name;
}
bool matches(const CacheSelector& sel, const std::string& family, const std::string& name) {
  return (sel.family.empty() || sel.family == family) && (sel.name.empty() || sel.name == name);
}
}  // namespace

CacheKey CacheKey::of(std::string family, std::string name, std::string exact) {
  const std::uint64_t d = std::hash<std::string>{}(exact);
  return CacheKey{std::move(family), std::move(name), d, std::move(exact)};
}

ExtensionCacheStore::ExtensionCacheStore(CacheLimits limits) : limits_(limits) {}

ExtensionCacheStore::Counters& ExtensionCacheStore::counters_locked(const std::string& family,
                                                                    const std::string& name) {
  return counters_[counters_key(family, name)];
}

std::shared_ptr<void> ExtensionCacheStore::find_erased(const CacheKey& key, std::type_index type) {
  const std::string slot = slot_of(key);
  std::lock_guard lock(mutex_);
  Counters& c = counters_locked(key.family, key.name);
  auto it = index_.find(slot);
  // A discriminator collision (same slot, other exact data) or another value type is a miss.
  if (it == index_.end() || it->second->key.exact != key.exact || it->second->type != type) {
    ++c.misses;
    return nullptr;
  }
  ++c.hits;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->value;
}

void ExtensionCacheStore::insert_erased(const CacheKey& key, std::shared_ptr<void> value,
                                        std::type_index type, std::size_t bytes) {
  std::string slot = slot_of(key);
  std::lock_guard lock(mutex_);
  counters_locked(key.family, key.name);  // so stats() lists the cache even before a hit
  if (auto it = index_.find(slot); it != index_.end()) {
    bytes_ -= it->second->bytes;
    lru_.erase(it->second);
    index_.erase(it);
  }
  lru_.push_front(Entry{slot, key, type, std::move(value), bytes});
  index_.emplace(std::move(slot), lru_.begin());
  bytes_ += bytes;
  evict_locked();
}

void ExtensionCacheStore::evict_locked() {
  // Keep at least the newest entry even when it alone exceeds the byte bound.
  while (lru_.size() > 1 && (lru_.size() > limits_.max_entries || bytes_ > limits_.max_bytes)) {
    Entry& victim = lru_.back();
    ++counters_locked(victim.key.family, victim.key.name).evictions;
    bytes_ -= victim.bytes;
    index_.erase(victim.slot);
    lru_.pop_back();
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
  for (const auto& [k, c] : counters_) {
    const auto sep = k.find('\0');
    if (!matches(selector, k.substr(0, sep), k.substr(sep + 1))) continue;
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
      bytes_ -= it->bytes;
      index_.erase(it->slot);
      it = lru_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace tenferro
