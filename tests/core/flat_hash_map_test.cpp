// FlatHashMap against std::unordered_map under random inserts, lookups and erases, with keys
// chosen to collide (the backward-shift erase must keep every other key reachable).
#include "core/flat_hash_map.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace tenferro {
namespace {

TEST(FlatHashMap, FindsWhatWasInsertedAndNothingElse) {
  FlatHashMap<int, std::string> m;
  EXPECT_EQ(m.find(3), nullptr);  // an empty table has no slots yet
  bool inserted = false;
  m.find_or_insert(
      3, [] { return std::string("three"); }, &inserted);
  EXPECT_TRUE(inserted);
  m.find_or_insert(
      3, [] { return std::string("again"); }, &inserted);
  EXPECT_FALSE(inserted);
  ASSERT_NE(m.find(3), nullptr);
  EXPECT_EQ(*m.find(3), "three");
  EXPECT_EQ(m.find(4), nullptr);
  m[4] = "four";
  EXPECT_EQ(m.size(), 2u);
  EXPECT_TRUE(m.erase(3));
  EXPECT_FALSE(m.erase(3));
  EXPECT_EQ(m.find(3), nullptr);
  EXPECT_EQ(*m.find(4), "four");
  m.clear();
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.find(4), nullptr);
}

// Random operations on a few hundred keys that share their low bits (pointer-like values 64
// apart) and on keys spread wide, checked after every step against std::unordered_map.
template <class Key>
void agrees_with_unordered_map(const std::vector<Key>& keys, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  FlatHashMap<Key, long> flat;
  std::unordered_map<Key, long> ref;
  for (int op = 0; op < 20000; ++op) {
    const Key k = keys[rng() % keys.size()];
    const auto choice = rng() % 10;
    if (choice < 5) {
      const long v = static_cast<long>(rng() % 1000);
      flat[k] = v;
      ref[k] = v;
    } else if (choice < 8) {
      EXPECT_EQ(flat.erase(k), ref.erase(k) == 1);
    } else {
      const long* got = flat.find(k);
      const auto it = ref.find(k);
      ASSERT_EQ(got != nullptr, it != ref.end()) << "op " << op;
      if (got) {
        EXPECT_EQ(*got, it->second);
      }
    }
    ASSERT_EQ(flat.size(), ref.size()) << "op " << op;
  }
  for (const Key k : keys) {
    const long* got = flat.find(k);
    const auto it = ref.find(k);
    ASSERT_EQ(got != nullptr, it != ref.end());
    if (got) {
      EXPECT_EQ(*got, it->second);
    }
  }
  std::size_t visited = 0;
  flat.for_each([&](const Key& k, long v) {
    ++visited;
    ASSERT_EQ(ref.count(k), 1u);
    EXPECT_EQ(ref.at(k), v);
  });
  EXPECT_EQ(visited, ref.size());
}

TEST(FlatHashMap, AgreesWithUnorderedMapOnCollidingAndSpreadKeys) {
  std::vector<std::uintptr_t> aligned;
  for (std::uintptr_t i = 0; i < 300; ++i) aligned.push_back(0x7f0000000000u + 64 * i);
  agrees_with_unordered_map(aligned, 1);
  std::vector<char32_t> points;
  for (char32_t c = 0; c < 500; ++c) points.push_back(c * 7919 % 0x110000);
  agrees_with_unordered_map(points, 2);
  std::vector<std::size_t> few{8, 16, 24, 4096, 8192};  // fewer keys than one table's slots
  agrees_with_unordered_map(few, 3);
}

}  // namespace
}  // namespace tenferro
