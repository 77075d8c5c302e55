// Typed dispatch errors that carry structured detail beside the message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tenferro/core/error.hpp"
#include "tenferro/runtime/placement.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro {

// Inputs of one call come from different runtimes (or an input is empty).
class ContextMismatchError : public Error {
 public:
  ContextMismatchError(std::string op, std::size_t argument_index, std::uint64_t expected_runtime,
                       std::uint64_t actual_runtime);
  std::size_t argument_index() const noexcept { return argument_index_; }
  std::uint64_t expected_runtime() const noexcept { return expected_runtime_; }
  std::uint64_t actual_runtime() const noexcept { return actual_runtime_; }

 private:
  std::size_t argument_index_;
  std::uint64_t expected_runtime_, actual_runtime_;
};

// An input's placement is not accepted by the runtime's engine.
class NoInputIngressError : public Error {
 public:
  NoInputIngressError(std::string op, std::size_t input_index, Placement placement,
                      Placement engine_placement, std::string engine);
  std::size_t input_index() const noexcept { return input_index_; }
  const Placement& placement() const noexcept { return placement_; }

 private:
  std::size_t input_index_;
  Placement placement_;
};

// A module was offered for (family, engine) but registers no executor for it.
class MissingExtensionEngineError : public Error {
 public:
  MissingExtensionEngineError(std::string op, std::string module, std::string family,
                              std::string engine);
  const std::string& module() const noexcept { return module_; }
  const std::string& family() const noexcept { return family_; }
  const std::string& engine() const noexcept { return engine_; }

 private:
  std::string module_, family_, engine_;
};

}  // namespace tenferro

#pragma GCC visibility pop
