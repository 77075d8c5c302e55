// KeyBuffer: the exact bytes of a cache key, inline up to kInline bytes and on the heap past
// that, compared here with the same bytes appended to a plain std::string by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/key_buffer.hpp"

namespace tenferro::runtime_internal {
namespace {

template <class Int>
void append_raw(std::string& s, Int v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Appends `words` words and one text to both, returning the reference bytes.
std::string fill(KeyBuffer& key, int words) {
  std::string want;
  for (int i = 0; i < words; ++i) {
    key.word(static_cast<std::int64_t>(i * 7 - 3));
    append_raw(want, static_cast<std::int64_t>(i * 7 - 3));
  }
  key.text("ij,jk->ik");
  append_raw(want, static_cast<std::uint64_t>(9));
  want += "ij,jk->ik";
  return want;
}

TEST(KeyBuffer, InlineKeyHoldsExactlyTheAppendedBytes) {
  KeyBuffer key;
  const std::string want = fill(key, 10);
  ASSERT_LT(want.size(), KeyBuffer::kInline);
  EXPECT_EQ(key.view(), want);
}

TEST(KeyBuffer, KeyPastTheInlineBufferMovesToTheHeapWithoutLosingBytes) {
  // Crosses the inline size in the middle of the words and keeps growing after the move.
  KeyBuffer key;
  const std::string want = fill(key, static_cast<int>(KeyBuffer::kInline / 8) * 3 + 5);
  ASSERT_GT(want.size(), KeyBuffer::kInline);
  EXPECT_EQ(key.view(), want);
}

TEST(KeyBuffer, EmptyPartsAddNothing) {
  // A scalar's shape is an empty vector whose data() may be null.
  KeyBuffer key;
  const std::vector<std::int64_t> empty;
  key.bytes(empty.data(), 0);
  key.text("");
  std::string want;
  append_raw(want, static_cast<std::uint64_t>(0));
  EXPECT_EQ(key.view(), want);
}

TEST(KeyBuffer, LengthPrefixKeepsSplitTextsApart) {
  // "ab" + "c" and "a" + "bc" are different keys although their characters agree.
  KeyBuffer first, second;
  first.text("ab");
  first.text("c");
  second.text("a");
  second.text("bc");
  EXPECT_NE(first.view(), second.view());
}

TEST(KeyBuffer, HashFollowsTheBytes) {
  // Equal bytes hash equally however they were appended; changing any one byte (in a full
  // word or in the tail) or the length changes the hash of these keys.
  KeyBuffer a, b;
  a.word(std::int64_t{42});
  a.text("abc");
  b.bytes("\x2a\0\0\0\0\0\0\0", 8);
  b.word(std::uint64_t{3});
  b.bytes("abc", 3);
  ASSERT_EQ(a.view(), b.view());
  EXPECT_EQ(a.hash(), b.hash());
  const std::string base = std::string(a.view());
  for (std::size_t i = 0; i < base.size(); ++i) {
    std::string changed = base;
    changed[i] = static_cast<char>(changed[i] ^ 0x10);
    KeyBuffer c;
    c.bytes(changed.data(), changed.size());
    EXPECT_NE(c.hash(), a.hash()) << "byte " << i;
  }
  KeyBuffer longer;
  longer.bytes(base.data(), base.size());
  longer.word(std::uint8_t{0});
  EXPECT_NE(longer.hash(), a.hash()) << "a trailing zero byte is part of the key";
}

}  // namespace
}  // namespace tenferro::runtime_internal
