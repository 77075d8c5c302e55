# The hardware-independent prims checks compile the CUDA kernels' host-callable math headers
# (unary_math.cuh, complex_math.cuh, philox_device.cuh); with CUDA they include its runtime
# headers, without it (every CPU-only build) they compile for the host alone.
if(TENFERRO_WITH_CUDA)
  target_link_libraries(${target} PRIVATE CUDA::cudart)
endif()
