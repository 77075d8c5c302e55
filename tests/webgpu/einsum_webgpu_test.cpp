// Einsum on a WebGPU runtime: results stay in device memory, match the CPU runtime and the
// naive reference, run no CPU kernel, install the module once and reuse cached pipelines;
// F64/C64 and mixed-runtime calls are typed refusals before anything runs.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_WEBGPU

#include <array>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "support/device_result_checks.hpp"
#include "support/einsum_reference.hpp"
#include "support/random_einsum.hpp"
#include "support/sliced_device_cases.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/stats.hpp"
#include "webgpu_fixture.hpp"

namespace tenferro {
namespace {

using webgpu_test::random_tensor;

constexpr const char* kEinsumOnWebGpu = "tenferro.einsum.v1@webgpu";

class EinsumWebGpuTest : public webgpu_test::WebGpuTest {
 protected:
  void SetUp() override {
    webgpu_test::WebGpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    cpu_ = EagerRuntime::cpu();
  }
  WebGpuBackend& backend() { return dynamic_cast<WebGpuBackend&>(runtime_->backend()); }

  // Runs `subscripts` on the WebGPU runtime and on the CPU runtime with the same host data,
  // checks where the result lives, that no CPU kernel ran during the WebGPU call, and that
  // both agree with each other and with the naive reference (1e-4 relative for F32/C32).
  void check_against_cpu(const std::string& subscripts, const std::vector<Shape>& shapes,
                         DType dtype, bool permuted_inputs = false,
                         const EinsumOptions& options = {}) {
    SCOPED_TRACE(subscripts + " " + std::string(dtype_name(dtype)) +
                 (permuted_inputs ? " (strided)" : ""));
    std::vector<Tensor> hosts;
    std::vector<EagerTensor> on_gpu, on_cpu;
    unsigned seed = 17;
    for (const Shape& shape : shapes) {
      hosts.push_back(random_tensor(dtype, shape, seed++));
      on_cpu.push_back(cpu_->upload(hosts.back()));
      if (permuted_inputs && shape.size() >= 2) {
        on_gpu.push_back(testing::upload_strided_view(runtime_, hosts.back()));
        ASSERT_FALSE(on_gpu.back().layout().is_compact());
      } else {
        on_gpu.push_back(runtime_->upload(hosts.back()));
      }
    }
    const RuntimeStats before = runtime_->stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const EagerTensor result = einsum(subscripts, on_gpu, options);
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << "a CPU kernel ran for a WebGPU einsum";
    EXPECT_EQ(result.runtime(), runtime_);
    EXPECT_EQ(result.placement(), runtime_->backend().placement());
    EXPECT_THROW((void)result.host_view(), Error);
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(after.uploads, before.uploads);  // no transfer behind the caller's back
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_EQ(
        after.kernel_launches_for(kEinsumOnWebGpu) - before.kernel_launches_for(kEinsumOnWebGpu),
        1u);

    const Tensor got = result.download();
    const Tensor want = einsum(subscripts, on_cpu, options).download();
    const testing::ReferenceResult reference = testing::reference_einsum(subscripts, hosts);
    ASSERT_EQ(got.shape(), want.shape());
    const testing::Agreement vs_reference = testing::compare_with_reference(got, reference);
    EXPECT_TRUE(vs_reference.ok) << vs_reference.detail;
    // Against the CPU runtime: |gpu - cpu| <= 1e-4 (sum of |products| + 1) per element.
    const testing::ReferenceResult cpu_as_reference{want, reference.magnitude};
    const testing::Agreement vs_cpu = testing::compare_with_reference(got, cpu_as_reference);
    EXPECT_TRUE(vs_cpu.ok) << vs_cpu.detail;
    EXPECT_LE(vs_cpu.worst, 1e-4);
  }

