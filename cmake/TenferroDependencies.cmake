# Every dependency comes from the system package manager (see scripts/setup.sh).
find_package(Threads REQUIRED)

# OpenBLAS gives CBLAS; LAPACKE is Debian's liblapacke (reference LAPACKE over OpenBLAS' LAPACK).
find_path(TENFERRO_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas x86_64-linux-gnu/openblas-pthread REQUIRED)
find_library(TENFERRO_OPENBLAS_LIBRARY NAMES openblas REQUIRED)
find_path(TENFERRO_LAPACKE_INCLUDE_DIR lapacke.h REQUIRED)
find_library(TENFERRO_LAPACKE_LIBRARY NAMES lapacke REQUIRED)

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
