// The public tenferro::linalg functions: build the op, check the inputs' runtime and shapes,
// dispatch through the targeted extension session, and name the outputs.
#include <initializer_list>

#include "ops/linalg/linalg_op.hpp"
#include "ops/linalg/registration.hpp"
#include "runtime/dispatch_internal.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::linalg {
namespace {

using linalg_internal::LinalgKind;
using linalg_internal::LinalgOp;
using linalg_internal::LinalgPayload;

std::vector<EagerTensor> dispatch(LinalgKind kind, const LinalgPayload& payload,
                                  std::initializer_list<EagerTensor> list) {
  LinalgOp op(kind, payload);
  const std::span<const EagerTensor> inputs(list.begin(), list.size());
  // Runtime identity first (ContextMismatch outranks every other error), then shapes, so a
  // malformed call never reaches the factory or installs anything.
  const std::shared_ptr<EagerRuntime>& runtime = require_one_runtime(op.name(), inputs, op.arity());
  // Checked in place (no shape is copied); the executor then infers the outputs once.
  if (inputs.size() == 1) {
    const linalg_internal::InputView views[] = {{inputs[0].dtype(), inputs[0].shape()}};
    linalg_internal::validate_inputs(op, views);
  } else {
    const linalg_internal::InputView views[] = {{inputs[0].dtype(), inputs[0].shape()},
                                                {inputs[1].dtype(), inputs[1].shape()}};
    linalg_internal::validate_inputs(op, views);
  }
  op.mark_validated();
  // The table answers admission before anything is installed.
  const runtime_internal::OpKey key{static_cast<std::uint32_t>(kind), inputs[0].dtype()};
  return runtime_internal::dispatch_table(runtime, op, inputs,
                                          linalg_internal::registration_table(), key);
}

// The results are moved out of the dispatch's vector: a copy of an EagerTensor copies its
// shape and strides (two allocations each).
EagerTensor first(std::vector<EagerTensor> out) {
  return std::move(out[0]);
}

LinalgPayload with(auto setter) {
  LinalgPayload p;
  setter(p);
  return p;
}

}  // namespace

QrResult qr(const EagerTensor& a, const QrOptions& options) {
  auto out = dispatch(LinalgKind::Qr, with([&](LinalgPayload& p) { p.qr = options; }), {a});
  return {std::move(out[0]), std::move(out[1])};
}

SvdResult svd(const EagerTensor& a, const SvdOptions& options) {
  auto out = dispatch(LinalgKind::Svd, with([&](LinalgPayload& p) { p.svd = options; }), {a});
  if (!options.compute_uv)
    return {EagerTensor(), std::move(out[0]), EagerTensor(), std::move(out[1])};
  return {std::move(out[0]), std::move(out[1]), std::move(out[2]), std::move(out[3])};
}

EighResult eigh(const EagerTensor& a, const EighOptions& options) {
  auto out = dispatch(LinalgKind::Eigh, with([&](LinalgPayload& p) { p.eigh = options; }), {a});
  if (options.values_only) return {std::move(out[0]), EagerTensor()};
  return {std::move(out[0]), std::move(out[1])};
}

EigResult eig(const EagerTensor& a) {
  auto out = dispatch(LinalgKind::Eig, {}, {a});
  return {std::move(out[0]), std::move(out[1])};
}

LuResult lu(const EagerTensor& a) {
  auto out = dispatch(LinalgKind::Lu, {}, {a});
  return {std::move(out[0]), std::move(out[1]), std::move(out[2])};
}

EagerTensor cholesky(const EagerTensor& a) {
  return first(dispatch(LinalgKind::Cholesky, {}, {a}));
}

EagerTensor solve(const EagerTensor& a, const EagerTensor& b) {
  return first(dispatch(LinalgKind::Solve, {}, {a, b}));
}

EagerTensor triangular_solve(const EagerTensor& a, const EagerTensor& b,
                             const TriangularSolveOptions& options) {
  return first(dispatch(LinalgKind::TriangularSolve,
                        with([&](LinalgPayload& p) { p.triangular = options; }), {a, b}));
}

LstsqResult lstsq_with_rank(const EagerTensor& a, const EagerTensor& b,
                            const LstsqOptions& options) {
  auto out =
      dispatch(LinalgKind::Lstsq, with([&](LinalgPayload& p) { p.lstsq = options; }), {a, b});
  return {std::move(out[0]), std::move(out[1]), std::move(out[2])};
}

EagerTensor lstsq(const EagerTensor& a, const EagerTensor& b, const LstsqOptions& options) {
  return lstsq_with_rank(a, b, options).x;
}

EagerTensor inv(const EagerTensor& a) {
  return first(dispatch(LinalgKind::Inv, {}, {a}));
}

EagerTensor det(const EagerTensor& a) {
  return first(dispatch(LinalgKind::Det, {}, {a}));
}

SlogdetResult slogdet(const EagerTensor& a) {
  auto out = dispatch(LinalgKind::Slogdet, {}, {a});
  return {std::move(out[0]), std::move(out[1])};
}

}  // namespace tenferro::linalg
