// Slice by slice: PreparedEinsum::run_slices and the executor's slice ranges. Ranges that
// partition a sliced plan's slices must add up to the whole contraction (checked against the
// naive reference for every slicing of small expressions, F64 and C64, and through the public
// API on a plan the planner sliced), and bad ranges are typed Validation errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "ops/einsum/cpu/cpu_contraction_kernels.hpp"
#include "ops/einsum/executor.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "small_sliced_cases.hpp"
#include "support/einsum_reference.hpp"
#include "support/random_tensor.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

template <typename T>
void add_into(Tensor& sum, const Tensor& part) {
  ASSERT_EQ(sum.strides(), part.strides());
  T* s = sum.data<T>();
  const T* p = part.data<T>();
  for (std::int64_t k = 0; k < sum.numel(); ++k) s[k] += p[k];
}

// sum += part, element by element (both compact downloads of one shape).
void add_into(Tensor& sum, const Tensor& part) {
  ASSERT_EQ(sum.shape(), part.shape());
  if (sum.dtype() == DType::F64) {
    add_into<double>(sum, part);
  } else {
    add_into<std::complex<double>>(sum, part);
  }
}

// Frees a NaN-filled buffer of the output's size just before a range runs, so that the
// allocator most likely hands that memory to the range's output: a part the range does not
// write then shows up as NaN instead of passing as the zero a fresh page happens to hold.
void poison_allocator(EagerRuntime& rt, DType dtype, const Shape& shape) {
  Tensor junk = Tensor::zeros(dtype, shape);
  auto* bytes = reinterpret_cast<double*>(junk.raw_data());
  const std::size_t doubles = junk.nbytes() / sizeof(double);
  for (std::size_t k = 0; k < doubles; ++k) bytes[k] = std::nan("");
  (void)rt.upload(junk);
}

// Splits [0, total) into consecutive ranges of random lengths.
std::vector<std::pair<std::int64_t, std::int64_t>> random_partition(std::mt19937_64& rng,
                                                                    std::int64_t total) {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  for (std::int64_t first = 0; first < total;) {
    std::uniform_int_distribution<std::int64_t> length(1, std::max<std::int64_t>(1, total / 2));
    const std::int64_t count = std::min(total - first, length(rng));
    ranges.emplace_back(first, count);
    first += count;
  }
  return ranges;
}

// Every subset of labels sliced, every range of a random partition run apart: the parts add
// up to the reference (output labels, summed labels, diagonals, a scalar output).
TEST(EinsumSliceRanges, PartitionedRangesAddUpForEverySlicing) {
  using namespace einsum_internal;
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(7);
  int multi_range_runs = 0;
  for (const auto& cut : testing::every_small_slicing()) {
    for (DType dtype : {DType::F64, DType::C64}) {
      const EinsumPlan plan = build_plan(cut.expr, cut.sizes, cut.path, dtype, cut.shapes);
      std::vector<Tensor> hosts;
      std::vector<EagerTensor> ops;
      for (const Shape& s : cut.shapes) {
        hosts.push_back(testing::random_tensor(rng, dtype, s));
        ops.push_back(rt->upload(hosts.back()));
      }
      const auto ranges = random_partition(rng, cut.slices);
      multi_range_runs += ranges.size() > 1 ? 1 : 0;
      Tensor sum;
      for (const auto& [first, count] : ranges) {
        poison_allocator(*rt, dtype, plan.output_shape);
        const Tensor part =
            run_sliced_program(*rt, cpu_contraction_kernels(), plan, ops, {first, count})
                .download();
        if (first == 0) {
          sum = part;
        } else {
          add_into(sum, part);
        }
      }
      const auto agreement =
          testing::compare_with_reference(sum, testing::reference_einsum(cut.subscripts, hosts));
      EXPECT_TRUE(agreement.ok) << cut.subscripts << " mask " << cut.mask << " "
                                << dtype_name(dtype) << " in " << ranges.size()
                                << " ranges: " << agreement.detail;
    }
  }
  EXPECT_GT(multi_range_runs, 50) << "the partitions must actually split the slices";
}

