// The entry points of backends/cpu/isa/householder_qr_avx2.cpp; only
// backends/cpu/householder_qr.cpp calls them, after the CPU check.
#pragma once

#include <cstdint>

namespace tenferro::cpu_blas::isa {

bool householder_qr_f32_avx2(std::int64_t m, std::int64_t n, float* a, float* tau);
bool householder_qr_f64_avx2(std::int64_t m, std::int64_t n, double* a, double* tau);
void householder_q_f32_avx2(std::int64_t m, std::int64_t q_cols, std::int64_t k, float* a,
                            const float* tau);
void householder_q_f64_avx2(std::int64_t m, std::int64_t q_cols, std::int64_t k, double* a,
                            const double* tau);
// Complex matrices as interleaved (re, im) pairs; tau likewise.
bool householder_qr_c64_avx2(std::int64_t m, std::int64_t n, float* a, float* tau);
bool householder_qr_c128_avx2(std::int64_t m, std::int64_t n, double* a, double* tau);
void householder_q_c64_avx2(std::int64_t m, std::int64_t q_cols, std::int64_t k, float* a,
                            const float* tau);
void householder_q_c128_avx2(std::int64_t m, std::int64_t q_cols, std::int64_t k, double* a,
                             const double* tau);

}  // namespace tenferro::cpu_blas::isa
