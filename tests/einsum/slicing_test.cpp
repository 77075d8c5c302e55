// Slicing under EinsumOptions::memory_limit: the sliced executor against the naive reference
// (any slicing of output and summed labels, F64 and C64), sliced and unsliced runs of random
// networks against the reference with the workspace high-water mark within the limit, the
// planner's slicing report against an independent re-costing, and the typed refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ops/einsum/cpu/cpu_contraction_kernels.hpp"
#include "ops/einsum/executor.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "ops/einsum/workspace.hpp"
#include "random_networks.hpp"
#include "small_sliced_cases.hpp"
#include "support/einsum_reference.hpp"
#include "support/random_tensor.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro {
namespace {

std::vector<Tensor> random_inputs(std::mt19937_64& rng, DType dtype,
                                  const std::vector<Shape>& shapes) {
  std::vector<Tensor> hosts;
  for (const Shape& s : shapes) hosts.push_back(testing::random_tensor(rng, dtype, s));
  return hosts;
}

std::vector<EagerTensor> upload_all(const std::shared_ptr<EagerRuntime>& rt,
                                    const std::vector<Tensor>& hosts) {
  std::vector<EagerTensor> out;
  for (const Tensor& h : hosts) out.push_back(rt->upload(h));
  return out;
}

void expect_matches_reference(const EagerTensor& got, std::string_view subscripts,
                              const std::vector<Tensor>& hosts, const std::string& what) {
  const auto want = testing::reference_einsum(subscripts, hosts);
  const auto agreement = testing::compare_with_reference(got.download(), want);
  EXPECT_TRUE(agreement.ok) << what << ": worst " << agreement.worst << " " << agreement.detail;
}

// The executor alone: any set of sliced labels (output ones, summed ones, both, all) must
// give the reference's result.
TEST(EinsumSlicing, ExecutorSumsAndPlacesEverySlicing) {
  using namespace einsum_internal;
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(42);
  for (const auto& cut : testing::every_small_slicing()) {
    for (DType dtype : {DType::F64, DType::C64}) {
      const EinsumPlan plan = build_plan(cut.expr, cut.sizes, cut.path, dtype, cut.shapes);
      const auto hosts = random_inputs(rng, dtype, cut.shapes);
      const auto ops = upload_all(rt, hosts);
      const EagerTensor got = run_sliced_program(*rt, cpu_contraction_kernels(), plan, ops);
      expect_matches_reference(got, cut.subscripts, hosts,
                               std::string(cut.subscripts) + " sliced mask " +
                                   std::to_string(cut.mask) + " " + std::string(dtype_name(dtype)));
    }
  }
}

// Random networks (4-regular graphs with open legs): with a limit below the largest
// intermediate, the plan slices, both runs agree with the reference, no workspace buffer of
// the sliced run exceeds the limit while the unsliced run's does.
TEST(EinsumSlicing, SlicedAndUnslicedRunsAgreeWithReferenceWithinTheLimit) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(20261201);
  int sliced_cases = 0, output_sliced = 0, summed_sliced = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const int n = 6 + 2 * (trial % 2);  // the naive reference loops over 2^(2n + open)
    const auto net = testing::random_regular_network(rng, n, 4, 2, trial % 3, 2);
    const std::string subscripts = net.subscripts();
    const std::vector<Shape> shapes = net.shapes();
    const EinsumPath unsliced = einsum_path(subscripts, shapes, {});
    double floor = 1;  // inputs and the output are held whole: the limit cannot go below them
    for (const Shape& s : shapes) floor = std::max(floor, static_cast<double>(checked_numel(s)));
    double out = 1;
    for (int l : net.labels.output)
      out *= static_cast<double>(net.extents[static_cast<std::size_t>(l)]);
    floor = std::max(floor, out);
    const double limit = floor;                            // the tightest limit that can be met
    if (limit >= unsliced.largest_intermediate) continue;  // nothing to slice in this one
    EinsumOptions options;
    options.memory_limit = limit;
    const EinsumPath path = einsum_path(subscripts, shapes, options);
    ASSERT_FALSE(path.sliced_labels.empty()) << subscripts;
    EXPECT_LE(path.slice_largest_intermediate, limit);
    ++sliced_cases;
    const std::string output_letters = subscripts.substr(subscripts.find("->") + 2);
    for (const std::string& name : path.sliced_names)
      (output_letters.find(name) != std::string::npos ? output_sliced : summed_sliced) += 1;
    for (DType dtype : {DType::F64, DType::C64}) {
      const auto hosts = random_inputs(rng, dtype, shapes);
      const auto ops = upload_all(rt, hosts);
      const auto bytes = static_cast<double>(dtype_size(dtype));

      einsum_internal::reset_workspace_stats(*rt);
      const EagerTensor sliced = einsum(subscripts, ops, options);
      const auto sliced_stats = einsum_internal::workspace_stats(*rt);
      einsum_internal::reset_workspace_stats(*rt);
      const EagerTensor whole = einsum(subscripts, ops);
      const auto whole_stats = einsum_internal::workspace_stats(*rt);

      const std::string what = subscripts + " " + std::string(dtype_name(dtype));
      expect_matches_reference(sliced, subscripts, hosts, what + " sliced");
      expect_matches_reference(whole, subscripts, hosts, what + " unsliced");
      EXPECT_LE(static_cast<double>(sliced_stats.largest_buffer_bytes), limit * bytes) << what;
      EXPECT_GT(static_cast<double>(whole_stats.largest_buffer_bytes), limit * bytes)
          << what << ": the unsliced run fits too, so the limit proves nothing";
    }
  }
  std::printf("[ info   ] %d sliced networks; %d output and %d summed labels sliced\n",
              sliced_cases, output_sliced, summed_sliced);
  EXPECT_GE(sliced_cases, 10);
  EXPECT_GT(summed_sliced, 0);
}

