// The ScaLAPACK drivers tenferro calls, one typed entry per element type (Debian's
// libscalapack-openmpi has no C header; the signatures are ScaLAPACK's documented Fortran
// interfaces, every argument by pointer).
#pragma once

#include <complex>

namespace tenferro::dist::detail {

using c32 = std::complex<float>;
using c64 = std::complex<double>;

}  // namespace tenferro::dist::detail

extern "C" {
#define TENFERRO_PGEMM(name, T)                                                               \
  void name(const char*, const char*, const int*, const int*, const int*, const T*, const T*, \
            const int*, const int*, const int*, const T*, const int*, const int*, const int*, \
            const T*, T*, const int*, const int*, const int*);
TENFERRO_PGEMM(psgemm_, float)
TENFERRO_PGEMM(pdgemm_, double)
TENFERRO_PGEMM(pcgemm_, tenferro::dist::detail::c32)
TENFERRO_PGEMM(pzgemm_, tenferro::dist::detail::c64)
#undef TENFERRO_PGEMM

#define TENFERRO_PPOTRF(name, T) \
  void name(const char*, const int*, T*, const int*, const int*, const int*, int*);
TENFERRO_PPOTRF(pspotrf_, float)
TENFERRO_PPOTRF(pdpotrf_, double)
TENFERRO_PPOTRF(pcpotrf_, tenferro::dist::detail::c32)
TENFERRO_PPOTRF(pzpotrf_, tenferro::dist::detail::c64)
#undef TENFERRO_PPOTRF

#define TENFERRO_PGESV(name, T)                                                                   \
  void name(const int*, const int*, T*, const int*, const int*, const int*, int*, T*, const int*, \
            const int*, const int*, int*);
TENFERRO_PGESV(psgesv_, float)
TENFERRO_PGESV(pdgesv_, double)
TENFERRO_PGESV(pcgesv_, tenferro::dist::detail::c32)
TENFERRO_PGESV(pzgesv_, tenferro::dist::detail::c64)
#undef TENFERRO_PGESV

#define TENFERRO_PGETRF(name, T) \
  void name(const int*, const int*, T*, const int*, const int*, const int*, int*, int*);
TENFERRO_PGETRF(psgetrf_, float)
TENFERRO_PGETRF(pdgetrf_, double)
TENFERRO_PGETRF(pcgetrf_, tenferro::dist::detail::c32)
TENFERRO_PGETRF(pzgetrf_, tenferro::dist::detail::c64)
#undef TENFERRO_PGETRF

// C := beta C + alpha A^T (A^H for the complex ?tranc), PBLAS.
#define TENFERRO_PTRAN(name, T)                                                             \
  void name(const int*, const int*, const T*, const T*, const int*, const int*, const int*, \
            const T*, T*, const int*, const int*, const int*);
TENFERRO_PTRAN(pstran_, float)
TENFERRO_PTRAN(pdtran_, double)
TENFERRO_PTRAN(pctranc_, tenferro::dist::detail::c32)
TENFERRO_PTRAN(pztranc_, tenferro::dist::detail::c64)
#undef TENFERRO_PTRAN

#define TENFERRO_PSYEVD(name, T)                                                                  \
  void name(const char*, const char*, const int*, T*, const int*, const int*, const int*, T*, T*, \
            const int*, const int*, const int*, T*, const int*, int*, const int*, int*);
TENFERRO_PSYEVD(pssyevd_, float)
TENFERRO_PSYEVD(pdsyevd_, double)
#undef TENFERRO_PSYEVD
#define TENFERRO_PHEEVD(name, T, R)                                                               \
  void name(const char*, const char*, const int*, T*, const int*, const int*, const int*, R*, T*, \
            const int*, const int*, const int*, T*, const int*, R*, const int*, int*, const int*, \
            int*);
TENFERRO_PHEEVD(pcheevd_, tenferro::dist::detail::c32, float)
TENFERRO_PHEEVD(pzheevd_, tenferro::dist::detail::c64, double)
#undef TENFERRO_PHEEVD

#define TENFERRO_PGEQRF(name, T)                                                                \
  void name(const int*, const int*, T*, const int*, const int*, const int*, T*, T*, const int*, \
            int*);
TENFERRO_PGEQRF(psgeqrf_, float)
TENFERRO_PGEQRF(pdgeqrf_, double)
TENFERRO_PGEQRF(pcgeqrf_, tenferro::dist::detail::c32)
TENFERRO_PGEQRF(pzgeqrf_, tenferro::dist::detail::c64)
#undef TENFERRO_PGEQRF
#define TENFERRO_PORGQR(name, T)                                                                  \
  void name(const int*, const int*, const int*, T*, const int*, const int*, const int*, const T*, \
            T*, const int*, int*);
TENFERRO_PORGQR(psorgqr_, float)
TENFERRO_PORGQR(pdorgqr_, double)
TENFERRO_PORGQR(pcungqr_, tenferro::dist::detail::c32)
TENFERRO_PORGQR(pzungqr_, tenferro::dist::detail::c64)
#undef TENFERRO_PORGQR
#define TENFERRO_PGESVD(name, T, R)                                                             \
  void name(const char*, const char*, const int*, const int*, T*, const int*, const int*,       \
            const int*, R*, T*, const int*, const int*, const int*, T*, const int*, const int*, \
            const int*, T*, const int*, int*);
TENFERRO_PGESVD(psgesvd_, float, float)
TENFERRO_PGESVD(pdgesvd_, double, double)
#undef TENFERRO_PGESVD
// The complex drivers take a real workspace before INFO.
#define TENFERRO_PGESVD_C(name, T, R)                                                           \
  void name(const char*, const char*, const int*, const int*, T*, const int*, const int*,       \
            const int*, R*, T*, const int*, const int*, const int*, T*, const int*, const int*, \
            const int*, T*, const int*, R*, int*);
TENFERRO_PGESVD_C(pcgesvd_, tenferro::dist::detail::c32, float)
TENFERRO_PGESVD_C(pzgesvd_, tenferro::dist::detail::c64, double)
#undef TENFERRO_PGESVD_C
}

