#include <gtest/gtest.h>

#include <string>

#include "tenferro/runtime/cache_store.hpp"

namespace tenferro {
namespace {

TEST(CacheStore, MissThenHitCountedPerSelector) {
  ExtensionCacheStore store;
  const auto key = CacheKey::of("tenferro.einsum.v1", "plan", "ij,jk->ik|2,3|3,4");
  EXPECT_EQ(store.find<int>(key), nullptr);
  int made = 0;
  auto a = store.get_or_create<int>(key, [&] {
    ++made;
    return std::make_shared<int>(7);
  });
  auto b = store.get_or_create<int>(key, [&] {
    ++made;
    return std::make_shared<int>(8);
  });
  EXPECT_EQ(made, 1);
  EXPECT_EQ(a.get(), b.get());
  const CacheStats s = store.stats({"tenferro.einsum.v1", "plan"});
  EXPECT_EQ(s.entries, 1u);
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 2u);
  EXPECT_EQ(store.stats({"tenferro.fft.v1", ""}).entries, 0u);
}

TEST(CacheStore, DiscriminatorCollisionReadsAsAMiss) {
  ExtensionCacheStore store;
  const CacheKey first{"fam", "plan", 42, "exact-A"};
  const CacheKey collider{"fam", "plan", 42, "exact-B"};  // same discriminator, other key
  store.insert<int>(first, std::make_shared<int>(1), 4);
  EXPECT_EQ(store.find<int>(collider), nullptr);
  ASSERT_NE(store.find<int>(first), nullptr);
  EXPECT_EQ(*store.find<int>(first), 1);
  // Inserting the collider replaces the slot; the first key then misses.
  store.insert<int>(collider, std::make_shared<int>(2), 4);
  EXPECT_EQ(store.find<int>(first), nullptr);
  EXPECT_EQ(*store.find<int>(collider), 2);
}

TEST(CacheStore, ViewLookupFindsTheKeysEntryAndCountsLikeIt) {
  ExtensionCacheStore store;
  const std::string exact = "S|ij,jk->ik|F64|(2,3)(3,4)";
  store.insert<int>(CacheKey::of("tenferro.einsum.v1", "plan", exact), std::make_shared<int>(5), 4);
  const CacheKeyView view = CacheKeyView::of("tenferro.einsum.v1", "plan", exact);
  EXPECT_EQ(view.discriminator, CacheKey::of("f", "n", exact).discriminator);
  ASSERT_NE(store.find<int>(view), nullptr);
  EXPECT_EQ(*store.find<int>(view), 5);
  EXPECT_EQ(store.find<int>(CacheKeyView::of("tenferro.einsum.v1", "plan", exact + "!")), nullptr);
  const CacheStats s = store.stats({"tenferro.einsum.v1", "plan"});
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.misses, 1u);
}

TEST(CacheStore, SameExactDataUnderAnotherFamilyOrNameIsAnotherEntry) {
  // The index slot is the discriminator: keys that share it across (family, name) must still
  // be told apart by their fields.
  ExtensionCacheStore store;
  store.insert<int>(CacheKey::of("a", "pool", "x"), std::make_shared<int>(1), 1);
  store.insert<int>(CacheKey::of("b", "pool", "x"), std::make_shared<int>(2), 1);
  store.insert<int>(CacheKey::of("a", "plan", "x"), std::make_shared<int>(3), 1);
  EXPECT_EQ(*store.find<int>(CacheKeyView::of("a", "pool", "x")), 1);
  EXPECT_EQ(*store.find<int>(CacheKeyView::of("b", "pool", "x")), 2);
  EXPECT_EQ(*store.find<int>(CacheKeyView::of("a", "plan", "x")), 3);
  EXPECT_EQ(store.find<int>(CacheKeyView::of("b", "plan", "x")), nullptr);
  EXPECT_EQ(store.stats().entries, 3u);
}

TEST(CacheStore, ValueOfAnotherTypeIsAMiss) {
  ExtensionCacheStore store;
  const auto key = CacheKey::of("fam", "ws", "n=4");
  store.insert<int>(key, std::make_shared<int>(1), 4);
  EXPECT_EQ(store.find<double>(key), nullptr);
}

TEST(CacheStore, LeastRecentlyUsedIsEvictedAtTheEntryBound) {
  ExtensionCacheStore store(CacheLimits{3, 1 << 20});
  for (int i = 0; i < 3; ++i)
    store.insert<int>(CacheKey::of("f", "n", std::to_string(i)), std::make_shared<int>(i), 1);
  ASSERT_NE(store.find<int>(CacheKey::of("f", "n", "0")), nullptr);  // 0 becomes most recent
  store.insert<int>(CacheKey::of("f", "n", "3"), std::make_shared<int>(3), 1);
  EXPECT_EQ(store.find<int>(CacheKey::of("f", "n", "1")), nullptr);  // 1 was least recent
  EXPECT_NE(store.find<int>(CacheKey::of("f", "n", "0")), nullptr);
  EXPECT_EQ(store.stats().entries, 3u);
  EXPECT_EQ(store.stats().evictions, 1u);
}

TEST(CacheStore, ByteBoundEvicts) {
  ExtensionCacheStore store(CacheLimits{100, 1000});
  store.insert<int>(CacheKey::of("f", "n", "a"), std::make_shared<int>(1), 600);
  store.insert<int>(CacheKey::of("f", "n", "b"), std::make_shared<int>(2), 600);
  EXPECT_EQ(store.stats().entries, 1u);
  EXPECT_EQ(store.stats().bytes, 600u);
  EXPECT_NE(store.find<int>(CacheKey::of("f", "n", "b")), nullptr);
}

TEST(CacheStore, ClearBySelector) {
  ExtensionCacheStore store;
  store.insert<int>(CacheKey::of("a", "x", "1"), std::make_shared<int>(1), 1);
  store.insert<int>(CacheKey::of("a", "y", "1"), std::make_shared<int>(1), 1);
  store.insert<int>(CacheKey::of("b", "x", "1"), std::make_shared<int>(1), 1);
  store.clear({"a", "x"});
  EXPECT_EQ(store.stats().entries, 2u);
  store.clear({"", "x"});
  EXPECT_EQ(store.stats().entries, 1u);
  store.clear();
  EXPECT_EQ(store.stats().entries, 0u);
  EXPECT_EQ(store.stats().bytes, 0u);
}

}  // namespace
}  // namespace tenferro
