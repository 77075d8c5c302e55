// Einsum execution on the CPU runtime: every semantic of the einsum issue, on all four
// dtypes, checked against the naive reference (tests/support/einsum_reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <random>

#include "backends/cpu/cpu_backend.hpp"
#include "support/einsum_reference.hpp"
#include "support/random_einsum.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using testing::compare_with_reference;
using testing::random_tensor;
using testing::reference_einsum;
using testing::upload_maybe_strided;

struct Case {
  const char* subscripts;
  std::vector<Shape> shapes;
};

enum class Operands { Compact, Permuted, COrdered };

// `host` as NumPy's C-ordered array of its shape: row-major compact (a column-major upload of
// the reversed axes, viewed with the axes reversed back).
EagerTensor upload_c_ordered(const std::shared_ptr<EagerRuntime>& runtime, const Tensor& host) {
  std::vector<std::int64_t> reversed(static_cast<std::size_t>(host.rank()));
  for (std::size_t i = 0; i < reversed.size(); ++i)
    reversed[i] = static_cast<std::int64_t>(reversed.size() - 1 - i);
  return runtime->upload(host.permute(reversed).clone()).permute(reversed);
}

// `host`'s values in `runtime` as a tensor with exactly `like`'s strides (a permutation of a
// compact block, as upload_maybe_strided and upload_c_ordered make): `like`'s axes ordered by
// stride give the column-major block to upload, which is then viewed back.
EagerTensor with_layout_of(const std::shared_ptr<EagerRuntime>& runtime, const Tensor& host,
                           const EagerTensor& like) {
  const std::size_t rank = like.shape().size();
  std::vector<std::int64_t> order(rank);  // axes from the smallest stride up
  for (std::size_t i = 0; i < rank; ++i) order[i] = static_cast<std::int64_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
    return like.strides()[static_cast<std::size_t>(x)] <
           like.strides()[static_cast<std::size_t>(y)];
  });
  std::vector<std::int64_t> back(rank);
  for (std::size_t i = 0; i < rank; ++i) back[static_cast<std::size_t>(order[i])] = std::int64_t(i);
  const EagerTensor t = runtime->upload(host.permute(order).clone()).permute(back);
  // Axes of extent 1 may carry any stride; take `like`'s, which address the same elements.
  TensorLayout layout = t.layout();
  for (std::size_t a = 0; a < rank; ++a) {
    if (layout.shape[a] == 1) layout.strides[a] = like.strides()[a];
  }
  EXPECT_EQ(layout.strides, like.strides())
      << "the warm call's operand is not laid out as the first's";
  return EagerTensor(runtime, t.buffer(), layout);
}

// Axes longer than 1.
int long_axes(const Shape& shape) {
  return static_cast<int>(std::count_if(shape.begin(), shape.end(), [](auto e) { return e > 1; }));
}

