// The functional entry points: jvp (forward mode over a private tape), vjp and grad.
#include <string>
#include <utility>

#include "ad/checks.hpp"
#include "ad/helpers.hpp"
#include "ad/tape.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::ad {
namespace {

std::shared_ptr<EagerRuntime> runtime_of(std::string_view op,
                                         std::span<const EagerTensor> primals) {
  if (primals.empty()) throw_validation(std::string(op), "no primals");
  if (!primals[0].defined()) throw ContextMismatchError(std::string(op), 0, 0, 0);
  const auto& rt = primals[0].runtime();
  for (std::size_t i = 0; i < primals.size(); ++i) check_same_runtime(op, *rt, primals[i], i);
  return rt;
}

}  // namespace

std::pair<std::vector<EagerTensor>, std::vector<EagerTensor>> jvp(
    const Function& f, std::span<const EagerTensor> primals,
    std::span<const EagerTensor> tangents) {
  auto rt = runtime_of("ad.jvp", primals);
  if (tangents.size() != primals.size()) {
    throw_validation("ad.jvp", std::to_string(tangents.size()) + " tangents for " +
                                   std::to_string(primals.size()) + " primals");
  }
  for (std::size_t i = 0; i < tangents.size(); ++i) {
    check_same_runtime("ad.jvp tangent", *rt, tangents[i], i);
  }
  for (std::size_t i = 0; i < tangents.size(); ++i) {
    check_like("ad.jvp", "tangent", i, tangents[i], primals[i].meta());
  }
  GradientTape tape(rt);
  std::vector<Variable> xs;
  for (const auto& p : primals) xs.push_back(tape.watch(p));
  std::vector<Variable> ys = f(xs);

  auto& state = *Access::state(tape);
  std::lock_guard lock(state.mutex);
  std::vector<EagerTensor> tan(state.slots.size());
  for (std::size_t i = 0; i < xs.size(); ++i)
    tan[static_cast<std::size_t>(Access::slot(xs[i]))] = tangents[i];
  for (auto& node : state.nodes) {
    std::vector<EagerTensor> tin;
    bool any = false;
    for (auto s : node.inputs) {
      tin.push_back(s >= 0 ? tan[static_cast<std::size_t>(s)] : EagerTensor());
      any = any || tin.back().defined();
    }
    if (!any) continue;
    std::vector<EagerTensor> tout = node.jvp(tin);
    for (std::size_t k = 0; k < node.outputs.size() && k < tout.size(); ++k) {
      // A rule may return a tangent that is still to be broadcast or promoted to the output's
      // metadata (e.g. add with one constant operand).
      const auto slot = static_cast<std::size_t>(node.outputs[k]);
      EagerTensor t = std::move(tout[k]);
      if (t.defined() && t.shape() != state.slots[slot].shape) {
        t = prims::broadcast_to(t, state.slots[slot].shape);
      }
      if (t.defined()) t = to_dtype(t, state.slots[slot].dtype);
      tan[slot] = std::move(t);
    }
  }
  std::vector<EagerTensor> values, out_tangents;
  for (const auto& y : ys) {
    values.push_back(y.value());
    EagerTensor t;
    if (Access::tape(y) == Access::state(tape)) t = tan[static_cast<std::size_t>(Access::slot(y))];
    if (!t.defined()) t = prims::zeros(rt, y.dtype(), y.shape());
    out_tangents.push_back(std::move(t));
  }
  return {std::move(values), std::move(out_tangents)};
}

std::pair<std::vector<EagerTensor>, Pullback> vjp(const Function& f,
                                                  std::span<const EagerTensor> primals) {
  auto rt = runtime_of("ad.vjp", primals);
  auto tape = std::make_shared<GradientTape>(rt);
  std::vector<Variable> xs;
  for (const auto& p : primals) xs.push_back(tape->watch(p));
  std::vector<Variable> ys = f(xs);
  std::vector<EagerTensor> values;
  for (const auto& y : ys) values.push_back(y.value());
  Pullback pullback = [tape, xs = std::move(xs),
                       ys = std::move(ys)](std::span<const EagerTensor> cotangents) {
    return tape->vjp(ys, cotangents, xs);
  };
  return {std::move(values), std::move(pullback)};
}

std::vector<EagerTensor> grad(const Function& f, std::span<const EagerTensor> primals) {
  auto rt = runtime_of("ad.grad", primals);
  GradientTape tape(rt);
  std::vector<Variable> xs;
  for (const auto& p : primals) xs.push_back(tape.watch(p));
  std::vector<Variable> ys = f(xs);
  if (ys.size() != 1) {
    throw_validation("ad.grad", "f must return one real 0-d value, it returned " +
                                    std::to_string(ys.size()) + " values");
  }
  return tape.gradient(ys[0], xs);
}

}  // namespace tenferro::ad
