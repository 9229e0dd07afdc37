# onyx_precompile_headers(TARGET HEADER...): HEADERs compiled once for TARGET instead of once
# per file (target_precompile_headers), for targets whose files all parse the same large
# headers (the operator files, the tool's command files, the tests), when
# ONYX_PRECOMPILED_HEADERS is on.
#
# Off by default: measured at 7b51f3b+ on 2 cores (bench/README.md, "Build time"), the `onyx`
# tool's cold build took 5 min 30 s to 6 min 21 s with them and 3 min 24 s without (g++ loads
# the operator files' 86 MB header into each of 400 files), and the sanitizer build's
# operator layer 548 s of CPU with them, 411 without (clang). Without them, ccache also hits
# across clones in other folders (a precompiled header holds absolute paths).
#
# With a precompiled header g++ 12 inlines std::string's operator+ further and then reports
# -Warray-bounds and -Wstringop-overflow on libstdc++'s own memcpy (false positives of the
# GCC 105651 family, fixed in 13), as it does -Wrestrict (cmake/warnings.cmake); those two
# are off for such targets there. The clang build keeps them.
option(ONYX_PRECOMPILED_HEADERS "Precompile the large headers of the operator files and tests"
       OFF)
function(onyx_precompile_headers target)
  if(NOT ONYX_PRECOMPILED_HEADERS)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE ${ARGN})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overflow)
  endif()
endfunction()
