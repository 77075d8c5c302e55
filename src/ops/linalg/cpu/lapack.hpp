// Typed overloads over LAPACKE's *_work entry points (column-major, caller-owned workspace),
// one name per routine for all four element types, so the executors are written once as
// templates. Complex routines take an extra real workspace (`rwork`); the real overloads
// accept and ignore it so call sites stay uniform.
#pragma once

#include <complex>

#include "backends/cpu/lapacke.hpp"

namespace tenferro::linalg_cpu::lapack {

using c32 = std::complex<float>;
using c64 = std::complex<double>;
using lint = lapack_int;
inline constexpr int kLayout = LAPACK_COL_MAJOR;

// ---- QR ------------------------------------------------------------------------------------
inline lint geqrf(lint m, lint n, float* a, lint lda, float* tau, float* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_sgeqrf_work)(kLayout, m, n, a, lda, tau, w, lw);
}
inline lint geqrf(lint m, lint n, double* a, lint lda, double* tau, double* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_dgeqrf_work)(kLayout, m, n, a, lda, tau, w, lw);
}
inline lint geqrf(lint m, lint n, c32* a, lint lda, c32* tau, c32* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_cgeqrf_work)(kLayout, m, n, a, lda, tau, w, lw);
}
inline lint geqrf(lint m, lint n, c64* a, lint lda, c64* tau, c64* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_zgeqrf_work)(kLayout, m, n, a, lda, tau, w, lw);
}

// orgqr for real, ungqr for complex.
inline lint orgqr(lint m, lint n, lint k, float* a, lint lda, const float* tau, float* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_sorgqr_work)(kLayout, m, n, k, a, lda, tau, w, lw);
}
inline lint orgqr(lint m, lint n, lint k, double* a, lint lda, const double* tau, double* w,
                  lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_dorgqr_work)(kLayout, m, n, k, a, lda, tau, w, lw);
}
inline lint orgqr(lint m, lint n, lint k, c32* a, lint lda, const c32* tau, c32* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_cungqr_work)(kLayout, m, n, k, a, lda, tau, w, lw);
}
inline lint orgqr(lint m, lint n, lint k, c64* a, lint lda, const c64* tau, c64* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_zungqr_work)(kLayout, m, n, k, a, lda, tau, w, lw);
}

// ---- SVD -----------------------------------------------------------------------------------
inline lint gesdd(char jobz, lint m, lint n, float* a, lint lda, float* s, float* u, lint ldu,
                  float* vt, lint ldvt, float* w, lint lw, float*, lint* iw) {
  return TENFERRO_BLAS_NAME(LAPACKE_sgesdd_work)(kLayout, jobz, m, n, a, lda, s, u, ldu, vt, ldvt,
                                                 w, lw, iw);
}
inline lint gesdd(char jobz, lint m, lint n, double* a, lint lda, double* s, double* u, lint ldu,
                  double* vt, lint ldvt, double* w, lint lw, double*, lint* iw) {
  return TENFERRO_BLAS_NAME(LAPACKE_dgesdd_work)(kLayout, jobz, m, n, a, lda, s, u, ldu, vt, ldvt,
                                                 w, lw, iw);
}
inline lint gesdd(char jobz, lint m, lint n, c32* a, lint lda, float* s, c32* u, lint ldu, c32* vt,
                  lint ldvt, c32* w, lint lw, float* rw, lint* iw) {
  return TENFERRO_BLAS_NAME(LAPACKE_cgesdd_work)(kLayout, jobz, m, n, a, lda, s, u, ldu, vt, ldvt,
                                                 w, lw, rw, iw);
}
inline lint gesdd(char jobz, lint m, lint n, c64* a, lint lda, double* s, c64* u, lint ldu, c64* vt,
                  lint ldvt, c64* w, lint lw, double* rw, lint* iw) {
  return TENFERRO_BLAS_NAME(LAPACKE_zgesdd_work)(kLayout, jobz, m, n, a, lda, s, u, ldu, vt, ldvt,
                                                 w, lw, rw, iw);
}

