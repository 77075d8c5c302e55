// The prims views (permute, transpose, reshape, slice, diagonal, broadcast_to: metadata over the
// same buffer) and the layout ops that copy inside the runtime (contiguous, concatenate, stack),
// against NumPy's rules written out in the test. Every runtime kind.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsViews : public PrimsRuntimeTest {};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsViews);

using prims::Slice;

Ref with_shape(Ref r, Shape s) {
  r.shape = std::move(s);  // column-major reshape keeps the linear order
  return r;
}

// NumPy's diagonal: axes a and b removed, the diagonal appended last; element i reads
// index i on axis a and i + offset on axis b (offset < 0: -offset + i on axis a, i on axis b).
Ref diagonal_ref(const Ref& x, std::int64_t offset, std::size_t a, std::size_t b) {
  const std::int64_t ra = offset >= 0 ? 0 : -offset, rb = offset >= 0 ? offset : 0;
  const std::int64_t len = std::max<std::int64_t>(0, std::min(x.shape[a] - ra, x.shape[b] - rb));
  Ref r{x.dtype, {}, {}};
  for (std::size_t i = 0; i < x.shape.size(); ++i) {
    if (i != a && i != b) r.shape.push_back(x.shape[i]);
  }
  r.shape.push_back(len);
  const std::int64_t n = ref_numel(r.shape);
  for (std::int64_t k = 0; k < n; ++k) {
    const auto o = unravel(k, r.shape);
    std::vector<std::int64_t> idx(x.shape.size());
    std::size_t j = 0;
    for (std::size_t i = 0; i < x.shape.size(); ++i) {
      if (i != a && i != b) idx[i] = o[j++];
    }
    idx[a] = ra + o.back();
    idx[b] = rb + o.back();
    r.v.push_back(x.v[static_cast<std::size_t>(ravel(idx, x.shape))]);
  }
  return r;
}

Ref broadcast_to_ref(const Ref& x, const Shape& shape) {
  Ref r{x.dtype, shape, {}};
  for (std::int64_t k = 0; k < ref_numel(shape); ++k)
    r.v.push_back(broadcast_read(x, unravel(k, shape)));
  return r;
}

// Concatenation along `axis` of pieces already promoted to `dtype`.
Ref concat_ref(const std::vector<Ref>& xs, std::size_t axis, DType dtype) {
  Ref r{dtype, xs[0].shape, {}};
  r.shape[axis] = 0;
  for (const Ref& x : xs) r.shape[axis] += x.shape[axis];
  for (std::int64_t k = 0; k < ref_numel(r.shape); ++k) {
    auto idx = unravel(k, r.shape);
    std::size_t piece = 0;
    while (idx[axis] >= xs[piece].shape[axis]) idx[axis] -= xs[piece++].shape[axis];
    r.v.push_back(
        round_to(dtype, xs[piece].v[static_cast<std::size_t>(ravel(idx, xs[piece].shape))]));
  }
  return r;
}

bool same_buffer(const EagerTensor& a, const EagerTensor& b) {
  return a.buffer() == b.buffer();
}

TEST_P(PrimsViews, PermuteAndTransposeAreViews) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref x = random_ref(d, {2, 3, 4}, 71);
    const EagerTensor ex = up(x);
    const std::vector<std::int64_t> perm{1, 2, 0};
    const EagerTensor p = prims::permute(ex, perm);
    EXPECT_TRUE(same_buffer(p, ex));
    EXPECT_TRUE(identical(down(p), permute_ref(x, perm)));
    EXPECT_TRUE(identical(down(prims::transpose(ex)), permute_ref(x, {1, 0, 2})));
    EXPECT_TRUE(identical(down(prims::transpose(ex, -1, 0)), permute_ref(x, {2, 1, 0})));
    EXPECT_TRUE(same_buffer(prims::transpose(ex, 1, 2), ex));
  }
  const EagerTensor x = up(random_ref(DType::F32, {2, 3}, 72));
  const std::vector<std::int64_t> bad1{0, 0}, bad2{0}, bad3{0, 2};
  for (const auto* bad : {&bad1, &bad2, &bad3}) {
    EXPECT_TRUE(throws_kind([&] { (void)prims::permute(x, *bad); }, ErrorKind::Validation));
  }
  EXPECT_TRUE(throws_kind([&] { (void)prims::transpose(x, 0, 2); }, ErrorKind::Validation));
}

