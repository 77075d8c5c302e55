// The prims creation ops: filled, identity, ranges and counter-based random numbers, made by a
// kernel of the named runtime (never on the host and uploaded).
#include <cmath>
#include <string>

#include "ops/prims/registration.hpp"
#include "ops/prims/resolve.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims {
namespace {

using prims_internal::PrimKind;
using prims_internal::PrimsPayload;

EagerTensor generate(const std::shared_ptr<EagerRuntime>& rt, PrimsPayload p) {
  prims_internal::check_shape(prims_internal::prim_name(p.kind), p.out.shape, p.out.dtype);
  return prims_internal::run_on(rt, prims_internal::PrimsOp(std::move(p)));
}

void require_finite(std::string_view op, std::string_view what, double v) {
  if (!std::isfinite(v)) {
    throw_validation(std::string(op),
                     std::string(what) + " must be finite, got " + std::to_string(v));
  }
}

}  // namespace

EagerTensor full(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape, Scalar value) {
  if (value.imag() != 0.0 && !is_complex(dtype)) {
    throw_validation("full", "the fill value has an imaginary part but the dtype " +
                                 std::string(dtype_name(dtype)) + " is real");
  }
  PrimsPayload p;
  p.kind = PrimKind::Fill;
  p.out = {dtype, std::move(shape)};
  p.value = value;
  return generate(rt, std::move(p));
}

EagerTensor zeros(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape) {
  return full(rt, dtype, std::move(shape), 0.0);
}

EagerTensor ones(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape) {
  return full(rt, dtype, std::move(shape), 1.0);
}

EagerTensor eye(const std::shared_ptr<EagerRuntime>& rt, DType dtype, std::int64_t n,
                std::optional<std::int64_t> m, std::int64_t offset) {
  PrimsPayload p;
  p.kind = PrimKind::Eye;
  p.out = {dtype, {n, m.value_or(n)}};
  p.offset = offset;
  return generate(rt, std::move(p));
}

EagerTensor arange(const std::shared_ptr<EagerRuntime>& rt, DType dtype, double start, double stop,
                   double step) {
  require_finite("arange", "start", start);
  require_finite("arange", "stop", stop);
  require_finite("arange", "step", step);
  if (step == 0.0) throw_validation("arange", "step must not be 0");
  const double count = std::ceil((stop - start) / step);
  if (!(count < 9.0e18)) throw_validation("arange", "too many elements");
  PrimsPayload p;
  p.kind = PrimKind::Arange;
  p.out = {dtype, {count > 0 ? static_cast<std::int64_t>(count) : 0}};
  p.start = start;
  p.step = step;
  return generate(rt, std::move(p));
}

EagerTensor random_uniform(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape,
                           std::uint64_t seed, double low, double high) {
  require_finite("random_uniform", "low", low);
  require_finite("random_uniform", "high", high);
  PrimsPayload p;
  p.kind = PrimKind::RandomUniform;
  p.out = {dtype, std::move(shape)};
  p.seed = seed;
  p.a = low;
  p.b = high;
  return generate(rt, std::move(p));
}

EagerTensor random_normal(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape,
                          std::uint64_t seed, double mean, double stddev) {
  require_finite("random_normal", "mean", mean);
  require_finite("random_normal", "stddev", stddev);
  if (stddev < 0) throw_validation("random_normal", "stddev must be >= 0");
  PrimsPayload p;
  p.kind = PrimKind::RandomNormal;
  p.out = {dtype, std::move(shape)};
  p.seed = seed;
  p.a = mean;
  p.b = stddev;
  return generate(rt, std::move(p));
}

}  // namespace tenferro::prims