// Runs `c` with random operands (compact, permuted views, or C-ordered) and compares with the
// reference, twice: the second call of a plan plays back the kernel calls the first recorded
// (replay.hpp), on other operands of the same strides (the first call's, shifted by an offset
// where the operand is a compact block). On C-ordered operands the result is C-ordered too (NumPy's
// order) whenever an operand and the output have two axes longer than 1 (executor.hpp,
// result_strides), else column-major; both compact.
void expect_case(const Case& c, DType dtype, Operands layout = Operands::Compact,
                 const EinsumOptions& options = {}) {
  auto runtime = EagerRuntime::cpu();
  std::mt19937_64 rng(std::hash<std::string>{}(c.subscripts) + static_cast<unsigned>(dtype));
  std::vector<Tensor> hosts;
  std::vector<EagerTensor> eager;
  bool ordered_operand = false;
  for (const auto& shape : c.shapes) {
    hosts.push_back(random_tensor(rng, dtype, shape));
    if (layout == Operands::COrdered) {
      eager.push_back(upload_c_ordered(runtime, hosts.back()));
      ordered_operand = ordered_operand || long_axes(shape) >= 2;
    } else {
      eager.push_back(
          upload_maybe_strided(runtime, hosts.back(), rng, layout == Operands::Permuted));
    }
  }
  const auto want = reference_einsum(c.subscripts, hosts);
  const EagerTensor result = einsum(c.subscripts, eager, options);
  const char* what = layout == Operands::Compact    ? ": "
                     : layout == Operands::Permuted ? " strided: "
                                                    : " C-ordered: ";
  if (result.numel() > 0) {
    const bool c_order = ordered_operand && long_axes(result.shape()) >= 2;
    const Strides row_major = row_major_strides(result.shape());
    const Strides col_major = col_major_strides(result.shape());
    if (layout == Operands::Permuted) {  // a random permutation may be either order
      EXPECT_TRUE(result.strides() == row_major || result.strides() == col_major)
          << c.subscripts << " " << dtype_name(dtype) << what << "a result that is not compact";
    } else {
      EXPECT_EQ(result.strides(), c_order ? row_major : col_major)
          << c.subscripts << " " << dtype_name(dtype) << what << "result strides";
    }
  }
  const auto agreement = compare_with_reference(result.download(), want);
  EXPECT_TRUE(agreement.ok) << c.subscripts << " " << dtype_name(dtype) << what << agreement.detail;

  // The warm call, on fresh operands of the same strides and new values.
  std::vector<Tensor> hosts2;
  std::vector<EagerTensor> eager2;
  for (std::size_t i = 0; i < c.shapes.size(); ++i) {
    hosts2.push_back(random_tensor(rng, dtype, c.shapes[i]));
    // Same strides as the first call's operand: upload the values laid out as that operand is.
    const EagerTensor& first = eager[i];
    eager2.push_back(first.numel() == 0 ? first : with_layout_of(runtime, hosts2.back(), first));
  }
  const auto want2 = reference_einsum(c.subscripts, hosts2);
  const EagerTensor result2 = einsum(c.subscripts, eager2, options);
  EXPECT_EQ(result2.strides(), result.strides()) << c.subscripts << what << "warm call's strides";
  const auto agreement2 = compare_with_reference(result2.download(), want2);
  EXPECT_TRUE(agreement2.ok) << c.subscripts << " " << dtype_name(dtype) << what
                             << "warm call: " << agreement2.detail;
}