// Through the public API: a plan the planner sliced under a memory limit, run one slice at a
// time and in two halves, equals the whole call; the whole range is the whole call exactly.
TEST(EinsumSliceRanges, PreparedEinsumRunsSliceBySlice) {
  // A tetrahedron with two open legs: every pairwise step leaves four or more bonds of 4, so
  // some intermediate holds >= 256 elements while no input holds more than 128.
  const std::string subscripts = "abcx,adey,bdf,cef->xy";
  const std::vector<Shape> shapes{{4, 4, 4, 2}, {4, 4, 4, 2}, {4, 4, 4}, {4, 4, 4}};
  EinsumOptions options;
  options.memory_limit = 128;
  std::vector<TensorMeta> metas;
  for (const Shape& s : shapes) metas.push_back({DType::F64, s});
  const PreparedEinsum prepared(subscripts, metas, options);
  ASSERT_GT(prepared.num_slices(), 1) << prepared.path().to_string();
  EXPECT_EQ(static_cast<double>(prepared.num_slices()), prepared.path().num_slices);

  std::mt19937_64 rng(11);
  auto rt = EagerRuntime::cpu();
  std::vector<Tensor> hosts;
  std::vector<EagerTensor> ops;
  for (const Shape& s : shapes) {
    hosts.push_back(testing::random_tensor(rng, DType::F64, s));
    ops.push_back(rt->upload(hosts.back()));
  }
  const Tensor whole = prepared(ops).download();
  const std::int64_t n = prepared.num_slices();
  Tensor one_by_one = prepared.run_slices(ops, 0, 1).download();
  for (std::int64_t k = 1; k < n; ++k)
    add_into(one_by_one, prepared.run_slices(ops, k, 1).download());
  Tensor halves = prepared.run_slices(ops, 0, n / 2).download();
  add_into(halves, prepared.run_slices(ops, n / 2, n - n / 2).download());
  const auto want = testing::reference_einsum(subscripts, hosts);
  EXPECT_TRUE(testing::compare_with_reference(whole, want).ok);
  EXPECT_TRUE(testing::compare_with_reference(one_by_one, want).ok);
  EXPECT_TRUE(testing::compare_with_reference(halves, want).ok);
  const Tensor all = prepared.run_slices(ops, 0, n).download();
  for (std::int64_t k = 0; k < whole.numel(); ++k)
    EXPECT_EQ(all.data<double>()[k], whole.data<double>()[k]);

  for (const auto& [first, count] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {-1, 1}, {0, 0}, {0, n + 1}, {n, 1}, {n - 1, 2}}) {
    try {
      prepared.run_slices(ops, first, count);
      ADD_FAILURE() << "range [" << first << ", +" << count << ") was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Validation) << e.what();
    }
  }
}

TEST(EinsumSliceRanges, UnslicedPlanIsOneSlice) {
  const std::vector<Shape> shapes{{3, 4}, {4, 5}};
  std::vector<TensorMeta> metas;
  for (const Shape& s : shapes) metas.push_back({DType::F64, s});
  const PreparedEinsum prepared("ab,bc->ac", metas);
  EXPECT_EQ(prepared.num_slices(), 1);
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(1);
  std::vector<Tensor> hosts;
  std::vector<EagerTensor> ops;
  for (const Shape& s : shapes) {
    hosts.push_back(testing::random_tensor(rng, DType::F64, s));
    ops.push_back(rt->upload(hosts.back()));
  }
  EXPECT_TRUE(testing::compare_with_reference(prepared.run_slices(ops, 0, 1).download(),
                                              testing::reference_einsum("ab,bc->ac", hosts))
                  .ok);
  EXPECT_THROW(prepared.run_slices(ops, 0, 2), Error);
}

}  // namespace
}  // namespace tenferro
