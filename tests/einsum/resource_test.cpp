// An einsum whose result no host could hold is a typed Resource error (not std::bad_alloc, not
// an AddressSanitizer abort), and the runtime then runs a normal einsum: on the general path
// (an outer product) and on the direct binary-dot path.
#include <gtest/gtest.h>

#include "support/expect_resource_error.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

using testing::expect_resource_error;

void expect_small_einsum_works(const std::shared_ptr<EagerRuntime>& rt) {
  const EagerTensor a = rt->upload(Tensor::from_col_major<double>({2, 2}, {1, 2, 3, 4}));
  const EagerTensor b = rt->upload(Tensor::from_col_major<double>({2}, {5, 6}));
  // a = [[1, 3], [2, 4]] (column-major), a b = [1*5 + 3*6, 2*5 + 4*6].
  EXPECT_EQ(einsum("ij,j->i", {a, b}).download().to_vector<double>(),
            (std::vector<double>{23, 34}));
}

TEST(EinsumResource, HugeOuterProductIsAResourceError) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor a = rt->upload(Tensor::zeros(DType::F64, {1000, 1000}));
  // 10^12 doubles = 8 TB.
  const ResourceError e = expect_resource_error([&] { (void)einsum("ij,kl->ijkl", {a, a}); });
  EXPECT_EQ(e.op(), "einsum");
  EXPECT_EQ(e.requested_bytes(), std::uint64_t{1000000000000} * 8);
  expect_small_einsum_works(rt);
}

TEST(EinsumResource, HugeDirectBinaryDotIsAResourceError) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor a = rt->upload(Tensor::zeros(DType::F64, {2000000, 1}));
  const EagerTensor b = rt->upload(Tensor::zeros(DType::F64, {1, 2000000}));
  // [2e6, 2e6] doubles = 32 TB.
  const ResourceError e = expect_resource_error([&] { (void)einsum("ij,jk->ik", {a, b}); });
  EXPECT_EQ(e.op(), "einsum");
  EXPECT_EQ(e.requested_bytes(), std::uint64_t{4000000000000} * 8);
  EXPECT_EQ(rt->stats().module_installs, 0u) << "the direct path installs no module";
  expect_small_einsum_works(rt);
}

}  // namespace
}  // namespace tenferro
