// Hardware-independent (runs wherever CUDA is compiled in, device or not): the family module
// factories give a CUDA target its own CUDA module, never the CPU module; the admission tables
// list exactly what the CUDA arms implement, eig on CUDA is refused by the table before anything
// executes, and lstsq is admitted and reaches the CUDA executor (shown with a device-like test
// backend that claims to be CUDA).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include "ops/einsum/registration.hpp"
#include "ops/fft/registration.hpp"
#include "ops/linalg/linalg_op.hpp"
#include "ops/linalg/registration.hpp"
#include "support/registration_walk.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {
namespace {

const EagerExtensionTarget kCuda0{EngineId("tenferro.cuda.d0.v1"), BackendKind::Cuda};
const EagerExtensionTarget kCuda1{EngineId("tenferro.cuda.d1.v1"), BackendKind::Cuda};
const EagerExtensionTarget kCpu{EngineId("tenferro.cpu.v1"), BackendKind::Cpu};

TEST(CudaModuleFactories, EinsumGivesACudaTargetItsOwnModule) {
  const ModulePtr cuda0 = einsum_internal::einsum_module_for(kCuda0);
  const ModulePtr cpu = einsum_internal::einsum_module_for(kCpu);
  ASSERT_TRUE(cuda0 && cpu);
  EXPECT_NE(cuda0.get(), cpu.get()) << "a CUDA target received the CPU module";
  EXPECT_EQ(cuda0->id(), "tenferro.einsum.v1/tenferro.cuda.d0.v1");
  EXPECT_NE(cuda0->find(einsum_family::kFamily, kCuda0.engine_id), nullptr)
      << "the module must register (einsum, tenferro.cuda.d0.v1)";
  EXPECT_EQ(cuda0->find(einsum_family::kFamily, kCpu.engine_id), nullptr);
  EXPECT_EQ(cpu->find(einsum_family::kFamily, kCuda0.engine_id), nullptr);
  // One module per (backend kind, engine id): another device gets another module.
  const ModulePtr cuda1 = einsum_internal::einsum_module_for(kCuda1);
  EXPECT_NE(cuda1.get(), cuda0.get());
  EXPECT_NE(cuda1->find(einsum_family::kFamily, kCuda1.engine_id), nullptr);
  EXPECT_EQ(cuda1->find(einsum_family::kFamily, kCuda0.engine_id), nullptr);
  EXPECT_EQ(einsum_internal::einsum_module_for(kCuda0).get(), cuda0.get()) << "cached";
}

TEST(CudaModuleFactories, EinsumAdmitsEveryDtypeOnCuda) {
  for (DType d : kAllDTypes)
    EXPECT_TRUE(einsum_family::admission_table().admits("einsum", BackendKind::Cuda, d))
        << dtype_name(d);
}

TEST(CudaModuleFactories, LinalgAndFftGiveACudaTargetTheirCudaModules) {
  const ModulePtr linalg_cuda = linalg_internal::linalg_module_for(kCuda0);
  const ModulePtr linalg_cpu = linalg_internal::linalg_module_for(kCpu);
  EXPECT_NE(linalg_cuda.get(), linalg_cpu.get()) << "a CUDA target received the CPU module";
  EXPECT_NE(linalg_cuda->find(linalg_family::kFamily, kCuda0.engine_id), nullptr);
  EXPECT_EQ(linalg_cuda->find(linalg_family::kFamily, kCpu.engine_id), nullptr);
  EXPECT_NE(linalg_internal::linalg_module_for(kCuda1).get(), linalg_cuda.get());

  const ModulePtr fft_cuda = fft_internal::fft_module_for(kCuda0);
  EXPECT_EQ(fft_cuda->id(), "tenferro.fft.v1/tenferro.cuda.d0.v1");
  EXPECT_NE(fft_cuda->find(fft_family::kFamily, kCuda0.engine_id), nullptr);
  EXPECT_EQ(fft_cuda->find(fft_family::kFamily, kCpu.engine_id), nullptr);
  EXPECT_NE(fft_internal::fft_module_for(kCuda1).get(), fft_cuda.get());
}

TEST(CudaAdmission, TablesListExactlyWhatTheCudaArmsImplement) {
  const AdmissionTable& linalg = linalg_family::admission_table();
  for (const std::string& op : linalg.ops())
    for (DType d : kAllDTypes)
      EXPECT_EQ(linalg.admits(op, BackendKind::Cuda, d), op != "eig") << op;
  const AdmissionTable& fft = fft_family::admission_table();
  for (const std::string& op : fft.ops())
    for (DType d : kAllDTypes) {
      const bool real_only = op == "rfft" || op == "rfftn";
      EXPECT_EQ(fft.admits(op, BackendKind::Cuda, d), !real_only || !is_complex(d)) << op;
    }
}

// Asks the registration table the CUDA module executes from, not a copy of the admission
// table: each op admitted on CUDA resolves to a kernel there, and each CUDA kernel is admitted.
// (Against the executor as it was, whose switch ran qr and svd only, the nine other admitted
// ops had no kernel to resolve to.)
TEST(CudaAdmission, EveryAdmittedLinalgOpHasACudaKernel) {
  const AdmissionTable& table = linalg_family::admission_table();
  const auto& rows = linalg_internal::registration_table();
  for (std::size_t k = 0; k < linalg_internal::kLinalgKindCount; ++k) {
    const auto kind = static_cast<linalg_internal::LinalgKind>(k);
    const std::string op(linalg_internal::kind_name(kind));
    for (DType d : kAllDTypes) {
      EXPECT_EQ(table.admits(op, BackendKind::Cuda, d),
                rows.kernel(static_cast<std::uint32_t>(k), BackendKind::Cuda, d) != nullptr)
          << op << " " << dtype_name(d);
    }
  }
}

// The registration-table walk of tests/dispatch for the CUDA backend, here so a CUDA-only build
// runs it: every op admitted on CUDA resolves, through the CUDA module, to a CUDA kernel (which
// then finds no real device on the test backend), every other one is refused by the factory.
TEST(CudaAdmission, EveryAdmittedOpOfEveryTableResolvesToACudaKernel) {
  const auto rt = testing::make_test_device_runtime(BackendKind::Cuda, "tenferro.cuda.d0.v1");
  for (const std::string& failure : testing::walk_registration_tables(rt)) ADD_FAILURE() << failure;
}

TEST(CudaAdmission, EigOnCudaIsRefusedByTheTableBeforeExecution) {
  // A device-like backend that presents itself as CUDA device 0: the factory hands its target
  // the CUDA linalg module, whose executor must refuse eig from the admission table before it
  // touches the backend (which is not a real CudaBackend and would fail differently).
  auto rt = testing::make_test_device_runtime(BackendKind::Cuda, "tenferro.cuda.d0.v1");
  const EagerTensor a = rt->upload(Tensor::zeros(DType::F64, {3, 3}));
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  for (DType d : kAllDTypes)
    EXPECT_FALSE(linalg_family::admission_table().admits("eig", BackendKind::Cuda, d));
  try {
    (void)linalg::eig(a);
    ADD_FAILURE() << "eig ran on a CUDA runtime";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("eig"), std::string::npos) << e.what();
  }
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.linalg.v1@cuda"), 0u) << "nothing executed";
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << "no CPU fallback";
}