TEST_P(PrimsViews, ReshapeIsColumnMajorAndAViewWhenStridesAllow) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref x = random_ref(d, {2, 3, 4}, 73);
    const EagerTensor ex = up(x);
    const EagerTensor r = prims::reshape(ex, {6, 4});
    EXPECT_TRUE(same_buffer(r, ex));
    EXPECT_TRUE(identical(down(r), with_shape(x, {6, 4})));
    EXPECT_EQ(prims::reshape(ex, {-1, 4}).shape(), (Shape{6, 4}));
    EXPECT_EQ(prims::reshape(ex, {2, -1}).shape(), (Shape{2, 12}));
    EXPECT_TRUE(identical(down(prims::reshape(ex, {-1})), with_shape(x, {24})));
    EXPECT_TRUE(identical(down(prims::reshape(ex, {4, 1, 6})), with_shape(x, {4, 1, 6})));

    // A slice along the last axis keeps the first two axes one strided run: still a view.
    const Slice last[] = {{}, {}, {1, 3, 1}};
    const EagerTensor s = prims::slice(ex, last);  // [2, 3, 2]
    const EagerTensor rs = prims::reshape(s, {6, 2});
    EXPECT_TRUE(same_buffer(rs, ex));
    EXPECT_TRUE(identical(down(rs), with_shape(slice_ref(x, 2, 1, 3, 1), {6, 2})));

    // A transposed tensor cannot be read in column-major order without a copy.
    const EagerTensor t = prims::transpose(ex, 0, 1);  // [3, 2, 4]
    EXPECT_TRUE(throws_kind(
        [&] {
          (void)prims::reshape(t, {6, 4});
        },
        ErrorKind::Validation, {"contiguous"}));
    const EagerTensor c = prims::reshape(prims::contiguous(t), {6, 4});
    EXPECT_TRUE(identical(down(c), with_shape(permute_ref(x, {1, 0, 2}), {6, 4})));
  }
  const EagerTensor x = up(random_ref(DType::F32, {2, 3}, 74));
  for (const Shape& bad : {Shape{7}, Shape{4, -1}, Shape{-1, -1}, Shape{2, -2, 3}, Shape{5, 2}}) {
    EXPECT_TRUE(throws_kind([&] { (void)prims::reshape(x, bad); }, ErrorKind::Validation))
        << shape_to_string(bad);
  }
}

TEST_P(PrimsViews, SliceFollowsPythonRules) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref x = random_ref(d, {7, 5}, 75);
    const EagerTensor ex = up(x);
    struct Case {
      Slice s;
      std::int64_t start, stop;  // the same slice with Python's defaults filled in
    };
    const Case cases[] = {{{1, 5, 1}, 1, 5},
                          {{-3, std::nullopt, 1}, -3, 7},
                          {{std::nullopt, -2, 2}, 0, -2},
                          {{-100, 100, 3}, -100, 100},
                          {{4, 2, 1}, 4, 2},
                          {{2, 2, 1}, 2, 2},
                          {{6, std::nullopt, 4}, 6, 7},
                          {{-1, -5, 1}, -1, -5}};
    for (const Case& c : cases) {
      SCOPED_TRACE("start " + std::to_string(c.start) + " stop " + std::to_string(c.stop) +
                   " step " + std::to_string(c.s.step));
      const Slice on_rows[] = {c.s};  // trailing axis taken whole
      const EagerTensor v = prims::slice(ex, on_rows);
      EXPECT_TRUE(same_buffer(v, ex));
      EXPECT_TRUE(identical(down(v), slice_ref(x, 0, c.start, c.stop, c.s.step)));
      const Slice on_cols[] = {{}, c.s};
      EXPECT_TRUE(
          identical(down(prims::slice(ex, on_cols)), slice_ref(x, 1, c.start, c.stop, c.s.step)));
    }
    // Slices of slices compose.
    const Slice first[] = {{1, std::nullopt, 2}, {-4, std::nullopt, 1}};
    const Slice second[] = {{std::nullopt, std::nullopt, 2}, {1, 3, 1}};
    const Ref want = slice_ref(
        slice_ref(slice_ref(slice_ref(x, 0, 1, 7, 2), 1, -4, 5, 1), 0, 0, 100, 2), 1, 1, 3, 1);
    EXPECT_TRUE(identical(down(prims::slice(prims::slice(ex, first), second)), want));
  }
  const EagerTensor x = up(random_ref(DType::F32, {3, 3}, 76));
  const Slice zero_step[] = {{0, 3, 0}};
  const Slice negative_step[] = {{std::nullopt, std::nullopt, -1}};
  const Slice too_many[] = {{}, {}, {}};
  EXPECT_TRUE(throws_kind([&] { (void)prims::slice(x, zero_step); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::slice(x, negative_step); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::slice(x, too_many); }, ErrorKind::Validation));
}

