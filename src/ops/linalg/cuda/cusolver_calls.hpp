// cuSOLVER's typed routines behind one overloaded name per routine, so the linalg CUDA
// executor is written once for float, double, cuComplex and cuDoubleComplex.
#pragma once

#include <cuComplex.h>
#include <cusolverDn.h>

namespace tenferro::linalg_cuda::cusolver {

#define TENFERRO_CUSOLVER_OVERLOADS(T, R, S, ORG)                                                  \
  inline cusolverStatus_t geqrf_buffer(cusolverDnHandle_t h, int m, int n, T* a, int lda,          \
                                       int* lwork) {                                               \
    return cusolverDn##S##geqrf_bufferSize(h, m, n, a, lda, lwork);                                \
  }                                                                                                \
  inline cusolverStatus_t geqrf(cusolverDnHandle_t h, int m, int n, T* a, int lda, T* tau,         \
                                T* work, int lwork, int* info) {                                   \
    return cusolverDn##S##geqrf(h, m, n, a, lda, tau, work, lwork, info);                          \
  }                                                                                                \
  inline cusolverStatus_t orgqr_buffer(cusolverDnHandle_t h, int m, int n, int k, const T* a,      \
                                       int lda, const T* tau, int* lwork) {                        \
    return cusolverDn##S##ORG##_bufferSize(h, m, n, k, a, lda, tau, lwork);                        \
  }                                                                                                \
  inline cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, T* a, int lda,          \
                                const T* tau, T* work, int lwork, int* info) {                     \
    return cusolverDn##S##ORG(h, m, n, k, a, lda, tau, work, lwork, info);                         \
  }                                                                                                \
  inline cusolverStatus_t gesvdj_buffer(                                                           \
      cusolverDnHandle_t h, cusolverEigMode_t jobz, int econ, int m, int n, const T* a, int lda,   \
      const R* s, const T* u, int ldu, const T* v, int ldv, int* lwork, gesvdjInfo_t params) {     \
    return cusolverDn##S##gesvdj_bufferSize(h, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, lwork, \
                                            params);                                               \
  }                                                                                                \
  inline cusolverStatus_t gesvdj(cusolverDnHandle_t h, cusolverEigMode_t jobz, int econ, int m,    \
                                 int n, T* a, int lda, R* s, T* u, int ldu, T* v, int ldv,         \
                                 T* work, int lwork, int* info, gesvdjInfo_t params) {             \
    return cusolverDn##S##gesvdj(h, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lwork,      \
                                 info, params);                                                    \
  }                                                                                                \
  inline cusolverStatus_t gesvdj_batched_buffer(                                                   \
      cusolverDnHandle_t h, cusolverEigMode_t jobz, int m, int n, const T* a, int lda, const R* s, \
      const T* u, int ldu, const T* v, int ldv, int* lwork, gesvdjInfo_t params, int batch) {      \
    return cusolverDn##S##gesvdjBatched_bufferSize(h, jobz, m, n, a, lda, s, u, ldu, v, ldv,       \
                                                   lwork, params, batch);                          \
  }                                                                                                \
  inline cusolverStatus_t gesvdj_batched(                                                          \
      cusolverDnHandle_t h, cusolverEigMode_t jobz, int m, int n, T* a, int lda, R* s, T* u,       \
      int ldu, T* v, int ldv, T* work, int lwork, int* info, gesvdjInfo_t params, int batch) {     \
    return cusolverDn##S##gesvdjBatched(h, jobz, m, n, a, lda, s, u, ldu, v, ldv, work, lwork,     \
                                        info, params, batch);                                      \
  }                                                                                                \
  /* gesvd's buffer query takes no array: the unused pointer picks the overload. */                \
  inline cusolverStatus_t gesvd_buffer(cusolverDnHandle_t h, const T*, int m, int n, int* lwork) { \
    return cusolverDn##S##gesvd_bufferSize(h, m, n, lwork);                                        \
  }                                                                                                \
  inline cusolverStatus_t gesvd(cusolverDnHandle_t h, signed char jobu, signed char jobvt, int m,  \
                                int n, T* a, int lda, R* s, T* u, int ldu, T* vt, int ldvt,        \
                                T* work, int lwork, R* rwork, int* info) {                         \
    return cusolverDn##S##gesvd(h, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork,    \
                                rwork, info);                                                      \
  }

TENFERRO_CUSOLVER_OVERLOADS(float, float, S, orgqr)
TENFERRO_CUSOLVER_OVERLOADS(double, double, D, orgqr)
TENFERRO_CUSOLVER_OVERLOADS(cuComplex, float, C, ungqr)
TENFERRO_CUSOLVER_OVERLOADS(cuDoubleComplex, double, Z, ungqr)
#undef TENFERRO_CUSOLVER_OVERLOADS

