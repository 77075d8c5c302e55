# The per-ISA kernel objects (simd_avx2.cpp, simd_avx512.cpp, compiled with -mavx2 / -mavx512f)
# must define no weak function: such a symbol is an inline function or a template instance the
# linker may keep from this object for the whole library, and then a CPU without that ISA runs
# an AVX-512 instruction. simd_body.inc explains the rule; this checks it. Weak data (V: the
# type_info objects the UBSan build emits for function types) carries no instruction.
#   cmake -DNM=<nm> -DOBJECTS=<object;object> -P check_isa_objects.cmake
if(NOT OBJECTS)
  message(FATAL_ERROR "no per-ISA objects given: the SIMD kernels were not built into the library")
endif()
set(shared "")
foreach(object IN LISTS OBJECTS)
  execute_process(COMMAND ${NM} --defined-only -C ${object} OUTPUT_VARIABLE symbols
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${object}")
  endif()
  string(REPLACE "\n" ";" lines "${symbols}")
  foreach(line IN LISTS lines)
    # nm's type letter W/w: a weak function (code).
    if(line MATCHES "^[0-9a-fA-F]* [Ww] ")
      list(APPEND shared "${object}: ${line}")
    endif()
  endforeach()
  list(LENGTH lines count)
  message(STATUS "${object}: ${count} symbols read")
endforeach()
if(shared)
  string(REPLACE ";" "\n  " shared "${shared}")
  message(FATAL_ERROR "per-ISA objects define weak functions:\n  ${shared}")
endif()