// The report: slice count = product of the sliced extents; the per-slice figures equal an
// independent costing of the same steps with those labels at extent 1 (evaluate_path, not
// the slicer's own tree costing).
TEST(EinsumSlicing, ReportMatchesACostingWithTheSlicedLabelsFixed) {
  std::mt19937_64 rng(5);
  const auto net = testing::random_regular_network(rng, 40, 3, 2);
  EinsumOptions options;
  const EinsumPath unsliced = [&] {
    const auto shapes = net.shapes();
    const auto expr = einsum_internal::from_labels(net.labels, testing::ranks_of(shapes));
    return einsum_internal::plan_path(expr, einsum_internal::label_sizes(expr, shapes), options);
  }();
  options.memory_limit = unsliced.largest_intermediate / 16;
  const auto shapes = net.shapes();
  const auto expr = einsum_internal::from_labels(net.labels, testing::ranks_of(shapes));
  const auto sizes = einsum_internal::label_sizes(expr, shapes);
  const EinsumPath path = einsum_internal::plan_path(expr, sizes, options);
  ASSERT_FALSE(path.sliced_labels.empty());
  EXPECT_EQ(path.steps, unsliced.steps) << "slicing keeps the tree";
  EXPECT_EQ(path.sliced_names.size(), path.sliced_labels.size());

  testing::GeneratedNetwork fixed = net;
  double slices = 1;
  for (const std::string& name : path.sliced_names) {  // the network's own label ids
    const auto l = static_cast<std::size_t>(std::stoi(name));
    slices *= static_cast<double>(net.extents[l]);
    fixed.extents[l] = 1;
  }
  EinsumOptions explicit_steps;
  explicit_steps.strategy = PathStrategy::Explicit;
  explicit_steps.path = path.steps;
  const auto fixed_shapes = fixed.shapes();
  const auto fixed_expr =
      einsum_internal::from_labels(fixed.labels, testing::ranks_of(fixed_shapes));
  const EinsumPath one = einsum_internal::plan_path(
      fixed_expr, einsum_internal::label_sizes(fixed_expr, fixed_shapes), explicit_steps);
  EXPECT_EQ(path.num_slices, slices);
  EXPECT_DOUBLE_EQ(path.slice_largest_intermediate, one.largest_intermediate);
  EXPECT_LE(path.slice_largest_intermediate, options.memory_limit);
  EXPECT_DOUBLE_EQ(path.sliced_flops, one.flops * slices);
  EXPECT_DOUBLE_EQ(path.slicing_overhead, path.sliced_flops / path.flops);
  EXPECT_GE(path.slicing_overhead, 1.0);
  EXPECT_NE(path.to_string().find("Sliced labels:"), std::string::npos);
  std::printf(
      "[ info   ] 40-tensor 3-regular graph, limit 1/16: %zu labels, %.0f slices, "
      "overhead %.3f\n",
      path.sliced_labels.size(), path.num_slices, path.slicing_overhead);
}

