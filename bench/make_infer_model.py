#!/usr/bin/python3
"""Writes the model the inference benchmark reads:

  infer_transformer.onnx  a 256-layer transformer encoder as PyTorch exports it, about
                          10,500 nodes: inputs [N, S, 64] with symbolic batch N and sequence
                          S; per layer LayerNormalization, query/key/value projections, heads
                          split by a Reshape whose shape is computed from the input
                          (Shape -> Gather -> Unsqueeze -> Concat), Transpose, scaled
                          MatMul, Softmax, heads merged the same way, an Erf GELU feed-forward
                          and residual Adds. Weights are shared by all layers, so the file is
                          small; no value_info, so every shape must be inferred. IR 8, opset 17.

  bench/make_infer_model.py [FOLDER] [--force]     (default FOLDER: build/bench-models)

Uses python3-onnx (onnx.helper) only to build the messages.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
HIDDEN, HEADS, FFN = 64, 4, 256


def make(path, layers=256):
    rng = np.random.default_rng(3)
    head = HIDDEN // HEADS

    def weight(name, shape):
        return numpy_helper.from_array((rng.standard_normal(shape) * 0.05).astype(np.float32),
                                       name)

    inits = [
        numpy_helper.from_array(np.array([0], np.int64), "axes0"),
        numpy_helper.from_array(np.array(0, np.int64), "index0"),
        numpy_helper.from_array(np.array(1, np.int64), "index1"),
        numpy_helper.from_array(np.array([HEADS], np.int64), "heads"),
        numpy_helper.from_array(np.array([head], np.int64), "head_size"),
        numpy_helper.from_array(np.array([HIDDEN], np.int64), "hidden"),
        numpy_helper.from_array(np.array(np.sqrt(head), np.float32), "scale"),
        numpy_helper.from_array(np.array(np.sqrt(2.0), np.float32), "sqrt2"),
        numpy_helper.from_array(np.array(1.0, np.float32), "one"),
        numpy_helper.from_array(np.array(0.5, np.float32), "half"),
        numpy_helper.from_array(np.ones(HIDDEN, np.float32), "norm.weight"),
        numpy_helper.from_array(np.zeros(HIDDEN, np.float32), "norm.bias"),
    ]
    for name, n_in, n_out in [("q", HIDDEN, HIDDEN), ("k", HIDDEN, HIDDEN), ("v", HIDDEN, HIDDEN),
                              ("o", HIDDEN, HIDDEN), ("up", HIDDEN, FFN), ("down", FFN, HIDDEN)]:
        inits += [weight(f"{name}.weight", [n_in, n_out]), weight(f"{name}.bias", [n_out])]

    nodes = []
    x = "hidden_states"
    for layer in range(layers):
        prefix = f"/encoder/layer.{layer}/"
        count = [0]

        def node(op, inputs, **attrs):
            count[0] += 1
            out = f"{prefix}{op}_{count[0]}_output_0"
            nodes.append(helper.make_node(op, inputs, [out], name=f"{prefix}{op}_{count[0]}",
                                          **attrs))
            return out

        def linear(name, inp):
            return node("Add", [node("MatMul", [inp, f"{name}.weight"]), f"{name}.bias"])

        h = node("LayerNormalization", [x, "norm.weight", "norm.bias"], axis=-1, epsilon=1e-5)
        shape = node("Shape", [h])
        batch = node("Unsqueeze", [node("Gather", [shape, "index0"], axis=0), "axes0"])
        seq = node("Unsqueeze", [node("Gather", [shape, "index1"], axis=0), "axes0"])
        split = node("Concat", [batch, seq, "heads", "head_size"], axis=0)
        merge = node("Concat", [batch, seq, "hidden"], axis=0)

        def heads(name, perm):
            return node("Transpose", [node("Reshape", [linear(name, h), split])], perm=perm)

        q = heads("q", [0, 2, 1, 3])
        k = heads("k", [0, 2, 3, 1])
        v = heads("v", [0, 2, 1, 3])
        probs = node("Softmax", [node("Div", [node("MatMul", [q, k]), "scale"])], axis=-1)
        context = node("Transpose", [node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        x = node("Add", [x, linear("o", node("Reshape", [context, merge]))])
        h = node("LayerNormalization", [x, "norm.weight", "norm.bias"], axis=-1, epsilon=1e-5)
        up = linear("up", h)
        erf = node("Erf", [node("Div", [up, "sqrt2"])])
        gelu = node("Mul", [node("Mul", [up, node("Add", [erf, "one"])]), "half"])
        x = node("Add", [x, linear("down", gelu)])
    graph = helper.make_graph(
        nodes, "infer_transformer",
        [helper.make_tensor_value_info("hidden_states", TensorProto.FLOAT, ["N", "S", HIDDEN])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, ["N", "S", HIDDEN])], inits)
    model = helper.make_model(graph, producer_name="onyx_make_infer_model",
                              opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path + ".partial")
    os.replace(path + ".partial", path)
    return len(nodes)


def main():
    args = [a for a in sys.argv[1:] if a != "--force"]
    folder = args[0] if args else "build/bench-models"
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "infer_transformer.onnx")
    if os.path.exists(path) and "--force" not in sys.argv[1:]:
        return
    print(f"{path}: {make(path)} nodes", file=sys.stderr)


if __name__ == "__main__":
    main()
