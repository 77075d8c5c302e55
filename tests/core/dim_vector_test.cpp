// DimVector (the type of Shape and Strides) against std::vector<int64_t> as the reference:
// random sequences of every mutating call, across the inline/heap boundary, plus the edges a
// hand-written container gets wrong (self-insertion, moves of inline and heap contents,
// assignment between the two storages).
#include "tenferro/core/dim_vector.hpp"

#include <gtest/gtest.h>

#include <random>
#include <span>
#include <utility>
#include <vector>

#include "tenferro/core/shape.hpp"

namespace tenferro {
namespace {

using Ref = std::vector<std::int64_t>;
constexpr std::size_t kInline = DimVector::kInline;

template <class V, class R>
void expect_same(const V& d, const R& r) {
  ASSERT_EQ(d.size(), r.size());
  EXPECT_EQ(d.empty(), r.empty());
  EXPECT_GE(d.capacity(), d.size());
  for (std::size_t i = 0; i < r.size(); ++i) EXPECT_EQ(d[i], r[i]) << "at " << i;
  EXPECT_EQ(R(d.begin(), d.end()), r);
  EXPECT_EQ(R(d.rbegin(), d.rend()), R(r.rbegin(), r.rend()));
}

DimVector counting(std::size_t n) {
  DimVector d;
  for (std::size_t i = 0; i < n; ++i) d.push_back(static_cast<std::int64_t>(10 * i + 1));
  return d;
}

// Random sequences of every mutating call on V against std::vector of its element type.
template <class V>
void random_operations_match_std_vector() {
  using T = typename V::value_type;
  using R = std::vector<T>;
  constexpr std::size_t kIn = V::kInline;
  std::mt19937_64 rng(20261203);
  for (int trial = 0; trial < 400; ++trial) {
    V d;
    R r;
    for (int step = 0; step < 60; ++step) {
      const auto value = static_cast<T>(static_cast<std::int64_t>(rng() % 1000) - 500);
      const std::size_t pos = r.empty() ? 0 : rng() % (r.size() + 1);
      switch (rng() % 10) {
        case 0:
        case 1:
          d.push_back(value);
          r.push_back(value);
          break;
        case 2:
          if (!r.empty()) {
            d.pop_back();
            r.pop_back();
          }
          break;
        case 3:
          d.insert(d.begin() + static_cast<std::ptrdiff_t>(pos), value);
          r.insert(r.begin() + static_cast<std::ptrdiff_t>(pos), value);
          break;
        case 4: {
          const std::size_t n = rng() % 5;
          d.insert(d.begin() + static_cast<std::ptrdiff_t>(pos), n, value);
          r.insert(r.begin() + static_cast<std::ptrdiff_t>(pos), n, value);
          break;
        }
        case 5:
          if (pos < r.size()) {
            const std::size_t last = pos + rng() % (r.size() - pos + 1);
            d.erase(d.begin() + static_cast<std::ptrdiff_t>(pos),
                    d.begin() + static_cast<std::ptrdiff_t>(last));
            r.erase(r.begin() + static_cast<std::ptrdiff_t>(pos),
                    r.begin() + static_cast<std::ptrdiff_t>(last));
          }
          break;
        case 6: {
          const std::size_t n = rng() % (2 * kIn + 4);
          d.resize(n, value);
          r.resize(n, value);
          break;
        }
        case 7: {  // copy out and back through both storages
          const V copy = d;
          d = copy;
          V moved = std::move(d);
          d = std::move(moved);
          break;
        }
        case 8: {
          const std::size_t n = rng() % (2 * kIn + 2);
          d.assign(n, value);
          r.assign(n, value);
          break;
        }
        default:
          if (!r.empty()) {
            d[pos % r.size()] = value;
            r[pos % r.size()] = value;
          }
          break;
      }
      ASSERT_NO_FATAL_FAILURE(expect_same(d, r)) << "trial " << trial << " step " << step;
    }
  }
}

TEST(DimVector, RandomOperationsMatchStdVector) {
  random_operations_match_std_vector<DimVector>();
}

TEST(SmallVector, RandomOperationsMatchStdVectorForOtherElementsAndSizes) {
  random_operations_match_std_vector<SmallVector<std::int32_t, 8>>();
  random_operations_match_std_vector<SmallVector<std::int32_t, 1>>();
}

TEST(DimVector, CopiesAndMovesAcrossInlineAndHeapStorage) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, kInline, kInline + 1, 5 * kInline}) {
    const DimVector source = counting(n);
    const Ref ref(source.begin(), source.end());
    DimVector copied(source);
    expect_same(copied, ref);
    DimVector moved(std::move(copied));
    expect_same(moved, ref);
    EXPECT_TRUE(copied.empty());  // a moved-from DimVector is empty and usable
    copied.push_back(7);
    expect_same(copied, Ref{7});
    // Assignment into a target of every size (inline and heap) from every size.
    for (std::size_t m : {std::size_t{0}, kInline, 3 * kInline}) {
      DimVector target = counting(m);
      target = source;
      expect_same(target, ref);
      DimVector other = counting(m);
      DimVector from = source;
      other = std::move(from);
      expect_same(other, ref);
    }
    DimVector self = source;
    const DimVector& alias = self;
    self = alias;  // self-assignment keeps the contents
    expect_same(self, ref);
  }
}