// A prepared einsum plans once with the limit; its path reports the slicing and every call
// runs the sliced program within the limit.
TEST(EinsumSlicing, PreparedEinsumRunsItsSlicedPlan) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(77);
  const auto net = testing::random_regular_network(rng, 8, 4, 2, 1, 2);
  const std::vector<Shape> shapes = net.shapes();
  EinsumOptions options;
  double floor = 0;  // the tightest limit: the largest input
  for (const Shape& sh : shapes) floor = std::max(floor, static_cast<double>(checked_numel(sh)));
  options.memory_limit = floor;
  std::vector<TensorMeta> metas;
  for (const Shape& sh : shapes) metas.push_back({DType::C64, sh});
  const PreparedEinsum prepared(net.subscripts(), metas, options);
  ASSERT_FALSE(prepared.path().sliced_labels.empty()) << prepared.path().to_string();
  for (int call = 0; call < 2; ++call) {
    const auto hosts = random_inputs(rng, DType::C64, shapes);
    const auto ops = upload_all(rt, hosts);
    einsum_internal::reset_workspace_stats(*rt);
    const EagerTensor got = prepared(ops);
    EXPECT_LE(static_cast<double>(einsum_internal::workspace_stats(*rt).largest_buffer_bytes),
              options.memory_limit * static_cast<double>(dtype_size(DType::C64)));
    expect_matches_reference(got, net.subscripts(), hosts, "prepared call " + std::to_string(call));
  }
}

// On the CPU a step's consumed intermediates go back to the pool at once, so a chain of
// seven 32x32 matrices holds at most three intermediates at a time (the last result, the
// step's new one, and one of a parallel branch), not all five until the call ends.
TEST(EinsumSlicing, CpuStepsReleaseConsumedIntermediatesEarly) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(8);
  const std::vector<Shape> shapes(7, Shape{32, 32});
  const char* subscripts = "ab,bc,cd,de,ef,fg,gh->ah";
  const auto hosts = random_inputs(rng, DType::F64, shapes);
  const auto ops = upload_all(rt, hosts);
  EinsumOptions options;
  options.allow_direct_binary = false;
  einsum_internal::reset_workspace_stats(*rt);
  const EagerTensor got = einsum(subscripts, ops, options);
  const auto stats = einsum_internal::workspace_stats(*rt);
  const std::size_t matrix = 32 * 32 * sizeof(double);
  EXPECT_EQ(stats.largest_buffer_bytes, matrix);
  EXPECT_LE(stats.high_water_bytes, 3 * matrix);
  EXPECT_EQ(stats.live_bytes, 0u) << "every buffer is back when the call ends";
  // The naive reference over all eight labels would loop 32^8 times: multiply pairwise (the
  // last product's magnitudes scale the tolerance).
  testing::ReferenceResult want{hosts[0], {}};
  for (std::size_t k = 1; k < hosts.size(); ++k) {
    const std::vector<Tensor> pair{want.value, hosts[k]};
    want = testing::reference_einsum("ab,bc->ac", pair);
  }
  const auto agreement = testing::compare_with_reference(got.download(), want);
  EXPECT_TRUE(agreement.ok) << agreement.detail;
}

