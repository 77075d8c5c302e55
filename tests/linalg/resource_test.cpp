// A linalg result no host could hold is a typed Resource error, refused before allocating,
// and the runtime then runs a normal call: the full SVD of a (0, 2^20) matrix asks for an
// [n, n] Vh of 2^40 doubles (8 TiB) although its input is empty.
#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

TEST(LinalgResource, FullSvdOfAnEmptyWideMatrixIsAResourceError) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor empty = rt->upload(Tensor::zeros(DType::F64, {0, std::int64_t{1} << 20}));
  la::SvdOptions full;
  full.full_matrices = true;
  try {
    (void)la::svd(empty, full);
    ADD_FAILURE() << "an 8 TiB Vh was allocated";
  } catch (const tenferro::ResourceError& e) {
    EXPECT_EQ(e.kind(), tenferro::ErrorKind::Resource);
    EXPECT_EQ(e.op(), "linalg.svd");
    EXPECT_EQ(e.requested_bytes(), (std::uint64_t{1} << 40) * 8);
    ASSERT_TRUE(e.available_bytes().has_value());
    EXPECT_LT(*e.available_bytes(), e.requested_bytes());
  }

  // The same runtime: the thin SVD of the same input is empty, and a small one is right.
  EXPECT_EQ(la::svd(empty).vh.shape(), (Shape{0, std::int64_t{1} << 20}));
  const EagerTensor a = rt->upload(Tensor::from_col_major<double>({2, 2}, {3, 0, 0, -2}));
  EXPECT_EQ(la::svd(a).s.download().to_vector<double>(), (std::vector<double>{3, 2}));
}

}  // namespace
