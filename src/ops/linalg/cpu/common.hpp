// Shared pieces of the CPU linalg executor: element traits, the per-call context, batch
// addressing, the non-finite input check and the typed Numerical errors.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "core/host_memory.hpp"
#include "core/real_type.hpp"
#include "ops/linalg/cpu/lapack.hpp"
#include "ops/linalg/linalg_op.hpp"
#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::linalg_cpu {

template <class T>
using Real = RealType<T>;
template <class T>
inline constexpr bool kIsComplex = kIsComplexType<T>;

template <class T>
Real<T> real_part(T x) {
  if constexpr (kIsComplex<T>)
    return x.real();
  else
    return x;
}
template <class T>
T conj_of(T x) {
  if constexpr (kIsComplex<T>)
    return std::conj(x);
  else
    return x;
}

// What every op kernel gets: the execution context and the op being run.
struct CpuCall {
  const ExecutionContext& ctx;
  const linalg_internal::LinalgOp& op;
  std::string op_name() const { return std::string(op.name()); }
};

// Outputs and input copies live in blocks of the CPU runtime's cache (host_zeros / host_empty of
// backends/cpu): fresh allocations faulted their pages in on every call, 10-16% of a batched
// svd or eigh of 64 32x32 matrices.
// A compact copy of `t` in such a block (for LAPACK routines that overwrite their operand).
Tensor host_clone(const CpuCall& call, const Tensor& t);
// A host input as compact column-major data: the value itself, or when it is strided a copy in
// such a block.
Tensor compact_host(const CpuCall& call, const EagerTensor& value);

// "batch entry 4 (index [1, 1])", or "the matrix" for an unbatched call.
std::string batch_label(std::int64_t batch_index, const Shape& batch_shape);

// Typed Numerical error (phase Execute) naming the op and the batch entry.
[[noreturn]] void throw_numerical(const CpuCall& call, std::int64_t batch_index,
                                  const Shape& batch_shape, const std::string& what);
// Numerical error for an illegal-argument LAPACK return (info < 0): a bug on our side.
[[noreturn]] void throw_lapack_argument(const CpuCall& call, const char* routine,
                                        lapack::lint info);

// Non-finite values make LAPACK loop or return garbage, so they are refused up front.
template <class T>
void check_finite(const CpuCall& call, const T* data, std::int64_t count, std::int64_t batch_index,
                  const Shape& batch_shape, const char* input_name) {
  for (std::int64_t i = 0; i < count; ++i) {
    bool finite;
    if constexpr (kIsComplex<T>) {
      finite = std::isfinite(data[i].real()) && std::isfinite(data[i].imag());
    } else {
      finite = std::isfinite(data[i]);
    }
    if (!finite) {
      throw_numerical(call, batch_index, batch_shape,
                      std::string("input ") + input_name +
                          " contains a non-finite value (NaN or Inf); LAPACK was not called");
    }
  }
}

// Checks a whole batch of compact matrices [rows, cols, batch] entry by entry.
template <class T>
void check_finite_batch(const CpuCall& call, const T* data, std::int64_t per_entry,
                        std::int64_t batch, const Shape& batch_shape, const char* input_name) {
  for (std::int64_t b = 0; b < batch; ++b) {
    check_finite(call, data + b * per_entry, per_entry, b, batch_shape, input_name);
  }
}

// Only the triangle LAPACK reads is checked (the other may hold anything, as in LAPACK).
template <class T>
void check_finite_triangle(const CpuCall& call, const T* matrix, std::int64_t n, bool lower,
                           bool with_diagonal, std::int64_t batch_index, const Shape& batch_shape,
                           const char* input_name) {
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t begin = lower ? (with_diagonal ? j : j + 1) : 0;
    const std::int64_t end = lower ? n : (with_diagonal ? j + 1 : j);
    if (end > begin) {
      check_finite(call, matrix + j * n + begin, end - begin, batch_index, batch_shape, input_name);
    }
  }
}

// LAPACK's leading dimension must be >= 1 even for empty matrices.
inline lapack::lint ld(std::int64_t rows) {
  return static_cast<lapack::lint>(rows > 1 ? rows : 1);
}
inline lapack::lint li(std::int64_t v) {
  return static_cast<lapack::lint>(v);
}

// A host scratch buffer of `count` elements whose size is checked before allocating: a typed
// Resource error instead of std::bad_alloc (or an AddressSanitizer abort) for a buffer no
// process could hold, e.g. the [n, n] Vh of a full SVD of a (0, 2^20) matrix.
template <class T>
std::vector<T> checked_buffer(std::int64_t count, std::string_view op) {
  host_memory::check_allocation(static_cast<std::uint64_t>(count), sizeof(T), op);
  return std::vector<T>(static_cast<std::size_t>(count));
}

// The same in a block of the runtime's cache (contents unspecified), for scratch as large as
// the outputs. The tensor owns the block; data<T>() is the buffer.
template <class T>
Tensor host_scratch(const CpuCall& call, std::int64_t count) {
  host_memory::check_allocation(static_cast<std::uint64_t>(count), sizeof(T), call.op.name());
  return host_empty(call.ctx, dtype_of_v<T>, Shape{count});
}

// Counts one LAPACK call as a CPU kernel launch.
void count_lapack_call();

}  // namespace tenferro::linalg_cpu
