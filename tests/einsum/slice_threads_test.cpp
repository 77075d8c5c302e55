// Slices spread over host threads (run_sliced_program with several workers): on random
// networks sliced under a memory limit, every worker count agrees with the naive reference
// (F64 and C64), gives the same bits on every run, and with only output labels sliced the
// same bits as one worker; no workspace buffer exceeds the limit and the live workspace stays
// within workers x one slice's + the partial outputs. Integer-valued operands (exact sums)
// show that no worker's partial output is dropped or added twice, for every slicing of small
// expressions and sub-ranges. Concurrent sliced calls on one runtime share its workspace
// pool (run under ThreadSanitizer: the names match 'EinsumThreads').
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <thread>
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
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using einsum_internal::run_sliced_program;
using einsum_internal::SliceRange;

std::vector<EagerTensor> upload_all(EagerRuntime& rt, const std::vector<Tensor>& hosts) {
  std::vector<EagerTensor> out;
  for (const Tensor& h : hosts) out.push_back(rt.upload(h));
  return out;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && a.nbytes() == b.nbytes() &&
         std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

// Equal values, double by double (F64 or C64 downloads): +0 and -0 count as equal, since
// exact integer sums may reach zero from either side depending on the order.
bool same_values(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape() || a.nbytes() != b.nbytes()) return false;
  const auto* x = reinterpret_cast<const double*>(a.raw_data());
  const auto* y = reinterpret_cast<const double*>(b.raw_data());
  for (std::size_t k = 0; k < a.nbytes() / sizeof(double); ++k)
    if (x[k] != y[k]) return false;
  return true;
}

// Operands whose entries are small integers (real and imaginary parts in [-3, 3]): every
// partial sum is an exactly representable integer, so any summation order gives the same bits
// and a dropped or doubled partial output changes the result.
std::vector<Tensor> integer_inputs(std::mt19937_64& rng, DType dtype,
                                   const std::vector<Shape>& shapes) {
  std::vector<Tensor> out;
  std::uniform_int_distribution<int> value(-3, 3);
  for (const Shape& s : shapes) {
    Tensor t = Tensor::zeros(dtype, s);
    auto* d = reinterpret_cast<double*>(t.raw_data());  // F64 or C64: doubles throughout
    for (std::size_t k = 0; k < t.nbytes() / sizeof(double); ++k) d[k] = value(rng);
    out.push_back(std::move(t));
  }
  return out;
}

// A random network sliced under the tightest limit einsum accepts (the largest input or the
// output), as the executor sees it.
struct SlicedCase {
  std::string subscripts;
  std::vector<Shape> shapes;
  einsum_internal::EinsumExpression expr;
  std::vector<std::int64_t> sizes;
  EinsumPath path;
  double limit = 0;
  bool summed_sliced = false;
};

bool sliced_case(std::mt19937_64& rng, int trial, SlicedCase& c) {
  const int n = 6 + 2 * (trial % 2);
  const auto net = testing::random_regular_network(rng, n, 4, 2, trial % 3, 2);
  c.subscripts = net.subscripts();
  c.shapes = net.shapes();
  c.expr = einsum_internal::parse_subscripts(c.subscripts, testing::ranks_of(c.shapes));
  c.sizes = einsum_internal::label_sizes(c.expr, c.shapes);
  double floor = 1;
  for (const Shape& s : c.shapes) floor = std::max(floor, static_cast<double>(checked_numel(s)));
  double out = 1;
  for (int l : net.labels.output)
    out *= static_cast<double>(net.extents[static_cast<std::size_t>(l)]);
  c.limit = std::max(floor, out);
  EinsumOptions options;
  options.memory_limit = c.limit;
  c.path = einsum_internal::plan_path(c.expr, c.sizes, options);
  if (c.path.num_slices < 4) return false;
  c.summed_sliced = false;
  const std::string output = c.subscripts.substr(c.subscripts.find("->") + 2);
  for (const std::string& name : c.path.sliced_names)
    c.summed_sliced |= output.find(name) == std::string::npos;
  return true;
}

