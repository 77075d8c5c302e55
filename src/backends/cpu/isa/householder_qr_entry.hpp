// The entry points of backends/cpu/isa/householder_qr_avx2.cpp; only
// backends/cpu/householder_qr.cpp calls them, after the CPU check.
#pragma once

#include <cstdint>

namespace tenferro::cpu_blas::isa {

// Every kind of entry the kernels take, as (suffix, real type, complex): one list for these
// declarations and the definitions in householder_qr_avx2.cpp. Complex matrices (and their tau)
// are passed as interleaved (re, im) pairs of the real type.
#define TENFERRO_HOUSEHOLDER_QR_KINDS(X) \
  X(f32, float, false) X(f64, double, false) X(c64, float, true) X(c128, double, true)

#define TENFERRO_HOUSEHOLDER_QR_DECLARE(suffix, R, complex)                                     \
  bool householder_qr_##suffix##_avx2(std::int64_t m, std::int64_t n, R* a, R* tau);            \
  void householder_q_##suffix##_avx2(std::int64_t m, std::int64_t q_cols, std::int64_t k, R* a, \
                                     const R* tau);
TENFERRO_HOUSEHOLDER_QR_KINDS(TENFERRO_HOUSEHOLDER_QR_DECLARE)
#undef TENFERRO_HOUSEHOLDER_QR_DECLARE

}  // namespace tenferro::cpu_blas::isa
