// Vectorised element-wise kernels for contiguous float/double runs (x86-64: AVX2+FMA or
// AVX-512F, picked once at run time from the CPU). The transcendental functions come from SLEEF
// (libsleef-dev; at most 1 or 3.5 ulp from the exact result over the whole domain, IEEE special
// values included, per element_math.hpp's TENFERRO_PRIMS_CPU_SLEEF_UNARY, and held to 4 ulp of
// libm by the ulp sweep test); the arithmetic ones are single IEEE instructions and round
// exactly as the scalar code.
#pragma once

#include <cstdint>

#include "backends/cpu/cpu_isa.hpp"
#include "ops/prims/prim_kind_enum.hpp"

namespace tenferro::prims_cpu::simd {

// The ops are the prims op list's (ops/prims/prim_kind_enum.hpp): no second list to keep in
// step. unary() runs Neg, Square, Reciprocal, Sign, Exp, Sqrt, Abs, Cbrt, Floor, Ceil, Rint,
// Trunc and the ops of
// element_math.hpp's SLEEF list (TENFERRO_PRIMS_CPU_SLEEF_UNARY); binary() runs Add, Sub, Mul,
// Div, Maximum, Minimum (Maximum/Minimum propagate NaN, the first NaN operand, as the scalar
// nan_max/nan_min), Pow and Atan2 (SLEEF) and the six comparisons (1 or +0 of the operands' dtype);
// for any other op they return false, also for n == 0, which is how a caller asks.
using Op = prims_internal::PrimKind;

// The CPU check is the CPU backend's (backends/cpu/cpu_isa.hpp), shared with its small GEMMs.
using cpu_isa::best_isa;
using cpu_isa::Isa;
using cpu_isa::isa_available;

// y[i] = op(x[i]) (unary) or y[i] = op(a[i], b[i]) (binary) for i < n, on `isa` (which must be
// available). false when `op` has no vector kernel of that arity: the caller runs its scalar
// loop. y may equal an input; other overlaps are not allowed. `stream`: write y with streaming
// stores (for operands beyond the last-level cache: backends/cpu/stream_store.hpp); the same
// values either way.
bool unary(Isa isa, Op op, const float* x, float* y, std::int64_t n, bool stream = false);
bool unary(Isa isa, Op op, const double* x, double* y, std::int64_t n, bool stream = false);
bool binary(Isa isa, Op op, const float* a, const float* b, float* y, std::int64_t n,
            bool stream = false);
bool binary(Isa isa, Op op, const double* a, const double* b, double* y, std::int64_t n,
            bool stream = false);

// y[i] = alpha * x[i], then + beta when `shift` (the affine prim on a real dtype), each step
// rounded as the scalar code rounds it (no fused multiply-add).
bool affine(Isa isa, const float* x, float* y, std::int64_t n, float alpha, float beta, bool shift,
            bool stream = false);
bool affine(Isa isa, const double* x, double* y, std::int64_t n, double alpha, double beta,
            bool shift, bool stream = false);
// where: y[i] = cond[i] != 0 ? x[i] : other[i] (a NaN cond picks x), as the scalar select.
bool select(Isa isa, const float* cond, const float* x, const float* other, float* y,
            std::int64_t n, bool stream = false);
bool select(Isa isa, const double* cond, const double* x, const double* other, double* y,
            std::int64_t n, bool stream = false);
// y[i] = x[i] cast between float32 and float64 (rounded to nearest, as static_cast).
bool convert(Isa isa, const float* x, double* y, std::int64_t n);
bool convert(Isa isa, const double* x, float* y, std::int64_t n);
// y[i] = a[i] op b[i] for n complex values of interleaved (re, im) parts, op Mul or Div (false
// for other ops, and without a vector ISA), y may equal a or b: the scalar std::complex result's
// parts bit for bit (GCC's rules: libgcc's __muldc3, __divdc3, __divsc3) except where both
// parts come out NaN: the values that need C99 Annex G's recovery of infinities, and for Div
// the values outside the kernel's range (complex128 parts that are neither zero nor within
// 2^-250..2^250, a zero divisor). some_nan: whether some part of y is NaN, so that the caller
// can redo those values by the scalar rule.
bool complex_binary(Isa isa, Op op, const float* a, const float* b, float* y, std::int64_t n,
                    bool& some_nan);
bool complex_binary(Isa isa, Op op, const double* a, const double* b, double* y, std::int64_t n,
                    bool& some_nan);
// y[i] = |x[i]| of n complex values (interleaved parts), as element_math.hpp's
// complex_magnitude bit for bit where its formula applies; outside: whether some value is
// outside that range (the caller redoes those by the scalar rule). false without a vector ISA.
bool complex_abs(Isa isa, const float* x, float* y, std::int64_t n, bool& outside);
bool complex_abs(Isa isa, const double* x, double* y, std::int64_t n, bool& outside);
// Block sums in the shape of the CPU backend's pairwise sum (backends/cpu/strided_reduce.hpp's
// PairwiseSum::add_run, bit for bit): for each of nblocks blocks of kSumBlock terms at p,
// kSumLanes running sums in float64 (lane l adds terms l, l + kSumLanes, ... in order), folded
// pairwise (lane l + w into lane l for w = kSumLanes / 2, ..., 1) into out[block]. The terms
// (SumKind): the elements widened; their squares (each rounded, then added); or, for complex
// values (p their interleaved parts, 2 * kSumBlock per block), re^2 + im^2 (each square
// rounded, then their sum). false without a vector ISA.
inline constexpr std::int64_t kSumBlock = 256;
inline constexpr int kSumLanes = 16;
enum class SumKind { Values, Squares, ComplexSquares };
bool block_sums(Isa isa, const float* p, std::int64_t nblocks, double* out, SumKind kind);
bool block_sums(Isa isa, const double* p, std::int64_t nblocks, double* out, SumKind kind);
// A sum's or a norm's steps along rows into float64 accumulators: for each of `rows` rows (row r
// at x + r * stride, in order), acc[j] += double(x) (Values) or double(x) * double(x) (Squares:
// the square rounded, then the sum) for j < n. false for ComplexSquares and without a vector ISA.
bool add_rows(Isa isa, double* acc, const float* x, std::int64_t stride, std::int64_t rows,
              std::int64_t n, SumKind kind);
bool add_rows(Isa isa, double* acc, const double* x, std::int64_t stride, std::int64_t rows,
              std::int64_t n, SumKind kind);
// Running maxima/minima (op Maximum or Minimum) over a contiguous run: lanes[l] =
// op(lanes[l], p[i]) for every i < n - n % kReduceLanes with i % kReduceLanes == l, lane by lane
// with the scalar nan_max/nan_min rule; the caller folds the last n % kReduceLanes elements and
// the lanes. false for other ops.
inline constexpr std::int64_t kReduceLanes = 16;
bool reduce_lanes(Isa isa, Op op, const float* p, std::int64_t n, float* lanes);
bool reduce_lanes(Isa isa, Op op, const double* p, std::int64_t n, double* lanes);
// at = NumPy's argmax (op Maximum) or argmin (op Minimum) of p[0..n), n >= 1: the index of the
// first NaN, else of the first largest (smallest) value, -0 and +0 being equal; in one pass,
// the indices carried in vectors of the element type. false for other ops, for n above 2^24
// (float) or 2^53 (double), whose indices those vectors do not hold exactly, and without a
// vector ISA.
bool arg_extreme(Isa isa, Op op, const float* p, std::int64_t n, std::int64_t& at);
bool arg_extreme(Isa isa, Op op, const double* p, std::int64_t n, std::int64_t& at);

}  // namespace tenferro::prims_cpu::simd
