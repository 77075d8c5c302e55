# tenferro_sanitizer_test_launcher(TARGET): in a sanitizer build, every test of TARGET runs
# through `env NAME=VALUE...` with the environment below.
#
# Why: with the WebGPU backend on a CPU Vulkan driver, the Vulkan loader dlcloses the driver
# (Mesa's lavapipe) when the instance goes away, before LeakSanitizer looks at the heap at
# exit. Pointers that the driver keeps in its own globals then have no root any more and are
# reported as leaks, and since the driver's mapping is gone the frames carry no module name,
# so no suppression can match them (Debian's Mesa 22.3.6-1+deb12u2 does this). Preloading the
# driver keeps it mapped until exit: its globals stay roots, nothing is suppressed, and leak
# detection stays fully on for our own code (Sanitizer.OurOwnLeakIsReportedAndNothingElse
# proves a leak of ours is still reported). The loader is pinned to that one driver so that
# no other ICD is loaded and unloaded on machines that have several. (Not reproduced on every
# machine: the report came from a fresh one; preloading the driver made it go away there.)
#
# How: CROSSCOMPILING_EMULATOR is the launcher that CMake 3.25 puts in front of a target's
# add_test() commands and gtest_discover_tests() runs (3.29 names it TEST_LAUNCHER); the
# tests' ENVIRONMENT property stays free for their own variables.
set(TENFERRO_SANITIZER_TEST_ENV "")
if(TENFERRO_SANITIZE MATCHES "address" AND TENFERRO_WITH_WEBGPU)
  set(icd_json "$ENV{VK_ICD_FILENAMES}")
  if(NOT icd_json)
    set(icd_json "/usr/share/vulkan/icd.d/lvp_icd.${CMAKE_SYSTEM_PROCESSOR}.json")
  endif()
  if(NOT EXISTS "${icd_json}")
    message(FATAL_ERROR "ASan build with WebGPU: no Vulkan driver file ${icd_json} "
                        "(scripts/setup.sh installs mesa-vulkan-drivers), or set VK_ICD_FILENAMES")
  endif()
  file(READ "${icd_json}" icd_text)
  string(JSON icd_library GET "${icd_text}" ICD library_path)
  if(NOT IS_ABSOLUTE "${icd_library}")
    get_filename_component(icd_dir "${icd_json}" DIRECTORY)
    set(icd_library "${icd_dir}/${icd_library}")
  endif()
  # wgpu-native opens and closes the Vulkan loader itself the same way: keep it mapped too.
  find_library(TENFERRO_VULKAN_LOADER NAMES libvulkan.so.1 vulkan REQUIRED)
  set(preload "${TENFERRO_VULKAN_LOADER}:${icd_library}")
  set(TENFERRO_SANITIZER_TEST_ENV "VK_ICD_FILENAMES=${icd_json}" "LD_PRELOAD=${preload}")
  message(STATUS "Sanitizer tests keep the Vulkan loader and driver loaded: LD_PRELOAD=${preload}")
endif()

function(tenferro_sanitizer_test_launcher target)
  if(TENFERRO_SANITIZER_TEST_ENV)
    find_program(TENFERRO_ENV_PROGRAM env REQUIRED)
    set_target_properties(${target} PROPERTIES CROSSCOMPILING_EMULATOR
                          "${TENFERRO_ENV_PROGRAM};${TENFERRO_SANITIZER_TEST_ENV}")
  endif()
endfunction()
