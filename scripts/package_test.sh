#!/usr/bin/env bash
# Packaging test (CI runs it after scripts/test.sh): from a release build folder that is
# already built (default build/release), makes the Debian package with cpack, checks its
# Depends and contents, extracts it into a temporary root and smoke-tests what it installs,
# then installs the Python package with pip into a temporary virtual environment, reusing the
# same build (ONYX_CMAKE_BUILD_DIR, setup.py), and smoke-tests that. The smoke test: the
# installed `onyx check` on the example model; a project outside onyx building
# examples/check_model (and tests/install/consumer, statically and shared) with
# find_package(onyx) against the installed package; `import onyx` with Debian's python3
# running the example model through a Session.
#
# With CI=true, as root, the package is also installed for real with `apt-get install
# ./onyx_*.deb` (the CI machine is thrown away; it is removed again at the end), and smoke-
# tested from /usr. Otherwise nothing is written outside the temporary folder but the build
# folder (cpack builds its `all`, nothing when it is built) and setuptools' build/pip.
#
#   scripts/package_test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=$PWD
build_dir=$(realpath "${1:-build/release}")
# Debian's own python3, for which the build made the extension module (not a python3 earlier
# on PATH, such as a pyenv shim).
python=/usr/bin/python3
model=$source_dir/examples/tiny_cnn.onnx

step() { echo "== package: $*"; }
fail() { echo "package test FAILED: $*" >&2; exit 1; }

./scripts/deps.sh package

[ -f "$build_dir/CMakeCache.txt" ] || fail "$build_dir is not a configured build folder"
grep -q '^ONYX_PYTHON:BOOL=ON$' "$build_dir/CMakeCache.txt" ||
  fail "$build_dir was configured without -DONYX_PYTHON=ON"

work=$(mktemp -d)
apt_installed=false
cleanup() {
  if $apt_installed; then
    echo "== package: apt-get remove --purge -y onyx"
    DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -q onyx >/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# run LOG COMMAND...: runs COMMAND with its output in LOG, shown only when it fails.
run() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$*"; }
}

# The consumer project: examples/check_model on the light core (shared), and
# tests/install/consumer on the static and the shared whole library.
mkdir -p "$work/consumer"
cat >"$work/consumer/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(onyx_package_consumer LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(onyx REQUIRED)
message(STATUS "onyx_DIR: \${onyx_DIR}")
add_executable(check_model "$source_dir/examples/check_model/main.cc")
target_link_libraries(check_model PRIVATE onyx::core_shared)
add_executable(consumer_static "$source_dir/tests/install/consumer/main.cc")
target_link_libraries(consumer_static PRIVATE onyx::onyx)
add_executable(consumer_shared "$source_dir/tests/install/consumer/main.cc")
target_link_libraries(consumer_shared PRIVATE onyx::onyx_shared)
EOF

cat >"$work/smoke.py" <<'EOF'
import pathlib
import sys

import numpy as np

import onyx

expected_dir, model_path = pathlib.Path(sys.argv[1]), sys.argv[2]
package_dir = pathlib.Path(onyx.__file__).resolve().parent
if package_dir != expected_dir.resolve():
    sys.exit(f"imported onyx from {package_dir}, not {expected_dir}")
model = onyx.load(model_path)
onyx.check(model, raise_errors=True)
session = onyx.Session(model)
(probabilities,) = session.run(None, {"image": np.ones((1, 3, 32, 32), np.float32)})
if probabilities.shape != (1, 10) or abs(float(probabilities.sum()) - 1) > 1e-5:
    sys.exit(f"unexpected output: {probabilities!r}")
print(f"python: onyx {onyx.__version__} from {package_dir}: {session.input_names} -> "
      f"probabilities {probabilities.shape}, argmax {int(probabilities.argmax())}")
EOF

