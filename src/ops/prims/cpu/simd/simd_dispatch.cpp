// Routes each call to the kernels of the ISA the caller names (backends/cpu/cpu_isa.hpp picks
// the best one for this CPU; without one the callers run their scalar loops). SLEEF's own
// dispatchers only choose within one vector width, so the width is chosen from that check.
#include "ops/prims/cpu/simd/simd_ops.hpp"

#if defined(TENFERRO_HAS_SLEEF) && TENFERRO_HAS_SLEEF
#include "ops/prims/cpu/simd/simd_isa_entry.hpp"
#define TENFERRO_SIMD_X86 1
#else
#define TENFERRO_SIMD_X86 0
#endif

namespace tenferro::prims_cpu::simd {

#if TENFERRO_SIMD_X86
#define TENFERRO_SIMD_ROUTE(name, ...)        \
  switch (isa) {                              \
    case Isa::Avx512:                         \
      return isa::name##_avx512(__VA_ARGS__); \
    case Isa::Avx2:                           \
      return isa::name##_avx2(__VA_ARGS__);   \
    case Isa::None:                           \
      break;                                  \
  }                                           \
  return false;
#else
template <class... A>
bool no_vector_kernel(const A&...) {
  return false;
}
#define TENFERRO_SIMD_ROUTE(name, ...) return no_vector_kernel(isa, __VA_ARGS__);
#endif

bool unary(Isa isa, Op op, const float* x, float* y, std::int64_t n, bool stream) {
  TENFERRO_SIMD_ROUTE(unary_f32, op, x, y, n, stream)
}
bool unary(Isa isa, Op op, const double* x, double* y, std::int64_t n, bool stream) {
  TENFERRO_SIMD_ROUTE(unary_f64, op, x, y, n, stream)
}
bool binary(Isa isa, Op op, const float* a, const float* b, float* y, std::int64_t n, bool stream) {
  TENFERRO_SIMD_ROUTE(binary_f32, op, a, b, y, n, stream)
}
bool binary(Isa isa, Op op, const double* a, const double* b, double* y, std::int64_t n,
            bool stream) {
  TENFERRO_SIMD_ROUTE(binary_f64, op, a, b, y, n, stream)
}

bool affine(Isa isa, const float* x, float* y, std::int64_t n, float alpha, float beta, bool shift,
            bool stream) {
  TENFERRO_SIMD_ROUTE(affine_f32, x, y, n, alpha, beta, shift, stream)
}
bool affine(Isa isa, const double* x, double* y, std::int64_t n, double alpha, double beta,
            bool shift, bool stream) {
  TENFERRO_SIMD_ROUTE(affine_f64, x, y, n, alpha, beta, shift, stream)
}
bool select(Isa isa, const float* cond, const float* x, const float* other, float* y,
            std::int64_t n, bool stream) {
  TENFERRO_SIMD_ROUTE(select_f32, cond, x, other, y, n, stream)
}
bool select(Isa isa, const double* cond, const double* x, const double* other, double* y,
            std::int64_t n, bool stream) {
  TENFERRO_SIMD_ROUTE(select_f64, cond, x, other, y, n, stream)
}
bool convert(Isa isa, const float* x, double* y, std::int64_t n) {
  TENFERRO_SIMD_ROUTE(widen, x, y, n)
}
bool convert(Isa isa, const double* x, float* y, std::int64_t n) {
  TENFERRO_SIMD_ROUTE(narrow, x, y, n)
}
bool add_rows(Isa isa, double* acc, const float* x, std::int64_t stride, std::int64_t rows,
              std::int64_t n, SumKind kind) {
  TENFERRO_SIMD_ROUTE(add_rows_f32, acc, x, stride, rows, n, kind)
}
bool add_rows(Isa isa, double* acc, const double* x, std::int64_t stride, std::int64_t rows,
              std::int64_t n, SumKind kind) {
  TENFERRO_SIMD_ROUTE(add_rows_f64, acc, x, stride, rows, n, kind)
}
bool complex_binary(Isa isa, Op op, const float* a, const float* b, float* y, std::int64_t n,
                    bool& some_nan) {
  TENFERRO_SIMD_ROUTE(complex_f32, op, a, b, y, n, &some_nan)
}
bool complex_binary(Isa isa, Op op, const double* a, const double* b, double* y, std::int64_t n,
                    bool& some_nan) {
  TENFERRO_SIMD_ROUTE(complex_f64, op, a, b, y, n, &some_nan)
}
bool complex_abs(Isa isa, const float* x, float* y, std::int64_t n, bool& outside) {
  TENFERRO_SIMD_ROUTE(complex_abs_f32, x, y, n, &outside)
}
bool complex_abs(Isa isa, const double* x, double* y, std::int64_t n, bool& outside) {
  TENFERRO_SIMD_ROUTE(complex_abs_f64, x, y, n, &outside)
}
bool block_sums(Isa isa, const float* p, std::int64_t nblocks, double* out, SumKind kind) {
  TENFERRO_SIMD_ROUTE(block_sums_f32, p, nblocks, out, kind)
}
bool block_sums(Isa isa, const double* p, std::int64_t nblocks, double* out, SumKind kind) {
  TENFERRO_SIMD_ROUTE(block_sums_f64, p, nblocks, out, kind)
}
bool reduce_lanes(Isa isa, Op op, const float* p, std::int64_t n, float* lanes) {
  TENFERRO_SIMD_ROUTE(reduce_f32, op, p, n, lanes)
}
bool reduce_lanes(Isa isa, Op op, const double* p, std::int64_t n, double* lanes) {
  TENFERRO_SIMD_ROUTE(reduce_f64, op, p, n, lanes)
}
bool arg_extreme(Isa isa, Op op, const float* p, std::int64_t n, std::int64_t& at) {
  TENFERRO_SIMD_ROUTE(arg_extreme_f32, op, p, n, &at)
}
bool arg_extreme(Isa isa, Op op, const double* p, std::int64_t n, std::int64_t& at) {
  TENFERRO_SIMD_ROUTE(arg_extreme_f64, op, p, n, &at)
}

}  // namespace tenferro::prims_cpu::simd
