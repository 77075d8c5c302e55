# householder_qr_test.cpp compares the CPU backend's small-QR kernels with LAPACK itself (the
# library links it privately), as bench/CMakeLists.txt does for the benchmarks.
target_include_directories(${target} SYSTEM PRIVATE ${TENFERRO_CBLAS_INCLUDE_DIR}
                           ${TENFERRO_LAPACKE_INCLUDE_DIR})
target_link_libraries(${target} PRIVATE ${TENFERRO_LAPACKE_LIBRARY} ${TENFERRO_OPENBLAS_LIBRARY})

# The suite once more with a host kernel thread budget of 3, so that batches split over threads
# (ops/linalg/cpu/batch_chunks.hpp; uneven chunks) run on any machine.
add_test(NAME LinalgThreadsSplit.WithThreeHostKernelThreads COMMAND ${target})
set_tests_properties(LinalgThreadsSplit.WithThreeHostKernelThreads
                     PROPERTIES ENVIRONMENT "TENFERRO_NUM_THREADS=3")
