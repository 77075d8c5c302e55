// KeyBuffer: the exact data of a cache key, built as raw bytes in an inline buffer, so a warm
// lookup (CacheKeyView over view()) allocates nothing for keys up to kInline bytes; a longer
// key moves to the heap once. The bytes are compared, never printed: fixed-width integers are
// copied as they are, variable-length parts are preceded by their length, so two different
// keys never share one byte sequence.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace tenferro::runtime_internal {

class KeyBuffer {
 public:
  // 2 KiB: an einsum key holds the subscripts and every operand's shape, about 40 bytes an
  // operand, so a 40-tensor network's warm call spilled a 512-byte buffer to the heap (and grew
  // it there) on every call.
  static constexpr std::size_t kInline = 2048;

  KeyBuffer() = default;
  KeyBuffer(const KeyBuffer&) = delete;
  KeyBuffer& operator=(const KeyBuffer&) = delete;

  // Always inlined: a key is built from a dozen small parts, most of them of a constant size,
  // whose copy then is one store instead of a call (about 40 instructions each).
  [[gnu::always_inline]] void bytes(const void* data, std::size_t n) {
    // An empty part (an empty shape's data() may be null, which memcpy must not be given).
    if (n == 0) return;
    if (heap_.empty() && size_ + n <= kInline) [[likely]] {
      std::memcpy(inline_.data() + size_, data, n);
      size_ += n;
    } else {
      spill(data, n);
    }
  }
  template <class Int>
  void word(Int v) {
    static_assert(std::is_integral_v<Int> || std::is_enum_v<Int>);
    bytes(&v, sizeof v);
  }
  void text(std::string_view s) {
    word(static_cast<std::uint64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  std::string_view view() const noexcept {
    return heap_.empty() ? std::string_view(inline_.data(), size_) : std::string_view(heap_);
  }
  // A 64-bit hash of the bytes, eight at a time (a multiply-xorshift mix per word): the
  // discriminator of a CacheKeyView over view(). Cheaper than hashing byte by byte; a
  // collision is harmless (the store compares the exact bytes on every hit).
  std::uint64_t hash() const noexcept {
    const std::string_view bytes = view();
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ bytes.size();
    std::size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8) {
      std::uint64_t w;
      std::memcpy(&w, bytes.data() + i, 8);
      h = mix(h ^ w);
    }
    std::uint64_t tail = 0;
    if (i < bytes.size()) std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
    return mix(h ^ tail);
  }

 private:
  // A part that does not fit inline: the key moves to the heap (once) and grows there.
  [[gnu::noinline]] void spill(const void* data, std::size_t n) {
    if (heap_.empty()) {
      heap_.reserve(2 * (size_ + n));  // one allocation for most keys that spill at all
      heap_.assign(inline_.data(), size_);
    }
    heap_.append(static_cast<const char*>(data), n);
    size_ += n;
  }
  static std::uint64_t mix(std::uint64_t x) noexcept {
    x *= 0xff51afd7ed558ccdull;
    return x ^ (x >> 32);
  }

  std::array<char, kInline> inline_;
  std::string heap_;
  std::size_t size_ = 0;
};

}  // namespace tenferro::runtime_internal