TEST_P(PrimsViews, DiagonalWithOffsetsAndAxes) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref m = random_ref(d, {3, 5}, 77);
    const EagerTensor em = up(m);
    for (std::int64_t offset : {0, 1, 2, 4, 5, 7, -1, -2, -3, -6}) {
      SCOPED_TRACE("offset " + std::to_string(offset));
      const EagerTensor dg = prims::diagonal(em, offset);
      EXPECT_TRUE(identical(down(dg), diagonal_ref(m, offset, 0, 1)));
      EXPECT_TRUE(
          identical(down(prims::diagonal(em, offset, 1, 0)), diagonal_ref(m, offset, 1, 0)));
    }
    EXPECT_TRUE(same_buffer(prims::diagonal(em, 1), em));
    const Ref t = random_ref(d, {2, 3, 4}, 78);
    const EagerTensor et = up(t);
    EXPECT_TRUE(identical(down(prims::diagonal(et, 0, 1, 2)), diagonal_ref(t, 0, 1, 2)));
    EXPECT_TRUE(identical(down(prims::diagonal(et, 1, 0, 2)), diagonal_ref(t, 1, 0, 2)));
    EXPECT_TRUE(identical(down(prims::diagonal(et, -1, -1, 0)), diagonal_ref(t, -1, 2, 0)));
  }
  const EagerTensor x = up(random_ref(DType::F32, {3, 3}, 79));
  EXPECT_TRUE(throws_kind([&] { (void)prims::diagonal(x, 0, 0, 0); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::diagonal(x, 0, 0, 2); }, ErrorKind::Validation));
}

TEST_P(PrimsViews, BroadcastToIsAStrideZeroView) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref x = random_ref(d, {3, 1}, 80);
    const EagerTensor ex = up(x);
    const EagerTensor b = prims::broadcast_to(ex, {2, 3, 4});
    EXPECT_TRUE(same_buffer(b, ex));
    EXPECT_EQ(b.strides()[0], 0);
    EXPECT_EQ(b.strides()[2], 0);
    EXPECT_TRUE(identical(down(b), broadcast_to_ref(x, {2, 3, 4})));
    const Ref s = random_ref(d, {}, 81);
    EXPECT_TRUE(identical(down(prims::broadcast_to(up(s), {2, 2})), broadcast_to_ref(s, {2, 2})));
    const Ref one = random_ref(d, {1}, 82);
    EXPECT_EQ(prims::broadcast_to(up(one), {0}).shape(), Shape{0});
  }
  const EagerTensor x = up(random_ref(DType::F32, {2, 3}, 83));
  EXPECT_TRUE(throws_kind(
      [&] {
        (void)prims::broadcast_to(x, {2, 4});
      },
      ErrorKind::Validation, {"axis"}));
  EXPECT_TRUE(throws_kind([&] { (void)prims::broadcast_to(x, {3}); }, ErrorKind::Validation));
}

