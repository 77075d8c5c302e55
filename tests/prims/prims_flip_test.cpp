// prims::flip on every runtime against a reversal written here on the host: every subset of
// the axes of ranks 1-4 (all axes by default), every dtype the runtime runs, inputs that are
// compact, transposed, stepped slices or broadcasts (the kernels read them with negated
// strides), empty tensors, and the typed refusals. The result's bits are the input's.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsFlip : public PrimsRuntimeTest {};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsFlip);

// x reversed along the axes with flipped[a] (column-major Ref).
Ref flip_ref(const Ref& x, const std::vector<bool>& flipped) {
  Ref out{x.dtype, x.shape, std::vector<C>(x.v.size())};
  for (std::int64_t k = 0; k < x.numel(); ++k) {
    std::vector<std::int64_t> idx = unravel(k, x.shape);
    for (std::size_t a = 0; a < idx.size(); ++a)
      if (flipped[a]) idx[a] = x.shape[a] - 1 - idx[a];
    out.v[static_cast<std::size_t>(k)] = x.v[static_cast<std::size_t>(ravel(idx, x.shape))];
  }
  return out;
}

std::string axes_text(const std::vector<bool>& flipped) {
  std::string s;
  for (std::size_t a = 0; a < flipped.size(); ++a)
    if (flipped[a]) s += std::to_string(a) + " ";
  return s.empty() ? "none" : s;
}

TEST_P(PrimsFlip, EverySubsetOfAxesOfEveryDtype) {
  const std::vector<Shape> shapes = {{9}, {5, 7}, {3, 1, 4}, {2, 3, 2, 5}};
  unsigned seed = 1;
  for (DType d : dtypes()) {
    for (const Shape& shape : shapes) {
      const Ref x = random_ref(d, shape, seed++);
      const EagerTensor ex = up(x);
      const std::size_t rank = shape.size();
      for (unsigned mask = 0; mask < (1u << rank); ++mask) {
        std::vector<bool> flipped(rank);
        prims::Axes axes;
        for (std::size_t a = 0; a < rank; ++a) {
          flipped[a] = (mask >> a) & 1u;
          // Negative axes for odd masks: the same axes.
          if (flipped[a])
            axes.push_back(mask % 2 ? static_cast<std::int64_t>(a) - static_cast<std::int64_t>(rank)
                                    : static_cast<std::int64_t>(a));
        }
        SCOPED_TRACE(std::string(dtype_name(d)) + shape_to_string(shape) + " axes " +
                     axes_text(flipped));
        EXPECT_TRUE(identical(down(prims::flip(ex, axes)), flip_ref(x, flipped)));
      }
      EXPECT_TRUE(identical(down(prims::flip(ex)), flip_ref(x, std::vector<bool>(rank, true))));
    }
  }
}

// Inputs that are views: the kernels get their strides negated on the flipped axes.
TEST_P(PrimsFlip, ViewsAreReadBackwards) {
  for (DType d : dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const Ref base = random_ref(d, {11, 6, 5}, 40);
    const EagerTensor ex = up(base);
    const std::vector<std::int64_t> perm{2, 0, 1};
    const EagerTensor permuted = prims::permute(ex, perm);
    const Ref permuted_ref = permute_ref(base, perm);
    EXPECT_TRUE(identical(down(prims::flip(permuted, prims::Axes{0, 2})),
                          flip_ref(permuted_ref, {true, false, true})));
    const prims::Slice stepped[] = {{1, std::nullopt, 3}, {}, {0, std::nullopt, 2}};
    const EagerTensor sliced = prims::slice(ex, stepped);
    const Ref sliced_ref = slice_ref(slice_ref(base, 0, 1, 11, 3), 2, 0, 5, 2);
    EXPECT_TRUE(identical(down(prims::flip(sliced, prims::Axes{0})),
                          flip_ref(sliced_ref, {true, false, false})));
    EXPECT_TRUE(identical(down(prims::flip(sliced)), flip_ref(sliced_ref, {true, true, true})));
    // A broadcast axis (stride 0) flipped reads the same element backwards.
    const EagerTensor column =
        prims::slice(ex, std::vector<prims::Slice>{{}, {2, 3, 1}, {1, 2, 1}});
    const EagerTensor wide = prims::broadcast_to(column, {11, 4, 1});
    const Ref column_ref = slice_ref(slice_ref(base, 1, 2, 3, 1), 2, 1, 2, 1);
    Ref wide_ref{d, {11, 4, 1}, {}};
    for (std::int64_t k = 0; k < 44; ++k)
      wide_ref.v.push_back(column_ref.v[static_cast<std::size_t>(k % 11)]);
    EXPECT_TRUE(identical(down(prims::flip(wide)), flip_ref(wide_ref, {true, true, true})));
    // Twice is the identity.
    EXPECT_TRUE(
        identical(down(prims::flip(prims::flip(ex, prims::Axes{1}), prims::Axes{1})), base));
  }
}

// Large enough for the CPU copy's 2-D tiles (a transposed input) and its split over threads.
TEST_P(PrimsFlip, LargeTransposedInputs) {
  const DType d = DType::F32;
  const Ref base = random_ref(d, {600, 500}, 42);
  const std::vector<std::int64_t> swap{1, 0};
  const EagerTensor t = prims::permute(up(base), swap);
  const Ref t_ref = permute_ref(base, swap);
  for (const std::vector<bool>& flipped :
       std::vector<std::vector<bool>>{{true, false}, {false, true}, {true, true}}) {
    prims::Axes axes;
    for (std::size_t a = 0; a < 2; ++a)
      if (flipped[a]) axes.push_back(static_cast<std::int64_t>(a));
    SCOPED_TRACE(axes_text(flipped));
    EXPECT_TRUE(identical(down(prims::flip(t, axes)), flip_ref(t_ref, flipped)));
  }
}

TEST_P(PrimsFlip, EmptyTensorsAndRefusals) {
  const EagerTensor empty = up(make_ref(DType::F32, {0, 3}, {}));
  EXPECT_EQ(prims::flip(empty).shape(), (Shape{0, 3}));
  const EagerTensor x = up(random_ref(DType::F32, {2, 3}, 41));
  EXPECT_TRUE(
      throws_kind([&] { (void)prims::flip(x, prims::Axes{2}); }, ErrorKind::Validation, {"axis"}));
  EXPECT_TRUE(throws_kind(
      [&] {
        (void)prims::flip(x, prims::Axes{0, -2});
      },
      ErrorKind::Validation, {"twice"}));
  EXPECT_TRUE(identical(down(prims::flip(x, prims::Axes{})), down(x)));  // no axis: a copy
}

}  // namespace
}  // namespace tenferro::prims_test
