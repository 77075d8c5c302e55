// The Krylov basis writes its columns in place into preallocated storage: appended columns
// read back exactly, the storage grows past the caller's capacity without losing columns, and
// a column handed out never changes afterwards (a rotation writes new storage).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "krylov/krylov_matrices.hpp"
#include "ops/krylov/basis.hpp"
#include "ops/krylov/vector_space.hpp"

namespace tenferro::krylov_test {
namespace {

constexpr std::int64_t kDim = 7;

class KrylovBasis : public ::testing::Test {
 protected:
  std::shared_ptr<EagerRuntime> rt = EagerRuntime::cpu();
  EagerTensor like = prims::zeros(rt, DType::F64, Shape{kDim});
  krylov_internal::VectorSpace space{"krylov.test", [](const EagerTensor& x) { return x; }, like,
                                     DType::F64};

  // The unit vector e_i as a flat working vector.
  EagerTensor unit(std::int64_t i) {
    std::vector<cplx> v(kDim, 0.0);
    v[static_cast<std::size_t>(i)] = 1.0;
    return rt->upload(host_vector(DType::F64, v));
  }
};

std::vector<double> values_of(const EagerTensor& t) {
  const Tensor host = t.download();
  std::vector<double> out;
  for (std::int64_t i = 0; i < host.numel(); ++i) out.push_back(host.at<double>({i}));
  return out;
}

std::vector<double> unit_values(std::int64_t i) {
  std::vector<double> v(kDim, 0.0);
  v[static_cast<std::size_t>(i)] = 1.0;
  return v;
}

// A projection's coefficients, norm and orthogonalised vector against the expected ones.
void expect_projection(const krylov_internal::Projection& p, const std::vector<double>& h,
                       double beta, const std::vector<double>& w, double h_tol = 1e-15) {
  ASSERT_EQ(p.h.size(), h.size());
  for (std::size_t i = 0; i < h.size(); ++i) EXPECT_NEAR(p.h[i].real(), h[i], h_tol) << i;
  EXPECT_NEAR(p.beta, beta, 1e-14);
  const std::vector<double> rest = values_of(p.w);
  ASSERT_EQ(rest.size(), w.size());
  for (std::size_t i = 0; i < rest.size(); ++i) EXPECT_NEAR(rest[i], w[i], 1e-15) << i;
}

TEST_F(KrylovBasis, ColumnsReadBackPastTheCapacity) {
  krylov_internal::Basis basis(space, 2);  // appends beyond 2 columns grow the storage
  basis.reset(unit(0));
  for (std::int64_t i = 1; i < 5; ++i) basis.append(unit(i));
  ASSERT_EQ(basis.size(), 5);
  for (std::int64_t i = 0; i < 5; ++i) EXPECT_EQ(values_of(basis.column(i)), unit_values(i)) << i;
  // V y with y = (1, 2, 3, 4, 5): reads every column of the grown storage.
  const EagerTensor v = basis.combine({1.0, 2.0, 3.0, 4.0, 5.0}, 5);
  EXPECT_EQ(values_of(v), (std::vector<double>{1, 2, 3, 4, 5, 0, 0}));
}

TEST_F(KrylovBasis, OrthogonalizeAgainstTheWrittenColumns) {
  krylov_internal::Basis basis(space, 4);
  basis.reset(unit(0));
  basis.append(unit(2));
  const EagerTensor w = rt->upload(host_vector(DType::F64, {1, 2, 3, 4, 0, 0, 0}));
  expect_projection(basis.orthogonalize(w), {1, 3}, std::sqrt(4.0 + 16.0), {0, 2, 0, 4, 0, 0, 0});
}

// The Lanczos step (w = A v_j for a Hermitian A: alpha v_j and beta v_{j-1} first, then one
// CGS pass) gives the same projection as CGS2 in one scalar read. The basis is (e0, e2, e3)
// with v_{j-1} = e2 appended with norm 2.5.
TEST_F(KrylovBasis, LanczosStepGivesTheFullProjectionInOneRead) {
  krylov_internal::Basis basis(space, 4);
  basis.reset(unit(0));
  basis.append(unit(2));
  basis.append(unit(3));
  const EagerTensor w = rt->upload(host_vector(DType::F64, {1, 2, 3, 4, 5, 0, 0}));
  const std::uint64_t reads = rt->stats().scalar_reads;
  const krylov_internal::Projection p = basis.orthogonalize_lanczos(w, 2.5);
  EXPECT_EQ(rt->stats().scalar_reads - reads, 1u);
  // h[1]: 2.5 from the recurrence, 0.5 from the pass.
  expect_projection(p, {1, 3, 4}, std::sqrt(4.0 + 25.0), {0, 2, 0, 0, 5, 0, 0});
}

// When the recurrence leaves most of w on older columns (an operator that is not Hermitian, or
// lost orthogonality), the one pass removes most of the norm and DGKS asks for a second pass:
// the projection is still exact, in two reads.
TEST_F(KrylovBasis, LanczosStepTakesASecondPassWhenTheRecurrenceMissedMost) {
  krylov_internal::Basis basis(space, 4);
  basis.reset(unit(0));
  basis.append(unit(2));
  basis.append(unit(3));
  // 100 on e0, which the recurrence (alpha on e3, 0.5 on e2) does not see.
  const EagerTensor w = rt->upload(host_vector(DType::F64, {100, 0, 0.5, 7, 1e-3, 0, 2e-3}));
  const std::uint64_t reads = rt->stats().scalar_reads;
  const krylov_internal::Projection p = basis.orthogonalize_lanczos(w, 0.5);
  EXPECT_EQ(rt->stats().scalar_reads - reads, 2u);
  EXPECT_NEAR(p.beta, std::sqrt(1e-6 + 4e-6), 1e-15);
  expect_projection(p, {100, 0.5, 7}, std::sqrt(1e-6 + 4e-6), {0, 0, 0, 0, 1e-3, 0, 2e-3}, 1e-13);
}

TEST_F(KrylovBasis, HandedOutColumnsSurviveRotationAndLaterAppends) {
  krylov_internal::Basis basis(space, 3);
  basis.reset(unit(0));
  basis.append(unit(1));
  basis.append(unit(2));
  const EagerTensor first = basis.column(0);  // a view of the storage
  // Keep V C with C = [[0, 1], [1, 0], [0, 0]] (columns swapped), then append e_5.
  basis.rotate({0.0, 1.0, 0.0, 1.0, 0.0, 0.0}, 3, 2, unit(5));
  ASSERT_EQ(basis.size(), 3);
  basis.append(unit(6));
  EXPECT_EQ(values_of(basis.column(0)), unit_values(1));
  EXPECT_EQ(values_of(basis.column(1)), unit_values(0));
  EXPECT_EQ(values_of(basis.column(2)), unit_values(5));
  EXPECT_EQ(values_of(basis.column(3)), unit_values(6));
  EXPECT_EQ(values_of(first), unit_values(0));
}

}  // namespace
}  // namespace tenferro::krylov_test