TEST(EinsumThreads, SlicesInParallelMatchTheReferenceAndRepeatTheirBits) {
  auto rt = EagerRuntime::cpu();
  auto& kernels = einsum_internal::cpu_contraction_kernels();
  std::mt19937_64 rng(20261202);
  int cases = 0, summed = 0;
  for (int trial = 0; trial < 16; ++trial) {
    SlicedCase c;
    if (!sliced_case(rng, trial, c)) continue;
    ++cases;
    summed += c.summed_sliced;
    for (DType dtype : {DType::F64, DType::C64}) {
      const auto plan = einsum_internal::build_plan(c.expr, c.sizes, c.path, dtype, c.shapes);
      std::vector<Tensor> hosts;
      for (const Shape& s : c.shapes) hosts.push_back(testing::random_tensor(rng, dtype, s));
      const auto ops = upload_all(*rt, hosts);
      const auto want = testing::reference_einsum(c.subscripts, hosts);
      const auto bytes = static_cast<double>(dtype_size(dtype));
      const double out_bytes = static_cast<double>(checked_numel(plan.output_shape)) * bytes;

      einsum_internal::reset_workspace_stats(*rt);
      const Tensor one = run_sliced_program(*rt, kernels, plan, ops, {}, 1).download();
      const auto one_stats = einsum_internal::workspace_stats(*rt);
      for (int workers : {2, 3, 4}) {
        const std::string what = c.subscripts + " " + std::string(dtype_name(dtype)) + " " +
                                 std::to_string(workers) + " workers";
        einsum_internal::reset_workspace_stats(*rt);
        const Tensor got = run_sliced_program(*rt, kernels, plan, ops, {}, workers).download();
        const auto stats = einsum_internal::workspace_stats(*rt);
        const auto agreement = testing::compare_with_reference(got, want);
        EXPECT_TRUE(agreement.ok) << what << ": worst " << agreement.worst;
        for (int again = 0; again < 2; ++again) {
          EXPECT_TRUE(
              same_bits(got, run_sliced_program(*rt, kernels, plan, ops, {}, workers).download()))
              << what << ": a rerun changed the bits";
        }
        if (!c.summed_sliced) {
          EXPECT_TRUE(same_bits(got, one)) << what << ": disjoint output parts, same bits";
        }
        // Per intermediate, the limit holds whatever the worker count ...
        EXPECT_LE(static_cast<double>(stats.largest_buffer_bytes), c.limit * bytes) << what;
        // ... and in all: each worker one slice's workspace, plus the extra partial outputs.
        const double bound = workers * static_cast<double>(one_stats.high_water_bytes) +
                             (c.summed_sliced ? (workers - 1) * out_bytes : 0);
        EXPECT_LE(static_cast<double>(stats.high_water_bytes), bound) << what;
      }
    }
  }
  EXPECT_GE(cases, 6);
  EXPECT_GT(summed, 0);
}

// Every subset of labels sliced, whole range and sub-ranges, 1 to 7 workers (also more
// workers than slices, and counts that do not divide them): exact integer sums must equal
// one worker's and the reference's exactly.
TEST(EinsumThreads, PartialOutputsAreNeitherDroppedNorCountedTwice) {
  auto rt = EagerRuntime::cpu();
  auto& kernels = einsum_internal::cpu_contraction_kernels();
  std::mt19937_64 rng(7);
  for (const auto& cut : testing::every_small_slicing()) {
    for (DType dtype : {DType::F64, DType::C64}) {
      const auto plan =
          einsum_internal::build_plan(cut.expr, cut.sizes, cut.path, dtype, cut.shapes);
      const auto hosts = integer_inputs(rng, dtype, cut.shapes);
      const auto ops = upload_all(*rt, hosts);
      const Tensor want = testing::reference_einsum(cut.subscripts, hosts).value;
      const std::vector<SliceRange> ranges{
          {}, {cut.slices / 3, cut.slices - cut.slices / 3}, {1, cut.slices - 1}};
      for (const SliceRange& range : ranges) {
        if (range.first >= cut.slices || range.count == 0) continue;
        const Tensor one = run_sliced_program(*rt, kernels, plan, ops, range, 1).download();
        if (range.count < 0) {
          EXPECT_TRUE(same_values(one, want)) << cut.subscripts << " " << cut.mask;
        }
        for (int workers = 2; workers <= 7; ++workers) {
          EXPECT_TRUE(same_values(
              one, run_sliced_program(*rt, kernels, plan, ops, range, workers).download()))
              << cut.subscripts << " mask " << cut.mask << " " << dtype_name(dtype) << " first "
              << range.first << " workers " << workers;
        }
      }
    }
  }
}

