// RuntimeCallScope: marks the eager call of one runtime as running on this thread, so that
// side effects that should never happen inside a call (a backend built behind the caller's
// back) can be charged to the runtime that made them happen.
#pragma once

namespace tenferro {

class EagerRuntime;

class RuntimeCallScope {
 public:
  explicit RuntimeCallScope(EagerRuntime& runtime) noexcept;
  ~RuntimeCallScope();
  RuntimeCallScope(const RuntimeCallScope&) = delete;
  RuntimeCallScope& operator=(const RuntimeCallScope&) = delete;

  // The runtime whose call is running on this thread (the innermost one), or nullptr.
  static EagerRuntime* current() noexcept;

 private:
  EagerRuntime* previous_;
};

}  // namespace tenferro
