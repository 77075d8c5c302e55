// The one place that knows how the linked BLAS/LAPACK spells its symbols: scipy-openblas32
// (the default, cmake/TenferroDependencies.cmake) prefixes every one with scipy_
// (scipy_cblas_dgemm, scipy_LAPACKE_dgesdd_work, scipy_openblas_get_corename); Debian's OpenBLAS
// does not. Call sites write TENFERRO_BLAS_NAME(cblas_dgemm)(...) and include this header
// instead of cblas.h / lapacke.h.
#pragma once

#include "tenferro/config.hpp"

#if TENFERRO_BLAS_SCIPY
#define TENFERRO_BLAS_NAME(name) scipy_##name
#else
#define TENFERRO_BLAS_NAME(name) name
#endif