// contiguous: a compact column-major copy made inside the runtime (no transfer), or x itself.
TEST_P(PrimsViews, ContiguousCopiesInsideTheRuntime) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref x = random_ref(d, {3, 4, 5}, 84);
    const EagerTensor ex = up(x);
    const std::vector<std::int64_t> perm{2, 0, 1};
    const Slice steps[] = {{1, std::nullopt, 2}, {}, {0, 5, 2}};
    const EagerTensor view = prims::slice(prims::permute(ex, perm), steps);  // [2, 3, 2]
    ASSERT_FALSE(view.layout().is_compact());
    const RuntimeStats before = rt_->stats();
    const EagerTensor c = prims::contiguous(view);
    const RuntimeStats after = rt_->stats();
    EXPECT_EQ(after.uploads, before.uploads);
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_TRUE(c.layout().is_compact());
    EXPECT_FALSE(same_buffer(c, ex));
    EXPECT_EQ(c.placement(), ex.placement());
    const Ref want = slice_ref(slice_ref(permute_ref(x, perm), 0, 1, 5, 2), 2, 0, 5, 2);
    EXPECT_TRUE(identical(down(c), want));
    // Already compact: the same value back, no copy.
    EXPECT_TRUE(same_buffer(prims::contiguous(ex), ex));
    // Broadcast views materialise every repeated element.
    const Ref y = random_ref(d, {1, 3}, 85);
    EXPECT_TRUE(identical(down(prims::contiguous(prims::broadcast_to(up(y), {2, 3}))),
                          broadcast_to_ref(y, {2, 3})));
  }
}

// Element-wise results take the memory order of their first input of the whole output shape
// (NumPy's order K): a C-ordered operand (a reversed-axes view here, as NumPy's arrays arrive
// from Python) gives a C-ordered result, so the operands walk one dense block in one order.
// Column-major inputs, inputs that are all broadcast, and casts give column-major results.
TEST_P(PrimsViews, ElementwiseResultsFollowTheInputsMemoryOrder) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref x = random_ref(d, {4, 3, 5}, 91), y = random_ref(d, {4, 3, 5}, 92);
    const std::vector<std::int64_t> reverse{2, 1, 0};
    // C order: the reversed-axes views of column-major [5, 3, 4] tensors.
    const Ref xc = permute_ref(x, reverse), yc = permute_ref(y, reverse);
    const EagerTensor ex = prims::permute(up(x), reverse), ey = prims::permute(up(y), reverse);
    ASSERT_EQ(ex.shape(), (Shape{5, 3, 4}));
    const EagerTensor sum = ex + ey;
    EXPECT_EQ(sum.strides(), ex.strides());
    EXPECT_FALSE(same_buffer(sum, ex));
    EXPECT_TRUE(identical(down(sum), binary_ref(xc, yc, d, [](C a, C b) { return a + b; })));
    const EagerTensor neg = -ex;
    EXPECT_EQ(neg.strides(), ex.strides());
    EXPECT_TRUE(identical(down(neg), unary_ref(xc, d, [](C a) { return -a; })));
    // A broadcast second operand does not change the order the first one gives.
    const Ref row = random_ref(d, {1, 3, 4}, 93);
    const EagerTensor shifted = ex - up(row);
    EXPECT_EQ(shifted.strides(), ex.strides());
    EXPECT_TRUE(identical(down(shifted), binary_ref(xc, row, d, [](C a, C b) { return a - b; })));
    // A broadcast view of the whole shape has no memory order of its own: the next input leads.
    const EagerTensor spread = prims::broadcast_to(up(row), {5, 3, 4});
    EXPECT_EQ((spread - ex).strides(), ex.strides());
    EXPECT_TRUE(
        identical(down(spread - ex), binary_ref(row, xc, d, [](C a, C b) { return a - b; })));
    EXPECT_TRUE((prims::broadcast_to(up(random_ref(d, {1, 3, 5}, 95)), {4, 3, 5}) - up(x))
                    .layout()
                    .is_compact());
    // Column-major in, column-major out; a cast (contiguous()) is column-major whatever comes in.
    EXPECT_TRUE((up(x) + up(y)).layout().is_compact());
    EXPECT_TRUE(prims::contiguous(ex).layout().is_compact());
    // Only broadcast inputs (no input has the output's shape): column-major.
    const Ref col = random_ref(d, {5, 1, 1}, 94);
    EXPECT_TRUE((up(col) + up(row)).layout().is_compact());
  }
}

