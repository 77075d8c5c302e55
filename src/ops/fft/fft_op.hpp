// FftOp: the ExtensionOp of the FFT family (one input, one output).
#pragma once

#include "ops/fft/fft_spec.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::fft_internal {

class FftOp final : public ExtensionOp {
 public:
  explicit FftOp(FftRequest request) : request_(std::move(request)) {}
  std::string_view family() const noexcept override;
  std::string_view name() const noexcept override { return op_kind_name(request_.kind); }
  std::size_t arity() const noexcept override { return 1; }
  std::uint64_t payload_hash() const noexcept override { return request_.hash(); }
  bool payload_equals(const ExtensionOp& other) const noexcept override;
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const override;

  const FftRequest& request() const noexcept { return request_; }

 private:
  FftRequest request_;
};

}  // namespace tenferro::fft_internal