inline lint gesvd(char ju, char jvt, lint m, lint n, float* a, lint lda, float* s, float* u,
                  lint ldu, float* vt, lint ldvt, float* w, lint lw, float*) {
  return TENFERRO_BLAS_NAME(LAPACKE_sgesvd_work)(kLayout, ju, jvt, m, n, a, lda, s, u, ldu, vt,
                                                 ldvt, w, lw);
}
inline lint gesvd(char ju, char jvt, lint m, lint n, double* a, lint lda, double* s, double* u,
                  lint ldu, double* vt, lint ldvt, double* w, lint lw, double*) {
  return TENFERRO_BLAS_NAME(LAPACKE_dgesvd_work)(kLayout, ju, jvt, m, n, a, lda, s, u, ldu, vt,
                                                 ldvt, w, lw);
}
inline lint gesvd(char ju, char jvt, lint m, lint n, c32* a, lint lda, float* s, c32* u, lint ldu,
                  c32* vt, lint ldvt, c32* w, lint lw, float* rw) {
  return TENFERRO_BLAS_NAME(LAPACKE_cgesvd_work)(kLayout, ju, jvt, m, n, a, lda, s, u, ldu, vt,
                                                 ldvt, w, lw, rw);
}
inline lint gesvd(char ju, char jvt, lint m, lint n, c64* a, lint lda, double* s, c64* u, lint ldu,
                  c64* vt, lint ldvt, c64* w, lint lw, double* rw) {
  return TENFERRO_BLAS_NAME(LAPACKE_zgesvd_work)(kLayout, ju, jvt, m, n, a, lda, s, u, ldu, vt,
                                                 ldvt, w, lw, rw);
}

// ---- Hermitian eigen-decomposition (syevd / heevd) -------------------------------------------
inline lint syevd(char jobz, char uplo, lint n, float* a, lint lda, float* w, float* work, lint lw,
                  float*, lint, lint* iw, lint liw) {
  return TENFERRO_BLAS_NAME(LAPACKE_ssyevd_work)(kLayout, jobz, uplo, n, a, lda, w, work, lw, iw,
                                                 liw);
}
inline lint syevd(char jobz, char uplo, lint n, double* a, lint lda, double* w, double* work,
                  lint lw, double*, lint, lint* iw, lint liw) {
  return TENFERRO_BLAS_NAME(LAPACKE_dsyevd_work)(kLayout, jobz, uplo, n, a, lda, w, work, lw, iw,
                                                 liw);
}
inline lint syevd(char jobz, char uplo, lint n, c32* a, lint lda, float* w, c32* work, lint lw,
                  float* rw, lint lrw, lint* iw, lint liw) {
  return TENFERRO_BLAS_NAME(LAPACKE_cheevd_work)(kLayout, jobz, uplo, n, a, lda, w, work, lw, rw,
                                                 lrw, iw, liw);
}
inline lint syevd(char jobz, char uplo, lint n, c64* a, lint lda, double* w, c64* work, lint lw,
                  double* rw, lint lrw, lint* iw, lint liw) {
  return TENFERRO_BLAS_NAME(LAPACKE_zheevd_work)(kLayout, jobz, uplo, n, a, lda, w, work, lw, rw,
                                                 lrw, iw, liw);
}

