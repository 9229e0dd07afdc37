# onyx_precompile_headers(TARGET HEADER...): HEADERs compiled once for TARGET instead of once
# per file (target_precompile_headers), for targets whose files all parse the same large
# headers (the operator files, the tool's command files, the tests).
# onyx_precompile_headers(TARGET REUSE_FROM OTHER): TARGET uses OTHER's precompiled header (its
# files must be compiled with OTHER's flags).
#
# With a precompiled header g++ 12 inlines std::string's operator+ further and then reports
# -Warray-bounds and -Wstringop-overflow on libstdc++'s own memcpy (false positives of the
# GCC 105651 family, fixed in 13), as it does -Wrestrict (cmake/warnings.cmake); those two
# are off for such targets there. The clang build keeps them.
function(onyx_precompile_headers target)
  if(ARGV1 STREQUAL "REUSE_FROM")
    target_precompile_headers(${target} ${ARGN})
  else()
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overflow)
  endif()
endfunction()
