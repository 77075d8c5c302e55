# Strict warnings for our own targets only (never for dependencies).
function(tenferro_strict_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror -Wno-error=deprecated-declarations>
    # GCC 12 reports false -Wrestrict positives inside libstdc++'s std::string at -O3 (GCC PR 105329).
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>)
  if(TENFERRO_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${TENFERRO_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${TENFERRO_SANITIZE})
  endif()
  # Fuzzer builds (tests/fuzz): coverage-instrument our code so libFuzzer can guide itself.
  if(TENFERRO_BUILD_FUZZERS AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()
