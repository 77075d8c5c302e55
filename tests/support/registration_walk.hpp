// Walks the einsum, linalg and FFT registration tables for one runtime's backend and asks the
// code: every admitted (op, dtype) gets a module from the factory whose executor gets past the
// table (to the row's kernel, whatever that kernel then does: on a device-like test runtime it
// fails to find a real device), and every refused one is refused by the factory, before
// anything is installed, and by the executor when reached around the factory. Used by the
// dispatch tests for every compiled backend and by the CUDA tests in CUDA-only builds.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/registration_table.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::testing {

struct Family {
  std::string name;
  const runtime_internal::RegistrationTable* table;
  // An op of this family for op index `op`, keyed by `dtype`.
  std::function<std::shared_ptr<const ExtensionOp>(std::uint32_t op, DType dtype)> make_op;
};

// einsum, linalg and FFT.
std::vector<Family> families();

// One message per (family, op, dtype) whose answer on `rt`'s backend breaks the rules above;
// empty when the tables, the factory and the executors agree.
std::vector<std::string> walk_registration_tables(const std::shared_ptr<EagerRuntime>& rt);

}  // namespace tenferro::testing
