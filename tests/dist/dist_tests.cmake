# The distributed suite: one GoogleTest binary (its own main initialises MPI and makes every
# rank agree on the outcome) run under mpirun with 1, 2 and 4 ranks on this machine
# (oversubscribed: the test machines have 2 cores). A hang would be a bug; the timeout bounds it.
find_program(TENFERRO_MPIEXEC NAMES mpirun mpiexec REQUIRED)
file(GLOB dist_test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
# The device-like test backend is compiled in (not linked from tenferro_test_support): a rank's
# runtime can then claim to be CUDA without a GPU.
add_executable(tenferro_dist_tests ${dist_test_sources}
               ${CMAKE_CURRENT_LIST_DIR}/../support/test_device_backend.cpp)
# On the static library, so the test-only hooks of src/dist (hidden in the shared one) link.
target_include_directories(tenferro_dist_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/..
                           ${PROJECT_SOURCE_DIR}/src ${PROJECT_BINARY_DIR}/generated)
target_link_libraries(tenferro_dist_tests PRIVATE tenferro_dist_internal GTest::gtest
                      Threads::Threads)
tenferro_strict_warnings(tenferro_dist_tests)
foreach(ranks 1 2 4)
  add_test(NAME Dist.Ranks${ranks}
           COMMAND ${TENFERRO_MPIEXEC} --oversubscribe --allow-run-as-root -np ${ranks}
                   $<TARGET_FILE:tenferro_dist_tests>)
  # vader's single-copy mechanism needs ptrace rights containers often lack; one BLAS thread
  # per rank keeps oversubscribed ranks from fighting over the cores.
  set_tests_properties(Dist.Ranks${ranks} PROPERTIES TIMEOUT 300 PROCESSORS ${ranks}
    ENVIRONMENT "OMPI_MCA_btl_vader_single_copy_mechanism=none;OPENBLAS_NUM_THREADS=1;OMPI_MCA_rmaps_base_oversubscribe=1")
endforeach()

# `tenferro dist ...` end to end (the root's .npy in and out), checked with Python's standard
# library.
if(TARGET tenferro_cli)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  add_test(NAME Dist.CommandLineRanks2
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/cli_check.py ${TENFERRO_MPIEXEC}
                   $<TARGET_FILE:tenferro_cli> 2 ${CMAKE_CURRENT_BINARY_DIR}/dist_cli
                   $<BOOL:${TENFERRO_WITH_ELPA}>)
  set_tests_properties(Dist.CommandLineRanks2 PROPERTIES TIMEOUT 300 PROCESSORS 2
    ENVIRONMENT "OMPI_MCA_btl_vader_single_copy_mechanism=none;OPENBLAS_NUM_THREADS=1")
endif()
