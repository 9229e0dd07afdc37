#!/usr/bin/python3
"""Writes the two models the checker benchmark reads, both valid under onnx's full check
(type and shape inference with errors fatal), so that each checker does all of its work:

  check200k.onnx    200,000 nodes in 20,000 residual blocks of 10 over a [1, S, 8] tensor
                    (MatMul, Add, Relu, Mul, LayerNormalization, Softmax, Sigmoid, Sub, Div,
                    Add), small initializers shared by every 5 blocks, value_info for two
                    values per block, PyTorch-style names; IR 8, opset 17.
  transformer.onnx  a 12-layer encoder (hidden 256, 4 heads, feed-forward 1024): attention
                    with Reshape/Transpose/MatMul/Softmax, LayerNormalization, an Erf GELU,
                    residuals; about 10M float weights; IR 8, opset 17.

  bench/make_check_models.py [FOLDER] [--force]     (default FOLDER: build/bench-models)

Uses python3-onnx (onnx.helper) only to build the messages; the numbers are generated.
"""
import os
import random
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def weight(rng, name, shape, scale=0.05):
    data = (rng.standard_normal(shape) * scale).astype(np.float32)
    return numpy_helper.from_array(data, name)


def make_check200k(path, blocks=20000):
    rng = np.random.default_rng(7)
    nodes, inits, infos = [], [], []
    x = "input"
    for b in range(blocks):
        group = f"layers.{b // 5 * 5}"
        if b % 5 == 0:
            inits += [
                weight(rng, f"{group}.proj.weight", [8, 8]),
                weight(rng, f"{group}.proj.bias", [8]),
                weight(rng, f"{group}.scale", [8]),
                weight(rng, f"{group}.norm.weight", [8]),
                weight(rng, f"{group}.norm.bias", [8]),
                weight(rng, f"{group}.shift", [8]),
            ]
        p = f"/model/layers.{b}/"

        def node(name, op, inputs, **attrs):
            out = f"{p}{name}_output_0"
            nodes.append(helper.make_node(op, inputs, [out], name=p + name, **attrs))
            return out

        m = node("proj/MatMul", "MatMul", [x, f"{group}.proj.weight"])
        a = node("proj/Add", "Add", [m, f"{group}.proj.bias"])
        r = node("act/Relu", "Relu", [a])
        s = node("scale/Mul", "Mul", [r, f"{group}.scale"])
        n = node("norm/LayerNormalization", "LayerNormalization",
                 [s, f"{group}.norm.weight", f"{group}.norm.bias"], axis=-1, epsilon=1e-5)
        infos.append(helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, "S", 8]))
        sm = node("attn/Softmax", "Softmax", [n], axis=-1)
        sg = node("gate/Sigmoid", "Sigmoid", [n])
        d = node("mix/Sub", "Sub", [sm, sg])
        q = node("mix/Div", "Div", [d, f"{group}.shift"])
        x = node("residual/Add", "Add", [q, x])
        infos.append(helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, "S", 8]))
    graph = helper.make_graph(
        nodes, "check200k",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, "S", 8])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, "S", 8])],
        inits, value_info=infos)
    save(graph, path)


def make_transformer(path, layers=12, hidden=256, heads=4, ffn=1024):
    rng = np.random.default_rng(11)
    head = hidden // heads
    nodes, inits = [], []
    consts = [
        numpy_helper.from_array(np.array([1, -1, heads, head], np.int64), "shape.split_heads"),
        numpy_helper.from_array(np.array([1, -1, hidden], np.int64), "shape.merge_heads"),
        numpy_helper.from_array(np.array(np.sqrt(head), np.float32), "attn.scale"),
        numpy_helper.from_array(np.array(np.sqrt(2.0), np.float32), "gelu.sqrt2"),
        numpy_helper.from_array(np.array(1.0, np.float32), "gelu.one"),
        numpy_helper.from_array(np.array(0.5, np.float32), "gelu.half"),
    ]
    inits += consts
    x = "hidden_states"
    for layer in range(layers):
        p = f"/encoder/layer.{layer}/"
        w = f"encoder.layer.{layer}."
        counter = [0]

        def node(op, inputs, **attrs):
            counter[0] += 1
            out = f"{p}{op}_{counter[0]}_output_0"
            nodes.append(helper.make_node(op, inputs, [out], name=f"{p}{op}_{counter[0]}", **attrs))
            return out

        def linear(name, inp, n_in, n_out):
            inits.append(weight(rng, f"{w}{name}.weight", [n_in, n_out]))
            inits.append(weight(rng, f"{w}{name}.bias", [n_out]))
            return node("Add", [node("MatMul", [inp, f"{w}{name}.weight"]), f"{w}{name}.bias"])

        def norm(name, inp):
            inits.append(numpy_helper.from_array(np.ones(hidden, np.float32), f"{w}{name}.weight"))
            inits.append(numpy_helper.from_array(np.zeros(hidden, np.float32), f"{w}{name}.bias"))
            return node("LayerNormalization", [inp, f"{w}{name}.weight", f"{w}{name}.bias"],
                        axis=-1, epsilon=1e-12)

        h = norm("attention.norm", x)
        q = node("Transpose", [node("Reshape", [linear("attention.query", h, hidden, hidden),
                                                "shape.split_heads"])], perm=[0, 2, 1, 3])
        k = node("Transpose", [node("Reshape", [linear("attention.key", h, hidden, hidden),
                                                "shape.split_heads"])], perm=[0, 2, 3, 1])
        v = node("Transpose", [node("Reshape", [linear("attention.value", h, hidden, hidden),
                                                "shape.split_heads"])], perm=[0, 2, 1, 3])
        scores = node("Div", [node("MatMul", [q, k]), "attn.scale"])
        probs = node("Softmax", [scores], axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, "shape.merge_heads"])
        x = node("Add", [x, linear("attention.output", ctx, hidden, hidden)])
        h = norm("ffn.norm", x)
        up = linear("ffn.up", h, hidden, ffn)
        gelu = node("Mul", [node("Mul", [up, node("Add", [node("Erf", [
            node("Div", [up, "gelu.sqrt2"])]), "gelu.one"])]), "gelu.half"])
        x = node("Add", [x, linear("ffn.down", gelu, ffn, hidden)])
    graph = helper.make_graph(
        nodes, "transformer",
        [helper.make_tensor_value_info("hidden_states", TensorProto.FLOAT, [1, "S", hidden])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, "S", hidden])], inits)
    save(graph, path)


def save(graph, path):
    model = helper.make_model(graph, producer_name="onyx_make_check_models",
                              opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)  # both models must be valid for onnx
    onnx.save(model, path + ".partial")
    os.replace(path + ".partial", path)


def main():
    args = [a for a in sys.argv[1:] if a != "--force"]
    force = "--force" in sys.argv[1:]
    folder = args[0] if args else "build/bench-models"
    os.makedirs(folder, exist_ok=True)
    random.seed(0)
    for name, make in (("check200k.onnx", make_check200k), ("transformer.onnx", make_transformer)):
        path = os.path.join(folder, name)
        if force or not os.path.exists(path):
            print(f"writing {path}", flush=True)
            make(path)
        print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
