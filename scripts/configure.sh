#!/usr/bin/env bash
# Configures one of onyx's builds in build/CONFIG (run-example.sh and test.sh share them,
# so that one never rebuilds what the other built):
#   release  optimised with g++, no debug information (a third of the compile time; a
#            failure is debugged in the sanitizer build, whose reports name file and line)
#   asan     clang, AddressSanitizer + UndefinedBehaviorSanitizer, the development checks on,
#            and libFuzzer's coverage instrumentation, so that the same build gives the fuzz
#            targets (a third full build cost CI about 15 minutes); -O1 with line tables only
#   tsan     ThreadSanitizer, for the concurrency tests (test.sh builds only their targets,
#            onyx_concurrency_tests and the Python package). Only the code where threads meet
#            is instrumented, at -O1 with line tables (CMakeLists.txt, ONYX_THREAD_SANITIZER:
#            core, serde, the evaluator, the tests, Session's bindings); the rest has the
#            release build's flags and compiler, so that ccache gives the release build's
#            objects (instrumented with clang, the whole library's first 170 files of 430
#            took 13 minutes on two shared cores). g++, whose runtime (libtsan) Debian's
#            python3 loads first with LD_PRELOAD; clang 14's shared runtime crashes when
#            preloaded (libstdc++ calls its __cxa_atexit before it has started), and its
#            static one needs a program built with it.
# The Python package's tests run in the release build, which builds the package; under
# AddressSanitizer it cost CI two and a half minutes (pybind11's templates compiled again with
# every instrumentation) for the same tests the release build runs; what the bindings call is
# the library the sanitizer build tests through its own tests and the fuzz targets. The tsan
# build builds it too, for its concurrency tests, instrumenting only Session's bindings.
# Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
config=$1
shift
# The Python package is built for Debian's own python3 (not a python3 earlier on PATH, such
# as a pyenv shim, whose headers and ABI may differ).
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE=/usr/bin/python3)
compilers=()
# Objects kept between builds, in this and other clones (paths taken relative to the clone,
# so another folder hits the same entries): a second build of an unchanged tree compiles
# nothing. The precompiled headers need ccache's sloppiness about their macros and times.
if command -v ccache >/dev/null; then
  flags+=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$PWD;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime;ccache")
fi
case $config in
  release)
    flags+=(-DONYX_PYTHON=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG")
    ;;
  asan)
    flags+=(-DONYX_PYTHON=OFF -DONYX_SANITIZE=ON -DONYX_FUZZ=ON -DONYX_DEVELOPMENT_CHECKS=ON
            "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG")
    compilers=(CC=clang CXX=clang++)
    ;;
  tsan)
    flags+=(-DONYX_PYTHON=ON -DONYX_THREAD_SANITIZER=ON
            "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG")
    ;;
  *)
    echo "usage: configure.sh release|asan|tsan [CMAKE_ARGUMENT...]" >&2
    exit 2
    ;;
esac
env "${compilers[@]}" cmake -S . -B "build/$config" -G Ninja "${flags[@]}" "$@" >/dev/null
