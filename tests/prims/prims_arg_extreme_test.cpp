// argmax/argmin on every runtime against a reference written here from NumPy's rule (the index
// of the first NaN, else the first index whose value no later value strictly beats): values
// with many ties, -0 and +0, infinities and NaNs; every axis of ranks 1-3 with and without
// keepdims; views whose reduced axis is contiguous, strided beside a contiguous kept axis, or
// neither; axes long enough for the vector search and the device's multi-pass trees, with the
// extreme placed in every part of them; and the typed refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsArgExtreme : public PrimsRuntimeTest {};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsArgExtreme);

using ArgFn = EagerTensor (*)(const EagerTensor&, std::int64_t, bool);

struct ArgRow {
  std::string name;
  ArgFn op;
  bool is_max;
};
const ArgRow kRows[] = {{"argmax", &prims::argmax, true}, {"argmin", &prims::argmin, false}};

// NumPy's loop: a NaN ends the search; otherwise a value replaces the running extreme only when
// strictly beyond it.
std::int64_t first_extreme(const std::vector<double>& values, bool is_max) {
  std::int64_t at = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i], best = values[static_cast<std::size_t>(at)];
    if (std::isnan(v)) return static_cast<std::int64_t>(i);
    if (is_max ? v > best : v < best) at = static_cast<std::int64_t>(i);
  }
  return at;
}

// The indices along `axis` of x (column-major Ref), as values of x's dtype.
Ref arg_ref(const Ref& x, std::int64_t axis, bool keepdims, bool is_max) {
  Shape kept = x.shape;
  kept[static_cast<std::size_t>(axis)] = 1;
  Ref out{x.dtype, kept, std::vector<C>(static_cast<std::size_t>(ref_numel(kept)))};
  for (std::int64_t k = 0; k < out.numel(); ++k) {
    std::vector<std::int64_t> idx = unravel(k, kept);
    std::vector<double> along;
    for (std::int64_t i = 0; i < x.shape[static_cast<std::size_t>(axis)]; ++i) {
      idx[static_cast<std::size_t>(axis)] = i;
      along.push_back(x.v[static_cast<std::size_t>(ravel(idx, x.shape))].real());
    }
    out.v[static_cast<std::size_t>(k)] = C(static_cast<double>(first_extreme(along, is_max)), 0);
  }
  if (!keepdims) out.shape.erase(out.shape.begin() + axis);
  return out;
}

// Values from a small set, so that most rows hold ties, with -0, +0, the infinities and (when
// `nans`) NaNs among them.
Ref tied_ref(DType d, Shape shape, unsigned seed, bool nans) {
  const std::vector<double> pool = {-2.0, -1.0, -0.0, 0.0, 1.0, 2.0, 2.0, kInf, -kInf, kNaN};
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - (nans ? 1 : 2));
  std::vector<C> v(static_cast<std::size_t>(ref_numel(shape)));
  for (C& z : v) z = C(pool[pick(rng)], 0.0);
  return make_ref(d, std::move(shape), std::move(v));
}

std::vector<DType> real_dtypes(const std::vector<DType>& all) {
  std::vector<DType> out;
  for (DType d : all)
    if (!is_complex(d)) out.push_back(d);
  return out;
}

TEST_P(PrimsArgExtreme, EveryAxisOfTiedValuesNaNsAndSignedZeros) {
  const std::vector<Shape> shapes = {{1}, {7}, {40}, {5, 9}, {9, 5}, {4, 3, 6}, {2, 17, 3}};
  unsigned seed = 1;
  for (DType d : real_dtypes(dtypes())) {
    for (const Shape& shape : shapes) {
      for (const bool nans : {false, true}) {
        const Ref x = tied_ref(d, shape, seed++, nans);
        const EagerTensor ex = up(x);
        for (std::int64_t axis = 0; axis < static_cast<std::int64_t>(shape.size()); ++axis) {
          for (const bool keepdims : {false, true}) {
            for (const ArgRow& row : kRows) {
              SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)) + shape_to_string(shape) +
                           " axis " + std::to_string(axis) + (keepdims ? " keepdims" : "") +
                           (nans ? " with NaNs" : ""));
              EXPECT_TRUE(identical(down(row.op(ex, axis, keepdims)),
                                    arg_ref(x, axis, keepdims, row.is_max)));
              // A negative axis names the same one.
              EXPECT_TRUE(identical(
                  down(row.op(ex, axis - static_cast<std::int64_t>(shape.size()), keepdims)),
                  arg_ref(x, axis, keepdims, row.is_max)));
            }
          }
        }
      }
    }
  }
}

