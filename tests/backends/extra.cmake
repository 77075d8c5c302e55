# The backend kernel-layer suite once more with a host kernel thread budget of 3, so that the
# split over threads (uneven chunks) runs on any machine.
add_test(NAME BackendsThreadsSplit.WithThreeHostKernelThreads COMMAND ${target})
set_tests_properties(BackendsThreadsSplit.WithThreeHostKernelThreads
                     PROPERTIES ENVIRONMENT "TENFERRO_NUM_THREADS=3")
