// Hardware-independent (runs wherever CUDA is compiled in, device or not): the family module
// factories give a CUDA target its own CUDA module, never the CPU module, and the admission
// tables list what the CUDA arms implement.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include "ops/einsum/einsum_module.hpp"
#include "tenferro/einsum.hpp"

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
  EXPECT_NE(cuda0->id(), einsum_internal::kCpuModuleId);
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

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
