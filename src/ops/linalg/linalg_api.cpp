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
  std::vector<TensorMeta> metas;
  metas.reserve(inputs.size());
  for (const EagerTensor& input : inputs) metas.push_back(input.meta());
  linalg_internal::validate_and_infer(op, metas);
  op.mark_validated();
  // The factory answers admission from the registration table before anything is installed.
  const runtime_internal::OpKey key{static_cast<std::uint32_t>(kind), inputs[0].dtype()};
  auto factory = [key](const EagerExtensionTarget& target) {
    return linalg_internal::registration_table().module_for(target, key);
  };
  return runtime_internal::dispatch_checked(runtime, op, inputs, factory,
                                            linalg_internal::registration_table().family_id());
}

LinalgPayload with(auto setter) {
  LinalgPayload p;
  setter(p);
  return p;
}

}  // namespace

QrResult qr(const EagerTensor& a, const QrOptions& options) {
  auto out = dispatch(LinalgKind::Qr, with([&](LinalgPayload& p) { p.qr = options; }), {a});
  return {out[0], out[1]};
}

SvdResult svd(const EagerTensor& a, const SvdOptions& options) {
  auto out = dispatch(LinalgKind::Svd, with([&](LinalgPayload& p) { p.svd = options; }), {a});
  if (!options.compute_uv) return {EagerTensor(), out[0], EagerTensor(), out[1]};
  return {out[0], out[1], out[2], out[3]};
}

EighResult eigh(const EagerTensor& a, const EighOptions& options) {
  auto out = dispatch(LinalgKind::Eigh, with([&](LinalgPayload& p) { p.eigh = options; }), {a});
  if (options.values_only) return {out[0], EagerTensor()};
  return {out[0], out[1]};
}

EigResult eig(const EagerTensor& a) {
  auto out = dispatch(LinalgKind::Eig, {}, {a});
  return {out[0], out[1]};
}

LuResult lu(const EagerTensor& a) {
  auto out = dispatch(LinalgKind::Lu, {}, {a});
  return {out[0], out[1], out[2]};
}

EagerTensor cholesky(const EagerTensor& a) {
  return dispatch(LinalgKind::Cholesky, {}, {a})[0];
}

EagerTensor solve(const EagerTensor& a, const EagerTensor& b) {
  return dispatch(LinalgKind::Solve, {}, {a, b})[0];
}

EagerTensor triangular_solve(const EagerTensor& a, const EagerTensor& b,
                             const TriangularSolveOptions& options) {
  return dispatch(LinalgKind::TriangularSolve,
                  with([&](LinalgPayload& p) { p.triangular = options; }), {a, b})[0];
}

LstsqResult lstsq_with_rank(const EagerTensor& a, const EagerTensor& b,
                            const LstsqOptions& options) {
  auto out =
      dispatch(LinalgKind::Lstsq, with([&](LinalgPayload& p) { p.lstsq = options; }), {a, b});
  return {out[0], out[1], out[2]};
}

EagerTensor lstsq(const EagerTensor& a, const EagerTensor& b, const LstsqOptions& options) {
  return lstsq_with_rank(a, b, options).x;
}

EagerTensor inv(const EagerTensor& a) {
  return dispatch(LinalgKind::Inv, {}, {a})[0];
}

EagerTensor det(const EagerTensor& a) {
  return dispatch(LinalgKind::Det, {}, {a})[0];
}

SlogdetResult slogdet(const EagerTensor& a) {
  auto out = dispatch(LinalgKind::Slogdet, {}, {a});
  return {out[0], out[1]};
}

}  // namespace tenferro::linalg
