// CPU element-wise calls large enough to be split over the host kernel threads (an arithmetic
// op from 8 MiB of an operand, a transcendental one from 2^17 elements: cpu_elementwise.cpp's
// parallel_from; from 256 KiB and 2^15 elements while the workers are awake, awake_from; a sum
// keeping its unit-stride rows from 16 MiB: strided_reduce.hpp) give exactly the bits a serial
// run gives: contiguous operands (the SIMD kernels), a broadcast row
// (the strided loop), where (three operands) and row sums. CTest runs this suite
// once more as PrimsThreadsSplit with TENFERRO_NUM_THREADS=3 (extra.cmake), so the split itself
// (uneven chunks) runs on any machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "backends/cpu/host_parallel.hpp"
#include "backends/cpu/strided_reduce.hpp"
#include "core/real_type.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, double lo, double hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(u(rng));
  return v;
}

template <class T>
EagerTensor upload(EagerRuntime& rt, Shape shape, const std::vector<T>& v) {
  return rt.upload(Tensor::from_col_major<T>(std::move(shape), std::span<const T>(v)));
}

// Bitwise equality, so that -0.0 against +0.0 or a NaN payload would show.
template <class T>
void expect_same_bits(const std::vector<T>& got, const std::vector<T>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(T)), 0)
        << "element " << i << " of " << got.size() << ": " << got[i] << " against " << want[i];
}

TEST(PrimsSplit, ContiguousArithmeticAcrossThreadsIsTheSerialResult) {
  const auto rt = EagerRuntime::cpu();
  const std::size_t n = (std::size_t{1} << 21) + 3;  // float32: past 8 MiB, an uneven split
  const std::vector<float> a = random_values<float>(n, 1, -4, 4),
                           b = random_values<float>(n, 2, -4, 4);
  const EagerTensor x = upload(*rt, Shape{static_cast<std::int64_t>(n)}, a);
  const EagerTensor y = upload(*rt, Shape{static_cast<std::int64_t>(n)}, b);
  std::vector<float> sum(n), product(n);
  for (std::size_t i = 0; i < n; ++i) {
    sum[i] = a[i] + b[i];
    product[i] = a[i] * b[i];
  }
  expect_same_bits(prims::add(x, y).download().to_vector<float>(), sum);
  expect_same_bits(prims::mul(x, y).download().to_vector<float>(), product);
}

TEST(PrimsSplit, BroadcastRowAcrossThreadsIsTheSerialResult) {
  const auto rt = EagerRuntime::cpu();
  const std::int64_t rows = 1031, cols = 1025;  // float64: 8.06 MiB, past the arithmetic bound
  const std::vector<double> a =
      random_values<double>(static_cast<std::size_t>(rows * cols), 3, -2, 2);
  const std::vector<double> r = random_values<double>(static_cast<std::size_t>(cols), 4, -2, 2);
  const EagerTensor x = upload(*rt, Shape{rows, cols}, a);
  const EagerTensor row = upload(*rt, Shape{1, cols}, r);
  std::vector<double> want(a.size());
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i)
      want[static_cast<std::size_t>(i + j * rows)] =
          a[static_cast<std::size_t>(i + j * rows)] * r[static_cast<std::size_t>(j)];
  expect_same_bits(prims::mul(x, row).download().to_vector<double>(), want);
}

TEST(PrimsSplit, WhereAcrossThreadsIsTheSerialResult) {
  const auto rt = EagerRuntime::cpu();
  const std::size_t n = (std::size_t{1} << 20) + 5;  // float64: past 8 MiB
  const std::vector<double> c = random_values<double>(n, 5, -1, 1),
                            a = random_values<double>(n, 6, 0, 1),
                            b = random_values<double>(n, 7, 1, 2);
  std::vector<double> cond(n), want(n);
  for (std::size_t i = 0; i < n; ++i) {
    cond[i] = c[i] > 0 ? 1.0 : 0.0;
    want[i] = cond[i] != 0 ? a[i] : b[i];
  }
  const Shape shape{static_cast<std::int64_t>(n)};
  expect_same_bits(
      prims::where(upload(*rt, shape, cond), upload(*rt, shape, a), upload(*rt, shape, b))
          .download()
          .to_vector<double>(),
      want);
}

