// GradientTape: recording, the reverse pass (with cotangent accumulation) and graph freeing.
#include "ad/tape.hpp"

#include <string>
#include <utility>

#include "ad/checks.hpp"
#include "ad/helpers.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::ad {
namespace {

thread_local int no_grad_depth = 0;

// a + b where either may be undefined (zero).
EagerTensor accumulate(const EagerTensor& a, const EagerTensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return prims::add(a, b);
}

}  // namespace

Variable::Variable(EagerTensor value) : value_(std::move(value)) {}

NoGradGuard::NoGradGuard() {
  ++no_grad_depth;
}
NoGradGuard::~NoGradGuard() {
  --no_grad_depth;
}
bool grad_enabled() noexcept {
  return no_grad_depth == 0;
}

std::vector<Variable> record(std::string op, std::span<const Variable> inputs,
                             std::vector<EagerTensor> outputs, VjpRule vjp, JvpRule jvp) {
  std::shared_ptr<detail::TapeState> tape;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& t = Access::tape(inputs[i]);
    if (!t) continue;
    if (tape && t != tape) {
      throw Error(ErrorKind::Unsupported, ErrorPhase::Input, op,
                  "input " + std::to_string(i) +
                      " is tracked by another GradientTape than input 0's; one op records on "
                      "one tape (nested tapes, e.g. grad of grad, are not supported yet)");
    }
    tape = t;
  }
  std::vector<Variable> result;
  result.reserve(outputs.size());
  if (!tape || !grad_enabled()) {
    for (auto& o : outputs) result.emplace_back(std::move(o));
    return result;
  }
  std::lock_guard lock(tape->mutex);
  if (tape->freed) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Input, op,
                "the GradientTape's graph was freed by a reverse pass; record on a new tape "
                "(or pass retain_graph)");
  }
  detail::Node node{std::move(op), {}, {}, std::move(vjp), std::move(jvp)};
  for (const auto& in : inputs) node.inputs.push_back(Access::tape(in) ? Access::slot(in) : -1);
  for (auto& o : outputs) {
    const auto slot = static_cast<std::int64_t>(tape->slots.size());
    tape->slots.push_back(o.meta());
    tape->is_leaf.push_back(false);
    node.outputs.push_back(slot);
    result.push_back(Access::make(std::move(o), tape, slot));
  }
  tape->nodes.push_back(std::move(node));
  return result;
}

Variable record1(std::string op, std::span<const Variable> inputs, EagerTensor output, VjpRule vjp,
                 JvpRule jvp) {
  std::vector<EagerTensor> outs;
  outs.push_back(std::move(output));
  return std::move(
      record(std::move(op), inputs, std::move(outs), std::move(vjp), std::move(jvp))[0]);
}

namespace detail {

// The reverse pass: the cotangent of every slot, seeded at `outputs`. Frees the graph unless
// retain. The caller holds no lock; this takes the tape's.
std::vector<EagerTensor> reverse_pass(TapeState& tape, std::span<const Variable> outputs,
                                      std::span<const EagerTensor> cotangents, bool retain) {
  std::unique_lock lock(tape.mutex);
  if (tape.freed) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Input, "ad.backward",
                "the graph was already freed by an earlier reverse pass; pass "
                "GradientOptions{.retain_graph = true} to run reverse mode twice");
  }
  std::vector<EagerTensor> ct(tape.slots.size());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto slot = Access::slot(outputs[i]);
    if (slot >= 0 && cotangents[i].defined()) {
      ct[static_cast<std::size_t>(slot)] =
          accumulate(ct[static_cast<std::size_t>(slot)], cotangents[i]);
    }
  }
  for (auto it = tape.nodes.rbegin(); it != tape.nodes.rend(); ++it) {
    Node& node = *it;
    std::vector<EagerTensor> gout;
    bool any = false;
    for (auto s : node.outputs) {
      gout.push_back(ct[static_cast<std::size_t>(s)]);
      any = any || gout.back().defined();
    }
    std::vector<bool> needs;
    bool any_need = false;
    for (auto s : node.inputs) {
      needs.push_back(s >= 0);
      any_need = any_need || s >= 0;
    }
    if (!any || !any_need) continue;
    std::vector<EagerTensor> gin = node.vjp(gout, needs);
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
      const auto s = node.inputs[i];
      if (s < 0 || i >= gin.size() || !gin[i].defined()) continue;
      // Rules may return a broadcast or promoted cotangent; fit() brings it to the input's
      // shape and dtype (summing broadcast axes, the real part for a real input).
      ct[static_cast<std::size_t>(s)] = accumulate(
          ct[static_cast<std::size_t>(s)], fit(gin[i], tape.slots[static_cast<std::size_t>(s)]));
    }
  }
  if (!retain) {
    tape.nodes.clear();
    tape.nodes.shrink_to_fit();
    tape.freed = true;
  }
  return ct;
}

}  // namespace detail

GradientTape::GradientTape(std::shared_ptr<EagerRuntime> runtime)
    : state_(std::make_shared<detail::TapeState>()) {
  if (!runtime) throw_validation("ad.GradientTape", "the runtime is null");
  state_->runtime = std::move(runtime);
}
// A rule may capture Variables of this very tape (the Krylov rules keep the user's operator,
// which captures its tracked parameters): a cycle through the tape's own state that would
// never be freed. The recorded nodes are no use once the tape is gone (nothing can run a
// reverse pass on it), so they go with it; their destructors run outside the lock.
GradientTape::~GradientTape() {
  std::vector<detail::Node> nodes;
  {
    std::lock_guard lock(state_->mutex);
    nodes.swap(state_->nodes);
  }
}

