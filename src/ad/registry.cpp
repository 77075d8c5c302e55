// The one list of differentiable ops (PyTorch's derivatives.yaml in spirit) and the admission
// table derived from it: an op is differentiable on (backend, dtype) where its forward op is
// admitted, because its rules call only eager ops of the same families plus einsum and prims
// (checked on WebGPU by AdDeviceTest). `tenferro info` prints the table.
#include <string>

#include "ops/fft/fft_spec.hpp"
#include "ops/linalg/linalg_op.hpp"
#include "ops/prims/prim_kind.hpp"
#include "tenferro/ad.hpp"

namespace tenferro::ad {
namespace {

const AdmissionTable* family_table(std::string_view family) {
  if (family == einsum_family::kFamily) return &einsum_family::admission_table();
  if (family == linalg_family::kFamily) return &linalg_family::admission_table();
  if (family == fft_family::kFamily) return &fft_family::admission_table();
  return &prims_family::admission_table();
}

// The kernel row of the forward op a view rides on: views run no kernel, so they are
// differentiable wherever the family's element-wise add runs (their rules use add, concatenate,
// stack, einsum and creation ops).
std::string_view forward_row(const DifferentiableOp& op) {
  return op.kernel_row.empty() ? std::string_view(op.op) : std::string_view(op.kernel_row);
}

}  // namespace

const std::vector<DifferentiableOp>& differentiable_ops() {
  static const std::vector<DifferentiableOp> ops = [] {
    std::vector<DifferentiableOp> v;
    const auto add = [&v](std::string_view family, std::vector<std::string> names,
                          std::string kernel_row = "") {
      for (auto& n : names) v.push_back({std::string(family), std::move(n), kernel_row});
    };
    add(einsum_family::kFamily, {"einsum"});
    // prims: every op of the op list (prim_kind_enum.hpp) but the creation ops, which have no
    // input to differentiate. Comparisons are constants (zero gradient); where sends the
    // cotangent through its condition. (Each math op's ad:: function is bound by a loop over the
    // same list in python/src/ad_ops.cpp, so an op without one does not compile.)
    std::vector<std::string> prims;
    for (const prims_internal::PrimInfo& p : prims_internal::kPrimInfo) {
      if (p.shape != prims_internal::KernelShape::Generate) prims.emplace_back(p.name);
    }
    add(prims_family::kFamily, std::move(prims));
    add(prims_family::kFamily,
        {"permute", "transpose", "reshape", "slice", "diagonal", "broadcast_to", "contiguous",
         "concatenate", "stack"},
        "add");
    // linalg and FFT: every op of their lists (linalg_op.hpp, fft_spec.hpp).
    std::vector<std::string> linalg, fft;
    for (std::size_t k = 0; k < linalg_internal::kLinalgKindCount; ++k)
      linalg.emplace_back(linalg_internal::kind_name(static_cast<linalg_internal::LinalgKind>(k)));
    for (std::size_t k = 0; k < fft_internal::kFftOpKindCount; ++k)
      fft.emplace_back(fft_internal::op_kind_name(static_cast<fft_internal::FftOpKind>(k)));
    add(linalg_family::kFamily, std::move(linalg));
    add(fft_family::kFamily, std::move(fft));
    return v;
  }();
  return ops;
}

const AdmissionTable& admission_table() {
  static const AdmissionTable table = [] {
    std::vector<std::string> names;
    for (const auto& op : differentiable_ops()) {
      // "tenferro.prims.v1" -> "prims/add".
      const std::string& f = op.family;
      const auto first = f.find('.') + 1, last = f.rfind('.');
      names.push_back(f.substr(first, last - first) + "/" + op.op);
    }
    AdmissionTable t("tenferro.ad.v1 (differentiable: VJP and JVP)", names);
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto& op = differentiable_ops()[i];
      const AdmissionTable* forward = family_table(op.family);
      for (BackendKind b : kAllBackendKinds) {
        for (DType d : kAllDTypes) {
          if (forward->admits(forward_row(op), b, d)) t.admit(names[i], b, {d});
        }
      }
    }
    return t;
  }();
  return table;
}

}  // namespace tenferro::ad
