#!/usr/bin/env bash
# Installs the Debian packages onyx builds and tests with, when any is missing.
set -euo pipefail
packages=(cmake ninja-build g++ clang libclang-rt-14-dev pkg-config
          libgtest-dev libgmock-dev libbenchmark-dev libfmt-dev libcli11-dev nlohmann-json3-dev
          libprotobuf-dev protobuf-compiler libonnx-dev python3-onnx python3-numpy libdnnl-dev
          python3-dev pybind11-dev python3-pytest
          ocl-icd-opencl-dev
          libjpeg-dev libpng-dev libtiff-dev libwebp-dev libopenjp2-7-dev
          graphviz chromium python3-websocket fonts-dejavu-core)
# graphviz, chromium, python3-websocket, fonts-dejavu-core: the tests of `onyx draw` give its
# DOT files to Graphviz and open its HTML pages in headless Chromium (driven over the DevTools
# protocol); the pictures' monospace font.
# ocl-icd-opencl-dev: oneDNN's CMake package looks for OpenCL (Debian builds it with the
# OpenCL GPU runtime) and fails without it; libdnnl-dev only recommends it, and recommends are
# not installed here.
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
