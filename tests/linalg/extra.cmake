# householder_qr_test.cpp compares the CPU backend's small-QR kernels with LAPACK itself (the
# library links it privately), as bench/CMakeLists.txt does for the benchmarks.
target_include_directories(${target} SYSTEM PRIVATE ${TENFERRO_CBLAS_INCLUDE_DIR}
                           ${TENFERRO_LAPACKE_INCLUDE_DIR})
target_link_libraries(${target} PRIVATE ${TENFERRO_LAPACKE_LIBRARY} ${TENFERRO_OPENBLAS_LIBRARY})
