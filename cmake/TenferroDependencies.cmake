# Every dependency comes from the system package manager (see scripts/setup.sh).
find_package(Threads REQUIRED)

# BLAS/LAPACK. By default OpenBLAS from PyPI's scipy-openblas32 wheel (scripts/setup.sh unpacks it
# into .deps/; the Python build takes it from its build requirements): the DYNAMIC_ARCH OpenBLAS
# that NumPy and SciPy ship, current enough to pick the AVX2/AVX-512 kernels on CPUs that
# Debian's OpenBLAS 0.3.21 does not recognise (masked cloud CPUs, where 0.3.21 silently runs its
# generic kernel 6-9x slower). Its symbols carry the prefix scipy_ (cblas_dgemm is
# scipy_cblas_dgemm), so it never clashes with another BLAS in the process (ScaLAPACK's, NumPy's);
# src/backends/cpu/blas_names.hpp maps our calls. TENFERRO_BLAS=system uses Debian's OpenBLAS
# with Debian's LAPACKE instead.
set(TENFERRO_BLAS "scipy-openblas" CACHE STRING "BLAS/LAPACK: scipy-openblas (PyPI's scipy-openblas32) or system (Debian)")
set_property(CACHE TENFERRO_BLAS PROPERTY STRINGS scipy-openblas system)
set(TENFERRO_BLAS_SCIPY 0)
if(TENFERRO_BLAS STREQUAL "scipy-openblas")
  set(TENFERRO_SCIPY_OPENBLAS_ROOT "" CACHE PATH
      "Folder of the scipy_openblas32 package (include/, lib/); empty: .deps/ or the Python build's")
  set(scipy_openblas_root "${TENFERRO_SCIPY_OPENBLAS_ROOT}")
  if(NOT scipy_openblas_root AND TENFERRO_BUILD_PYTHON)
    # The wheel build takes the one pip installed as a build requirement (pyproject.toml).
    find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
    execute_process(COMMAND "${Python_EXECUTABLE}" -c
                            "import os, scipy_openblas32 as s; print(os.path.dirname(s.__file__))"
                    OUTPUT_VARIABLE scipy_openblas_root OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE scipy_openblas_found ERROR_QUIET)
    if(NOT scipy_openblas_found EQUAL 0)
      set(scipy_openblas_root "")
    endif()
  endif()
  if(NOT scipy_openblas_root)
    set(scipy_openblas_root "${CMAKE_CURRENT_SOURCE_DIR}/.deps/scipy-openblas32")
  endif()
  find_path(TENFERRO_SCIPY_OPENBLAS_INCLUDE_DIR cblas.h PATHS ${scipy_openblas_root}/include
            NO_DEFAULT_PATH)
  find_library(TENFERRO_SCIPY_OPENBLAS_LIBRARY NAMES scipy_openblas PATHS ${scipy_openblas_root}/lib
               NO_DEFAULT_PATH)
  if(NOT TENFERRO_SCIPY_OPENBLAS_INCLUDE_DIR OR NOT TENFERRO_SCIPY_OPENBLAS_LIBRARY)
    message(FATAL_ERROR "scipy-openblas32 not found in ${scipy_openblas_root}: run scripts/setup.sh "
                        "(or pass -DTENFERRO_BLAS=system for Debian's OpenBLAS)")
  endif()
  set(TENFERRO_CBLAS_INCLUDE_DIR ${TENFERRO_SCIPY_OPENBLAS_INCLUDE_DIR})
  set(TENFERRO_LAPACKE_INCLUDE_DIR ${TENFERRO_SCIPY_OPENBLAS_INCLUDE_DIR})
  set(TENFERRO_OPENBLAS_LIBRARY ${TENFERRO_SCIPY_OPENBLAS_LIBRARY})
  set(TENFERRO_LAPACKE_LIBRARY "")  # LAPACKE is inside libscipy_openblas
  set(TENFERRO_BLAS_SCIPY 1)
elseif(TENFERRO_BLAS STREQUAL "system")
  # Debian's OpenBLAS gives CBLAS; LAPACKE is Debian's liblapacke over OpenBLAS' LAPACK.
  find_path(TENFERRO_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas x86_64-linux-gnu/openblas-pthread REQUIRED)
  find_library(TENFERRO_OPENBLAS_LIBRARY NAMES openblas REQUIRED)
  find_path(TENFERRO_LAPACKE_INCLUDE_DIR lapacke.h REQUIRED)
  find_library(TENFERRO_LAPACKE_LIBRARY NAMES lapacke REQUIRED)
else()
  message(FATAL_ERROR "TENFERRO_BLAS must be scipy-openblas or system, not ${TENFERRO_BLAS}")
endif()
get_filename_component(TENFERRO_BLAS_LIBRARY_DIR ${TENFERRO_OPENBLAS_LIBRARY} DIRECTORY)

set(TENFERRO_HAS_FFTW 0)
if(TENFERRO_WITH_FFTW)
  find_path(TENFERRO_FFTW_INCLUDE_DIR fftw3.h REQUIRED)
  find_library(TENFERRO_FFTW_LIBRARY NAMES fftw3 REQUIRED)
  find_library(TENFERRO_FFTWF_LIBRARY NAMES fftw3f REQUIRED)
  # FFTW's pthreads planners (libfftw3-dev ships them), for large transforms.
  find_library(TENFERRO_FFTW_THREADS_LIBRARY NAMES fftw3_threads REQUIRED)
  find_library(TENFERRO_FFTWF_THREADS_LIBRARY NAMES fftw3f_threads REQUIRED)
  set(TENFERRO_HAS_FFTW 1)
endif()

set(TENFERRO_HAS_CUDA 0)
if(TENFERRO_WITH_CUDA)
  # Our .cu files are small plain kernels; C++17 keeps nvcc's front end fast.
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  set(TENFERRO_HAS_CUDA 1)
endif()

set(TENFERRO_HAS_WEBGPU 0)
if(TENFERRO_WITH_WEBGPU)
  set(TENFERRO_WEBGPU_ROOT "${CMAKE_CURRENT_SOURCE_DIR}/.deps/wgpu" CACHE PATH
      "Folder with wgpu-native: include/webgpu.h, include/wgpu.h and lib/libwgpu_native.so")
  find_path(TENFERRO_WEBGPU_INCLUDE_DIR webgpu.h PATHS ${TENFERRO_WEBGPU_ROOT}/include ${TENFERRO_WEBGPU_ROOT}
            PATH_SUFFIXES webgpu NO_DEFAULT_PATH REQUIRED)
  find_library(TENFERRO_WEBGPU_LIBRARY NAMES wgpu_native PATHS ${TENFERRO_WEBGPU_ROOT}/lib ${TENFERRO_WEBGPU_ROOT}
               NO_DEFAULT_PATH REQUIRED)
  set(TENFERRO_HAS_WEBGPU 1)
endif()
