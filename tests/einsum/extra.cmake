# The einsum suite's thread tests once more with a fixed host kernel thread budget of 3, so
# the split path of the CPU kernels runs (and is checked by ThreadSanitizer) on any machine.
add_test(NAME EinsumThreadsSplit.WithThreeHostKernelThreads
         COMMAND ${target} --gtest_filter=EinsumThreads.*)
set_tests_properties(EinsumThreadsSplit.WithThreeHostKernelThreads
                     PROPERTIES ENVIRONMENT "TENFERRO_NUM_THREADS=3")
