// PrimsOp: the ExtensionOp of the prims family. The public functions resolve everything
// (broadcast shape, promoted dtype, reduced axes, output shape) before dispatch; the op carries
// the result so that the executor only builds kernel calls.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <vector>

#include "ops/prims/kernel_calls.hpp"
#include "ops/prims/prim_kind.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_internal {

struct PrimsPayload {
  PrimKind kind{};
  // What the public function resolved: the metas of the eager inputs (in order) and of the
  // single output. Elementwise inputs broadcast to out.shape; Cast with several inputs
  // concatenates them along `axis`; Reduce outputs keep reduced axes as size 1.
  std::vector<TensorMeta> inputs;
  TensorMeta out;
  std::int64_t axis = 0;                                 // Cast of several inputs: the joining axis
  std::array<std::uint8_t, 64> reduced{};                // Reduce: by input axis
  std::complex<double> alpha{1.0, 0.0}, beta{0.0, 0.0};  // Affine, Axpby
  std::complex<double> value{0.0, 0.0};                  // Fill
  std::int64_t offset = 0;                               // Eye
  double start = 0.0, step = 1.0, a = 0.0, b = 1.0;      // Arange; random low/high, mean/stddev
  std::uint64_t seed = 0;
};

// The metas of `inputs` for PrimsPayload::inputs, each shape copied once (a braced list of
// metas copies every shape twice: into the list, then into the vector).
std::vector<TensorMeta> metas_of(std::span<const EagerTensor> inputs);

class PrimsOp final : public ExtensionOp {
 public:
  explicit PrimsOp(PrimsPayload payload);
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
