// LAPACK workspaces: the sizes are queried once per (op, dtype, shape) and the buffers kept in
// the runtime's ExtensionCacheStore. A cached workspace is leased under its own mutex; when
// another thread holds it, the caller gets a private copy of the same size instead of waiting
// (CPU sessions do not serialize, so two calls of one shape may run at once).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/workspace_count.hpp"
#include "ops/linalg/cpu/common.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/runtime/cache_store.hpp"

namespace tenferro::linalg_cpu {

struct WorkspaceSizes {
  std::int64_t work = 1, rwork = 1, iwork = 1;
};

template <class T>
struct Workspace {
  explicit Workspace(const WorkspaceSizes& s)
      : sizes(s),
        work(checked_buffer<T>(std::max<std::int64_t>(s.work, 1), kWhat)),
        rwork(checked_buffer<Real<T>>(std::max<std::int64_t>(s.rwork, 1), kWhat)),
        iwork(checked_buffer<lapack::lint>(std::max<std::int64_t>(s.iwork, 1), kWhat)) {}
  static constexpr std::string_view kWhat = "LAPACK workspace";
  std::size_t bytes() const {
    return work.size() * sizeof(T) + rwork.size() * sizeof(Real<T>) +
           iwork.size() * sizeof(lapack::lint);
  }
  lapack::lint lwork() const { return static_cast<lapack::lint>(work.size()); }
  lapack::lint lrwork() const { return static_cast<lapack::lint>(rwork.size()); }
  lapack::lint liwork() const { return static_cast<lapack::lint>(iwork.size()); }

  WorkspaceSizes sizes;
  std::mutex mutex;
  std::vector<T> work;
  std::vector<Real<T>> rwork;
  std::vector<lapack::lint> iwork;
};

template <class T>
class WorkspaceLease {
 public:
  // `exact_key` identifies the shape and routine; `query` returns the sizes (it runs LAPACK's
  // lwork = -1 queries) and is called only on a cache miss.
  template <class Query>
  WorkspaceLease(const CpuCall& call, const std::string& exact_key, Query&& query) {
    const CacheKey key = CacheKey::of(std::string(linalg_family::kFamily), "workspace",
                                      exact_key + "|" + std::string(dtype_name(dtype_of_v<T>)));
    auto& caches = call.ctx.caches();
    shared_ = caches.find<Workspace<T>>(key);
    if (!shared_) {
      shared_ = std::make_shared<Workspace<T>>(query());
      caches.insert<Workspace<T>>(key, shared_, shared_->bytes());
    }
    lock_ = std::unique_lock<std::mutex>(shared_->mutex, std::try_to_lock);
    if (!lock_.owns_lock()) private_ = std::make_unique<Workspace<T>>(shared_->sizes);
  }
  Workspace<T>& get() { return private_ ? *private_ : *shared_; }

 private:
  std::shared_ptr<Workspace<T>> shared_;
  std::unique_lock<std::mutex> lock_;
  std::unique_ptr<Workspace<T>> private_;
};

// The workspace of one chunk of a batch split over threads (batch_chunks.hpp): the call's lease
// for the chunk that starts the batch, a private one of the same sizes for the others, so that
// a call looks the cache up once however its batch is split.
template <class T>
class ChunkWorkspace {
 public:
  ChunkWorkspace(WorkspaceLease<T>& lease, std::int64_t first) {
    if (first == 0) {
      workspace_ = &lease.get();
    } else {
      private_ = std::make_unique<Workspace<T>>(lease.get().sizes);
      workspace_ = private_.get();
    }
  }
  Workspace<T>& get() { return *workspace_; }

 private:
  std::unique_ptr<Workspace<T>> private_;
  Workspace<T>* workspace_ = nullptr;
};

// LAPACK reports the optimal lwork in work[0] (a float for real/complex types).
template <class T>
std::int64_t queried_size(T value) {
  return workspace_count(value);
}

}  // namespace tenferro::linalg_cpu