const std::shared_ptr<EagerRuntime>& GradientTape::runtime() const noexcept {
  return state_->runtime;
}

bool GradientTape::freed() const noexcept {
  std::lock_guard lock(state_->mutex);
  return state_->freed;
}

Variable GradientTape::watch(const EagerTensor& x) {
  check_same_runtime("ad.watch", *state_->runtime, x, 0);
  std::lock_guard lock(state_->mutex);
  if (state_->freed) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Input, "ad.watch",
                "the GradientTape's graph was freed by a reverse pass; use a new tape");
  }
  const auto slot = static_cast<std::int64_t>(state_->slots.size());
  state_->slots.push_back(x.meta());
  state_->is_leaf.push_back(true);
  return Access::make(x, state_, slot);
}

std::vector<EagerTensor> GradientTape::vjp(std::span<const Variable> outputs,
                                           std::span<const EagerTensor> cotangents,
                                           std::span<const Variable> inputs,
                                           GradientOptions options) {
  const EagerRuntime& rt = *state_->runtime;
  if (cotangents.size() != outputs.size()) {
    throw_validation("ad.vjp", std::to_string(cotangents.size()) + " cotangents for " +
                                   std::to_string(outputs.size()) + " outputs");
  }
  // Every check before any work: runtimes first (the contract's order), then metadata.
  for (std::size_t i = 0; i < cotangents.size(); ++i) {
    if (cotangents[i].defined()) check_same_runtime("ad.vjp cotangent", rt, cotangents[i], i);
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    check_same_runtime("ad.vjp output", rt, outputs[i].value(), i);
    if (Access::tape(outputs[i]) && Access::tape(outputs[i]) != state_) {
      throw_validation("ad.vjp", "output " + std::to_string(i) + " is tracked by another tape");
    }
    if (cotangents[i].defined()) {
      check_like("ad.vjp", "cotangent", i, cotangents[i], outputs[i].value().meta());
    }
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    check_same_runtime("ad.vjp input", rt, inputs[i].value(), i);
    if (Access::tape(inputs[i]) && Access::tape(inputs[i]) != state_) {
      throw_validation("ad.vjp", "input " + std::to_string(i) + " is tracked by another tape");
    }
  }
  auto ct = detail::reverse_pass(*state_, outputs, cotangents, options.retain_graph);
  std::vector<EagerTensor> result;
  for (const auto& in : inputs) {
    const auto slot = Access::slot(in);
    EagerTensor g = slot >= 0 && Access::tape(in) == state_ ? ct[static_cast<std::size_t>(slot)]
                                                            : EagerTensor();
    if (!g.defined()) g = prims::zeros(state_->runtime, in.dtype(), in.shape());
    result.push_back(std::move(g));
  }
  return result;
}

namespace {
EagerTensor unit_cotangent(const EagerRuntime& rt, const std::shared_ptr<EagerRuntime>& owner,
                           const Variable& loss) {
  check_same_runtime("ad.gradient loss", rt, loss.value(), 0);
  if (loss.rank() != 0 || is_complex(loss.dtype())) {
    throw_validation("ad.gradient", "the loss must be a real 0-d value, got " +
                                        std::string(dtype_name(loss.dtype())) + " " +
                                        shape_to_string(loss.shape()) +
                                        "; use vjp() with a cotangent for other outputs");
  }
  return prims::ones(owner, loss.dtype(), {});
}
}  // namespace

std::vector<EagerTensor> GradientTape::gradient(const Variable& loss,
                                                std::span<const Variable> inputs,
                                                GradientOptions options) {
  EagerTensor one = unit_cotangent(*state_->runtime, state_->runtime, loss);
  return vjp(std::span<const Variable>(&loss, 1), std::span<const EagerTensor>(&one, 1), inputs,
             options);
}

std::vector<EagerTensor> GradientTape::gradient(const Variable& loss,
                                                std::initializer_list<Variable> inputs,
                                                GradientOptions options) {
  return gradient(loss, std::span<const Variable>(inputs.begin(), inputs.size()), options);
}

void GradientTape::backward(const Variable& loss, GradientOptions options) {
  EagerTensor one = unit_cotangent(*state_->runtime, state_->runtime, loss);
  if (Access::tape(loss) && Access::tape(loss) != state_) {
    throw_validation("ad.backward", "the loss is tracked by another tape");
  }
  auto ct = detail::reverse_pass(*state_, std::span<const Variable>(&loss, 1),
                                 std::span<const EagerTensor>(&one, 1), options.retain_graph);
  std::lock_guard lock(state_->mutex);
  state_->leaf_grads.resize(state_->slots.size());
  for (std::size_t s = 0; s < ct.size(); ++s) {
    if (state_->is_leaf[s] && ct[s].defined()) {
      state_->leaf_grads[s] = accumulate(state_->leaf_grads[s], ct[s]);
    }
  }
}

EagerTensor GradientTape::grad(const Variable& leaf) const {
  std::lock_guard lock(state_->mutex);
  const auto slot = Access::slot(leaf);
  if (Access::tape(leaf) != state_ || slot < 0 ||
      static_cast<std::size_t>(slot) >= state_->leaf_grads.size()) {
    return {};
  }
  return state_->leaf_grads[static_cast<std::size_t>(slot)];
}

}  // namespace tenferro::ad
