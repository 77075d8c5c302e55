// Large einsum kernels (copies, trailing sums, element-wise products, batches of small GEMMs)
// are cut into slabs over the host kernel threads. Each case is checked against the naive
// reference. CTest runs this suite twice: as is (the default thread budget, one thread in CI)
// and as EinsumThreadsSplit with TENFERRO_NUM_THREADS=3, so the split path (uneven slabs
// included) is exercised on any machine, and under ThreadSanitizer too.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>

#include "backends/cpu/host_parallel.hpp"
#include "ops/einsum/cpu/parallel_slabs.hpp"
#include "support/einsum_reference.hpp"
#include "support/random_einsum.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using testing::compare_with_reference;
using testing::random_tensor;
using testing::reference_einsum;
using testing::upload_maybe_strided;

TEST(EinsumThreads, ThreadBudgetFollowsTenferroNumThreads) {
  const char* asked = std::getenv("TENFERRO_NUM_THREADS");
  const int threads = cpu_parallel::host_kernel_threads();
  if (asked != nullptr) {
    EXPECT_EQ(threads, std::stoi(asked));
  } else {
    EXPECT_GE(threads, 1);
  }
  std::cout << "host kernel threads: " << threads << "\n";
}

struct LargeCase {
  const char* subscripts;
  std::vector<Shape> shapes;
};

TEST(EinsumThreads, LargeKernelsAgreeWithTheReference) {
  // Every case is above cpu_slabs::kParallelElements (or, for the batched GEMM, above the
  // batch-splitting work), so with two or more threads each one takes the split path.
  const std::vector<LargeCase> cases{
      {"abcd->cadb", {{16, 32, 24, 40}}},                  // permuting copy (tiled transpose)
      {"abcd->ab", {{64, 48, 20, 8}}},                     // sum over trailing axes
      {"abc,abc->abc", {{80, 64, 60}, {80, 64, 60}}},      // element-wise product
      {"ab,b->ab", {{4096, 80}, {80}}},                    // product with a broadcast operand
      {"bij,bjk->bik", {{2048, 16, 16}, {2048, 16, 16}}},  // a batch of small GEMMs
  };
  ASSERT_GE(16 * 32 * 24 * 40, einsum_internal::cpu_slabs::kParallelElements);
  auto runtime = EagerRuntime::cpu();
  std::mt19937_64 rng(7);
  const std::vector<std::pair<DType, bool>> variants{
      {DType::F64, false}, {DType::F64, true}, {DType::C32, true}};
  for (const auto& [dtype, strided] : variants)
    for (const LargeCase& c : cases) {
      SCOPED_TRACE(std::string(c.subscripts) + " " + std::string(dtype_name(dtype)) +
                   (strided ? " strided" : ""));
      std::vector<Tensor> hosts;
      std::vector<EagerTensor> eager;
      for (const Shape& shape : c.shapes) {
        hosts.push_back(random_tensor(rng, dtype, shape));
        eager.push_back(upload_maybe_strided(runtime, hosts.back(), rng, strided));
      }
      const auto agreement = compare_with_reference(einsum(c.subscripts, eager).download(),
                                                    reference_einsum(c.subscripts, hosts));
      EXPECT_TRUE(agreement.ok) << agreement.detail;
    }
}

// Several caller threads splitting large kernels at once: one split runs on the shared
// workers at a time, the others run their whole range themselves; every result must be exact.
TEST(EinsumThreads, ConcurrentLargeKernelsAgree) {
  auto runtime = EagerRuntime::cpu();
  std::mt19937_64 rng(11);
  const Tensor host = random_tensor(rng, DType::F64, Shape{16, 32, 24, 40});
  const EagerTensor x = runtime->upload(host);
  const std::vector<double> want = einsum("abcd->cadb", {x}).download().to_vector<double>();
  std::atomic<int> mismatches{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([&] {
      for (int i = 0; i < 6; ++i) {
        if (einsum("abcd->cadb", {x}).download().to_vector<double>() != want) ++mismatches;
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace tenferro