// Hand-made rows: the first of equal extremes, -0 and +0 as equals, the first NaN, all -inf.
TEST_P(PrimsArgExtreme, NumPysRuleOnHandMadeRows) {
  struct Case {
    std::vector<double> values;
    std::int64_t argmax, argmin;
  };
  const std::vector<Case> cases = {
      {{3, 1, 3, 1}, 0, 1},
      {{-0.0, 0.0, -0.0}, 0, 0},
      {{0.0, -0.0}, 0, 0},
      {{1, kNaN, 5, kNaN}, 1, 1},
      {{kNaN, kNaN}, 0, 0},
      {{-kInf, -kInf, -kInf}, 0, 0},
      {{kInf, 1, kInf, -kInf}, 0, 3},
      {{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2},
       0,
       0},
  };
  for (DType d : real_dtypes(dtypes())) {
    // Subnormals: a device that flushes them to zero in arithmetic must still order them
    // (the WebGPU kernel compares bit patterns, as its max does).
    const double tiny = d == DType::F32 ? 1e-40 : 1e-310;
    std::vector<Case> rows = cases;
    rows.push_back({{0.0, tiny}, 1, 0});
    rows.push_back({{tiny, -tiny}, 0, 1});
    rows.push_back({{-0.0, tiny, 0.0, -tiny}, 1, 3});
    for (const Case& c : rows) {
      std::vector<C> v;
      for (const double x : c.values) v.emplace_back(x, 0.0);
      const Ref x = make_ref(d, {static_cast<std::int64_t>(v.size())}, v);
      const EagerTensor ex = up(x);
      SCOPED_TRACE(std::string(dtype_name(d)) + " row of " + std::to_string(v.size()));
      EXPECT_TRUE(identical(down(prims::argmax(ex, 0)),
                            make_ref(d, {}, {C(static_cast<double>(c.argmax), 0)})));
      EXPECT_TRUE(identical(down(prims::argmin(ex, 0)),
                            make_ref(d, {}, {C(static_cast<double>(c.argmin), 0)})));
    }
  }
}

// Views: a transposed matrix (the reduced axis strided, a kept axis contiguous: the CPU's row
// path), a stepped slice (nothing contiguous), a broadcast axis (stride 0: every entry ties).
TEST_P(PrimsArgExtreme, ViewsOfEveryStridePattern) {
  for (DType d : real_dtypes(dtypes())) {
    const Ref base = tied_ref(d, {37, 23}, 70, true);
    const EagerTensor ex = up(base);
    const std::vector<std::int64_t> swap{1, 0};
    const EagerTensor transposed = prims::permute(ex, swap);
    const Ref transposed_ref = permute_ref(base, swap);
    const prims::Slice stepped[] = {{1, std::nullopt, 3}, {0, std::nullopt, 2}};
    const EagerTensor sliced = prims::slice(ex, stepped);
    const Ref sliced_ref = slice_ref(slice_ref(base, 0, 1, 37, 3), 1, 0, 23, 2);
    for (const ArgRow& row : kRows) {
      for (std::int64_t axis = 0; axis < 2; ++axis) {
        SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)) + " axis " + std::to_string(axis));
        EXPECT_TRUE(identical(down(row.op(transposed, axis, false)),
                              arg_ref(transposed_ref, axis, false, row.is_max)));
        EXPECT_TRUE(identical(down(row.op(sliced, axis, true)),
                              arg_ref(sliced_ref, axis, true, row.is_max)));
      }
      const EagerTensor column = prims::slice(ex, std::vector<prims::Slice>{{}, {4, 5, 1}});
      const EagerTensor broadcast = prims::broadcast_to(column, {37, 11});
      const Ref zeros = make_ref(d, {37}, std::vector<C>(37, C(0, 0)));
      EXPECT_TRUE(identical(down(row.op(broadcast, 1, false)), zeros));
      EXPECT_TRUE(identical(down(row.op(prims::permute(broadcast, swap), 0, false)), zeros));
    }
  }
}

// Long axes: the CPU's vector search (and its scalar tail), the devices' multi-pass trees. The
// extreme sits in the first, a middle and the last element, just before the end of a vector
// chunk, twice (the first must win), or is a NaN after an infinity.
TEST_P(PrimsArgExtreme, LongAxesFindTheFirstExtremeAnywhere) {
  const std::int64_t n = kind() == RuntimeKind::Cpu ? 300'001 : 70'001;
  for (DType d : real_dtypes(dtypes())) {
    const Ref noise = random_ref(d, {n, 1}, 71, -1.0, 1.0);
    const std::vector<std::vector<std::int64_t>> placements = {
        {0}, {n / 2}, {n - 1}, {63}, {n - 17}, {1000, 5000}, {n - 3, n - 2}};
    for (const auto& at : placements) {
      for (const bool nan : {false, true}) {
        Ref x = noise;
        for (const std::int64_t i : at) x.v[static_cast<std::size_t>(i)] = C(nan ? kNaN : 7.0, 0);
        if (nan && at.front() != 0) x.v[0] = C(kInf, 0);  // beaten by the NaN however late
        const EagerTensor ex = up(x);
        for (const ArgRow& row : kRows) {
          SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)) + " at " +
                       std::to_string(at.front()) + (nan ? " (NaN)" : ""));
          if (!nan && !row.is_max) {  // argmin: the same places hold -7
            Ref y = x;
            for (const std::int64_t i : at) y.v[static_cast<std::size_t>(i)] = C(-7.0, 0);
            EXPECT_TRUE(identical(down(row.op(up(y), 0, false)), arg_ref(y, 0, false, false)));
            continue;
          }
          EXPECT_TRUE(identical(down(row.op(ex, 0, false)), arg_ref(x, 0, false, row.is_max)));
        }
      }
    }
  }
}