# smoke NAME TOOL CMAKE_PREFIX LIBRARY_DIR PYTHON PACKAGE_DIR [VARIABLE=VALUE...]
# Runs the installed tool; builds the consumer against CMAKE_PREFIX ("" for CMake's default
# search, "-" for no consumer) and runs it with LIBRARY_DIR as LD_LIBRARY_PATH; runs
# smoke.py with PYTHON (in the environment given), which must import onyx from PACKAGE_DIR.
smoke() {
  local name=$1 tool=$2 cmake_prefix=$3 library_dir=$4 python=$5 package_dir=$6
  shift 6
  step "$name: $tool check examples/tiny_cnn.onnx"
  "$tool" check "$model" || fail "$name: onyx check"
  "$tool" --version
  if [ "$cmake_prefix" != "-" ]; then
    step "$name: find_package(onyx) builds examples/check_model and tests/install/consumer"
    local consumer_build=$work/consumer-build-$name
    local prefix_args=()
    [ -n "$cmake_prefix" ] && prefix_args=(-DCMAKE_PREFIX_PATH="$cmake_prefix")
    run "$work/consumer-$name.log" cmake -S "$work/consumer" -B "$consumer_build" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release "${prefix_args[@]}"
    grep "onyx_DIR" "$work/consumer-$name.log" | sed 's/^-- /  /'
    run "$work/consumer-build-$name.log" cmake --build "$consumer_build"
    local out
    out=$(LD_LIBRARY_PATH="$library_dir" "$consumer_build/check_model" "$model") ||
      fail "$name: check_model failed"
    [ "$out" = "$expected_check_model" ] ||
      fail "$name: check_model printed '$out', the build's prints '$expected_check_model'"
    echo "  check_model: $out"
    for kind in static shared; do
      out=$(LD_LIBRARY_PATH="$library_dir" "$consumer_build/consumer_$kind" "$model") ||
        fail "$name: consumer_$kind failed"
      [ "$out" = "nodes 9" ] || fail "$name: consumer_$kind printed '$out'"
      echo "  consumer_$kind: $out"
    done
    if [ -n "$library_dir" ]; then
      # The shared consumers run on the package's libraries, not on some other onyx.
      LD_LIBRARY_PATH="$library_dir" ldd "$consumer_build/check_model" |
        grep -q "$library_dir/libonyx_core.so" || fail "$name: check_model does not load $library_dir/libonyx_core.so"
    fi
  fi
  step "$name: import onyx, run the example model"
  (cd "$work" && env "$@" "$python" "$work/smoke.py" "$package_dir" "$model") ||
    fail "$name: import onyx"
}

start=$SECONDS