// ---- General eigen-decomposition (right vectors only) -----------------------------------------
inline lint geev(char jvr, lint n, float* a, lint lda, float* wr, float* wi, float* vr, lint ldvr,
                 float* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_sgeev_work)(kLayout, 'N', jvr, n, a, lda, wr, wi, nullptr, 1,
                                                vr, ldvr, w, lw);
}
inline lint geev(char jvr, lint n, double* a, lint lda, double* wr, double* wi, double* vr,
                 lint ldvr, double* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_dgeev_work)(kLayout, 'N', jvr, n, a, lda, wr, wi, nullptr, 1,
                                                vr, ldvr, w, lw);
}
inline lint geev(char jvr, lint n, c32* a, lint lda, c32* ev, c32* vr, lint ldvr, c32* w, lint lw,
                 float* rw) {
  return TENFERRO_BLAS_NAME(LAPACKE_cgeev_work)(kLayout, 'N', jvr, n, a, lda, ev, nullptr, 1, vr,
                                                ldvr, w, lw, rw);
}
inline lint geev(char jvr, lint n, c64* a, lint lda, c64* ev, c64* vr, lint ldvr, c64* w, lint lw,
                 double* rw) {
  return TENFERRO_BLAS_NAME(LAPACKE_zgeev_work)(kLayout, 'N', jvr, n, a, lda, ev, nullptr, 1, vr,
                                                ldvr, w, lw, rw);
}

// ---- LU, Cholesky, solvers -------------------------------------------------------------------
inline lint getrf(lint m, lint n, float* a, lint lda, lint* ipiv) {
  return TENFERRO_BLAS_NAME(LAPACKE_sgetrf_work)(kLayout, m, n, a, lda, ipiv);
}
inline lint getrf(lint m, lint n, double* a, lint lda, lint* ipiv) {
  return TENFERRO_BLAS_NAME(LAPACKE_dgetrf_work)(kLayout, m, n, a, lda, ipiv);
}
inline lint getrf(lint m, lint n, c32* a, lint lda, lint* ipiv) {
  return TENFERRO_BLAS_NAME(LAPACKE_cgetrf_work)(kLayout, m, n, a, lda, ipiv);
}
inline lint getrf(lint m, lint n, c64* a, lint lda, lint* ipiv) {
  return TENFERRO_BLAS_NAME(LAPACKE_zgetrf_work)(kLayout, m, n, a, lda, ipiv);
}

inline lint potrf(char uplo, lint n, float* a, lint lda) {
  return TENFERRO_BLAS_NAME(LAPACKE_spotrf_work)(kLayout, uplo, n, a, lda);
}
inline lint potrf(char uplo, lint n, double* a, lint lda) {
  return TENFERRO_BLAS_NAME(LAPACKE_dpotrf_work)(kLayout, uplo, n, a, lda);
}
inline lint potrf(char uplo, lint n, c32* a, lint lda) {
  return TENFERRO_BLAS_NAME(LAPACKE_cpotrf_work)(kLayout, uplo, n, a, lda);
}
inline lint potrf(char uplo, lint n, c64* a, lint lda) {
  return TENFERRO_BLAS_NAME(LAPACKE_zpotrf_work)(kLayout, uplo, n, a, lda);
}

inline lint getrs(char t, lint n, lint nrhs, const float* a, lint lda, const lint* ipiv, float* b,
                  lint ldb) {
  return TENFERRO_BLAS_NAME(LAPACKE_sgetrs_work)(kLayout, t, n, nrhs, a, lda, ipiv, b, ldb);
}
inline lint getrs(char t, lint n, lint nrhs, const double* a, lint lda, const lint* ipiv, double* b,
                  lint ldb) {
  return TENFERRO_BLAS_NAME(LAPACKE_dgetrs_work)(kLayout, t, n, nrhs, a, lda, ipiv, b, ldb);
}
inline lint getrs(char t, lint n, lint nrhs, const c32* a, lint lda, const lint* ipiv, c32* b,
                  lint ldb) {
  return TENFERRO_BLAS_NAME(LAPACKE_cgetrs_work)(kLayout, t, n, nrhs, a, lda, ipiv, b, ldb);
}
inline lint getrs(char t, lint n, lint nrhs, const c64* a, lint lda, const lint* ipiv, c64* b,
                  lint ldb) {
  return TENFERRO_BLAS_NAME(LAPACKE_zgetrs_work)(kLayout, t, n, nrhs, a, lda, ipiv, b, ldb);
}