const std::vector<Case>& semantic_cases() {
  static const std::vector<Case> cases = {
      // contractions and GEMM layouts
      {"ij,jk->ik", {{3, 4}, {4, 5}}},
      {"ij,jk", {{3, 4}, {4, 5}}},
      {"ij,jk->ki", {{3, 4}, {4, 5}}},
      {"ji,jk->ik", {{4, 3}, {4, 5}}},
      {"ij,kj->ik", {{3, 4}, {5, 4}}},
      {"ijk,jkl->il", {{2, 3, 4}, {3, 4, 5}}},
      {"abc,cbd->ad", {{2, 3, 4}, {4, 3, 5}}},
      {"i,i->", {{7}, {7}}},
      {"ij,j->i", {{3, 4}, {4}}},
      {"i,ij->j", {{3}, {3, 4}}},
      // batch labels
      {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}},
      {"ijb,jkb->ikb", {{3, 4, 2}, {4, 5, 2}}},
      {"ibj,jkb->kbi", {{3, 2, 4}, {4, 5, 2}}},
      {"bi,bi->b", {{4, 3}, {4, 3}}},
      // Hadamard and outer products
      {"ij,ij->ij", {{3, 4}, {3, 4}}},
      {"ij,ji->ij", {{3, 4}, {4, 3}}},
      {"i,j->ij", {{3}, {4}}},
      {"ij,kl->likj", {{2, 3}, {4, 2}}},
      {"ij,jk->ijk", {{2, 3}, {3, 4}}},
      // traces, diagonals, embedding
      {"ii->", {{4, 4}}},
      {"ii", {{4, 4}}},
      {"ii->i", {{4, 4}}},
      {"iij->ij", {{3, 3, 2}}},
      {"iji->ji", {{3, 2, 3}}},
      {"iii->i", {{3, 3, 3}}},
      {"i->ii", {{3}}},
      {"ij->iji", {{3, 2}}},
      {"ii,ij->j", {{3, 3}, {3, 4}}},
      {"ijji,j->i", {{2, 3, 3, 2}, {3}}},
      // sums and permutations
      {"ijk->", {{2, 3, 4}}},
      {"ijk->i", {{2, 3, 4}}},
      {"ijk->k", {{2, 3, 4}}},
      {"ijk->ki", {{2, 3, 4}}},
      {"ijk->kij", {{2, 3, 4}}},
      {"ij,jk->k", {{3, 4}, {4, 5}}},
      {"ijk,kl->l", {{2, 3, 4}, {4, 5}}},
      // rank 0
      {",->", {{}, {}}},
      {"i,->i", {{3}, {}}},
      {",ij->ji", {{}, {2, 3}}},
      {"->", {{}}},
      // ellipsis and broadcasting
      {"...ij,...jk->...ik", {{2, 3, 4}, {2, 4, 5}}},
      {"...ij,...jk", {{2, 1, 3, 4}, {5, 4, 2}}},
      {"i...,i...->...", {{3, 2, 2}, {3, 1, 2}}},
      {"...,...->...", {{2, 3}, {3}}},
      {"...ii->...i", {{2, 3, 3}}},
      // a lettered label's extent 1 broadcasts against a longer one, as in NumPy: summed, kept,
      // both ways at once, a (1, 1) diagonal, an outer-size batch, and inside networks
      {"ij,ij->i", {{3, 1}, {3, 4}}},
      {"ij,ij->ij", {{3, 1}, {1, 4}}},
      {"ij,jk->ik", {{2, 1}, {3, 4}}},
      {"bij,bjk->bik", {{1, 2, 3}, {4, 3, 2}}},
      {"ii,i->i", {{1, 1}, {3}}},
      {"ij,jk,kl->il", {{2, 3}, {1, 4}, {4, 1}}},
      {"ai,bi,ci->abc", {{2, 1}, {3, 4}, {2, 1}}},
      // several operands
      {"ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}},
      {"ab,bc,cd,da->", {{2, 3}, {3, 4}, {4, 5}, {5, 2}}},
      {"ai,bj,ck,ijk->abc", {{2, 3}, {2, 3}, {2, 3}, {3, 3, 3}}},
      {"ij,ij,ij->i", {{3, 4}, {3, 4}, {3, 4}}},
      // the Einsum Benchmark's structures inside networks (issue #33): hyperedges summed and
      // kept, a global batch label, a Hadamard pair, a trace and a diagonal among contractions
      {"ai,bi,ci->abc", {{2, 4}, {3, 4}, {2, 4}}},
      {"ia,ib,ic,ab->ic", {{4, 2}, {4, 3}, {4, 2}, {2, 3}}},
      {"xab,xbc,xcd,xda->x", {{3, 2, 3}, {3, 3, 2}, {3, 2, 4}, {3, 4, 2}}},
      {"ij,ij,jk,kl->il", {{2, 3}, {2, 3}, {3, 4}, {4, 2}}},
      {"iij,jk,kll->ik", {{3, 3, 2}, {2, 4}, {4, 2, 2}}},
      {"ab,bcc,cd,aa->ad", {{3, 2}, {2, 4, 4}, {4, 3}, {3, 3}}},
      // a contracted label among one operand's free labels: a batched GEMM over the outer free
      // labels with the other operand broadcast (executor.cpp, kMinBatchSlab), either side, and
      // beside a true batch label
      {"abcdefg,d->abcefg", {{8, 8, 8, 3, 2, 2, 2}, {3}}},
      {"d,abcdefg->abcefg", {{3}, {8, 8, 8, 3, 2, 2, 2}}},
      {"abcdx,cx->abdx", {{8, 8, 3, 2, 5}, {3, 5}}},
      {"abcde,cf->abfde", {{8, 8, 3, 2, 2}, {3, 4}}},
      // a matrix-vector step whose larger operand interleaves kept and contracted labels in
      // memory (tree networks): one multiply-sum pass instead of a permuting copy and a GEMM
      // (executor.cpp, multiply_sum_operand), either side, into a permuted output, with a batch
      // label, and with the output's labels in the larger operand's order
      {"kpryzWq,przW->kyq", {{4, 3, 2, 5, 2, 3, 3}, {3, 2, 2, 3}}},
      {"przW,kpryzWq->qky", {{3, 2, 2, 3}, {4, 3, 2, 5, 2, 3, 3}}},
      {"kpbz,pzb->kb", {{5, 3, 4, 6}, {3, 6, 4}}},
      {"kpryzWq,przW,kyq->", {{4, 3, 2, 5, 2, 3, 3}, {3, 2, 2, 3}, {4, 5, 3}}},
      // zero-size extents: an empty contraction gives zeros
      {"ij,jk->ik", {{2, 0}, {0, 3}}},
      {"ij,jk->ik", {{0, 4}, {4, 3}}},
      {"i->", {{0}}},
      {"ij->j", {{0, 3}}},
      {"ij,jk,kl->il", {{2, 3}, {3, 0}, {0, 2}}},
      {"ii->i", {{0, 0}}},
      // extents large enough for the tiled permute and real GEMM blocking
      {"ijk->kji", {{9, 10, 11}}},
      {"ij->ji", {{33, 40}}},
      {"ikj,jkl->il", {{9, 10, 11}, {11, 10, 12}}},
      {"abc,bcd->dab", {{12, 9, 10}, {9, 10, 11}}},
      {"xay,ybx->ab", {{8, 20, 9}, {9, 21, 8}}},
  };
  return cases;
}

