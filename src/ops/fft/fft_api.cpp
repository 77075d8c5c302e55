// The public tenferro::fft functions: resolve (Validation first), then the dispatch contract.
#include <string>

#include "ops/fft/fft_op.hpp"
#include "ops/fft/registration.hpp"
#include "runtime/dispatch_internal.hpp"
#include "runtime/key_buffer.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/runtime/extension.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::fft {
namespace {

using fft_internal::FftOpKind;
using fft_internal::FftRequest;

// The request resolved for `x`'s dtype and shape, from `x`'s runtime's cache: a warm call
// resolves nothing and allocates nothing for its spec. A request that does not resolve
// (Validation), or that the dispatch would refuse (Unsupported, NoInputIngress), is not cached.
std::shared_ptr<const fft_internal::ResolvedFft> resolved_for(EagerRuntime& runtime,
                                                              const EagerTensor& x,
                                                              const FftRequest& request) {
  runtime_internal::KeyBuffer key;
  key.word(request.kind);
  key.word(request.norm);
  key.word(request.axis);
  key.word(request.n.value_or(0));
  key.word(request.n.has_value());
  for (const auto* list : {&request.s, &request.axes}) {
    key.word(list->has_value());
    if (!list->has_value()) continue;
    key.word(static_cast<std::uint32_t>(list->value().size()));
    key.bytes(list->value().data(), list->value().size() * sizeof(std::int64_t));
  }
  key.word(x.dtype());
  key.word(static_cast<std::uint32_t>(x.shape().size()));
  key.bytes(x.shape().data(), x.shape().size() * sizeof(std::int64_t));
  ExtensionCacheStore& caches = runtime.caches();
  const CacheKeyView view = CacheKeyView{fft_family::kFamily, "spec", key.hash(), key.view()};
  if (auto hit = caches.find<fft_internal::ResolvedFft>(view)) return hit;
  auto made = std::make_shared<fft_internal::ResolvedFft>(fft_internal::ResolvedFft{
      x.dtype(), x.shape(), fft_internal::resolve(request, x.dtype(), x.shape())});
  runtime_internal::check_dispatchable(
      runtime, fft_internal::op_kind_name(request.kind), std::span<const EagerTensor>(&x, 1),
      fft_internal::registration_table(), {static_cast<std::uint32_t>(request.kind), x.dtype()});
  caches.insert<fft_internal::ResolvedFft>(CacheKey::of(view), made, sizeof(*made));
  return made;
}

EagerTensor run(const EagerTensor& x, FftRequest request) {
  // The factory answers admission (op, input dtype) from the registration table before
  // anything is installed; it runs only after step 1 found `x` defined.
  const FftOpKind kind = request.kind;
  const auto factory = [kind, &x](const EagerExtensionTarget& target) {
    return fft_internal::registration_table().module_for(
        target, {static_cast<std::uint32_t>(kind), x.dtype()});
  };
  // A view of the caller's tensor: a copy would copy its shape and strides.
  const std::span<const EagerTensor> inputs(&x, 1);
  // An empty handle has no shape to check against; the dispatch reports it as
  // ContextMismatch. Otherwise argument errors surface here, before anything runs.
  const std::uint32_t family = fft_internal::registration_table().family_id();
  std::vector<EagerTensor> outputs;
  if (!x.defined()) {
    outputs = runtime_internal::dispatch(fft_internal::FftOp(std::move(request)), inputs, factory,
                                         family);
  } else {
    const std::shared_ptr<EagerRuntime>& runtime =
        require_one_runtime(fft_internal::op_kind_name(request.kind), inputs, 1);
    std::shared_ptr<const fft_internal::ResolvedFft> resolved = resolved_for(*runtime, x, request);
    const fft_internal::FftOp op(std::move(request), std::move(resolved));
    outputs =
        runtime_internal::dispatch_table(runtime, op, inputs, fft_internal::registration_table(),
                                         {static_cast<std::uint32_t>(kind), x.dtype()});
  }
  return std::move(outputs.at(0));
}

EagerTensor one_axis(FftOpKind kind, const EagerTensor& x, std::optional<std::int64_t> n,
                     std::int64_t axis, Norm norm) {
  FftRequest r;
  r.kind = kind;
  r.n = n;
  r.axis = axis;
  r.norm = norm;
  return run(x, std::move(r));
}

EagerTensor n_axis(FftOpKind kind, const EagerTensor& x, Lengths s, Lengths axes, Norm norm) {
  FftRequest r;
  r.kind = kind;
  r.s = std::move(s);
  r.axes = std::move(axes);
  r.norm = norm;
  return run(x, std::move(r));
}

}  // namespace

std::string_view norm_name(Norm norm) {
  switch (norm) {
    case Norm::Backward:
      return "backward";
    case Norm::Forward:
      return "forward";
    case Norm::Ortho:
      return "ortho";
  }
  return "?";  // a cast integer, which every transform refuses
}

bool parse_norm(std::string_view text, Norm& out) {
  for (Norm n : {Norm::Backward, Norm::Forward, Norm::Ortho}) {
    if (text == norm_name(n)) {
      out = n;
      return true;
    }
  }
  return false;
}

EagerTensor fft(const EagerTensor& x, std::optional<std::int64_t> n, std::int64_t axis, Norm norm) {
  return one_axis(FftOpKind::Fft, x, n, axis, norm);
}
EagerTensor ifft(const EagerTensor& x, std::optional<std::int64_t> n, std::int64_t axis,
                 Norm norm) {
  return one_axis(FftOpKind::Ifft, x, n, axis, norm);
}
EagerTensor rfft(const EagerTensor& x, std::optional<std::int64_t> n, std::int64_t axis,
                 Norm norm) {
  return one_axis(FftOpKind::Rfft, x, n, axis, norm);
}
EagerTensor irfft(const EagerTensor& x, std::optional<std::int64_t> n, std::int64_t axis,
                  Norm norm) {
  return one_axis(FftOpKind::Irfft, x, n, axis, norm);
}
EagerTensor fftn(const EagerTensor& x, Lengths s, Lengths axes, Norm norm) {
  return n_axis(FftOpKind::Fftn, x, std::move(s), std::move(axes), norm);
}
EagerTensor ifftn(const EagerTensor& x, Lengths s, Lengths axes, Norm norm) {
  return n_axis(FftOpKind::Ifftn, x, std::move(s), std::move(axes), norm);
}
EagerTensor rfftn(const EagerTensor& x, Lengths s, Lengths axes, Norm norm) {
  return n_axis(FftOpKind::Rfftn, x, std::move(s), std::move(axes), norm);
}
EagerTensor irfftn(const EagerTensor& x, Lengths s, Lengths axes, Norm norm) {
  return n_axis(FftOpKind::Irfftn, x, std::move(s), std::move(axes), norm);
}

}  // namespace tenferro::fft
