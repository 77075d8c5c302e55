// PrimsOp: the ExtensionOp of the prims family. The public functions resolve everything
// (broadcast shape, promoted dtype, reduced axes, output shape) before dispatch; the op carries
// the result so that the executor only builds kernel calls.
#pragma once

#include <array>
#include <complex>
#include <concepts>
#include <cstdint>
#include <vector>

#include "ops/prims/kernel_calls.hpp"
#include "ops/prims/prim_kind.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_internal {

// The metas of a prim's inputs, in order. Up to three live inside the payload (every prim but
// a concatenation of more tensors); a std::vector here was a malloc/free pair on every call.
class InputMetas {
 public:
  static constexpr std::size_t kInline = 3;
  // Each input's meta, its shape copied once (into the slot, not through a TensorMeta).
  void assign(std::span<const EagerTensor> inputs) {
    size_ = 0;
    more_.clear();
    for (const EagerTensor& t : inputs) {
      TensorMeta& slot = size_ < kInline ? inline_[size_] : more_.emplace_back();
      slot.dtype = t.dtype();
      slot.shape = t.shape();
      ++size_;
    }
  }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const TensorMeta& operator[](std::size_t i) const noexcept {
    return i < kInline ? inline_[i] : more_[i - kInline];
  }
  friend bool operator==(const InputMetas& a, const InputMetas& b) noexcept {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (!(a[i] == b[i])) return false;
    }
    return true;
  }

 private:
  std::array<TensorMeta, kInline> inline_{};
  std::vector<TensorMeta> more_;
  std::size_t size_ = 0;
};

struct PrimsPayload {
  PrimKind kind{};
  // What the public function resolved: the metas of the eager inputs (in order) and of the
  // single output. Elementwise inputs broadcast to out.shape; Cast with several inputs
  // concatenates them along `axis`; Reduce outputs keep reduced axes as size 1.
  InputMetas inputs;
  TensorMeta out;
  std::int64_t axis = 0;  // Cast of several inputs: the joining axis; Scan: the scanned axis
  std::array<std::uint8_t, 64> reduced{};                // Reduce: by input axis
  std::complex<double> alpha{1.0, 0.0}, beta{0.0, 0.0};  // Affine, Axpby
  std::complex<double> value{0.0, 0.0};                  // Fill
  std::int64_t offset = 0;                               // Eye
  double start = 0.0, step = 1.0, a = 0.0, b = 1.0;      // Arange; random low/high, mean/stddev
  std::uint64_t seed = 0;
};

class PrimsOp final : public ExtensionOp {
 public:
  explicit PrimsOp(PrimsPayload payload);
  // The payload built in place by fill(payload): the element-wise ops' warm path, where moving a
  // finished payload (its inline metas) into the op was a tenth of a small add's glue.
  template <class Fill>
  requires std::invocable<Fill&, PrimsPayload&>
  explicit PrimsOp(Fill&& fill) { fill(payload_); }
  std::string_view family() const noexcept override;
  std::string_view name() const noexcept override { return prim_name(payload_.kind); }
  std::size_t arity() const noexcept override { return payload_.inputs.size(); }
  std::uint64_t payload_hash() const noexcept override;
  bool payload_equals(const ExtensionOp& other) const noexcept override;
  // The output meta, after checking that `inputs` are the metas the op was resolved for.
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const override;

  const PrimsPayload& payload() const noexcept { return payload_; }
  PrimKind kind() const noexcept { return payload_.kind; }
  // The dtype admission is keyed by: the kernel input's (Generate: the output's).
  DType admission_dtype() const noexcept;

 private:
  PrimsPayload payload_;
};

}  // namespace tenferro::prims_internal