class EinsumSemantics : public ::testing::TestWithParam<DType> {};

TEST_P(EinsumSemantics, MatchesReferenceOnCompactOperands) {
  for (const auto& c : semantic_cases()) expect_case(c, GetParam());
}

TEST_P(EinsumSemantics, MatchesReferenceOnPermutedViews) {
  for (const auto& c : semantic_cases()) expect_case(c, GetParam(), Operands::Permuted);
}

// NumPy's arrays: the result comes back C-ordered, and the values are the same.
TEST_P(EinsumSemantics, MatchesReferenceOnCOrderedOperands) {
  for (const auto& c : semantic_cases()) expect_case(c, GetParam(), Operands::COrdered);
  EinsumOptions options;
  options.allow_direct_binary = false;
  for (const auto& c : semantic_cases()) expect_case(c, GetParam(), Operands::COrdered, options);
}

TEST_P(EinsumSemantics, NaryPathMatchesWithoutDirectBinary) {
  EinsumOptions options;
  options.allow_direct_binary = false;
  for (const auto& c : semantic_cases()) expect_case(c, GetParam(), Operands::Compact, options);
}

// Intermediates laid out for the step that consumes them (executor.cpp, next_contracted): the
// first step's result holds 2^16 elements (above kLookAheadElements) and the second step
// contracts two of its labels. In "bac,cde,bd->ae" they are gathered at the end of a group (X
// permute-copied to get there); in "cba,ced,bd->ae" the result is written transposed
// ([right, left], right_first) with no copy. The explicit path makes X.Y the first step.
TEST_P(EinsumSemantics, IntermediatesLaidOutForTheNextStep) {
  EinsumOptions options;
  options.strategy = PathStrategy::Explicit;
  options.path = {{0, 1}, {0, 1}};
  const std::vector<Case> cases = {
      {"bac,cde,bd->ae", {{8, 32, 4}, {4, 8, 32}, {8, 8}}},
      {"cba,ced,bd->ae", {{4, 8, 32}, {4, 32, 8}, {8, 8}}},
  };
  for (const auto& c : cases)
    for (const Operands layout : {Operands::Compact, Operands::Permuted, Operands::COrdered})
      expect_case(c, GetParam(), layout, options);
}