// lstsq has a CUDA kernel (the SVD-based solve) and is admitted for every dtype. On the
// device-like test backend it passes the admission check and reaches the CUDA executor, which
// then finds no real CudaBackend: a RuntimeState error, not the table's Unsupported refusal it
// got while CUDA had no rank-revealing lstsq, and no CPU kernel runs in its place.
TEST(CudaAdmission, LstsqIsAdmittedOnCudaAndReachesTheCudaExecutor) {
  EXPECT_NE(linalg_internal::registration_table().kernel(
                static_cast<std::uint32_t>(linalg_internal::LinalgKind::Lstsq), BackendKind::Cuda,
                DType::F64),
            nullptr);
  for (DType d : kAllDTypes)
    EXPECT_TRUE(linalg_family::admission_table().admits("lstsq", BackendKind::Cuda, d))
        << dtype_name(d);
  auto rt = testing::make_test_device_runtime(BackendKind::Cuda, "tenferro.cuda.d0.v1");
  const EagerTensor a = rt->upload(Tensor::zeros(DType::F64, {3, 3}));
  const EagerTensor b = rt->upload(Tensor::zeros(DType::F64, {3}));
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  try {
    (void)linalg::lstsq(a, b);
    ADD_FAILURE() << "lstsq ran on a backend that is not a CudaBackend";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::RuntimeState) << e.what();
    EXPECT_EQ(std::string(e.what()).find("is not implemented"), std::string::npos) << e.what();
  }
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << "no CPU fallback";
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
