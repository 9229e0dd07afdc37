#!/usr/bin/python3
"""Writes examples/tiny_cnn.onnx: a small image classifier used by the README's example.

Conv → Relu → MaxPool → Conv → Relu → GlobalAveragePool → Flatten → Gemm → Softmax, on
1×3×32×32 inputs with a symbolic batch, weights from a fixed seed. Needs python3-onnx.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(20261121)


def weight(name, *shape):
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32), name)


nodes = [
    helper.make_node("Conv", ["image", "conv1.w", "conv1.b"], ["c1"], name="conv1",
                     kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
    helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
    helper.make_node("Conv", ["p1", "conv2.w", "conv2.b"], ["c2"], name="conv2",
                     kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
    helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
    helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
    helper.make_node("Gemm", ["f", "fc.w", "fc.b"], ["logits"], name="fc", transB=1),
    helper.make_node("Softmax", ["logits"], ["probabilities"], name="softmax", axis=1),
]
initializers = [
    weight("conv1.w", 16, 3, 3, 3), weight("conv1.b", 16),
    weight("conv2.w", 32, 16, 3, 3), weight("conv2.b", 32),
    weight("fc.w", 10, 32), weight("fc.b", 10),
]
graph = helper.make_graph(
    nodes, "tiny_cnn",
    [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["N", 3, 32, 32])],
    [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", 10])],
    initializers)
model = helper.make_model(graph, producer_name="onyx-examples", producer_version="1",
                          opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny_cnn.onnx"))
