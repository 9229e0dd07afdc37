# Warnings are errors for onyx's own targets (not for what it links).
function(onyx_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor -Werror)
  # g++ 12 at -O3 reports -Wrestrict on libstdc++'s own std::string concatenation (GCC bug
  # 105651, a false positive); without this an -O3 build of any string code fails.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
