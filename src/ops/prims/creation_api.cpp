// The prims creation ops: filled, identity, ranges and counter-based random numbers, made by a
// kernel of the named runtime (never on the host and uploaded).
#include <charconv>
#include <cmath>
#include <string>

#include "ops/prims/registration.hpp"
#include "ops/prims/resolve.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims {
namespace {

using prims_internal::PrimKind;
using prims_internal::PrimsPayload;

// `op`: the name the caller used, for shape errors (zeros' and ones' were full's).
EagerTensor generate(const std::shared_ptr<EagerRuntime>& rt, PrimsPayload p,
                     std::string_view op = {}) {
  prims_internal::check_shape(op.empty() ? prims_internal::prim_name(p.kind) : op, p.out.shape,
                              p.out.dtype);
  return prims_internal::run_on(rt, prims_internal::PrimsOp(std::move(p)));
}

EagerTensor filled(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape, Scalar value,
                   std::string_view op) {
  if (value.imag() != 0.0 && !is_complex(dtype)) {
    throw_validation(std::string(op), "the fill value has an imaginary part but the dtype " +
                                          std::string(dtype_name(dtype)) + " is real");
  }
  PrimsPayload p;
  p.kind = PrimKind::Fill;
  p.out = {dtype, std::move(shape)};
  p.value = value;
  return generate(rt, std::move(p), op);
}

// The shortest text that reads back as `v` (std::to_string printed 1e308 with 309 digits).
std::string number(double v) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, v).ptr);
}

void require_finite(std::string_view op, std::string_view what, double v) {
  if (!std::isfinite(v)) {
    throw_validation(std::string(op), std::string(what) + " must be finite, got " + number(v));
  }
}

// `v` as the kernels hold it: in float for F32/C32 (1e39 is finite as a double, inf there).
double in_precision(DType dtype, double v) {
  return is_double(dtype) ? v : static_cast<double>(static_cast<float>(v));
}

// `what` (its value `v`, finite as a double) must stay finite in the dtype's precision.
void require_finite_in(std::string_view op, DType dtype, const std::string& what, double v) {
  if (!std::isfinite(in_precision(dtype, v))) {
    throw_validation(std::string(op),
                     what + " (" + number(v) + ") overflows " + std::string(dtype_name(dtype)));
  }
}

// The kernels compute low + (high - low) * u in the dtype's precision: an infinite bound or
// span there would make every value inf (or NaN where u = 0), silently.
void require_finite_range(DType dtype, double low, double high) {
  require_finite_in("random_uniform", dtype, "low", low);
  require_finite_in("random_uniform", dtype, "high", high);
  require_finite_in("random_uniform", dtype, "high - low",
                    in_precision(dtype, high) - in_precision(dtype, low));
}

// mean + stddev z with |z| below the largest the draws reach (philox.hpp: r = sqrt(-2 ln u1)
// with u1 >= 2^-24 in float32, 2^-53 in float64) must stay finite: float32 stddev 3e38 made a
// quarter of the values inf.
void require_finite_normals(DType dtype, double mean, double stddev) {
  require_finite_in("random_normal", dtype, "mean", mean);
  require_finite_in("random_normal", dtype, "stddev", stddev);
  const double z_max = is_double(dtype) ? 8.58 : 5.78;
  require_finite_in("random_normal", dtype, "|mean| + " + number(z_max) + " stddev",
                    std::fabs(mean) + z_max * stddev);
}

}  // namespace

EagerTensor full(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape, Scalar value) {
  return filled(rt, dtype, std::move(shape), value, "full");
}

EagerTensor zeros(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape) {
  return filled(rt, dtype, std::move(shape), 0.0, "zeros");
}

EagerTensor ones(const std::shared_ptr<EagerRuntime>& rt, DType dtype, Shape shape) {
  return filled(rt, dtype, std::move(shape), 1.0, "ones");
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
  // NumPy's count: a quotient that underflows to 0 while stop != start still has its first
  // element (arange(0, 1e-300, 1e300) is [0]), unless its sign says the range runs backwards.
  const double delta = stop - start, quotient = delta / step;
  const double count =
      quotient == 0.0 && delta != 0.0 ? (std::signbit(quotient) ? 0.0 : 1.0) : std::ceil(quotient);
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
  require_finite_range(dtype, low, high);
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
  require_finite_normals(dtype, mean, stddev);
  PrimsPayload p;
  p.kind = PrimKind::RandomNormal;
  p.out = {dtype, std::move(shape)};
  p.seed = seed;
  p.a = mean;
  p.b = stddev;
  return generate(rt, std::move(p));
}

}  // namespace tenferro::prims