#define TENFERRO_CUSOLVER_SOLVER_OVERLOADS(T, R, S, EV)                                            \
  inline cusolverStatus_t syevd_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz,               \
                                       cublasFillMode_t uplo, int n, const T* a, int lda,          \
                                       const R* w, int* lwork) {                                   \
    return cusolverDn##S##EV##evd_bufferSize(h, jobz, uplo, n, a, lda, w, lwork);                  \
  }                                                                                                \
  inline cusolverStatus_t syevd(cusolverDnHandle_t h, cusolverEigMode_t jobz,                      \
                                cublasFillMode_t uplo, int n, T* a, int lda, R* w, T* work,        \
                                int lwork, int* info) {                                            \
    return cusolverDn##S##EV##evd(h, jobz, uplo, n, a, lda, w, work, lwork, info);                 \
  }                                                                                                \
  inline cusolverStatus_t syevj_batched_buffer(                                                    \
      cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, const T* a,      \
      int lda, const R* w, int* lwork, syevjInfo_t params, int batch) {                            \
    return cusolverDn##S##EV##evjBatched_bufferSize(h, jobz, uplo, n, a, lda, w, lwork, params,    \
                                                    batch);                                        \
  }                                                                                                \
  inline cusolverStatus_t syevj_batched(                                                           \
      cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, T* a, int lda,   \
      R* w, T* work, int lwork, int* info, syevjInfo_t params, int batch) {                        \
    return cusolverDn##S##EV##evjBatched(h, jobz, uplo, n, a, lda, w, work, lwork, info, params,   \
                                         batch);                                                   \
  }                                                                                                \
  inline cusolverStatus_t potrf_buffer(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T* a,   \
                                       int lda, int* lwork) {                                      \
    return cusolverDn##S##potrf_bufferSize(h, uplo, n, a, lda, lwork);                             \
  }                                                                                                \
  inline cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T* a, int lda, \
                                T* work, int lwork, int* info) {                                   \
    return cusolverDn##S##potrf(h, uplo, n, a, lda, work, lwork, info);                            \
  }                                                                                                \
  inline cusolverStatus_t getrf_buffer(cusolverDnHandle_t h, int m, int n, T* a, int lda,          \
                                       int* lwork) {                                               \
    return cusolverDn##S##getrf_bufferSize(h, m, n, a, lda, lwork);                                \
  }                                                                                                \
  inline cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, T* a, int lda, T* work,        \
                                int* ipiv, int* info) {                                            \
    return cusolverDn##S##getrf(h, m, n, a, lda, work, ipiv, info);                                \
  }                                                                                                \
  inline cusolverStatus_t getrs(cusolverDnHandle_t h, cublasOperation_t trans, int n, int nrhs,    \
                                const T* a, int lda, const int* ipiv, T* b, int ldb, int* info) {  \
    return cusolverDn##S##getrs(h, trans, n, nrhs, a, lda, ipiv, b, ldb, info);                    \
  }

TENFERRO_CUSOLVER_SOLVER_OVERLOADS(float, float, S, sy)
TENFERRO_CUSOLVER_SOLVER_OVERLOADS(double, double, D, sy)
TENFERRO_CUSOLVER_SOLVER_OVERLOADS(cuComplex, float, C, he)
TENFERRO_CUSOLVER_SOLVER_OVERLOADS(cuDoubleComplex, double, Z, he)
#undef TENFERRO_CUSOLVER_SOLVER_OVERLOADS

#define TENFERRO_CUSOLVER_ORMQR_OVERLOADS(T, S, ORM)                                               \
  inline cusolverStatus_t ormqr_buffer(cusolverDnHandle_t h, cublasSideMode_t side,                \
                                       cublasOperation_t trans, int m, int n, int k, const T* a,   \
                                       int lda, const T* tau, const T* c, int ldc, int* lwork) {   \
    return cusolverDn##S##ORM##_bufferSize(h, side, trans, m, n, k, a, lda, tau, c, ldc, lwork);   \
  }                                                                                                \
  inline cusolverStatus_t ormqr(cusolverDnHandle_t h, cublasSideMode_t side,                       \
                                cublasOperation_t trans, int m, int n, int k, const T* a, int lda, \
                                const T* tau, T* c, int ldc, T* work, int lwork, int* info) {      \
    return cusolverDn##S##ORM(h, side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork, info);    \
  }

TENFERRO_CUSOLVER_ORMQR_OVERLOADS(float, S, ormqr)
TENFERRO_CUSOLVER_ORMQR_OVERLOADS(double, D, ormqr)
TENFERRO_CUSOLVER_ORMQR_OVERLOADS(cuComplex, C, unmqr)
TENFERRO_CUSOLVER_ORMQR_OVERLOADS(cuDoubleComplex, Z, unmqr)
#undef TENFERRO_CUSOLVER_ORMQR_OVERLOADS

}  // namespace tenferro::linalg_cuda::cusolver
