// LAPACKE with std::complex element types, spelled through TENFERRO_BLAS_NAME: the one include
// for every caller of LAPACK on the host (the linalg executors, the Krylov projected problems).
#pragma once

#include <complex>

// LAPACKE's complex types as std::complex (same layout as Fortran's COMPLEX). Both lapack.h
// and lapacke_config.h honour these macros when they are defined first.
#ifndef lapack_complex_float
#define lapack_complex_float std::complex<float>
#endif
#ifndef lapack_complex_double
#define lapack_complex_double std::complex<double>
#endif
#include <lapacke.h>

#include "backends/cpu/blas_names.hpp"
