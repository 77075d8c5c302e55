// Which (op, backend, dtype) the linalg family implements. CPU: every op on every dtype.
// WebGPU: none (no f64 in WGSL and no LAPACK-class solvers). CUDA (when compiled in): the ops
// the CUDA executor's kernel table has a kernel for.
#include <string>
#include <vector>

#include "ops/linalg/linalg_op.hpp"
#include "ops/linalg/module_factory.hpp"
#include "tenferro/config.hpp"
#include "tenferro/linalg.hpp"

namespace tenferro::linalg_family {

const AdmissionTable& admission_table() {
  static const AdmissionTable table = [] {
    using linalg_internal::LinalgKind;
    std::vector<std::string> ops;
    for (int k = 0; k <= static_cast<int>(LinalgKind::Slogdet); ++k) {
      ops.emplace_back(linalg_internal::kind_name(static_cast<LinalgKind>(k)));
    }
    AdmissionTable t(std::string(kFamily), ops);
    for (const std::string& op : ops) {
      t.admit(op, BackendKind::Cpu, {DType::F32, DType::F64, DType::C32, DType::C64});
    }
#if TENFERRO_HAS_CUDA
    // cuSOLVER: exactly the ops the CUDA executor has a kernel for (its kernel table answers).
    // eig has none: cuSOLVER has no dense non-symmetric eigensolver in the routines we use.
    // lstsq is SVD-based on the device (rank-revealing, as the CPU's gelsd); a QR-based one,
    // as gels, would return garbage for a numerically rank-deficient A.
    for (int k = 0; k <= static_cast<int>(LinalgKind::Slogdet); ++k) {
      const auto kind = static_cast<LinalgKind>(k);
      if (linalg_internal::cuda_linalg_implements(kind)) {
        t.admit(linalg_internal::kind_name(kind), BackendKind::Cuda,
                {DType::F32, DType::F64, DType::C32, DType::C64});
      }
    }
    t.note(BackendKind::Cuda,
           "cuSOLVER; eig: cuSOLVER has no dense non-symmetric eigensolver; lstsq from the "
           "device SVD (rank-revealing, as the CPU's gelsd)");
#else
    t.note(BackendKind::Cuda, "not compiled in");
#endif
    t.note(BackendKind::WebGpu, "linalg has no WebGPU implementation");
    return t;
  }();
  return table;
}

}  // namespace tenferro::linalg_family