void expect_unmeetable(const char* subscripts, const std::vector<Shape>& shapes, double limit,
                       const char* names) {
  EinsumOptions options;
  options.memory_limit = limit;
  try {
    (void)einsum_path(subscripts, shapes, options);
    ADD_FAILURE() << subscripts << " with limit " << limit << ": accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
    EXPECT_NE(e.message().find("cannot be met by slicing"), std::string::npos) << e.what();
    EXPECT_NE(e.message().find(names), std::string::npos) << e.what();
  }
}

TEST(EinsumSlicing, LimitsNoSlicingCanMeetAreValidationErrors) {
  // An input of 6 * 7 = 42 elements with a limit of 40.
  expect_unmeetable("ab,bc,cd->ad", {{6, 7}, {7, 2}, {2, 3}}, 40, "operand 0");
  // The output (9 * 9 = 81) is larger than the limit, every input fits.
  expect_unmeetable("ab,bc,cd->ad", {{9, 2}, {2, 2}, {2, 9}}, 50, "the output");
  // The same limit with smaller operands plans fine.
  EinsumOptions options;
  options.memory_limit = 50;
  EXPECT_NO_THROW(
      (void)einsum_path("ab,bc,cd->ad", std::vector<Shape>{{5, 2}, {2, 2}, {2, 5}}, options));
}

// A path whose limit needs more slices than a run can count: 64 pairs of vectors of 2, the first
// of each pair multiplied into one 2^64 outer product, then contracted with the second. At a
// limit of 2 every label is sliced, 2^64 slices: the count wrapped to 0 in int64, no slice ran
// and einsum returned 0 (the answer is 2^64). Found by an adversarial review.
TEST(EinsumSlicing, MoreSlicesThanARunCanCountAreValidationErrors) {
  const int k = 64;
  auto rt = EagerRuntime::cpu();
  EinsumLabels labels;
  std::vector<EagerTensor> ops;
  for (int pass = 0; pass < 2; ++pass) {
    for (int l = 0; l < k; ++l) {
      labels.inputs.push_back({l});
      ops.push_back(prims::ones(rt, DType::F64, {2}));
    }
  }
  EinsumOptions options;
  options.strategy = PathStrategy::Explicit;
  for (int i = 1; i < k; ++i) options.path.push_back({0, 2 * k - i});  // the outer product
  for (int i = 0; i < k; ++i) options.path.push_back({0, 1});          // then one by one
  options.memory_limit = 2;
  try {
    (void)einsum(labels, ops, options);
    FAIL() << "ran a plan of 2^64 slices";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
    EXPECT_NE(std::string(e.what()).find("more than a run can count"), std::string::npos)
        << e.what();
  }
}

// Sliced plans run on the device that holds the operands (tests/webgpu, tests/cuda); on a device
// whose einsum cannot run (the test device backend has no contraction kernels) the call fails
// with a typed error and never falls back to CPU kernels.
TEST(EinsumSlicing, SlicedPlansOnADeviceNeverRunCpuKernels) {
  for (BackendKind kind : {BackendKind::WebGpu, BackendKind::Cuda}) {
    auto rt = testing::make_test_device_runtime(kind);
    const std::vector<Shape> shapes{{4, 2}, {2, 8}, {8, 2}, {2, 4}};
    std::mt19937_64 rng(1);
    const auto ops = upload_all(rt, random_inputs(rng, DType::F32, shapes));
    EinsumOptions options;
    options.strategy = PathStrategy::Explicit;
    options.path = {{0, 1}, {0, 1}, {0, 1}};  // ab,bc -> ac (32 elements) first
    options.memory_limit = 16;
    ASSERT_FALSE(einsum_path("ab,bc,cd,de->ae", shapes, options).sliced_labels.empty());
    const auto before = process_cpu_kernel_launches();
    EXPECT_THROW((void)einsum("ab,bc,cd,de->ae", ops, options), Error) << backend_kind_name(kind);
    EXPECT_EQ(process_cpu_kernel_launches(), before) << "no CPU kernel may run";
    EXPECT_EQ(rt->stats().downloads, 0u) << "nothing moved to the host";
  }
}

}  // namespace
}  // namespace tenferro
