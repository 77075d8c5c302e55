// The CUDA linalg executor: one executor for the family that validates shapes, checks the
// admission table (derived from the kernel table below: every op but eig), then runs the op's
// cuSOLVER/cuBLAS kernel on the runtime's stream. Outputs are device values of the runtime; nothing
// is copied to the host.
#include <array>
#include <memory>

#include "ops/linalg/cuda/cuda_linalg_call.hpp"
#include "ops/linalg/module_factory.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cuda {
namespace {

using linalg_internal::kLinalgKindCount;
using linalg_internal::LinalgKind;
using linalg_internal::LinalgOp;

using Kernel = std::vector<EagerTensor> (*)(const CudaCall&, Inputs);

// The CUDA kernel of each op (nullptr: none). The only list of what linalg runs on CUDA: the
// admission table's CUDA rows are derived from it (cuda_linalg_implements).
constexpr std::array<Kernel, kLinalgKindCount> kKernels = [] {
  std::array<Kernel, kLinalgKindCount> k{};
  k[static_cast<std::size_t>(LinalgKind::Qr)] = &run_qr;
  k[static_cast<std::size_t>(LinalgKind::Svd)] = &run_svd;
  k[static_cast<std::size_t>(LinalgKind::Eigh)] = &run_eigh;
  k[static_cast<std::size_t>(LinalgKind::Lu)] = &run_lu;
  k[static_cast<std::size_t>(LinalgKind::Cholesky)] = &run_cholesky;
  k[static_cast<std::size_t>(LinalgKind::Solve)] = &run_solve;
  k[static_cast<std::size_t>(LinalgKind::TriangularSolve)] = &run_triangular_solve;
  k[static_cast<std::size_t>(LinalgKind::Lstsq)] = &run_lstsq;  // SVD-based, as gelsd
  k[static_cast<std::size_t>(LinalgKind::Inv)] = &run_inv;
  k[static_cast<std::size_t>(LinalgKind::Det)] = &run_det;
  k[static_cast<std::size_t>(LinalgKind::Slogdet)] = &run_slogdet;
  // Eig: cuSOLVER has no dense non-symmetric eigensolver (see admission.cpp).
  return k;
}();

Kernel kernel_of(LinalgKind kind) noexcept {
  const auto index = static_cast<std::size_t>(kind);
  return index < kKernels.size() ? kKernels[index] : nullptr;
}

}  // namespace

std::vector<EagerTensor> cuda_linalg_execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                             std::span<const EagerTensor> inputs) {
  const auto* linalg_op = dynamic_cast<const LinalgOp*>(&op);
  if (linalg_op == nullptr) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op.name()),
                "the linalg CUDA executor was handed an op of another family");
  }
  std::vector<TensorMeta> metas;
  metas.reserve(inputs.size());
  for (const EagerTensor& input : inputs) metas.push_back(input.meta());
  linalg_internal::validate_and_infer(*linalg_op, metas);
  // Refuses (Unsupported, before anything runs) every op without a kernel: the CUDA rows of
  // the table are exactly the ops of kKernels.
  linalg_family::admission_table().check(linalg_internal::kind_name(linalg_op->kind()),
                                         BackendKind::Cuda, inputs[0].dtype());
  const Kernel kernel = kernel_of(linalg_op->kind());
  auto& backend = ctx.backend_as<CudaBackend>();
  backend.make_current();
  ctx.record_kernel_launch();
  return kernel(CudaCall{ctx, *linalg_op, backend}, inputs);
}

}  // namespace tenferro::linalg_cuda

namespace tenferro::linalg_internal {

bool cuda_linalg_implements(LinalgKind kind) noexcept {
  return linalg_cuda::kernel_of(kind) != nullptr;
}

}  // namespace tenferro::linalg_internal
