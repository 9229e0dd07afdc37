"""Shared fixtures: small models written in the ONNX text syntax, built in each test."""

import os
import pathlib
import subprocess

import pytest

import onyx

REPO = pathlib.Path(__file__).resolve().parents[2]


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "concurrency: runs onyx on several threads at once; scripts/test.sh runs these again "
        "under ThreadSanitizer (pytest -m concurrency)",
    )


def build_dir():
    """The build folder whose package is imported (<build>/python/onyx/__init__.py)."""
    return pathlib.Path(onyx.__file__).resolve().parents[2]


def onyx_tool():
    """The `onyx` command of the same build."""
    return os.environ.get("ONYX_TOOL", str(build_dir() / "tools" / "onyx" / "onyx"))


def program_environment():
    """This environment for another program: without the sanitizer runtime the sanitizer run
    preloads for this interpreter (LD_PRELOAD), which the onyx tool (carrying its own),
    Graphviz or Chromium must not get."""
    return {key: value for key, value in os.environ.items() if key != "LD_PRELOAD"}


def run_onyx_tool(*arguments):
    """Runs the `onyx` command of the same build; returns the finished process (text output)."""
    env = program_environment()
    return subprocess.run(
        [onyx_tool(), *map(str, arguments)], capture_output=True, text=True, check=False, env=env
    )


CONV_RELU = """
<ir_version: 8, opset_import: ["" : 17], producer_name: "tests">
net (float[N,3,8,8] x) => (float[N,4,8,8] y)
<float[4,3,3,3] w = {0.5, 0.25, -0.125, 1, 2, -1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25,
  0.125, 0.125, 0.125, -0.5, -0.5, -0.5, 1, 1, 1, 0, 0, 0, 2, 2, 2,
  0.5, 0.25, -0.125, 1, 2, -1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25,
  0.125, 0.125, 0.125, -0.5, -0.5, -0.5, 1, 1, 1, 0, 0, 0, 2, 2, 2,
  0.5, 0.25, -0.125, 1, 2, -1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25,
  0.125, 0.125, 0.125, -0.5, -0.5, -0.5, 1, 1, 1, 0, 0, 0, 2, 2, 2,
  0.5, 0.25, -0.125, 1, 2, -1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25,
  0.125, 0.125, 0.125, -0.5, -0.5, -0.5, 1, 1, 1, 0, 0, 0, 2, 2, 2},
 float[4] b = {0.1, -0.2, 0.3, -0.4}>
{
  [conv1] conv = Conv <kernel_shape: ints = [3, 3], pads: ints = [1, 1, 1, 1]> (x, w, b)
  [relu1] y = Relu (conv)
}
"""

ADD_MUL = """
<ir_version: 8, opset_import: ["" : 17]>
arith (float[N] a, float[N] b) => (float[N] sum, float[N] product)
{
  sum = Add (a, b)
  product = Mul (a, b)
}
"""

CALLS_TWICE = """
<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
g (float[2] x) => (float[2] y) { y = local.Twice (x) }
<domain: "local", opset_import: ["" : 17]>
Twice (a) => (b) { b = Add (a, a) }
"""


@pytest.fixture
def conv_model():
    return onyx.parse_text(CONV_RELU)


@pytest.fixture
def arith_model():
    return onyx.parse_text(ADD_MUL)