  std::shared_ptr<EagerRuntime> cpu_;
};

TEST_F(EinsumWebGpuTest, ThreeOperandChainStaysOnTheDevice) {
  const Tensor a = random_tensor(DType::F32, {5, 6}, 1), b = random_tensor(DType::F32, {6, 7}, 2),
               c = random_tensor(DType::F32, {7, 4}, 3);
  const EagerTensor ga = runtime_->upload(a), gb = runtime_->upload(b), gc = runtime_->upload(c);
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  const EagerTensor result = einsum("ij,jk,kl->il", {ga, gb, gc});
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
  EXPECT_EQ(runtime_->stats().module_installs, 1u);  // went through the extension dispatch
  testing::expect_device_einsum_result(result, runtime_, cpu_, "ij,jk,kl->il", {a, b, c});
}

TEST_F(EinsumWebGpuTest, MatchesTheCpuRuntimeAcrossExpressionKinds) {
  struct Case {
    std::string subscripts;
    std::vector<Shape> shapes;
  };
  const std::vector<Case> cases = {
      {"ij,jk,kl->il", {{5, 6}, {6, 7}, {7, 4}}},                   // chain of three
      {"bij,bjk->bik", {{3, 4, 5}, {3, 5, 6}}},                     // batched
      {"ijb,jkb,klb->ilb", {{4, 3, 2}, {3, 5, 2}, {5, 2, 2}}},      // batched chain
      {"ii->", {{6, 6}}},                                           // trace
      {"iij,jk->ik", {{4, 4, 3}, {3, 5}}},                          // partial trace then contract
      {"ii->i", {{5, 5}}},                                          // diagonal
      {"iji,jk->ik", {{3, 4, 3}, {4, 2}}},                          // diagonal across operands
      {"ijk->kji", {{2, 3, 4}}},                                    // permutation
      {"ijk,kl->lji", {{2, 3, 4}, {4, 5}}},                         // permuted output
      {"...ij,...jk->...ik", {{2, 1, 3, 4}, {5, 4, 2}}},            // ellipsis broadcast
      {"ij,j->ij", {{4, 5}, {5}}},                                  // broadcast product
      {"i,j,k->ijk", {{3}, {4}, {2}}},                              // outer products
      {"ij,ij,ij->ij", {{3, 4}, {3, 4}, {3, 4}}},                   // Hadamard
      {"ijkl->jl", {{2, 3, 4, 5}}},                                 // sums
      {"ab,bc,cd,de->ae", {{3, 40}, {40, 33}, {33, 17}, {17, 2}}},  // tiles not multiples of 16
      {"ij,jk->ik", {{9, 12}, {12, 7}}},                            // direct binary path
      {"ij,kj->ik", {{9, 12}, {7, 12}}},                            // direct, transposed operand
      {"ai,bi,ci->abc", {{2, 4}, {3, 4}, {2, 4}}},                  // hyperedge summed
      {"ia,ib,ic,ab->ic", {{4, 2}, {4, 3}, {4, 2}, {2, 3}}},        // hyperedge kept
      {"xab,xbc,xcd,xda->x", {{3, 2, 3}, {3, 3, 2}, {3, 2, 4}, {3, 4, 2}}},  // global batch
      {"ij,ij,jk,kl->il", {{2, 3}, {2, 3}, {3, 4}, {4, 2}}},                 // Hadamard in a chain
      {"iij,jk,kll->ik", {{3, 3, 2}, {2, 4}, {4, 2, 2}}},                    // traces in a chain
      {"abcdefg,d->abcefg", {{8, 8, 8, 3, 2, 2, 2}, {3}}},  // batched over outer labels
  };
  for (DType dtype : {DType::F32, DType::C32}) {
    for (const Case& c : cases) {
      check_against_cpu(c.subscripts, c.shapes, dtype);
      check_against_cpu(c.subscripts, c.shapes, dtype, /*permuted_inputs=*/true);
    }
  }
}

// Intermediates laid out for the next step (tests/einsum/exec_test.cpp has the CPU twin): labels
// gathered at a group's end, and an intermediate written transposed, on the device's kernels.
TEST_F(EinsumWebGpuTest, IntermediatesLaidOutForTheNextStep) {
  EinsumOptions options;
  options.strategy = PathStrategy::Explicit;
  options.path = {{0, 1}, {0, 1}};
  for (DType dtype : {DType::F32, DType::C32}) {
    check_against_cpu("bac,cde,bd->ae", {{8, 32, 4}, {4, 8, 32}, {8, 8}}, dtype, false, options);
    check_against_cpu("cba,ced,bd->ae", {{4, 8, 32}, {4, 32, 8}, {8, 8}}, dtype, false, options);
    check_against_cpu("cba,ced,bd->ae", {{4, 8, 32}, {4, 32, 8}, {8, 8}}, dtype, true, options);
  }
}

TEST_F(EinsumWebGpuTest, DirectBinaryPathRunsOnTheWebGpuKernels) {
  const EagerTensor a = runtime_->upload(random_tensor(DType::F32, {8, 9}, 4));
  const EagerTensor b = runtime_->upload(random_tensor(DType::F32, {9, 10}, 5));
  const WebGpuPipelineStats before = backend().pipeline_stats();
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  const EagerTensor c = einsum("ij,jk->ik", {a, b});
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
  EXPECT_EQ(runtime_->stats().module_installs, 0u);  // the direct path installs nothing
  EXPECT_EQ(runtime_->stats().kernel_launches_for(kEinsumOnWebGpu), 1u);
  EXPECT_EQ(backend().pipeline_stats().dispatches - before.dispatches, 1u);  // one GEMM
  EXPECT_EQ(c.placement(), runtime_->backend().placement());
  EXPECT_EQ(c.shape(), (Shape{8, 10}));
}

// A memory limit that needs slicing: the slices run on the device and their results are summed
// there (no CPU kernel, no transfer), matching the CPU runtime's sliced run and the naive
// reference. Summed labels sliced (partials accumulated on the device), output labels sliced
// (each slice writes its part of the output), and both.
TEST_F(EinsumWebGpuTest, SlicedPlansRunOnTheDevice) {
  for (testing::SlicedCase c : testing::sliced_device_cases()) {
    c.options.allow_direct_binary = false;
    ASSERT_GT(einsum_path(c.subscripts, c.shapes, c.options).num_slices, 1) << c.subscripts;
    for (DType dtype : {DType::F32, DType::C32})
      check_against_cpu(c.subscripts, c.shapes, dtype, false, c.options);
    check_against_cpu(c.subscripts, c.shapes, DType::F32, true, c.options);  // strided operands
  }
}

TEST_F(EinsumWebGpuTest, RepeatedCallsInstallOnceAndReusePipelines) {
  const EagerTensor a = runtime_->upload(random_tensor(DType::C32, {4, 5}, 6));
  const EagerTensor b = runtime_->upload(random_tensor(DType::C32, {5, 6}, 7));
  const EagerTensor c = runtime_->upload(random_tensor(DType::C32, {6, 3}, 8));
  const Tensor first = einsum("ij,jk,kl->il", {a, b, c}).download();
  const RuntimeStats after_first = runtime_->stats();
  const WebGpuPipelineStats pipelines_after_first = backend().pipeline_stats();
  EXPECT_EQ(after_first.module_installs, 1u);
  EXPECT_GE(pipelines_after_first.built, 1u);
  for (int i = 0; i < 3; ++i) {
    const Tensor again = einsum("ij,jk,kl->il", {a, b, c}).download();
    EXPECT_EQ(again.to_vector<std::complex<float>>(), first.to_vector<std::complex<float>>());
  }
  const RuntimeStats after = runtime_->stats();
  const WebGpuPipelineStats pipelines = backend().pipeline_stats();
  EXPECT_EQ(after.module_installs, 1u);
  EXPECT_EQ(after.epoch, after_first.epoch);
  EXPECT_EQ(after.ensure_fast_path_hits - after_first.ensure_fast_path_hits, 3u);
  EXPECT_EQ(pipelines.built, pipelines_after_first.built);  // no pipeline compiled again
  EXPECT_GT(pipelines.cache_hits, pipelines_after_first.cache_hits);
  EXPECT_EQ(after.kernel_launches_for(kEinsumOnWebGpu), 4u);
  // A second WebGPU runtime installs its own module and builds its own pipelines.
  auto other = EagerRuntime::webgpu();
  (void)einsum("ij,jk,kl->il", {other->upload(random_tensor(DType::C32, {4, 5}, 6)),
                                other->upload(random_tensor(DType::C32, {5, 6}, 7)),
                                other->upload(random_tensor(DType::C32, {6, 3}, 8))});
  EXPECT_EQ(other->stats().module_installs, 1u);
  EXPECT_EQ(dynamic_cast<WebGpuBackend&>(other->backend()).pipeline_stats().built, pipelines.built);
}

TEST_F(EinsumWebGpuTest, DoublePrecisionIsUnsupportedBeforeExecution) {
  for (DType dtype : {DType::F64, DType::C64}) {
    SCOPED_TRACE(std::string(dtype_name(dtype)));
    const EagerTensor a = runtime_->upload(random_tensor(dtype, {3, 4}, 9));
    const EagerTensor b = runtime_->upload(random_tensor(dtype, {4, 5}, 10));
    const EagerTensor c = runtime_->upload(random_tensor(dtype, {5, 2}, 11));
    const RuntimeStats before = runtime_->stats();
    const WebGpuPipelineStats pipelines = backend().pipeline_stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const CacheSelector plans{std::string(einsum_family::kFamily), "plan"};
    const std::size_t plans_before = runtime_->caches().stats(plans).entries;
    for (const char* subscripts : {"ij,jk,kl->il", "ij,jk->ik"}) {
      try {
        const std::vector<EagerTensor> ops = std::string(subscripts) == "ij,jk->ik"
                                                 ? std::vector<EagerTensor>{a, b}
                                                 : std::vector<EagerTensor>{a, b, c};
        (void)einsum(subscripts, ops);
        FAIL() << subscripts << " ran in " << dtype_name(dtype) << " on WebGPU";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
      }
    }
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(backend().pipeline_stats().dispatches, pipelines.dispatches);
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
    EXPECT_EQ(after.uploads, before.uploads);
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_EQ(after.kernel_launches_for(kEinsumOnWebGpu),
              before.kernel_launches_for(kEinsumOnWebGpu));
    EXPECT_EQ(runtime_->caches().stats(plans).entries, plans_before)
        << "a refused call is refused before planning and leaves no plan behind";
    // The request's own errors come first, as planning would raise them: a malformed equation,
    // bad options, a bad explicit path, a memory limit below an input.
    EinsumOptions bad_path, bad_budget, tiny_limit;
    bad_path.strategy = PathStrategy::Explicit;
    bad_path.path = {{0, 7}, {0, 1}};
    bad_budget.time_budget_seconds = -1;
    tiny_limit.memory_limit = 2;
    const std::vector<std::pair<std::string, std::function<void()>>> invalid = {
        {"equation",
         [&] {
           (void)einsum("ij,jk->iq", {a, b});
         }},
        {"path",
         [&] {
           (void)einsum("ij,jk,kl->il", {a, b, c}, bad_path);
         }},
        {"budget",
         [&] {
           (void)einsum("ij,jk,kl->il", {a, b, c}, bad_budget);
         }},
        {"limit", [&] {
           (void)einsum("ij,jk,kl->il", {a, b, c}, tiny_limit);
         }}};
    for (const auto& [what, call] : invalid) {
      try {
        call();
        FAIL() << what << ": accepted";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Validation) << what << ": " << e.what();
      }
    }
  }
}

TEST_F(EinsumWebGpuTest, CpuOperandBesideWebGpuOperandsIsAContextMismatch) {
  const Tensor host = random_tensor(DType::F32, {3, 3}, 12);
  const EagerTensor g = runtime_->upload(host);
  const EagerTensor c = cpu_->upload(host);
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  for (const auto& ops : {std::vector<EagerTensor>{g, c, g}, std::vector<EagerTensor>{c, g}}) {
    try {
      (void)einsum(ops.size() == 3 ? "ij,jk,kl->il" : "ij,jk->ik", ops);
      FAIL() << "mixed CPU and WebGPU operands were accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::ContextMismatch) << e.what();
    }
  }
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
  EXPECT_EQ(runtime_->stats().module_installs, 0u);
  EXPECT_EQ(cpu_->stats().module_installs, 0u);
}

TEST_F(EinsumWebGpuTest, ConcurrentCallsOnOneRuntimeAgree) {
  // Several threads share one WebGPU runtime: uploads, einsums (serialized on the backend
  // session) and downloads interleave; every thread must get its own correct result.
  constexpr int kThreads = 4, kCalls = 5;
  std::vector<Tensor> want(kThreads);
  std::vector<std::array<Tensor, 3>> inputs(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < 3; ++i) inputs[t][i] = random_tensor(DType::F32, {6, 6}, 100 + 3 * t + i);
    want[t] = einsum("ij,jk,kl->il", {cpu_->upload(inputs[t][0]), cpu_->upload(inputs[t][1]),
                                      cpu_->upload(inputs[t][2])})
                  .download();
  }
  std::vector<std::vector<Tensor>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int c = 0; c < kCalls; ++c) {
        const EagerTensor a = runtime_->upload(inputs[t][0]), b = runtime_->upload(inputs[t][1]),
                          d = runtime_->upload(inputs[t][2]);
        got[t].push_back(einsum("ij,jk,kl->il", {a, b, d}).download());
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(got[t].size(), static_cast<std::size_t>(kCalls));
    const std::vector<Tensor> hosts{inputs[t][0], inputs[t][1], inputs[t][2]};
    const auto magnitude = testing::reference_einsum("ij,jk,kl->il", hosts).magnitude;
    for (const Tensor& g : got[t]) {
      const testing::Agreement agreement = testing::compare_with_reference(g, {want[t], magnitude});
      EXPECT_TRUE(agreement.ok) << "thread " << t << ": " << agreement.detail;
    }
  }
  EXPECT_EQ(runtime_->stats().module_installs, 1u);
  EXPECT_EQ(runtime_->stats().kernel_launches_for(kEinsumOnWebGpu),
            static_cast<std::uint64_t>(kThreads * kCalls));
}

TEST_F(EinsumWebGpuTest, RandomizedExpressionsMatchTheReference) {
  const DType dtypes[] = {DType::F32, DType::C32};
  const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
  const int checked = testing::check_random_einsum_cases(runtime_, dtypes, 60, 20261130);
  EXPECT_EQ(checked, 120);
  EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels);
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_WEBGPU