# The Debian package.
step "cpack -G DEB in $build_dir"
run "$work/cpack.log" cpack -G DEB -B "$work/deb" --config "$build_dir/CPackConfig.cmake"
debs=("$work"/deb/onyx_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single onyx_*.deb: ${debs[*]}"
deb=${debs[0]}
echo "  $(basename "$deb"): $(du -h "$deb" | cut -f1)"
# What the build folder's own check_model prints (cpack built everything): the installed one
# must print the same.
expected_check_model=$("$build_dir/examples/check_model" "$model") ||
  fail "$build_dir/examples/check_model failed"

step "dpkg-deb -I: control fields"
dpkg-deb -I "$deb" | sed -n '/^ [A-Z][A-Za-z-]*:/,$p'
depends=$(dpkg-deb -f "$deb" Depends)
# The package names alone, one a line.
depends_names=$(sed -E 's/ *\([^)]*\)//g; s/, */\n/g' <<<"$depends")
for dependency in 'libdnnl[0-9.]*' libgomp1 libjpeg62-turbo libpng16-16 libtiff6 libwebp7 \
  libopenjp2-7 'libstdc\+\+6' python3 python3-numpy; do
  grep -Eqx "$dependency" <<<"$depends_names" || fail "Depends lacks $dependency: $depends"
done
echo "  Depends names oneDNN, libgomp, the image libraries, python3 and python3-numpy"

step "dpkg-deb -c: contents"
dpkg-deb -c "$deb" | awk '{print $6}' >"$work/contents"
for path in ./usr/bin/onyx ./usr/include/onyx/serde/model_io.h \
  ./usr/lib/python3/dist-packages/onyx/__init__.py ./usr/lib/python3/dist-packages/onyx/__init__.pyi \
  ./usr/lib/python3/dist-packages/onyx/py.typed; do
  grep -qx "$path" "$work/contents" || fail "the package lacks $path"
done
for pattern in '^\./usr/lib/python3/dist-packages/onyx/_onyx\.cpython-.*\.so$' \
  '^\./usr/lib/([^/]+/)?libonyx\.so\.[0-9.]+$' '^\./usr/lib/([^/]+/)?libonyx_core\.so\.[0-9.]+$' \
  '^\./usr/lib/([^/]+/)?libonyx_core\.a$' '^\./usr/lib/([^/]+/)?libonyx_eval\.a$' \
  '^\./usr/lib/([^/]+/)?cmake/onyx/onyxConfig\.cmake$'; do
  grep -Eq "$pattern" "$work/contents" || fail "the package has no file matching $pattern"
done
grep -v '/$' "$work/contents" | grep -v '^\./usr/include/' | sed 's/^\./  /'
echo "  and $(grep -c '^\./usr/include/onyx/.*\.h$' "$work/contents") headers under /usr/include/onyx"

# The package extracted into a temporary root: nothing of the system is touched.
root=$work/root
step "dpkg-deb -x into a temporary root"
dpkg-deb -x "$deb" "$root"
library_dir=$(dirname "$(find "$root/usr/lib" -name 'libonyx_core.so*' -print -quit)")
smoke extracted "$root/usr/bin/onyx" "$root/usr" "$library_dir" \
  "$python" "$root/usr/lib/python3/dist-packages/onyx" PYTHONPATH="$root/usr/lib/python3/dist-packages"

# A real installation, on CI's throwaway machine only.
if [ "${CI:-}" = true ] && [ "$(id -u)" -eq 0 ]; then
  if dpkg-query -W -f='${Status}' onyx 2>/dev/null | grep -q "install ok installed"; then
    fail "a package named onyx is installed already; not replacing it"
  fi
  step "apt-get install ./$(basename "$deb") (CI=true)"
  apt_installed=true
  (cd "$(dirname "$deb")" &&
    run "$work/apt.log" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$(basename "$deb")")
  grep -E "^(Setting up|[0-9]+ upgraded)" "$work/apt.log" | sed 's/^/  /'
  [ -x /usr/bin/onyx ] || fail "apt-get install left no /usr/bin/onyx"
  smoke apt /usr/bin/onyx "" "" "$python" /usr/lib/python3/dist-packages/onyx PYTHONNOUSERSITE=1
  step "apt-get remove --purge -y onyx"
  run "$work/apt-remove.log" env DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -q onyx
  apt_installed=false
  [ ! -e /usr/bin/onyx ] || fail "apt-get remove left /usr/bin/onyx"
else
  step "apt-get install skipped (only with CI=true as root)"
fi

# pip, into a virtual environment that sees Debian's packages (NumPy, setuptools, wheel).
step "pip install --no-build-isolation . into a venv (ONYX_CMAKE_BUILD_DIR=$build_dir)"
venv=$work/venv
run "$work/venv.log" "$python" -m venv --system-site-packages "$venv"
run "$work/pip.log" env ONYX_CMAKE_BUILD_DIR="$build_dir" "$venv/bin/python" -m pip install \
  --no-build-isolation --no-index --no-cache-dir "$source_dir"
grep -E "^Successfully installed" "$work/pip.log" | sed 's/^/  /'
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
[ "$(PATH="$venv/bin:$PATH" command -v onyx)" = "$venv/bin/onyx" ] ||
  fail "pip put no onyx command in $venv/bin"
smoke pip "$venv/bin/onyx" - "" "$venv/bin/python" "$site/onyx" PYTHONNOUSERSITE=1

echo "package test: passed in $((SECONDS - start)) s ($(basename "$deb"), pip install)"
