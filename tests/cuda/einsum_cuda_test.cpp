// Einsum on a CUDA runtime: results stay in device memory, match the CPU runtime and the naive
// reference for F32/F64/C32/C64, run no CPU kernel and make no transfer inside the call, go
// through the extension dispatch (N-ary) or the direct binary path. Skipped without a device,
// but for the strided index's coalescing of views of many axes (host code).
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_CUDA

#include <string>
#include <vector>

#include "backends/cuda/strided_layout.hpp"
#include "cuda_fixture.hpp"
#include "support/device_result_checks.hpp"
#include "support/einsum_reference.hpp"
#include "support/long_sums.hpp"
#include "support/sliced_device_cases.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {
namespace {

using cuda_test::random_tensor;

constexpr const char* kEinsumOnCuda = "tenferro.einsum.v1@cuda";

class EinsumCudaTest : public cuda_test::CudaTest {
 protected:
  void SetUp() override {
    cuda_test::CudaTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    cpu_ = EagerRuntime::cpu();
  }

  // Runs `subscripts` on the CUDA runtime and on the CPU runtime with the same host data and
  // checks residency, the absence of transfers and CPU kernels during the call, and agreement
  // with the CPU runtime and the naive reference within the dtype's reference tolerance.
  void check_against_cpu(const std::string& subscripts, const std::vector<Shape>& shapes,
                         DType dtype, bool strided_inputs = false, bool direct = true,
                         EinsumOptions options = {}) {
    SCOPED_TRACE(subscripts + " " + std::string(dtype_name(dtype)) +
                 (strided_inputs ? " (strided)" : "") + (direct ? "" : " (no direct path)"));
    std::vector<Tensor> hosts;
    std::vector<EagerTensor> on_gpu, on_cpu;
    unsigned seed = 11;
    for (const Shape& shape : shapes) {
      hosts.push_back(random_tensor(dtype, shape, seed++));
      on_cpu.push_back(cpu_->upload(hosts.back()));
      on_gpu.push_back(strided_inputs ? testing::upload_strided_view(runtime_, hosts.back())
                                      : runtime_->upload(hosts.back()));
    }
    options.allow_direct_binary = direct;
    const RuntimeStats before = runtime_->stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const EagerTensor result = einsum(subscripts, on_gpu, options);
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << "a CPU kernel ran for a CUDA einsum";
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(after.uploads, before.uploads) << "no transfer behind the caller's back";
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_EQ(after.kernel_launches_for(kEinsumOnCuda) - before.kernel_launches_for(kEinsumOnCuda),
              1u);
    EXPECT_EQ(result.runtime(), runtime_);
    EXPECT_EQ(result.placement(), runtime_->backend().placement());
    EXPECT_THROW((void)result.host_view(), Error);

    const Tensor got = result.download();
    const Tensor want = einsum(subscripts, on_cpu).download();
    const testing::ReferenceResult reference = testing::reference_einsum(subscripts, hosts);
    ASSERT_EQ(got.shape(), want.shape());
    const testing::Agreement vs_reference = testing::compare_with_reference(got, reference);
    EXPECT_TRUE(vs_reference.ok) << vs_reference.detail;
    const testing::Agreement vs_cpu =
        testing::compare_with_reference(got, testing::ReferenceResult{want, reference.magnitude});
    EXPECT_TRUE(vs_cpu.ok) << vs_cpu.detail;
  }

