// Distributed sliced einsum: the slices of a plan sliced under a memory limit, split over the
// ranks and summed with MPI_Allreduce, give the single-node einsum's result for every dtype;
// with more ranks than slices the idle ranks contribute zeros; a rank computing on a WebGPU
// device runs its slices there; a rank whose runtime cannot run einsum fails every rank with
// the same typed error before any reduction.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dist_context.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/config.hpp"

namespace tenferro::dist {
namespace {

using testing::at;
using testing::context;

// A tensor of any rank with random entries, the same on every rank.
Tensor random_tensor(DType dtype, const Shape& shape, std::uint64_t seed) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  return testing::random_matrix(dtype, n, 1, seed).reshape(shape);
}

double max_rel_diff(const Tensor& x, const Tensor& y) {
  const Tensor a = x.reshape({x.numel(), 1}), b = y.reshape({y.numel(), 1});
  double worst = 0, scale = 0;
  for (std::int64_t k = 0; k < a.numel(); ++k) {
    worst = std::max(worst, std::abs(at(a, k, 0) - at(b, k, 0)));
    scale = std::max(scale, std::abs(at(b, k, 0)));
  }
  return worst / (scale + 1);
}

TEST(DistEinsum, SlicesSplitOverRanksAddUpToTheSingleNodeResult) {
  const auto& ctx = context();
  // A tetrahedron with open legs: every pairwise step makes an intermediate of >= 256 elements
  // while no input holds more than 128, so a limit of 128 slices the plan.
  const std::string subscripts = "abcx,adey,bdf,cef->xy";
  const std::vector<Shape> shapes{{4, 4, 4, 2}, {4, 4, 4, 2}, {4, 4, 4}, {4, 4, 4}};
  for (DType dtype : {DType::F32, DType::F64, DType::C32, DType::C64}) {
    std::vector<Tensor> ops;
    for (std::size_t k = 0; k < shapes.size(); ++k)
      ops.push_back(random_tensor(dtype, shapes[k], 40 + k));
    EinsumOptions options;
    options.memory_limit = 128;
    const Tensor got = einsum(ctx, subscripts, ops, options);

    auto rt = EagerRuntime::cpu();
    std::vector<EagerTensor> local;
    for (const Tensor& t : ops) local.push_back(rt->upload(t));
    std::vector<TensorMeta> metas;
    for (const Tensor& t : ops) metas.push_back({t.dtype(), t.shape()});
    const PreparedEinsum sliced(subscripts, metas, options);
    ASSERT_GT(sliced.num_slices(), 1) << sliced.path().to_string();
    const Tensor want = tenferro::einsum(subscripts, local).download();  // unsliced
    ASSERT_EQ(got.shape(), want.shape());
    EXPECT_LT(max_rel_diff(got, want), testing::tolerance(dtype)) << dtype_name(dtype);
  }
}

TEST(DistEinsum, MoreRanksThanSlicesAndUnslicedPlans) {
  const auto& ctx = context();
  const std::vector<Tensor> ops{random_tensor(DType::F64, {5, 6}, 1),
                                random_tensor(DType::F64, {6, 7}, 2)};
  const Tensor got = einsum(ctx, "ab,bc->ac", ops);  // one slice: rank 0 computes, others add 0
  auto rt = EagerRuntime::cpu();
  const Tensor want =
      tenferro::einsum("ab,bc->ac", {rt->upload(ops[0]), rt->upload(ops[1])}).download();
  EXPECT_LT(max_rel_diff(got, want), 1e-12);
  if (ctx->is_root()) {
    EXPECT_GE(ctx->stats().reductions, 1u);
  }
}

TEST(DistEinsum, BadSubscriptsAreAValidationErrorOnEveryRank) {
  const auto& ctx = context();
  const std::vector<Tensor> ops{random_tensor(DType::F64, {5, 6}, 1)};
  bool validation = false;
  try {
    (void)einsum(ctx, "abc->a", ops);
  } catch (const Error& e) {
    validation = e.kind() == ErrorKind::Validation;
  }
  EXPECT_TRUE(testing::on_every_rank(validation));
}

// The last rank computes on a WebGPU device (lavapipe in CI): its slices run and are summed on
// the device, its part is downloaded for the reduction, and the result is the single-node one.
TEST(DistEinsum, SlicesRunOnARanksDeviceRuntime) {
#if TENFERRO_HAS_WEBGPU
  const auto& world = context();
  const bool device = world->rank() == world->size() - 1;
  const auto ctx = Context::world(device ? EagerRuntime::webgpu() : nullptr);
  const std::string subscripts = "abcx,adey,bdf,cef->xy";
  const std::vector<Shape> shapes{{4, 4, 4, 2}, {4, 4, 4, 2}, {4, 4, 4}, {4, 4, 4}};
  std::vector<Tensor> ops;
  for (std::size_t k = 0; k < shapes.size(); ++k)
    ops.push_back(random_tensor(DType::F32, shapes[k], 40 + k));  // WGSL has no f64
  EinsumOptions options;
  options.memory_limit = 128;  // sliced, as in the first test
  const Tensor got = einsum(ctx, subscripts, ops, options);
  std::vector<EagerTensor> local;
  const auto cpu = EagerRuntime::cpu();
  for (const Tensor& t : ops) local.push_back(cpu->upload(t));
  const Tensor want = tenferro::einsum(subscripts, local).download();
  EXPECT_LT(max_rel_diff(got, want), 1e-4);
  if (device) {
    EXPECT_EQ(ctx->runtime()->backend_kind(), BackendKind::WebGpu);
    EXPECT_GE(ctx->runtime()->stats().downloads, 1u) << "the device's part is downloaded";
  }
#else
  GTEST_SKIP() << "this build has no WebGPU backend (TENFERRO_WITH_WEBGPU=OFF)";
#endif
}

// A rank whose local runtime cannot run einsum at all (a test backend claiming to be CUDA in a
// build without CUDA kernels) makes every rank fail with the same Unsupported error, naming
// that rank, before any rank reduces anything.
TEST(DistEinsum, ARankThatCannotRunTheOpFailsEveryRankBeforeAnyReduction) {
  const auto& world = context();
  const bool device = world->rank() == world->size() - 1;
  const auto ctx = Context::world(
      device ? tenferro::testing::make_test_device_runtime(BackendKind::Cuda) : nullptr);
  ASSERT_EQ(ctx->runtime()->backend_kind() == BackendKind::Cuda, device);
  const std::vector<Tensor> ops{
      random_tensor(DType::F64, {4, 4, 4, 2}, 1), random_tensor(DType::F64, {4, 4, 4, 2}, 2),
      random_tensor(DType::F64, {4, 4, 4}, 3), random_tensor(DType::F64, {4, 4, 4}, 4)};
  EinsumOptions options;
  options.memory_limit = 128;
  bool refused = false;
  try {
    (void)einsum(ctx, "abcx,adey,bdf,cef->xy", ops, options);
  } catch (const Error& e) {
    const std::string what = e.message();
    refused = e.kind() == ErrorKind::Unsupported &&
              what.find("rank " + std::to_string(world->size() - 1) + ": ") != std::string::npos &&
              what.find("cuda") != std::string::npos;
    EXPECT_TRUE(refused) << what;
  }
  EXPECT_TRUE(testing::on_every_rank(refused));
  EXPECT_EQ(ctx->stats().reductions, 0u);
  EXPECT_EQ(ctx->stats().bytes_sent, 0u);
}

}  // namespace
}  // namespace tenferro::dist