// A matrix-vector step into an intermediate (executor.cpp, multiply_sum_step) whose smaller
// operand has a free label of extent 1 that the larger lacks: the intermediate's labels are
// ordered by the larger operand's strides, and that label has none there (it was read from
// before the larger's first axis; with rank 7 its shape is on the heap, which AddressSanitizer
// reported). Found by an adversarial run over random networks.
TEST_P(EinsumSemantics, MatrixVectorStepWithAnExtentOneFreeLabel) {
  EinsumOptions options;
  options.strategy = PathStrategy::Explicit;
  options.path = {{0, 1}, {0, 1}};
  const Case c{"ajbdefg,jx,xc->abdefgc", {{2, 3, 2, 2, 2, 2, 2}, {3, 1}, {1, 2}}};
  for (const Operands layout : {Operands::Compact, Operands::Permuted, Operands::COrdered})
    expect_case(c, GetParam(), layout, options);
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, EinsumSemantics,
                         ::testing::Values(DType::F32, DType::F64, DType::C32, DType::C64),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

// A few results written out by hand, so the reference itself is anchored.
TEST(EinsumExact, TraceMatmulAndEmbedding) {
  auto rt = EagerRuntime::cpu();
  const auto a = rt->upload(Tensor::from_row_major<double>({2, 2}, {1, 2, 3, 4}));
  const auto b = rt->upload(Tensor::from_row_major<double>({2, 2}, {5, 6, 7, 8}));
  EXPECT_EQ(einsum("ii->", {a}).download().to_vector<double>(), std::vector<double>{5});
  // [[1,2],[3,4]] @ [[5,6],[7,8]] = [[19,22],[43,50]] (column-major: 19, 43, 22, 50)
  EXPECT_EQ(einsum("ij,jk->ik", {a, b}).download().to_vector<double>(),
            (std::vector<double>{19, 43, 22, 50}));
  EXPECT_EQ(einsum("ij,jk->ki", {a, b}).download().to_vector<double>(),
            (std::vector<double>{19, 22, 43, 50}));
  const auto v = rt->upload(Tensor::from_col_major<double>({2}, {3, 4}));
  EXPECT_EQ(einsum("i->ii", {v}).download().to_vector<double>(), (std::vector<double>{3, 0, 0, 4}));
  const auto e1 = rt->upload(Tensor::zeros(DType::F64, {2, 0}));
  const auto e2 = rt->upload(Tensor::zeros(DType::F64, {0, 3}));
  const Tensor empty = einsum("ij,jk->ik", {e1, e2}).download();
  EXPECT_EQ(empty.shape(), (Shape{2, 3}));
  EXPECT_EQ(empty.to_vector<double>(), std::vector<double>(6, 0.0));
}

TEST(EinsumExact, ComplexIsNotConjugated) {
  using C = std::complex<double>;
  auto rt = EagerRuntime::cpu();
  const auto a = rt->upload(Tensor::from_col_major<C>({2}, {C(1, 2), C(0, 1)}));
  // (1+2i)^2 + i^2 = -3+4i - 1 = -4+4i
  EXPECT_EQ(einsum("i,i->", {a, a}).download().to_vector<C>(), std::vector<C>{C(-4, 4)});
}

// A plan's DirectGemm (direct_gemm.hpp) is chosen by the operands' strides alone: operands that
// are compact blocks of a larger tensor (a slice along its last axis, column-major, or its
// first, C-ordered) match it with an offset, which the GEMM must honour. Every dtype, warm and
// cold, against the reference of the slices themselves.
TEST(EinsumExact, DirectGemmOfCompactSlicesHonoursTheirOffsets) {
  struct Sliced {
    const char* subscripts;
    Shape a, b;
  };
  const Sliced cases[] = {{"ij,jk->ik", {3, 4}, {4, 5}},
                          {"ij,kj->ik", {3, 4}, {5, 4}},
                          {"ijb,jkb->ikb", {3, 4, 2}, {4, 5, 2}},
                          {"ij,j->i", {3, 4}, {4}},
                          {"abc,cd->abd", {2, 3, 4}, {4, 1}}};
  for (DType dtype : {DType::F32, DType::F64, DType::C32, DType::C64}) {
    for (const bool c_order : {false, true}) {
      auto rt = EagerRuntime::cpu();
      std::mt19937_64 rng(7 + static_cast<unsigned>(dtype));
      // Block `pick` of three stacked copies: the last axis (column-major) or the first
      // (C order) of a larger tensor, so the slice is compact with a nonzero offset.
      const auto slice_of = [&](const Shape& shape, Tensor& host) {
        Shape big = shape;
        if (c_order) {
          big.insert(big.begin(), 3);
        } else {
          big.push_back(3);
        }
        const Tensor whole = random_tensor(rng, dtype, big);
        const EagerTensor up = c_order ? upload_c_ordered(rt, whole) : rt->upload(whole);
        std::vector<prims::Slice> s;
        for (std::int64_t e : big) s.push_back({0, e, 1});
        s[c_order ? 0 : s.size() - 1] = {1, 2, 1};
        EagerTensor piece = prims::reshape(prims::slice(up, s), shape);
        host = piece.download();
        return piece;
      };
      for (const Sliced& c : cases) {
        Tensor ha, hb;
        const EagerTensor a = slice_of(c.a, ha), b = slice_of(c.b, hb);
        ASSERT_GT(a.layout().offset, 0) << c.subscripts;
        const Strides want_a = c_order ? row_major_strides(c.a) : col_major_strides(c.a);
        ASSERT_EQ(a.strides(), want_a) << c.subscripts << ": the slice is not a compact view";
        const std::vector<Tensor> hosts{ha, hb};
        const auto want = reference_einsum(c.subscripts, hosts);
        for (int call = 0; call < 2; ++call) {  // the first plans, the second is warm
          const auto agreement =
              compare_with_reference(einsum(c.subscripts, {a, b}).download(), want);
          EXPECT_TRUE(agreement.ok) << c.subscripts << " " << dtype_name(dtype)
                                    << (c_order ? " C-ordered" : " column-major") << " call "
                                    << call << ": " << agreement.detail;
        }
      }
    }
  }
}

// Enough small GEMMs that the CPU kernels split the batch over threads (when OpenBLAS may
// use more than one); checked against a plain triple loop.
TEST(EinsumExact, LargeBatchOfSmallGemms) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(21);
  const std::int64_t n = 16, batch = 2100;
  const Tensor a = random_tensor(rng, DType::F64, {n, n, batch});
  const Tensor b = random_tensor(rng, DType::F64, {n, n, batch});
  const Tensor got = einsum("ijb,jkb->ikb", {rt->upload(a), rt->upload(b)}).download();
  const auto av = a.to_vector<double>(), bv = b.to_vector<double>(), gv = got.to_vector<double>();
  double worst = 0;
  for (std::int64_t q = 0; q < batch; ++q)
    for (std::int64_t k = 0; k < n; ++k)
      for (std::int64_t i = 0; i < n; ++i) {
        double want = 0, mag = 0;
        for (std::int64_t j = 0; j < n; ++j) {
          const double t = av[static_cast<std::size_t>(i + n * j + n * n * q)] *
                           bv[static_cast<std::size_t>(j + n * k + n * n * q)];
          want += t;
          mag += std::abs(t);
        }
        worst =
            std::max(worst, std::abs(gv[static_cast<std::size_t>(i + n * k + n * n * q)] - want) /
                                (mag + 1));
      }
  EXPECT_LE(worst, testing::reference_tolerance(DType::F64));
}

