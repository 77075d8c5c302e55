#include "ops/fft/fft_spec.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>

#include "core/enum_check.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::fft_internal {
namespace {

#define TENFERRO_FFT_NAME(Kind, name) #name,
constexpr std::array<std::string_view, kFftOpKindCount> kOpNames = {
    TENFERRO_FFT_OPS(TENFERRO_FFT_NAME)};
#undef TENFERRO_FFT_NAME

bool is_n_axis(FftOpKind k) {
  return static_cast<int>(k) >= static_cast<int>(FftOpKind::Fftn);
}

Transform transform_of(FftOpKind k) {
  switch (k) {
    case FftOpKind::Rfft:
    case FftOpKind::Rfftn:
      return Transform::R2C;
    case FftOpKind::Irfft:
    case FftOpKind::Irfftn:
      return Transform::C2R;
    default:
      return Transform::C2C;
  }
}

bool is_forward(FftOpKind k) {
  return k == FftOpKind::Fft || k == FftOpKind::Rfft || k == FftOpKind::Fftn ||
         k == FftOpKind::Rfftn;
}

[[noreturn]] void fail(FftOpKind k, std::string message) {
  throw_validation(std::string(op_kind_name(k)), std::move(message));
}

std::int64_t normalize_axis(FftOpKind k, std::int64_t axis, std::int64_t rank) {
  if (axis < -rank || axis >= rank) {
    fail(k, "axis " + std::to_string(axis) + " is out of range for an input of rank " +
                std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

// NumPy's default transform length along an axis whose input extent is `extent`.
std::int64_t default_length(Transform t, bool last, std::int64_t extent) {
  return (t == Transform::C2R && last) ? 2 * (extent - 1) : extent;
}

void check_length(FftOpKind k, std::int64_t n, std::int64_t axis) {
  if (n < 1) {
    fail(k, "invalid number of data points (" + std::to_string(n) + ") along axis " +
                std::to_string(axis) + ": it must be at least 1");
  }
}

}  // namespace

std::string_view op_kind_name(FftOpKind kind) {
  return kOpNames[static_cast<std::size_t>(kind)];
}

bool parse_op_kind(std::string_view text, FftOpKind& out) {
  for (std::size_t i = 0; i < kOpNames.size(); ++i) {
    if (kOpNames[i] == text) {
      out = static_cast<FftOpKind>(i);
      return true;
    }
  }
  return false;
}

std::uint64_t FftRequest::hash() const noexcept {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull + 0x9e3779b97f4a7c15ull; };
  mix(static_cast<std::uint64_t>(kind));
  mix(static_cast<std::uint64_t>(norm));
  mix(static_cast<std::uint64_t>(axis));
  mix(n ? static_cast<std::uint64_t>(*n) : ~0ull);
  for (const auto* list : {&s, &axes}) {
    mix(list->has_value() ? list->value().size() : ~0ull);
    if (list->has_value()) {
      for (auto v : list->value()) mix(static_cast<std::uint64_t>(v));
    }
  }
  return h;
}

FftSpec resolve(const FftRequest& request, DType dtype, const Shape& shape) {
  const FftOpKind k = request.kind;
  require_enumerator(request.norm, fft::Norm::Ortho, op_kind_name(k), "norm");
  const auto rank = static_cast<std::int64_t>(shape.size());
  FftSpec spec;
  spec.kind = k;
  spec.transform = transform_of(k);
  spec.forward = is_forward(k);

  if (spec.transform == Transform::R2C && is_complex(dtype)) {
    fail(k, "needs a real input (F32 or F64), got " + std::string(dtype_name(dtype)) +
                "; use fft for complex data");
  }

  // Axes and the requested lengths (-1 = default), NumPy's _cook_nd_args.
  std::vector<std::int64_t> requested;
  if (!is_n_axis(k)) {
    spec.axes = {normalize_axis(k, request.axis, rank)};
    if (request.n) check_length(k, *request.n, spec.axes[0]);
    requested = {request.n.value_or(-1)};
  } else {
    if (request.axes) {
      for (auto a : *request.axes) spec.axes.push_back(normalize_axis(k, a, rank));
      if (request.s && request.s->size() != request.axes->size()) {
        fail(k, "s has " + std::to_string(request.s->size()) + " entries but axes has " +
                    std::to_string(request.axes->size()));
      }
    } else if (request.s) {
      const auto count = static_cast<std::int64_t>(request.s->size());
      if (count > rank) {
        fail(k, "s has " + std::to_string(count) + " entries but the input has rank " +
                    std::to_string(rank));
      }
      for (std::int64_t a = rank - count; a < rank; ++a) spec.axes.push_back(a);
    } else {
      for (std::int64_t a = 0; a < rank; ++a) spec.axes.push_back(a);
    }
    if (spec.axes.empty()) fail(k, "needs at least one axis to transform");
    auto sorted = spec.axes;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      fail(k, "axes must not repeat");
    }
    if (request.s) {
      for (std::size_t i = 0; i < request.s->size(); ++i) {
        const auto v = (*request.s)[i];
        if (v != -1) check_length(k, v, spec.axes[i]);
      }
      requested = *request.s;
    } else {
      requested.assign(spec.axes.size(), -1);
    }
  }

  const std::size_t count = spec.axes.size();
  spec.staged_shape = shape;
  spec.out_shape = shape;
  double denominator = 1.0;
  for (std::size_t i = 0; i < count; ++i) {
    const bool last = i + 1 == count;
    const auto axis = spec.axes[i];
    const auto length =
        requested[i] == -1 ? default_length(spec.transform, last, shape[axis]) : requested[i];
    check_length(k, length, axis);
    spec.lengths.push_back(length);
    denominator *= static_cast<double>(length);
    const auto half = length / 2 + 1;
    spec.staged_shape[axis] = (spec.transform == Transform::C2R && last) ? half : length;
    spec.out_shape[axis] = (spec.transform == Transform::R2C && last) ? half : length;
  }

  spec.staged_dtype = spec.transform == Transform::R2C ? dtype : complex_dtype(dtype);
  spec.out_dtype = spec.transform == Transform::C2R ? real_dtype(dtype) : complex_dtype(dtype);

  // NumPy: "backward" scales the inverse by 1/n, "forward" the forward transform, "ortho"
  // both by 1/sqrt(n); n is the product of the logical lengths.
  switch (request.norm) {
    case fft::Norm::Backward:
      spec.scale = spec.forward ? 1.0 : 1.0 / denominator;
      break;
    case fft::Norm::Forward:
      spec.scale = spec.forward ? 1.0 / denominator : 1.0;
      break;
    case fft::Norm::Ortho:
      spec.scale = 1.0 / std::sqrt(denominator);
      break;
  }
  return spec;
}

}  // namespace tenferro::fft_internal
