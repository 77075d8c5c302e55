// The tape behind GradientTape, and the one entry point every rule uses to record an op.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "tenferro/ad.hpp"

namespace tenferro::ad {

// Pulls the output cotangents (undefined = zero, at least one defined) back to the inputs;
// `needs[i]` says whether input i wants one (a rule may skip the others). Returns one entry
// per input, undefined where none.
using VjpRule = std::function<std::vector<EagerTensor>(std::span<const EagerTensor> cotangents,
                                                       const std::vector<bool>& needs)>;
// Pushes input tangents (undefined = zero, at least one defined) to one tangent per output
// (undefined = zero).
using JvpRule = std::function<std::vector<EagerTensor>(std::span<const EagerTensor> tangents)>;

namespace detail {

struct Node {
  std::string op;
  std::vector<std::int64_t> inputs;   // slots; -1 for a constant input
  std::vector<std::int64_t> outputs;  // slots
  VjpRule vjp;
  JvpRule jvp;
};

struct TapeState {
  std::shared_ptr<EagerRuntime> runtime;
  mutable std::mutex mutex;
  std::vector<TensorMeta> slots;  // metadata of every tracked value
  std::vector<bool> is_leaf;
  std::vector<Node> nodes;
  std::vector<EagerTensor> leaf_grads;  // backward()'s accumulation, by slot
  bool freed = false;
};

}  // namespace detail

// Friend of Variable: the rules' view of its tape and slot.
struct Access {
  static const std::shared_ptr<detail::TapeState>& tape(const Variable& v) { return v.tape_; }
  static std::int64_t slot(const Variable& v) { return v.slot_; }
  static const std::shared_ptr<detail::TapeState>& state(const GradientTape& t) { return t.state_; }
  static Variable make(EagerTensor value, std::shared_ptr<detail::TapeState> tape,
                       std::int64_t slot) {
    Variable v(std::move(value));
    v.tape_ = std::move(tape);
    v.slot_ = slot;
    return v;
  }
};

// Records one op: `outputs` were computed from `inputs`' values. When no input is tracked, or
// grad mode is off, returns the outputs as constants and the rules are dropped. Inputs tracked
// by two different tapes are an Unsupported error (nested tapes are not supported).
std::vector<Variable> record(std::string op, std::span<const Variable> inputs,
                             std::vector<EagerTensor> outputs, VjpRule vjp, JvpRule jvp);
// The one-output form.
Variable record1(std::string op, std::span<const Variable> inputs, EagerTensor output, VjpRule vjp,
                 JvpRule jvp);

}  // namespace tenferro::ad
