#!/usr/bin/python3
"""One conversion by onnx's version converter (Debian's python3-onnx), as a whole process:
read IN, onnx.version_converter.convert_version to VERSION, write OUT. What
bench/convert_bench.sh measures against `onyx convert --opset`.

  convert_bench_onnx.py IN OUT VERSION
"""
import sys

import onnx
from onnx import version_converter

model = onnx.load(sys.argv[1])
converted = version_converter.convert_version(model, int(sys.argv[3]))
onnx.save(converted, sys.argv[2])
