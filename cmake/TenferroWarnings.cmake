# Strict warnings for our own targets only (never for dependencies).
function(tenferro_strict_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror -Wno-error=deprecated-declarations>)
  if(TENFERRO_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${TENFERRO_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${TENFERRO_SANITIZE})
  endif()
endfunction()