TEST_P(PrimsViews, ConcatenateOfMorePiecesThanTheOpKeepsInlineKeepsEveryPiece) {
  // The op keeps the metas of its first three inputs inline and the rest on the heap: seven
  // pieces of different extents and dtypes cross that boundary in both kinds of slot.
  const std::vector<DType> ds = dtypes();
  std::vector<Ref> refs;
  std::vector<EagerTensor> pieces;
  DType out = ds[0];
  for (int i = 0; i < 7; ++i) {
    const DType d = ds[static_cast<std::size_t>(i) % ds.size()];
    out = promote_ref(out, d);
    refs.push_back(random_ref(d, {i % 3 + 1, 2}, 300u + static_cast<unsigned>(i)));
    pieces.push_back(up(refs.back()));
  }
  const EagerTensor c = prims::concatenate(pieces, 0);
  EXPECT_EQ(c.dtype(), out);
  EXPECT_TRUE(identical(down(c), concat_ref(refs, 0, out)));
}

TEST_P(PrimsViews, ConcatenatePromotesAndAcceptsZeroSizePieces) {
  const std::vector<DType> ds = dtypes();
  for (DType da : ds) {
    for (DType db : ds) {
      const DType out = promote_ref(da, db);
      SCOPED_TRACE(std::string(dtype_name(da)) + " + " + std::string(dtype_name(db)));
      const Ref a = random_ref(da, {2, 3}, 86), b = random_ref(db, {4, 3}, 87);
      const Ref e = make_ref(da, {0, 3}, {});
      const EagerTensor pieces[] = {up(a), up(e), up(b)};
      const EagerTensor c = prims::concatenate(pieces, 0);
      EXPECT_EQ(c.dtype(), out);
      EXPECT_TRUE(identical(down(c), concat_ref({a, e, b}, 0, out)));
      const Ref p = random_ref(db, {2, 2}, 88), z = make_ref(db, {2, 0}, {});
      const EagerTensor cols[] = {up(a), up(z), up(p)};
      EXPECT_TRUE(identical(down(prims::concatenate(cols, -1)), concat_ref({a, z, p}, 1, out)));
    }
  }
  const EagerTensor a = up(random_ref(DType::F32, {2, 3}, 89));
  const EagerTensor b = up(random_ref(DType::F32, {2, 4}, 90));
  const EagerTensor v = up(random_ref(DType::F32, {6}, 91));
  const EagerTensor ab[] = {a, b}, av[] = {a, v};
  EXPECT_TRUE(
      throws_kind([&] { (void)prims::concatenate(ab, 0); }, ErrorKind::Validation, {"axis"}));
  EXPECT_TRUE(throws_kind([&] { (void)prims::concatenate(ab, 2); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::concatenate(av, 0); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::concatenate(std::span<const EagerTensor>(), 0); },
                          ErrorKind::Validation));
}

TEST_P(PrimsViews, StackAddsAnAxis) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref a = random_ref(d, {2, 3}, 92), b = random_ref(d, {2, 3}, 93),
              c = random_ref(d, {2, 3}, 94);
    const EagerTensor xs[] = {up(a), up(b), up(c)};
    for (std::int64_t axis : {0, 1, 2, -1, -3}) {
      SCOPED_TRACE("axis " + std::to_string(axis));
      const std::size_t ax = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
      // Each piece gains a size-1 axis at `ax`; stacking is concatenation of those.
      std::vector<Ref> pieces;
      for (const Ref& r : {a, b, c}) {
        Shape s = r.shape;
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(ax), 1);
        pieces.push_back(with_shape(r, s));
      }
      EXPECT_TRUE(identical(down(prims::stack(xs, axis)), concat_ref(pieces, ax, d)));
    }
    const Ref s0 = random_ref(d, {}, 95), s1 = random_ref(d, {}, 96);
    const EagerTensor scalars[] = {up(s0), up(s1)};
    EXPECT_TRUE(identical(down(prims::stack(scalars)), make_ref(d, {2}, {s0.v[0], s1.v[0]})));
  }
  const EagerTensor a = up(random_ref(DType::F32, {2, 3}, 97));
  const EagerTensor b = up(random_ref(DType::F32, {3, 2}, 98));
  const EagerTensor ab[] = {a, b}, aa[] = {a, a};
  EXPECT_TRUE(throws_kind([&] { (void)prims::stack(ab); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::stack(aa, 3); }, ErrorKind::Validation));
  EXPECT_TRUE(throws_kind([&] { (void)prims::stack(aa, -4); }, ErrorKind::Validation));
}

}  // namespace
}  // namespace tenferro::prims_test
