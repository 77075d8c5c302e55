// FftOp: the ExtensionOp of the FFT family (one input, one output).
#pragma once

#include <memory>

#include "ops/fft/fft_spec.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::fft_internal {

// A request resolved for one input dtype and shape.
struct ResolvedFft {
  DType dtype;
  Shape shape;
  FftSpec spec;
};

class FftOp final : public ExtensionOp {
 public:
  explicit FftOp(FftRequest request) : request_(std::move(request)) {}
  // `resolved` is `request` already resolved for an input of `dtype`/`shape` (the public API
  // validates before dispatch); the executor reuses it instead of resolving again.
  FftOp(FftRequest request, DType dtype, Shape shape, FftSpec resolved)
      : FftOp(std::move(request), std::make_shared<const ResolvedFft>(
                                      ResolvedFft{dtype, std::move(shape), std::move(resolved)})) {}
  // The same, sharing a resolution (the runtime's spec cache hands them out).
  FftOp(FftRequest request, std::shared_ptr<const ResolvedFft> resolved)
      : request_(std::move(request)), resolved_(std::move(resolved)) {}
  std::string_view family() const noexcept override;
  std::string_view name() const noexcept override { return op_kind_name(request_.kind); }
  std::size_t arity() const noexcept override { return 1; }
  std::uint64_t payload_hash() const noexcept override { return request_.hash(); }
  bool payload_equals(const ExtensionOp& other) const noexcept override;
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const override;

  const FftRequest& request() const noexcept { return request_; }
  // The spec for an input of `dtype`/`shape`: the one resolved up front when it matches,
  // else a fresh resolution stored in `scratch`.
  const FftSpec& spec_for(DType dtype, const Shape& shape, FftSpec& scratch) const;

 private:
  FftRequest request_;
  std::shared_ptr<const ResolvedFft> resolved_;  // null: resolved by the executor
};

}  // namespace tenferro::fft_internal