TEST(EinsumOptionsTest, ExplicitGreedyAndOptimalPathsAgree) {
  const Case chain{"ab,bc,cd,de->ae", {{2, 3}, {3, 4}, {4, 5}, {5, 2}}};
  for (auto strategy : {PathStrategy::Auto, PathStrategy::Greedy, PathStrategy::Optimal}) {
    EinsumOptions o;
    o.strategy = strategy;
    expect_case(chain, DType::F64, Operands::Compact, o);
  }
  EinsumOptions explicit_path;
  explicit_path.strategy = PathStrategy::Explicit;
  explicit_path.path = {{2, 3}, {0, 2}, {0, 1}};
  expect_case(chain, DType::F64, Operands::Compact, explicit_path);
}

TEST(EinsumLabelsForm, MatchesSubscripts) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(5);
  const Tensor a = random_tensor(rng, DType::F64, {3, 4}),
               b = random_tensor(rng, DType::F64, {4, 5});
  const std::vector<EagerTensor> ops{rt->upload(a), rt->upload(b)};
  EinsumLabels labels{{{0, 7}, {7, 2}}, {2, 0}};
  const Tensor got = einsum(labels, ops).download();
  const std::vector<Tensor> hosts{a, b};
  EXPECT_TRUE(compare_with_reference(got, reference_einsum("ij,jk->ki", hosts)).ok);
}

TEST(PreparedEinsumTest, RunsAndChecksOperands) {
  auto rt = EagerRuntime::cpu();
  std::mt19937_64 rng(9);
  const Tensor a = random_tensor(rng, DType::C32, {3, 4}),
               b = random_tensor(rng, DType::C32, {4, 5}),
               c = random_tensor(rng, DType::C32, {5, 2});
  const std::vector<TensorMeta> metas{
      {DType::C32, {3, 4}}, {DType::C32, {4, 5}}, {DType::C32, {5, 2}}};
  const PreparedEinsum prepared("ij,jk,kl->il", metas);
  EXPECT_EQ(prepared.path().steps.size(), 2u);
  const std::vector<EagerTensor> ops{rt->upload(a), rt->upload(b), rt->upload(c)};
  const std::vector<Tensor> hosts{a, b, c};
  const auto want = reference_einsum("ij,jk,kl->il", hosts);
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(compare_with_reference(prepared(ops).download(), want).ok);
  const std::vector<EagerTensor> wrong{rt->upload(a), rt->upload(b), rt->upload(a)};
  try {
    prepared(wrong);
    FAIL() << "a wrong shape must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
    EXPECT_NE(e.message().find("operand 2"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace tenferro
