// The entry points each per-ISA lanes file defines (lanes_avx2.cpp, lanes_avx512.cpp); only
// backends/cpu/jacobi_eigh.cpp, jacobi_svd.cpp and lane_qr.cpp call them, after the CPU check.
#pragma once

#include <cstdint>

namespace tenferro::cpu_blas::isa {

// Every (real type, suffix) the kernels come in: one list for these declarations and for the
// definitions in jacobi_eigh_body.inc, jacobi_svd_body.inc and lane_qr_body.inc.
#define TENFERRO_LANES_KINDS(X) X(float, f32) X(double, f64)

#define TENFERRO_LANES_DECLARE(T, suffix, isa)                                                 \
  bool jacobi_eigh_##suffix##_##isa(int n, int count, const T* a, std::int64_t a_stride, T* w, \
                                    T* v, std::int64_t v_stride, bool vectors);                \
  bool jacobi_svd_##suffix##_##isa(int m, int n, int count, const T* a, std::int64_t a_stride, \
                                   T* s, T* u, std::int64_t u_stride, T* vt,                   \
                                   std::int64_t vt_stride, bool vectors);                      \
  bool lane_qr_##suffix##_##isa(int m, int n, int q_cols, int count, const T* a,               \
                                std::int64_t a_stride, T* q, std::int64_t q_stride, T* r,      \
                                int r_rows, std::int64_t r_stride);
#define TENFERRO_LANES_DECLARE_BOTH(T, suffix) \
  TENFERRO_LANES_DECLARE(T, suffix, avx2) TENFERRO_LANES_DECLARE(T, suffix, avx512)
TENFERRO_LANES_KINDS(TENFERRO_LANES_DECLARE_BOTH)
#undef TENFERRO_LANES_DECLARE_BOTH

}  // namespace tenferro::cpu_blas::isa
