// The CPU creation kernel: fill, identity, ranges and Philox random numbers (philox.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <numbers>
#include <type_traits>

#include "backends/cpu/strided_loops.hpp"
#include "ops/prims/cpu/cpu_kernels.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "ops/prims/philox.hpp"

namespace tenferro::prims_cpu {
namespace {

using cpu_strided::kParallelElements;

using prims_internal::GenerateCall;
using prims_internal::PrimKind;

template <class T>
T from_complex(std::complex<double> v) {
  if constexpr (kIsComplex<T>) {
    return T(static_cast<Real<T>>(v.real()), static_cast<Real<T>>(v.imag()));
  } else {
    return static_cast<T>(v.real());
  }
}

// Uniform numbers in [0, 1) for element k: u[0] for the real part, u[1] for the imaginary one.
template <class R>
std::array<R, 2> uniforms(std::uint64_t seed, std::uint64_t k) {
  const auto w = prims_internal::philox_words(seed, k);
  if constexpr (std::is_same_v<R, float>) {
    return {prims_internal::uniform_f32(w[0]), prims_internal::uniform_f32(w[2])};
  } else {
    return {prims_internal::uniform_f64(w[0], w[1]), prims_internal::uniform_f64(w[2], w[3])};
  }
}

// low + span * u, in [low, high) (in (high, low] for low > high; low where they are equal).
// The product rounds up to high itself where high's spacing is coarser than the steps of u
// (float32 [10, 11): 2 values in 10^7 were 11; (1e8, 1e8 + 8): half of them): those take the
// value next to high instead.
template <class R>
R uniform_between(R lo, R hi, R span, R u) {
  const R v = lo + span * u;
  return (span > 0 && v >= hi) || (span < 0 && v <= hi) ? std::nextafter(hi, lo) : v;
}

// Box-Muller on the element's words: z0 and z1 (see philox.hpp).
template <class R>
std::array<R, 2> normals(std::uint64_t seed, std::uint64_t k) {
  const auto w = prims_internal::philox_words(seed, k);
  R ua, ub;
  if constexpr (std::is_same_v<R, float>) {
    ua = prims_internal::uniform_f32(w[0]);
    ub = prims_internal::uniform_f32(w[1]);
  } else {
    ua = prims_internal::uniform_f64(w[0], w[1]);
    ub = prims_internal::uniform_f64(w[2], w[3]);
  }
  const R r = std::sqrt(R(-2) * std::log(R(1) - ua));
  const R theta = R(2) * std::numbers::pi_v<R> * ub;
  return {r * std::cos(theta), r * std::sin(theta)};
}

// Element k of the op's output for the kinds run element by element (eye, the random ones), the
// op fixed at compile time (K): a loop over one kind has no switch in its body (with the kind
// switched per element a fill took 1.7 ns an element, ten times NumPy's ones). A fill and a
// range have loops of their own (run_kind).
template <PrimKind K, class T>
T value_at(const GenerateCall& c, std::int64_t k, std::int64_t rows) {
  using R = Real<T>;
  if constexpr (K == PrimKind::Eye) {
    return T((k / rows) - (k % rows) == c.offset ? 1 : 0);
  } else if constexpr (K == PrimKind::RandomUniform) {
    const auto u = uniforms<R>(c.seed, static_cast<std::uint64_t>(k));
    const R lo = static_cast<R>(c.a), hi = static_cast<R>(c.b), span = hi - lo;
    if constexpr (kIsComplex<T>) {
      return T(uniform_between(lo, hi, span, u[0]), uniform_between(lo, hi, span, u[1]));
    } else {
      return uniform_between(lo, hi, span, u[0]);
    }
  } else {
    static_assert(K == PrimKind::RandomNormal);
    const auto z = normals<R>(c.seed, static_cast<std::uint64_t>(k));
    const R mean = static_cast<R>(c.a), sd = static_cast<R>(c.b);
    if constexpr (kIsComplex<T>) {
      const R s = sd / std::numbers::sqrt2_v<R>;
      return T(mean + s * z[0], s * z[1]);
    } else {
      return mean + sd * z[0];
    }
  }
}

// y[0, n) = value. Through libc's memset and memcpy, which run the widest stores the CPU has
// (this file is built for baseline x86-64, where std::fill stores 16 bytes at a time: 512 KiB
// of float64 zeros took 23 us through Python against NumPy's 11; now 11.5): zero bits at
// once, any other value as one block filled element by element and copied over the rest (the
// block stays in the level-1 cache while it is read).
template <class T>
void fill_values(T* y, std::int64_t n, T value) {
  static_assert(std::is_trivially_copyable_v<T>);
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if (std::all_of(std::begin(bytes), std::end(bytes), [](unsigned char b) { return b == 0; })) {
    std::memset(static_cast<void*>(y), 0, static_cast<std::size_t>(n) * sizeof(T));
    return;
  }
  constexpr std::int64_t kBlock = 4096 / sizeof(T);
  const std::int64_t first = std::min(n, kBlock);
  std::fill(y, y + first, value);
  for (std::int64_t at = first; at < n; at += kBlock)
    std::memcpy(static_cast<void*>(y + at), y,
                static_cast<std::size_t>(std::min(kBlock, n - at)) * sizeof(T));
}

template <PrimKind K, class T>
void run_kind(const GenerateCall& c) {
  T* y = reinterpret_cast<T*>(c.out.buffer->host_data()) + c.out.layout.offset;
  const std::int64_t n = c.out.layout.numel();
  const std::int64_t rows =
      c.out.layout.shape.empty() ? 1 : std::max<std::int64_t>(c.out.layout.shape[0], 1);
  const T fill = from_complex<T>(c.value);
  const auto body = [&](std::int64_t begin, std::int64_t end) {
    if constexpr (K == PrimKind::Fill) {
      fill_values(y + begin, end - begin, fill);
    } else if constexpr (K == PrimKind::Arange) {
      // start + k step, k = base + i with an int32 i (exact in double below 2^53, so k is the
      // element's index exactly): baseline x86-64 converts int32 to double a vector at a time
      // but int64 one element at a time (0.72 ns an element against NumPy's 0.50).
      using R = Real<T>;
      for (std::int64_t base = begin; base < end; base += std::int64_t{1} << 30) {
        const auto len = static_cast<std::int32_t>(std::min<std::int64_t>(end - base, 1 << 30));
        const double first = static_cast<double>(base);
        T* out = y + base;
        for (std::int32_t i = 0; i < len; ++i)
          out[i] = T(static_cast<R>(c.start + (first + static_cast<double>(i)) * c.step));
      }
    } else {
      for (std::int64_t k = begin; k < end; ++k) y[k] = value_at<K, T>(c, k, rows);
    }
  };
  const int threads = cpu_parallel::host_kernel_threads();
  if (threads > 1 && n >= kParallelElements) {
    cpu_parallel::parallel_chunks(n, threads, body);
  } else {
    body(0, n);
  }
}

template <class T>
void run_typed(const GenerateCall& c) {
  switch (c.kind) {
    case PrimKind::Fill:
      return run_kind<PrimKind::Fill, T>(c);
    case PrimKind::Eye:
      return run_kind<PrimKind::Eye, T>(c);
    case PrimKind::Arange:
      return run_kind<PrimKind::Arange, T>(c);
    case PrimKind::RandomUniform:
      return run_kind<PrimKind::RandomUniform, T>(c);
    case PrimKind::RandomNormal:
      return run_kind<PrimKind::RandomNormal, T>(c);
    default:
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
                  std::string(prims_internal::prim_name(c.kind)), "not a creation kind");
  }
}

}  // namespace

void generate(const ExecutionContext&, const GenerateCall& call) {
  count_cpu_kernel_launch();
  visit_dtype(call.out.layout.dtype, [&](auto tag) { run_typed<decltype(tag)>(call); });
}

}  // namespace tenferro::prims_cpu
