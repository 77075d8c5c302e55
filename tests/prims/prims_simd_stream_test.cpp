// The SIMD element-wise kernels' streaming form (simd_ops.hpp's `stream`, taken for operands
// beyond the last-level cache: backends/cpu/stream_store.hpp): the same values as the plain
// form, bit for bit, for every op with a vector kernel, on both ISAs, whatever the result's
// alignment (a head before the first aligned vector, whole streamed vectors, a tail) and length,
// in place too; and nothing written outside [y, y + n). Also through prims on arrays large
// enough to stream on this machine, against the plain form on a slice too small to stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "backends/cpu/stream_store.hpp"
#include "ops/prims/cpu/simd/simd_ops.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::prims_test {
namespace {

namespace simd = prims_cpu::simd;
using simd::Isa;
using simd::Op;

constexpr Op kUnary[] = {Op::Exp, Op::Log, Op::Sin, Op::Cos, Op::Tanh, Op::Sqrt, Op::Abs};
constexpr Op kBinary[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Maximum, Op::Minimum};

template <class T>
std::vector<T> values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.01, 20.0);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(u(rng));
  if (n > 10) v[3] = std::numeric_limits<T>::quiet_NaN();  // NaN keeps its place
  return v;
}

template <class T>
void expect_same_bits(const T* got, const T* want, std::size_t n, const char* what) {
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(std::memcmp(got + i, want + i, sizeof(T)), 0) << what << ": element " << i;
}

template <class T>
void check_streaming_form_is_the_plain_form() {
  constexpr T kGuard = static_cast<T>(-12345.0);
  const std::vector<T> a = values<T>(600, 1), b = values<T>(600, 2);
  for (Isa isa : {Isa::Avx2, Isa::Avx512}) {
    if (!simd::isa_available(isa)) continue;
    // y from every offset within a 64-byte line (a head of 0..W-1 elements), lengths around the
    // vector widths.
    for (std::size_t offset = 0; offset < 64 / sizeof(T) + 1; ++offset) {
      for (const std::int64_t n : {1, 7, 8, 15, 16, 17, 33, 100, 513}) {
        std::vector<T> plain(700, kGuard), streamed(700, kGuard);
        for (Op op : kUnary) {
          if (!simd::unary(isa, op, static_cast<const T*>(nullptr), nullptr, 0)) continue;
          std::fill(plain.begin(), plain.end(), kGuard);
          std::fill(streamed.begin(), streamed.end(), kGuard);
          ASSERT_TRUE(simd::unary(isa, op, a.data(), plain.data() + offset, n, false));
          ASSERT_TRUE(simd::unary(isa, op, a.data(), streamed.data() + offset, n, true));
          expect_same_bits(streamed.data(), plain.data(), plain.size(), "unary");
        }
        for (Op op : kBinary) {
          std::fill(plain.begin(), plain.end(), kGuard);
          std::fill(streamed.begin(), streamed.end(), kGuard);
          ASSERT_TRUE(simd::binary(isa, op, a.data(), b.data(), plain.data() + offset, n, false));
          ASSERT_TRUE(simd::binary(isa, op, a.data(), b.data(), streamed.data() + offset, n, true));
          expect_same_bits(streamed.data(), plain.data(), plain.size(), "binary");
          // In place: y is the first operand.
          std::vector<T> in_place(a.begin(), a.begin() + n);
          ASSERT_TRUE(simd::binary(isa, op, in_place.data(), b.data(), in_place.data(), n, true));
          expect_same_bits(in_place.data(), plain.data() + offset, static_cast<std::size_t>(n),
                           "binary in place");
        }
      }
    }
  }
}

TEST(PrimsSimdStream, StreamingFormIsThePlainFormFloat32) {
  check_streaming_form_is_the_plain_form<float>();
}
TEST(PrimsSimdStream, StreamingFormIsThePlainFormFloat64) {
  check_streaming_form_is_the_plain_form<double>();
}

TEST(PrimsSimdStream, ArraysBeyondTheCacheGiveThePlainBits) {
  // Large enough to stream here (three arrays past the last-level cache); the reference is the
  // same op on pieces small enough not to.
  const std::size_t n = cpu_stream::last_level_cache_bytes() / (2 * sizeof(float)) + 77;
  ASSERT_TRUE(cpu_stream::worth_streaming(3 * n * sizeof(float)));
  const auto rt = EagerRuntime::cpu();
  const std::vector<float> a = values<float>(n, 3), b = values<float>(n, 4);
  const auto upload = [&](const std::vector<float>& v) {
    return rt->upload(Tensor::from_col_major<float>(Shape{static_cast<std::int64_t>(v.size())},
                                                    std::span<const float>(v)));
  };
  const std::vector<float> sum = prims::add(upload(a), upload(b)).download().to_vector<float>();
  const std::vector<float> e = prims::exp(upload(a)).download().to_vector<float>();
  constexpr std::size_t kPiece = 1 << 16;
  for (std::size_t begin = 0; begin < n; begin += kPiece) {
    const std::size_t end = std::min(n, begin + kPiece);
    const std::vector<float> pa(a.begin() + static_cast<std::ptrdiff_t>(begin),
                                a.begin() + static_cast<std::ptrdiff_t>(end));
    const std::vector<float> pb(b.begin() + static_cast<std::ptrdiff_t>(begin),
                                b.begin() + static_cast<std::ptrdiff_t>(end));
    const std::vector<float> ps = prims::add(upload(pa), upload(pb)).download().to_vector<float>();
    const std::vector<float> pe = prims::exp(upload(pa)).download().to_vector<float>();
    expect_same_bits(sum.data() + begin, ps.data(), ps.size(), "add");
    expect_same_bits(e.data() + begin, pe.data(), pe.size(), "exp");
  }
}

}  // namespace
}  // namespace tenferro::prims_test
