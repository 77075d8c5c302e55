# The FFT thread tests once more with a host kernel thread budget of 3, so threaded FFTW plans
# run (and are checked by ThreadSanitizer) on any machine.
add_test(NAME FftThreadsSplit.WithThreeHostKernelThreads COMMAND ${target} --gtest_filter=FftThreads.*)
set_tests_properties(FftThreadsSplit.WithThreeHostKernelThreads
                     PROPERTIES ENVIRONMENT "TENFERRO_NUM_THREADS=3")