namespace tenferro::dist::detail {

// One overload set per driver, so the templates pick the routine by type. The complex
// eigen and SVD drivers take extra real workspaces, so their overloads differ in arity too.
#define TENFERRO_FORWARD(fn, T, impl) \
  template <typename... A>            \
  void fn(T* tag, A... a) {           \
    (void)tag;                        \
    impl(a...);                       \
  }
// (the tag pointer selects the overload: p_gemm(static_cast<double*>(nullptr), ...))
TENFERRO_FORWARD(p_gemm, float, psgemm_)
TENFERRO_FORWARD(p_gemm, double, pdgemm_)
TENFERRO_FORWARD(p_gemm, c32, pcgemm_)
TENFERRO_FORWARD(p_gemm, c64, pzgemm_)
TENFERRO_FORWARD(p_potrf, float, pspotrf_)
TENFERRO_FORWARD(p_potrf, double, pdpotrf_)
TENFERRO_FORWARD(p_potrf, c32, pcpotrf_)
TENFERRO_FORWARD(p_potrf, c64, pzpotrf_)
TENFERRO_FORWARD(p_gesv, float, psgesv_)
TENFERRO_FORWARD(p_gesv, double, pdgesv_)
TENFERRO_FORWARD(p_gesv, c32, pcgesv_)
TENFERRO_FORWARD(p_gesv, c64, pzgesv_)
TENFERRO_FORWARD(p_geqrf, float, psgeqrf_)
TENFERRO_FORWARD(p_geqrf, double, pdgeqrf_)
TENFERRO_FORWARD(p_geqrf, c32, pcgeqrf_)
TENFERRO_FORWARD(p_geqrf, c64, pzgeqrf_)
TENFERRO_FORWARD(p_orgqr, float, psorgqr_)
TENFERRO_FORWARD(p_orgqr, double, pdorgqr_)
TENFERRO_FORWARD(p_orgqr, c32, pcungqr_)
TENFERRO_FORWARD(p_orgqr, c64, pzungqr_)
TENFERRO_FORWARD(p_getrf, float, psgetrf_)
TENFERRO_FORWARD(p_getrf, double, pdgetrf_)
TENFERRO_FORWARD(p_getrf, c32, pcgetrf_)
TENFERRO_FORWARD(p_getrf, c64, pzgetrf_)
TENFERRO_FORWARD(p_tranc, float, pstran_)
TENFERRO_FORWARD(p_tranc, double, pdtran_)
TENFERRO_FORWARD(p_tranc, c32, pctranc_)
TENFERRO_FORWARD(p_tranc, c64, pztranc_)
TENFERRO_FORWARD(p_heevd, float, pssyevd_)
TENFERRO_FORWARD(p_heevd, double, pdsyevd_)
TENFERRO_FORWARD(p_heevd, c32, pcheevd_)
TENFERRO_FORWARD(p_heevd, c64, pzheevd_)
TENFERRO_FORWARD(p_gesvd, float, psgesvd_)
TENFERRO_FORWARD(p_gesvd, double, pdgesvd_)
TENFERRO_FORWARD(p_gesvd, c32, pcgesvd_)
TENFERRO_FORWARD(p_gesvd, c64, pzgesvd_)
#undef TENFERRO_FORWARD

}  // namespace tenferro::dist::detail
