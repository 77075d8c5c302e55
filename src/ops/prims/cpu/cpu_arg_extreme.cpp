// argmax/argmin on the CPU: one reduced axis (kernel_calls.hpp's ReduceCall), NumPy's rule: the
// index of the first NaN, else of the first largest (smallest) value, -0 and +0 being equal.
//  - A contiguous axis: one pass of the vector kernel, which carries each lane's best value and
//    its index in vectors (two passes, the maximum and then its first index, took twice NumPy's
//    time on axes beyond the L2 cache).
//  - An axis with a kept unit-stride axis beside it (argmax over the rows of a matrix): a chunk
//    of outputs along the kept axis advances row by row, best values and their indices side by
//    side (a loop the compiler vectorises), reading memory in order.
//  - Otherwise each output walks its axis.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "backends/cpu/host_parallel.hpp"
#include "backends/cpu/strided_reduce.hpp"
#include "ops/prims/cpu/cpu_kernels.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "ops/prims/cpu/simd/simd_ops.hpp"

namespace tenferro::prims_cpu {
namespace {

using prims_internal::PrimKind;
using prims_internal::ReduceCall;

// Whether v, at a later index, beats `best`: best is not a NaN, and v is one or is strictly
// beyond it. Written without branches so that the row loop vectorises.
template <bool kMax, class T>
bool beats(T v, T best) {
  return (best == best) & ((v != v) | (kMax ? v > best : v < best));
}

// One output along an axis of n elements `stride` apart.
template <bool kMax, class T>
std::int64_t walk(const T* p, std::int64_t n, std::int64_t stride) {
  std::int64_t at = 0;
  T best = p[0];
  for (std::int64_t i = 1; i < n && best == best; ++i) {
    const T v = p[i * stride];
    if (beats<kMax>(v, best)) {
      best = v;
      at = i;
    }
  }
  return at;
}

// One output along a contiguous axis: the vector kernel (simd_ops.hpp's arg_extreme), or the
// walk where there is none.
template <bool kMax, class T>
std::int64_t contiguous(const T* p, std::int64_t n) {
  std::int64_t at = 0;
  const simd::Isa isa = simd::best_isa();
  if (isa != simd::Isa::None &&
      simd::arg_extreme(isa, kMax ? simd::Op::Maximum : simd::Op::Minimum, p, n, at)) {
    return at;
  }
  return walk<kMax>(p, n, 1);
}

// Outputs along the kept unit-stride axis `axis`, kRowChunk at a time, the reduced axis (n
// rows, `stride` apart) walked row by row. Split over the host threads from
// cpu_strided::kRowParallelBytes of input, as the other row reductions.
template <bool kMax, class T>
void by_rows(const T* x, T* out, const cpu_strided::ReduceView& v, std::size_t axis) {
  constexpr std::int64_t kChunk = cpu_strided::kRowChunk;
  const cpu_strided::ReduceSplit s = cpu_strided::split_reduction(v, axis);
  const std::int64_t n0 = v.shape[axis], out_stride0 = v.out_strides[axis];
  const std::int64_t n = s.red_shape[0], stride = s.red_strides[0];
  std::int64_t outer = 1;
  for (const std::int64_t e : s.kept_shape) outer *= e;
  const std::int64_t chunks = (n0 + kChunk - 1) / kChunk;
  const auto items = [&](std::int64_t begin, std::int64_t end) {
    T best[kChunk], index[kChunk];
    for (std::int64_t w = begin; w < end; ++w) {
      const cpu_strided::KeptOffsets kept = cpu_strided::kept_offsets(v, s, w / chunks);
      const std::int64_t in_at = kept.in, out_at = kept.out;
      const std::int64_t j0 = (w % chunks) * kChunk, len = std::min(kChunk, n0 - j0);
      const T* row = x + in_at + j0;
      for (std::int64_t j = 0; j < len; ++j) {
        best[j] = row[j];
        index[j] = 0;
      }
      for (std::int64_t r = 1; r < n; ++r) {
        row += stride;
        const T at = static_cast<T>(r);
        for (std::int64_t j = 0; j < len; ++j) {
          const bool take = beats<kMax>(row[j], best[j]);
          best[j] = take ? row[j] : best[j];
          index[j] = take ? at : index[j];
        }
      }
      for (std::int64_t j = 0; j < len; ++j) out[out_at + (j0 + j) * out_stride0] = index[j];
    }
  };
  const std::int64_t count = outer * chunks;
  const std::int64_t bytes = count * kChunk * n * static_cast<std::int64_t>(sizeof(T));
  const int threads = bytes >= cpu_strided::kRowParallelBytes && count > 1
                          ? cpu_parallel::host_kernel_threads()
                          : 1;
  if (threads > 1) {
    cpu_parallel::parallel_chunks(count, threads, items);
  } else {
    items(0, count);
  }
}

template <bool kMax, class T>
void run_typed(const ReduceCall& c, const cpu_strided::ReduceView& view) {
  const T* x = reinterpret_cast<const T*>(c.in.buffer->host_data());
  T* out = reinterpret_cast<T*>(c.out.buffer->host_data());
  const cpu_strided::ReduceSplit split = cpu_strided::split_reduction(view);
  if (split.red_shape.size() != 1 || split.count == 0) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
                std::string(prims_internal::prim_name(c.kind)),
                "an index reduction takes exactly one non-empty axis");
  }
  const std::int64_t n = split.red_shape[0], stride = split.red_strides[0];
  if (stride != 1) {
    if (const std::size_t axis = cpu_strided::row_axis(view); axis < view.shape.size()) {
      return by_rows<kMax>(x, out, view, axis);
    }
  }
  cpu_strided::for_each_output(view, split, [&](std::int64_t base, std::int64_t at) {
    out[at] = static_cast<T>(stride == 1 ? contiguous<kMax>(x + base, n)
                                         : walk<kMax>(x + base, n, stride));
  });
}

}  // namespace

void arg_extreme(const ReduceCall& call, const cpu_strided::ReduceView& view) {
  const bool is_max = call.kind == PrimKind::ArgMax;
  visit_dtype(call.in.layout.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kIsComplex<T>) {
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
                  std::string(prims_internal::prim_name(call.kind)),
                  "no CPU index reduction for complex values");
    } else if (is_max) {
      run_typed<true, T>(call, view);
    } else {
      run_typed<false, T>(call, view);
    }
  });
}

}  // namespace tenferro::prims_cpu
