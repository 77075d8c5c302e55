# The hardware-independent prims checks compile the CUDA kernels' host-callable math headers
# (unary_math.cuh, complex_math.cuh, philox_device.cuh), which include the CUDA runtime headers.
if(TENFERRO_WITH_CUDA)
  target_link_libraries(${target} PRIVATE CUDA::cudart)
endif()
