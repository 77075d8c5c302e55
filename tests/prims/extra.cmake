# The per-ISA SIMD objects define no weak function (check_isa_objects.cmake says why). Their
# objects are those of the library's object target whose source is simd_avx*.cpp or in
# backends/cpu/isa (small GEMMs, small QR); where the
# SIMD kernels are not built (not x86-64) there is nothing to check.
if(TENFERRO_HAS_SLEEF)
  add_test(NAME Prims.SimdObjectsDefineNoWeakFunction
           COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM}
                   "-DOBJECTS=$<FILTER:$<TARGET_OBJECTS:tenferro_objects>,INCLUDE,simd_avx|cpu/isa/>"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/prims/check_isa_objects.cmake)
endif()

# The split suite once more with a host kernel thread budget of 3, so that large element-wise
# calls run split over threads (uneven chunks) on any machine; with it the argmax layouts, whose
# 18 MB row pass is split over the threads then (the test environment's budget is 1).
add_test(NAME PrimsThreadsSplit.WithThreeHostKernelThreads
         COMMAND ${target} --gtest_filter=PrimsSplit.*:Runtimes/PrimsArgExtreme.LayoutsThatTakeEveryPath/Cpu)
set_tests_properties(PrimsThreadsSplit.WithThreeHostKernelThreads
                     PROPERTIES ENVIRONMENT "TENFERRO_NUM_THREADS=3")
