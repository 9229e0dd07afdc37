#!/usr/bin/python3
"""Writes the models the opset conversion benchmark (bench/convert_bench.sh) converts: NODES
nodes (rounded up to whole blocks) of an exported-looking network at OPSET (11 or 17), with
PyTorch's names and weights of its own for every block, written by python3-onnx.

A block (17 nodes) is a convolution and an attention step over its 64 positions:
  Conv 3x3 -> BatchNormalization -> Relu -> Reshape [1, 8, 64] -> Transpose -> MatMul to
  q, k, v -> Split -> Transpose of k -> MatMul -> Mul by 1/sqrt(8) -> Softmax (last axis) ->
  MatMul with v -> ReduceMean (last axis, kept) -> Sub -> Add (residual) -> Transpose ->
  Reshape [1, 8, 8, 8].
What changes between 11 and 17: Split's sizes are an attribute at 11 and an input at 17,
BatchNormalization is version 9 or 15, Softmax 11 (2-D coercion; the last axis here) or 13.

  make_convert_models.py NODES OPSET OUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CHANNELS = 8
SIDE = 8
POSITIONS = SIDE * SIDE
NODES_PER_BLOCK = 17


def block(index, x, opset, nodes, weights, rng, last):
    prefix = f"/blocks.{index}"
    name = f"blocks.{index}"

    def weight(suffix, array):
        tensor = numpy_helper.from_array(array.astype(np.float32), f"{name}.{suffix}")
        weights.append(tensor)
        return tensor.name

    def node(op, inputs, where, outputs=1, **attributes):
        names = [f"{prefix}/{where}/{op}_output_{k}" for k in range(outputs)]
        nodes.append(helper.make_node(op, inputs, names, name=f"{prefix}/{where}/{op}", **attributes))
        return names if outputs > 1 else names[0]

    conv_w = weight("conv.weight", rng.normal(0, 0.12, (CHANNELS, CHANNELS, 3, 3)))
    conv_b = weight("conv.bias", rng.normal(0, 0.05, (CHANNELS,)))
    scale = weight("bn.weight", rng.uniform(0.5, 1.0, (CHANNELS,)))
    bias = weight("bn.bias", rng.normal(0, 0.05, (CHANNELS,)))
    mean = weight("bn.running_mean", rng.normal(0, 0.05, (CHANNELS,)))
    var = weight("bn.running_var", rng.uniform(0.5, 1.5, (CHANNELS,)))
    qkv_w = weight("attn.qkv.weight", rng.normal(0, 0.3, (CHANNELS, 3 * CHANNELS)))

    c = node("Conv", [x, conv_w, conv_b], "conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    n = node("BatchNormalization", [c, scale, bias, mean, var], "bn", epsilon=1e-5)
    r = node("Relu", [n], "act")
    f = node("Reshape", [r, "shape_sequence"], "flatten")
    t = node("Transpose", [f], "to_sequence", perm=[0, 2, 1])
    qkv = node("MatMul", [t, qkv_w], "attn/qkv")
    if opset >= 13:
        q, k, v = node("Split", [qkv, "split_sizes"], "attn", outputs=3, axis=2)
    else:
        q, k, v = node("Split", [qkv], "attn", outputs=3, axis=2, split=[CHANNELS] * 3)
    kt = node("Transpose", [k], "attn/key", perm=[0, 2, 1])
    s = node("MatMul", [q, kt], "attn/scores")
    sc = node("Mul", [s, "attention_scale"], "attn/scale")
    p = node("Softmax", [sc], "attn", axis=2 if opset < 13 else -1)
    a = node("MatMul", [p, v], "attn/values")
    mu = node("ReduceMean", [a], "norm", axes=[2], keepdims=1)
    d = node("Sub", [a, mu], "norm")
    o = node("Add", [t, d], "residual")
    bt = node("Transpose", [o], "to_image", perm=[0, 2, 1])
    if last:  # the graph output, by its own name (as PyTorch names it)
        nodes.append(helper.make_node("Reshape", [bt, "shape_image"], ["output"],
                                      name=f"{prefix}/unflatten/Reshape"))
        return "output"
    return node("Reshape", [bt, "shape_image"], "unflatten")


def main():
    nodes_wanted, opset, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    blocks = max(1, -(-nodes_wanted // NODES_PER_BLOCK))
    rng = np.random.default_rng(2026)
    nodes, weights = [], []
    weights.append(numpy_helper.from_array(np.array([1, CHANNELS, POSITIONS], np.int64), "shape_sequence"))
    weights.append(numpy_helper.from_array(np.array([1, CHANNELS, SIDE, SIDE], np.int64), "shape_image"))
    weights.append(numpy_helper.from_array(np.array(CHANNELS**-0.5, np.float32), "attention_scale"))
    if opset >= 13:
        weights.append(numpy_helper.from_array(np.array([CHANNELS] * 3, np.int64), "split_sizes"))
    x = "input"
    for index in range(blocks):
        x = block(index, x, opset, nodes, weights, rng, index == blocks - 1)
        if index % 500 == 0:
            print(f"\r{out}: block {index + 1}/{blocks}", end="", file=sys.stderr)
    print(file=sys.stderr)
    image = [1, CHANNELS, SIDE, SIDE]
    graph = helper.make_graph(
        nodes,
        "main_graph",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, image)],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, image)],
        weights,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="pytorch", producer_version="2.1.0")
    model.ir_version = 7 if opset < 15 else 8
    onnx.save(model, out)


if __name__ == "__main__":
    main()