inline lint trtrs(char uplo, char t, char diag, lint n, lint nrhs, const float* a, lint lda,
                  float* b, lint ldb) {
  return TENFERRO_BLAS_NAME(LAPACKE_strtrs_work)(kLayout, uplo, t, diag, n, nrhs, a, lda, b, ldb);
}
inline lint trtrs(char uplo, char t, char diag, lint n, lint nrhs, const double* a, lint lda,
                  double* b, lint ldb) {
  return TENFERRO_BLAS_NAME(LAPACKE_dtrtrs_work)(kLayout, uplo, t, diag, n, nrhs, a, lda, b, ldb);
}
inline lint trtrs(char uplo, char t, char diag, lint n, lint nrhs, const c32* a, lint lda, c32* b,
                  lint ldb) {
  return TENFERRO_BLAS_NAME(LAPACKE_ctrtrs_work)(kLayout, uplo, t, diag, n, nrhs, a, lda, b, ldb);
}
inline lint trtrs(char uplo, char t, char diag, lint n, lint nrhs, const c64* a, lint lda, c64* b,
                  lint ldb) {
  return TENFERRO_BLAS_NAME(LAPACKE_ztrtrs_work)(kLayout, uplo, t, diag, n, nrhs, a, lda, b, ldb);
}

// gelsd: SVD-based (divide and conquer) minimum-norm least squares; singular values
// <= rcond * s_max count as zero, `rank` receives the effective rank. Real overloads ignore rw.
inline lint gelsd(lint m, lint n, lint nrhs, float* a, lint lda, float* b, lint ldb, float* s,
                  float rcond, lint* rank, float* w, lint lw, float*, lint* iw) {
  return TENFERRO_BLAS_NAME(LAPACKE_sgelsd_work)(kLayout, m, n, nrhs, a, lda, b, ldb, s, rcond,
                                                 rank, w, lw, iw);
}
inline lint gelsd(lint m, lint n, lint nrhs, double* a, lint lda, double* b, lint ldb, double* s,
                  double rcond, lint* rank, double* w, lint lw, double*, lint* iw) {
  return TENFERRO_BLAS_NAME(LAPACKE_dgelsd_work)(kLayout, m, n, nrhs, a, lda, b, ldb, s, rcond,
                                                 rank, w, lw, iw);
}
inline lint gelsd(lint m, lint n, lint nrhs, c32* a, lint lda, c32* b, lint ldb, float* s,
                  float rcond, lint* rank, c32* w, lint lw, float* rw, lint* iw) {
  return TENFERRO_BLAS_NAME(LAPACKE_cgelsd_work)(kLayout, m, n, nrhs, a, lda, b, ldb, s, rcond,
                                                 rank, w, lw, rw, iw);
}
inline lint gelsd(lint m, lint n, lint nrhs, c64* a, lint lda, c64* b, lint ldb, double* s,
                  double rcond, lint* rank, c64* w, lint lw, double* rw, lint* iw) {
  return TENFERRO_BLAS_NAME(LAPACKE_zgelsd_work)(kLayout, m, n, nrhs, a, lda, b, ldb, s, rcond,
                                                 rank, w, lw, rw, iw);
}

inline lint getri(lint n, float* a, lint lda, const lint* ipiv, float* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_sgetri_work)(kLayout, n, a, lda, ipiv, w, lw);
}
inline lint getri(lint n, double* a, lint lda, const lint* ipiv, double* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_dgetri_work)(kLayout, n, a, lda, ipiv, w, lw);
}
inline lint getri(lint n, c32* a, lint lda, const lint* ipiv, c32* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_cgetri_work)(kLayout, n, a, lda, ipiv, w, lw);
}
inline lint getri(lint n, c64* a, lint lda, const lint* ipiv, c64* w, lint lw) {
  return TENFERRO_BLAS_NAME(LAPACKE_zgetri_work)(kLayout, n, a, lda, ipiv, w, lw);
}

}  // namespace tenferro::linalg_cpu::lapack
