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

// CPU linalg outputs come from the runtime's block cache, whose block may be larger than the
// output (a block within 1/8 of the size asked is reused). The output's buffer must still end
// where its data does: the public EagerTensor constructor holds other views of a buffer to its
// size, and a view reaching past the data would read an earlier tensor's bytes. A freed 36 KiB
// block is left for Q (64 x 64 doubles, 32 KiB) to reuse; fails when the host storage the
// output is adopted from is the whole block (checked).
TEST(LinalgResource, OutputsFromCachedBlocksEndWhereTheirDataEnds) {
  auto rt = tenferro::EagerRuntime::cpu();
  const EagerTensor a = rt->upload(random_tensor(DType::F64, {64, 64}, 7));
  { const EagerTensor seed = rt->upload(Tensor::zeros(DType::F64, {36 * 128})); }
  const la::QrResult qr = la::qr(a);
  for (const EagerTensor* out : {&qr.q, &qr.r}) {
    EXPECT_EQ(out->buffer()->size_bytes(), static_cast<std::size_t>(out->numel()) * 8);
    tenferro::TensorLayout past = out->layout();
    past.shape = Shape{out->numel() + 1};
    past.strides = tenferro::Strides{1};
    try {
      (void)EagerTensor(rt, out->buffer(), past);
      ADD_FAILURE() << "a view one element past the output was accepted";
    } catch (const tenferro::Error& e) {
      EXPECT_EQ(e.kind(), tenferro::ErrorKind::Validation) << e.what();
    }
  }
}

}  // namespace
