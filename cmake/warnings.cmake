# Warnings are errors for onyx's own targets (not for what it links).
function(onyx_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor -Werror)
endfunction()
