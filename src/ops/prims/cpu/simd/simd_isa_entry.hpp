// The entry points that each per-ISA translation unit (simd_avx2.cpp, simd_avx512.cpp) defines;
// only simd_dispatch.cpp calls them, after checking the CPU.
#pragma once

#include <cstdint>

#include "ops/prims/cpu/simd/simd_ops.hpp"

namespace tenferro::prims_cpu::simd::isa {

#define TENFERRO_SIMD_DECLARE(suffix)                                                              \
  bool unary_f32_##suffix(Op op, const float* x, float* y, std::int64_t n, bool stream);           \
  bool unary_f64_##suffix(Op op, const double* x, double* y, std::int64_t n, bool stream);         \
  bool binary_f32_##suffix(Op op, const float* a, const float* b, float* y, std::int64_t n,        \
                           bool stream);                                                           \
  bool binary_f64_##suffix(Op op, const double* a, const double* b, double* y, std::int64_t n,     \
                           bool stream);                                                           \
  bool affine_f32_##suffix(const float* x, float* y, std::int64_t n, float alpha, float beta,      \
                           bool shift, bool stream);                                               \
  bool affine_f64_##suffix(const double* x, double* y, std::int64_t n, double alpha, double beta,  \
                           bool shift, bool stream);                                               \
  bool select_f32_##suffix(const float* cond, const float* x, const float* other, float* y,        \
                           std::int64_t n, bool stream);                                           \
  bool select_f64_##suffix(const double* cond, const double* x, const double* other, double* y,    \
                           std::int64_t n, bool stream);                                           \
  bool widen_##suffix(const float* x, double* y, std::int64_t n);                                  \
  bool narrow_##suffix(const double* x, float* y, std::int64_t n);                                 \
  bool add_rows_f32_##suffix(double* acc, const float* x, std::int64_t stride, std::int64_t rows,  \
                             std::int64_t n, SumKind kind);                                        \
  bool add_rows_f64_##suffix(double* acc, const double* x, std::int64_t stride, std::int64_t rows, \
                             std::int64_t n, SumKind kind);                                        \
  bool complex_f32_##suffix(Op op, const float* a, const float* b, float* y, std::int64_t n,       \
                            bool* some_nan);                                                       \
  bool complex_f64_##suffix(Op op, const double* a, const double* b, double* y, std::int64_t n,    \
                            bool* some_nan);                                                       \
  bool complex_abs_f32_##suffix(const float* x, float* y, std::int64_t n, bool* outside);          \
  bool complex_abs_f64_##suffix(const double* x, double* y, std::int64_t n, bool* outside);        \
  bool reduce_f32_##suffix(Op op, const float* p, std::int64_t n, float* lanes);                   \
  bool block_sums_f32_##suffix(const float* p, std::int64_t nblocks, double* out, SumKind kind);   \
  bool block_sums_f64_##suffix(const double* p, std::int64_t nblocks, double* out, SumKind kind);  \
  bool reduce_f64_##suffix(Op op, const double* p, std::int64_t n, double* lanes);                 \
  bool arg_extreme_f32_##suffix(Op op, const float* p, std::int64_t n, std::int64_t* at);          \
  bool arg_extreme_f64_##suffix(Op op, const double* p, std::int64_t n, std::int64_t* at);
TENFERRO_SIMD_DECLARE(avx2)
TENFERRO_SIMD_DECLARE(avx512)
#undef TENFERRO_SIMD_DECLARE

}  // namespace tenferro::prims_cpu::simd::isa