// Layouts that take the kernels' other paths: on the CPU the row pass over more than one chunk
// of 1024 outputs and more than one other kept axis, and threaded (from 16 MiB); on WebGPU the
// serial passes with partial results (many outputs of a long axis).
TEST_P(PrimsArgExtreme, LayoutsThatTakeEveryPath) {
  struct Layout {
    Shape shape;
    std::int64_t axis;
  };
  const std::vector<Layout> layouts = {{{2051, 5, 3}, 1}, {{2051, 5, 3}, 2}, {{600, 1000}, 0}};
  unsigned seed = 90;
  for (DType d : real_dtypes(dtypes())) {
    for (const Layout& l : layouts) {
      const Ref x = tied_ref(d, l.shape, seed++, true);
      const EagerTensor ex = up(x);
      for (const ArgRow& row : kRows) {
        SCOPED_TRACE(row.name + " " + std::string(dtype_name(d)) + shape_to_string(l.shape) +
                     " axis " + std::to_string(l.axis));
        EXPECT_TRUE(
            identical(down(row.op(ex, l.axis, false)), arg_ref(x, l.axis, false, row.is_max)));
      }
    }
  }
  if (kind() != RuntimeKind::Cpu) return;
  // 1100 x 2048 float64 (18 MB) reduced along its strided axis: the threaded row pass. The
  // reference is a direct loop here (arg_ref's index arithmetic per element is slow at 2M).
  const std::int64_t rows = 1100, cols = 2048;
  const Ref x = tied_ref(DType::F64, {rows, cols}, 99, true);
  const EagerTensor ex = up(x);
  for (const ArgRow& row : kRows) {
    SCOPED_TRACE(row.name + " threaded");
    Ref want{DType::F64, {rows}, std::vector<C>(static_cast<std::size_t>(rows))};
    for (std::int64_t i = 0; i < rows; ++i) {
      std::vector<double> along(static_cast<std::size_t>(cols));
      for (std::int64_t j = 0; j < cols; ++j)
        along[static_cast<std::size_t>(j)] = x.v[static_cast<std::size_t>(i + j * rows)].real();
      want.v[static_cast<std::size_t>(i)] =
          C(static_cast<double>(first_extreme(along, row.is_max)), 0.0);
    }
    EXPECT_TRUE(identical(down(row.op(ex, 1, false)), want));
  }
}

TEST_P(PrimsArgExtreme, RefusalsAreTypedAndLeaveTheRuntimeUsable) {
  const EagerTensor z = up(random_ref(DType::C32, {3, 4}, 72));
  const EagerTensor x = up(random_ref(DType::F32, {3, 4}, 73));
  const EagerTensor empty = up(make_ref(DType::F32, {0, 4}, {}));
  for (const ArgRow& row : kRows) {
    SCOPED_TRACE(row.name);
    EXPECT_TRUE(
        throws_kind([&] { (void)row.op(z, 0, false); }, ErrorKind::Validation, {"real dtypes"}));
    EXPECT_TRUE(throws_kind([&] { (void)row.op(x, 2, false); }, ErrorKind::Validation, {"axis"}));
    EXPECT_TRUE(throws_kind([&] { (void)row.op(x, -3, false); }, ErrorKind::Validation));
    EXPECT_TRUE(
        throws_kind([&] { (void)row.op(empty, 0, false); }, ErrorKind::Validation, {"empty"}));
    // The other axis of the empty tensor is not empty: four indices of nothing to choose from
    // is an empty result, as NumPy's argmax(np.zeros((0, 4)), axis=1).
    EXPECT_EQ(row.op(empty, 1, false).shape(), Shape{0});
    // An F32 axis longer than 2^24 has indices float32 cannot hold (a stride-0 view: no memory).
    const EagerTensor one = prims::slice(x, std::vector<prims::Slice>{{0, 1, 1}, {0, 1, 1}});
    const EagerTensor huge = prims::broadcast_to(one, {(std::int64_t{1} << 24) + 1, 1});
    EXPECT_TRUE(throws_kind([&] { (void)row.op(huge, 0, false); }, ErrorKind::Validation,
                            {"does not hold exactly"}));
    EXPECT_TRUE(identical(down(row.op(x, 0, false)),
                          arg_ref(down(x), 0, false, row.is_max)));  // still usable
  }
}

}  // namespace
}  // namespace tenferro::prims_test
