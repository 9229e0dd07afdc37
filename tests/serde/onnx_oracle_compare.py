#!/usr/bin/python3
"""Compares models onyx wrote with the models they came from, through Debian's python3-onnx.

Reads lines "ORIGINAL<TAB>WRITTEN" from the manifest given as argument. Each written model
is loaded with onnx.load (external data included) and must hold the same message as the
original: identical serialisations, after both have their initializers' data put in one
form (raw bytes), because moving data to an external file and back changes where the bytes
sit but not what they are. Prints one line per difference and a last line "N/N same".
"""
import sys

import onnx
from onnx import numpy_helper


def graphs(model):
    stack = [model.graph] + [g for t in model.training_info for g in (t.initialization, t.algorithm)]
    while stack:
        graph = stack.pop()
        yield graph
        for node in graph.node:
            for attribute in node.attribute:
                if attribute.HasField("g"):
                    stack.append(attribute.g)
                stack.extend(attribute.graphs)


def normalise(model):
    for graph in graphs(model):
        for tensor in graph.initializer:
            try:
                raw = numpy_helper.to_array(tensor).tobytes()
            except Exception:  # types python3-onnx 1.12 does not know: compare as stored
                continue
            for field in ("float_data", "int32_data", "int64_data", "double_data",
                          "uint64_data", "external_data"):
                tensor.ClearField(field)
            tensor.ClearField("data_location")
            if tensor.data_type != onnx.TensorProto.STRING:
                tensor.raw_data = raw
    return model.SerializeToString()


def main():
    same = 0
    total = 0
    for line in open(sys.argv[1]):
        original, written = line.rstrip("\n").split("\t")
        total += 1
        try:
            expected = normalise(onnx.load(original))
            actual = normalise(onnx.load(written))
        except Exception as error:  # noqa: BLE001 - any failure to load is the finding
            print(f"{written}: onnx.load failed: {error}")
            continue
        if expected == actual:
            same += 1
        else:
            print(f"{written}: differs from {original}")
    print(f"{same}/{total} same")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