TEST(PrimsSplit, TranscendentalAcrossThreadsIsWhatEachPieceGivesAlone) {
  // Each element's exp depends on that element alone (the SIMD kernels' lanes keep to
  // themselves): the split call must give, piece by piece, what small serial calls give.
  const auto rt = EagerRuntime::cpu();
  const std::size_t n = (std::size_t{1} << 17) + 7;
  const std::vector<double> a = random_values<double>(n, 8, -700, 700);
  const std::vector<double> whole = prims::exp(upload(*rt, Shape{static_cast<std::int64_t>(n)}, a))
                                        .download()
                                        .to_vector<double>();
  constexpr std::size_t kPiece = 4099;
  std::vector<double> pieces;
  for (std::size_t begin = 0; begin < n; begin += kPiece) {
    const std::size_t end = std::min(n, begin + kPiece);
    const std::vector<double> part(a.begin() + static_cast<std::ptrdiff_t>(begin),
                                   a.begin() + static_cast<std::ptrdiff_t>(end));
    const std::vector<double> got =
        prims::exp(upload(*rt, Shape{static_cast<std::int64_t>(part.size())}, part))
            .download()
            .to_vector<double>();
    pieces.insert(pieces.end(), got.begin(), got.end());
  }
  expect_same_bits(whole, pieces);
}

TEST(PrimsSplit, RowSumsAcrossThreadsAreWhatEachBlockGivesAlone) {
  // Sums over the columns keep the unit-stride row axis (the row pass, split from 16 MiB of
  // input): each output folds its row in one order whatever the split, so blocks of rows summed
  // in calls of their own (too small to split) give the same bits.
  const auto rt = EagerRuntime::cpu();
  const std::int64_t rows = 2053, cols = 1031;  // float64: 16.1 MiB
  const std::vector<double> a =
      random_values<double>(static_cast<std::size_t>(rows * cols), 9, -1, 1);
  const std::vector<double> whole =
      prims::sum(upload(*rt, Shape{rows, cols}, a), prims::Axes{1}).download().to_vector<double>();
  constexpr std::int64_t kBlock = 301;
  std::vector<double> blocks;
  for (std::int64_t r0 = 0; r0 < rows; r0 += kBlock) {
    const std::int64_t n = std::min(rows - r0, kBlock);
    std::vector<double> part(static_cast<std::size_t>(n * cols));
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = 0; i < n; ++i)
        part[static_cast<std::size_t>(i + j * n)] = a[static_cast<std::size_t>(r0 + i + j * rows)];
    const std::vector<double> got = prims::sum(upload(*rt, Shape{n, cols}, part), prims::Axes{1})
                                        .download()
                                        .to_vector<double>();
    blocks.insert(blocks.end(), got.begin(), got.end());
  }
  expect_same_bits(whole, blocks);
}

TEST(PrimsSplit, AMidSizedLoopSplitsOnceTheWorkersAreAwakeAndGivesTheSerialBits) {
  // Between the awake bound (256 KiB of an operand) and the parked one (8 MiB) a call splits
  // only while the workers are awake (a split or a wake less than a spin window ago): the first
  // call of a loop runs alone and wakes them, the next ones split. Each result is the serial
  // one; with more than one host kernel thread the loop must see splits (it runs until it does,
  // for at most two seconds, so a loaded machine that schedules the workers late still gets
  // there).
  const auto rt = EagerRuntime::cpu();
  const std::size_t n = (std::size_t{1} << 16) + 7;  // float64: 512 KiB, an uneven split
  const std::vector<double> a = random_values<double>(n, 11, -3, 3),
                            b = random_values<double>(n, 12, -3, 3);
  const EagerTensor x = upload(*rt, Shape{static_cast<std::int64_t>(n)}, a);
  const EagerTensor y = upload(*rt, Shape{static_cast<std::int64_t>(n)}, b);
  std::vector<double> sum(n);
  for (std::size_t i = 0; i < n; ++i) sum[i] = a[i] + b[i];
  // The reference exp from pieces below the awake bound (2^15 elements), which never split.
  std::vector<double> serial_exp;
  for (std::size_t begin = 0; begin < n; begin += std::size_t{1} << 14) {
    const std::vector<double> piece(
        a.begin() + static_cast<std::ptrdiff_t>(begin),
        a.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + (std::size_t{1} << 14))));
    const std::vector<double> got =
        prims::exp(upload(*rt, Shape{static_cast<std::int64_t>(piece.size())}, piece))
            .download()
            .to_vector<double>();
    serial_exp.insert(serial_exp.end(), got.begin(), got.end());
  }
  const std::uint64_t splits_before = cpu_parallel::host_splits_run();
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int calls = 0;
  do {
    for (int k = 0; k < 50; ++k, ++calls) {
      const EagerTensor s = prims::add(x, y);
      const EagerTensor e = prims::exp(x);
      if (k % 10 == 0) {
        expect_same_bits(s.download().to_vector<double>(), sum);
        expect_same_bits(e.download().to_vector<double>(), serial_exp);
      }
    }
  } while (cpu_parallel::host_kernel_threads() > 1 &&
           cpu_parallel::host_splits_run() == splits_before &&
           std::chrono::steady_clock::now() < until);
  if (cpu_parallel::host_kernel_threads() > 1) {
    EXPECT_GT(cpu_parallel::host_splits_run(), splits_before)
        << calls << " mid-sized calls back to back never split";
  }
}