TEST(DimVector, InsertOfItsOwnElementsAcrossGrowth) {
  // The inserted range lives in the vector that grows from inline to heap storage mid-insert.
  DimVector d = counting(kInline);
  Ref r(d.begin(), d.end());
  d.insert(d.begin() + 2, d.begin(), d.end());
  const Ref before = r;
  r.insert(r.begin() + 2, before.begin(), before.end());
  expect_same(d, r);
  d.insert(d.begin(), d.back());
  r.insert(r.begin(), r.back());
  expect_same(d, r);
}

TEST(DimVector, InteroperatesWithStdVectorAndSpan) {
  const Ref v{3, 1, 4, 1, 5, 9, 2, 6};
  const Shape s = v;  // implicit from std::vector
  EXPECT_TRUE(s == v);
  EXPECT_TRUE(v == s);
  const Ref back = s;  // implicit to std::vector
  EXPECT_EQ(back, v);
  const std::span<const std::int64_t> view = s;
  EXPECT_EQ(view.size(), v.size());
  EXPECT_EQ(view.data(), s.data());
  EXPECT_EQ(checked_numel(Shape{2, 3, 4}), 24);
  EXPECT_EQ(Shape(3, 7), (Shape{7, 7, 7}));  // count and value, not an iterator pair
  EXPECT_EQ(Shape(2), (Shape{0, 0}));
}

TEST(DimVector, OrdersLexicographicallyAsStdVector) {
  const std::vector<Ref> values{{}, {1}, {1, 2}, {1, 3}, {2}, {1, 2, 3, 4, 5, 6, 7}, {0, 9}};
  for (const Ref& a : values) {
    for (const Ref& b : values) {
      EXPECT_EQ(DimVector(a) < DimVector(b), a < b);
      EXPECT_EQ(DimVector(a) == DimVector(b), a == b);
    }
  }
}

TEST(DimVector, InsertAndResizeGrowGeometrically) {
  // Building a long vector one insert (or one resize) at a time reallocates O(log n) times, as
  // push_back does; growing to the exact size each time would copy O(n^2) entries.
  DimVector by_insert, by_resize;
  int insert_growths = 0, resize_growths = 0;
  for (std::int64_t i = 0; i < 1000; ++i) {
    const std::size_t before_insert = by_insert.capacity(), before_resize = by_resize.capacity();
    by_insert.insert(by_insert.end(), i);
    by_resize.resize(by_resize.size() + 1, i);
    insert_growths += by_insert.capacity() != before_insert;
    resize_growths += by_resize.capacity() != before_resize;
  }
  EXPECT_LE(insert_growths, 12);
  EXPECT_LE(resize_growths, 12);
  EXPECT_EQ(by_insert, by_resize);
}

TEST(DimVector, AtChecksTheIndex) {
  const DimVector d{1, 2};
  EXPECT_EQ(d.at(1), 2);
  EXPECT_THROW((void)d.at(2), std::out_of_range);
}

}  // namespace
}  // namespace tenferro
