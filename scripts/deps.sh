#!/usr/bin/env bash
# Installs the Debian packages onyx builds with (no argument), builds and tests with (`test`),
# or builds and packages with (`package`), when any is missing.
set -euo pipefail
# What building onyx and running its main job need (scripts/run-example.sh): the compiler, the
# libraries it links, the Python package's headers, NumPy for the example's input. GoogleTest
# too: the release build configures its tests, which scripts/test.sh shares.
packages=(cmake ninja-build g++ pkg-config ccache
          libgtest-dev libgmock-dev libfmt-dev libcli11-dev nlohmann-json3-dev libdnnl-dev
          python3-dev pybind11-dev python3-numpy
          ocl-icd-opencl-dev
          libjpeg-dev libpng-dev libtiff-dev libwebp-dev libopenjp2-7-dev)
# ocl-icd-opencl-dev: oneDNN's CMake package looks for OpenCL (Debian builds it with the
# OpenCL GPU runtime) and fails without it; libdnnl-dev only recommends it, and recommends are
# not installed here.
# ccache: the builds keep their objects between runs (scripts/configure.sh).
if [ "${1:-}" = package ]; then
  # What scripts/package_test.sh needs beyond the build's: cpack's dpkg-shlibdeps, and pip
  # into a virtual environment with setuptools from Debian.
  packages+=(dpkg-dev python3-venv python3-pip python3-setuptools python3-wheel)
fi
if [ "${1:-}" = test ]; then
  # What only the tests need (scripts/test.sh): the sanitizer build's clang, the tsan build's
  # runtime (g++'s libtsan, which python3 preloads; g++ brings it), the oracles (libprotobuf
  # and Debian's onnx), pytest, Google Benchmark for the benchmarks' build, and for the tests
  # of `onyx draw`: Graphviz reads its DOT files, headless Chromium (driven over the DevTools
  # protocol) opens its HTML pages, DejaVu is the pictures' monospace font.
  packages+=(clang libclang-rt-14-dev libtsan2 libbenchmark-dev libprotobuf-dev protobuf-compiler
             libonnx-dev python3-onnx python3-pytest
             graphviz chromium python3-websocket fonts-dejavu-core)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