// The same bits, not NaN-tolerant: the sums here are finite.
template <class R>
bool same_bits(R got, R want) {
  return std::memcmp(&got, &want, sizeof(R)) == 0;
}

// Whole-array sums and norms long enough to be split over the host threads (aligned parts of
// 256 blocks summed apart, their subtrees pushed in order) have the bits of one serial
// PairwiseSum over all the terms, tail included; on a machine with one core they run serially
// and must still agree. Terms of mixed magnitudes, so that another order of additions would
// show (checked).
template <class T>
void check_long_sum_and_norm(std::int64_t n) {
  using R = RealType<T>;
  std::vector<T> xs(static_cast<std::size_t>(n));
  std::uint64_t lcg = 5;
  const auto next = [&] {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    const double mantissa = static_cast<double>(lcg >> 11) / 9007199254740992.0 - 0.5;
    return static_cast<R>(std::ldexp(mantissa, static_cast<int>((lcg >> 5) % 30) - 15));
  };
  // Each part of 2^16 terms twice the magnitude of the one before, so that the tail weighs as
  // much as the parts and the order in which they meet shows in the last bits.
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const R scale = static_cast<R>(std::ldexp(1.0, static_cast<int>(i >> 16)));
    if constexpr (kIsComplexType<T>) {
      xs[i] = T(scale * next(), scale * next());
    } else {
      xs[i] = scale * next();
    }
  }
  const auto square = [](T v) {
    if constexpr (kIsComplexType<T>) {
      return static_cast<double>(v.real()) * v.real() + static_cast<double>(v.imag()) * v.imag();
    } else {
      return static_cast<double>(v) * v;
    }
  };
  cpu_strided::PairwiseSum<double> squares;
  squares.add_run(xs.data(), n, square);
  double running = 0;
  for (const T v : xs) running += square(v);
  ASSERT_NE(running, squares.total())
      << "the terms do not tell one order of additions from another";
  auto rt = EagerRuntime::cpu();
  const EagerTensor t = rt->upload(Tensor::from_col_major<T>({n}, std::span<const T>(xs)));
  const R norm = prims::norm(t).download().template to_vector<R>()[0];
  EXPECT_TRUE(same_bits(norm, static_cast<R>(std::sqrt(squares.total()))))
      << "norm " << norm << " want " << std::sqrt(squares.total());
  if constexpr (!kIsComplexType<T>) {
    cpu_strided::PairwiseSum<double> sum;
    sum.add_run(xs.data(), n, [](T v) { return static_cast<double>(v); });
    const T got = prims::sum(t).download().template to_vector<T>()[0];
    EXPECT_TRUE(same_bits(got, static_cast<T>(sum.total()))) << "sum " << got;
  }
}
TEST(PrimsSplit, LongSumsAndNormsHaveTheSerialPairwiseSumsBits) {
  // Whole parts of 2^16 terms, then a tail of 255 blocks and a partial one: a tail that the
  // parts' subtrees must meet at the right levels of the counter.
  const std::int64_t tail = 255 * 256 + 77;
  check_long_sum_and_norm<float>((std::int64_t{1} << 20) + tail);  // from 4 MiB: split
  check_long_sum_and_norm<double>((std::int64_t{1} << 19) + tail);
  check_long_sum_and_norm<std::complex<double>>((std::int64_t{1} << 18) + tail);
}

}  // namespace
}  // namespace tenferro
