#include "core/fork_reset.hpp"

#include <pthread.h>

#include <mutex>
#include <new>
#include <utility>

namespace tenferro::core {

// The live registrations, a list threaded through them (registering allocates nothing). Its
// lock is held across fork() (pthread_atfork's prepare), so the child's list is whole; no
// other lock is ever taken while holding it, so that cannot deadlock.
struct ForkResetRegistry {
  std::mutex mutex;
  ForkReset* head = nullptr;

  static ForkResetRegistry& get() {
    static auto* registry = [] {
      auto* r = new ForkResetRegistry;  // never freed: objects may unregister after main
      pthread_atfork([] { get().mutex.lock(); }, [] { get().mutex.unlock(); }, &in_child);
      return r;
    }();
    return *registry;
  }

  // The child's only thread is the one that forked, which holds the lock (prepare).
  static void in_child() {
    ForkResetRegistry& r = get();
    for (ForkReset* f = r.head; f != nullptr; f = f->next_) f->reset_();
    r.mutex.unlock();
  }
};

ForkReset::ForkReset(std::function<void()> reset_in_child) : reset_(std::move(reset_in_child)) {
  ForkResetRegistry& r = ForkResetRegistry::get();
  const std::lock_guard lock(r.mutex);
  next_ = r.head;
  if (r.head != nullptr) r.head->prev_ = this;
  r.head = this;
}

ForkReset::~ForkReset() {
  ForkResetRegistry& r = ForkResetRegistry::get();
  const std::lock_guard lock(r.mutex);
  if (prev_ != nullptr) prev_->next_ = next_;
  if (next_ != nullptr) next_->prev_ = prev_;
  if (r.head == this) r.head = next_;
}

}  // namespace tenferro::core