// The documented rule: one thread, few slices, small slices or large slices run one after the
// other; many mid-sized slices get every thread; with summed labels sliced a large output
// limits the workers.
TEST(EinsumThreads, WorkerRule) {
  const auto expr = einsum_internal::parse_subscripts("ab,bc->ac", std::vector<std::int64_t>{2, 2});
  const std::vector<Shape> shapes{{1024, 1024}, {1024, 1024}};
  const auto sizes = einsum_internal::label_sizes(expr, shapes);
  EinsumPath path = einsum_internal::plan_path(expr, sizes, {});
  path.sliced_labels = {1};  // b: summed
  path.num_slices = 64;
  path.sliced_flops = 64 * 2 * einsum_internal::kMinParallelSliceFlops;
  auto plan = einsum_internal::build_plan(expr, sizes, path, DType::F64, shapes);
  using einsum_internal::slice_workers;
  EXPECT_EQ(slice_workers(plan, 64, 1), 1);
  EXPECT_EQ(slice_workers(plan, 3, 8), 1);  // fewer than two slices per worker
  // 2^24 FLOPs per slice over 64 slices, output 2^20 elements: 2^30 / (64 * 2^20) = 16
  // workers allowed by the partial outputs, so the 8 threads.
  EXPECT_EQ(slice_workers(plan, 64, 8), 8);
  EXPECT_EQ(slice_workers(plan, 64, 64), 16);  // the partial outputs limit it
  plan.path.sliced_labels = {0};               // a: an output label, no partial outputs
  EXPECT_EQ(slice_workers(plan, 64, 64), 32);
  EXPECT_EQ(slice_workers(plan, 9, 8), 4);
  plan.path.sliced_flops = einsum_internal::kThreadedSliceFlops * 64;
  EXPECT_EQ(slice_workers(plan, 64, 8), 1);  // the kernels inside a slice use the threads
  plan.path.sliced_flops = einsum_internal::kMinParallelSliceFlops / 2 * 64;
  EXPECT_EQ(slice_workers(plan, 64, 8), 1);  // too small: the workers would wait on each other
}

// Several threads run sliced contractions with parallel slices on one runtime at once: they
// share its workspace pool and the host worker pool (a caller that finds it busy runs its
// parts itself), and each still gets the reference's result.
TEST(EinsumThreads, ConcurrentSlicedCallsShareTheWorkspacePool) {
  auto rt = EagerRuntime::cpu();
  auto& kernels = einsum_internal::cpu_contraction_kernels();
  std::mt19937_64 rng(99);
  SlicedCase c;
  for (int trial = 0; !sliced_case(rng, trial, c); ++trial) ASSERT_LT(trial, 50);
  const auto plan = einsum_internal::build_plan(c.expr, c.sizes, c.path, DType::F64, c.shapes);
  std::vector<Tensor> hosts;
  for (const Shape& s : c.shapes) hosts.push_back(testing::random_tensor(rng, DType::F64, s));
  const auto ops = upload_all(*rt, hosts);
  const Tensor want = run_sliced_program(*rt, kernels, plan, ops, {}, 2).download();
  constexpr int kCallers = 4;
  std::vector<int> mismatches(kCallers, 0);
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([&, t] {
      for (int call = 0; call < 3; ++call)
        mismatches[static_cast<std::size_t>(t)] +=
            !same_bits(want, run_sliced_program(*rt, kernels, plan, ops, {}, 2).download());
    });
  for (auto& caller : callers) caller.join();
  for (int t = 0; t < kCallers; ++t) EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0) << t;
  const auto agreement =
      testing::compare_with_reference(want, testing::reference_einsum(c.subscripts, hosts));
  EXPECT_TRUE(agreement.ok) << agreement.worst;
}

// One plan's replay (replay.hpp) shared by callers on several threads: the first calls record
// and publish it while others play it back, each on its own operands of the same strides and
// into its own output. Every call's bits are its single-threaded result's.
TEST(EinsumThreads, ConcurrentWarmCallsShareOnePlansReplay) {
  auto rt = EagerRuntime::cpu();
  constexpr int kCallers = 4;
  const char* subscripts = "ab,bc,cd,de->ae";
  const std::vector<Shape> shapes{{5, 6}, {6, 7}, {7, 3}, {3, 4}};
  std::mt19937_64 rng(17);
  std::vector<std::vector<EagerTensor>> operands(kCallers);
  std::vector<Tensor> want(kCallers);
  {
    auto reference_rt = EagerRuntime::cpu();  // a runtime of its own: no replay there yet
    for (int t = 0; t < kCallers; ++t) {
      std::vector<Tensor> hosts;
      for (const Shape& s : shapes) hosts.push_back(testing::random_tensor(rng, DType::F64, s));
      operands[static_cast<std::size_t>(t)] = upload_all(*rt, hosts);
      EinsumOptions searched;
      want[static_cast<std::size_t>(t)] =
          einsum(subscripts, upload_all(*reference_rt, hosts), searched).download();
      const auto agreement = testing::compare_with_reference(
          want[static_cast<std::size_t>(t)], testing::reference_einsum(subscripts, hosts));
      EXPECT_TRUE(agreement.ok) << agreement.detail;
    }
  }
  std::vector<int> mismatches(kCallers, 0);
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([&, t] {
      const auto i = static_cast<std::size_t>(t);
      for (int call = 0; call < 20; ++call)
        mismatches[i] += !same_bits(want[i], einsum(subscripts, operands[i]).download());
    });
  for (auto& caller : callers) caller.join();
  for (int t = 0; t < kCallers; ++t) EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0) << t;
}

}  // namespace
}  // namespace tenferro