  std::shared_ptr<EagerRuntime> cpu_;
};

TEST_F(EinsumCudaTest, ThreeOperandChainStaysOnTheDeviceForEveryDtype) {
  for (DType dtype : kAllDTypes) {
    SCOPED_TRACE(std::string(dtype_name(dtype)));
    const Tensor a = random_tensor(dtype, {5, 6}, 1), b = random_tensor(dtype, {6, 7}, 2),
                 c = random_tensor(dtype, {7, 4}, 3);
    const EagerTensor ga = runtime_->upload(a), gb = runtime_->upload(b), gc = runtime_->upload(c);
    const RuntimeStats before = runtime_->stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const EagerTensor result = einsum("ij,jk,kl->il", {ga, gb, gc});
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(after.uploads, before.uploads);
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_EQ(after.module_installs, 1u) << "went through the extension dispatch, installed once";
    testing::expect_device_einsum_result(result, runtime_, cpu_, "ij,jk,kl->il", {a, b, c});
  }
}

TEST_F(EinsumCudaTest, MatchesTheCpuRuntimeAcrossExpressionKinds) {
  struct Case {
    std::string subscripts;
    std::vector<Shape> shapes;
  };
  const std::vector<Case> cases{
      {"ij,jk->ik", {{7, 5}, {5, 9}}},           // plain GEMM (direct path when allowed)
      {"ij,jk->ki", {{7, 5}, {5, 9}}},           // transposed output
      {"bij,bjk->bik", {{3, 4, 5}, {3, 5, 6}}},  // batch leading: permute-copies first
      {"ijb,jkb->ikb", {{4, 5, 3}, {5, 6, 3}}},  // batch trailing: strided-batched GEMM
      {"ij,ij->ij", {{6, 7}, {6, 7}}},           // Hadamard
      {"i,j->ij", {{5}, {8}}},                   // outer product
      {"ii->i", {{6, 6}}},                       // diagonal
      {"ii->", {{6, 6}}},                        // trace
      {"ijk->kji", {{3, 4, 5}}},                 // permutation
      {"ijk->j", {{20, 4, 30}}},                 // partial sum over non-adjacent axes
      {"ij->", {{300, 200}}},                    // long full sum (block reduction)
      {"i->ii", {{5}}},                          // repeated output label (zero fill)
      {"ij,jk,kl,lm->im", {{3, 4}, {4, 5}, {5, 6}, {6, 2}}},
      {"abc,cd,bde->ae", {{3, 4, 5}, {5, 6}, {4, 6, 2}}},
      {"ij,j->i", {{8, 0}, {0}}},  // empty contraction: zeros
  };
  for (const Case& c : cases)
    for (DType dtype : kAllDTypes) {
      check_against_cpu(c.subscripts, c.shapes, dtype);
      check_against_cpu(c.subscripts, c.shapes, dtype, /*strided_inputs=*/true);
    }
}

// Sums over 2^18 to 2^22 terms keep their precision: the sum kernels accumulate float in
// double (tests/support/long_sums.hpp has the cases and the tolerance).
TEST_F(EinsumCudaTest, LongSumsKeepTheirPrecision) {
  testing::check_long_sums(runtime_, {DType::F32, DType::C32, DType::F64, DType::C64});
}

// Sliced plans run on the device, their slices summed there (launch_accumulate), matching the
// CPU runtime's sliced run and the naive reference (the WebGPU tests run the same cases).
TEST_F(EinsumCudaTest, SlicedPlansRunOnTheDevice) {
  for (const testing::SlicedCase& c : testing::sliced_device_cases()) {
    ASSERT_GT(einsum_path(c.subscripts, c.shapes, c.options).num_slices, 1) << c.subscripts;
    for (DType dtype : kAllDTypes)
      check_against_cpu(c.subscripts, c.shapes, dtype, false, false, c.options);
    check_against_cpu(c.subscripts, c.shapes, DType::F64, true, false, c.options);
  }
}

TEST_F(EinsumCudaTest, BinaryCallsGiveTheSameResultWithAndWithoutTheDirectPath) {
  for (DType dtype : kAllDTypes) {
    check_against_cpu("ij,jk->ik", {{33, 17}, {17, 21}}, dtype, false, /*direct=*/true);
    check_against_cpu("ij,jk->ik", {{33, 17}, {17, 21}}, dtype, false, /*direct=*/false);
    check_against_cpu("ji,kj->ik", {{17, 33}, {21, 17}}, dtype, false, /*direct=*/true);
  }
}

// The compact copies of einsum, fft and linalg on CUDA (strided_kernels.hpp) walk views of up
// to 64 non-mergeable axes, as the prims kernels do: 24 refused a 25-qubit state permuted,
// which the CPU takes. Host code: runs without a device.
TEST(EinsumCudaLayout, ViewsOfManyAxesCoalesceIntoTheStridedIndex) {
  for (std::size_t rank : {std::size_t{25}, std::size_t{62}}) {
    SCOPED_TRACE(rank);
    const std::vector<std::int64_t> shape(rank, 2);
    std::vector<std::int64_t> dst(rank), src(rank);  // src read through the reversal
    for (std::size_t a = 0; a < rank; ++a) {
      dst[a] = std::int64_t{1} << a;
      src[a] = std::int64_t{1} << (rank - 1 - a);
    }
    const auto ix = cuda_layout::coalesce<2>(shape, {dst, src});
    EXPECT_EQ(ix.index.rank, static_cast<int>(rank)) << "no two axes merge";
    EXPECT_EQ(ix.count, std::int64_t{1} << rank);
    for (std::size_t a = 0; a < rank; ++a) {
      EXPECT_EQ(ix.index.extent[a], 2);
      EXPECT_EQ(ix.index.stride[0][a], dst[a]);
      EXPECT_EQ(ix.index.stride[1][a], src[a]);
    }
  }
  static_assert(cuda_kernels::kMaxRank >= 64);
}

TEST_F(EinsumCudaTest, PermutesAViewOfTwentyFiveAxes) {
  // 2^25 float32 elements as 25 axes of extent 2, reversed: no two axes of the copy merge.
  const std::string subscripts = "abcdefghijklmnopqrstuvwxy->yxwvutsrqponmlkjihgfedcba";
  const Tensor host = random_tensor(DType::F32, Shape(25, 2), 5);
  const EagerTensor result = einsum(subscripts, {runtime_->upload(host)});
  EXPECT_EQ(result.runtime(), runtime_);
  const Tensor want = einsum(subscripts, {cpu_->upload(host)}).download();
  EXPECT_EQ(result.download().contiguous().to_vector<float>(),
            want.contiguous().to_vector<float>());
}

TEST_F(EinsumCudaTest, RepeatedCallsInstallOnceAndReuseThePlan) {
  const Tensor a = random_tensor(DType::F32, {4, 5}, 1), b = random_tensor(DType::F32, {5, 6}, 2),
               c = random_tensor(DType::F32, {6, 3}, 3);
  const std::vector<EagerTensor> ops{runtime_->upload(a), runtime_->upload(b), runtime_->upload(c)};
  (void)einsum("ij,jk,kl->il", ops);
  const RuntimeStats first = runtime_->stats();
  for (int i = 0; i < 5; ++i) (void)einsum("ij,jk,kl->il", ops);
  const RuntimeStats later = runtime_->stats();
  EXPECT_EQ(later.module_installs, first.module_installs);
  EXPECT_EQ(later.epoch, first.epoch);
  EXPECT_GE(later.ensure_fast_path_hits - first.ensure_fast_path_hits, 5u);
  EXPECT_GE(later.cache_hits - first.cache_hits, 5u) << "the plan comes from the runtime's cache";
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_CUDA
