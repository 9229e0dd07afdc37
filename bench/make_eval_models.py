#!/usr/bin/python3
"""Writes the models the evaluator benchmark runs (bench/eval_bench.sh):

  eval_resnet50.onnx   ResNet-50's shape at batch 1: a 7x7/2 stem, a 3x3/2 max pool, 3-4-6-3
                       bottleneck blocks (1x1, 3x3, 1x1 convolutions, widths 64-128-256-512,
                       four times wider outputs, a projection on each stage's first block),
                       a global average pool and a 2048x1000 Gemm. Batch normalization is
                       folded into the convolutions' biases, as deployed models have it.
                       Input [1, 3, 224, 224]; 25.5 M weights; opset 13.

  eval_encoder.onnx    A 6-block transformer encoder at sequence 128, hidden 512, 8 heads,
                       feed-forward 2048: per block LayerNormalization, query/key/value
                       projections, heads split by Reshape and Transpose, scaled MatMul,
                       Softmax, an output projection, an Erf GELU feed-forward and residual
                       Adds. Input [1, 128, 512]; opset 17.

  bench/make_eval_models.py [FOLDER] [--force]     (default FOLDER: build/bench-models)

Weights are random (fixed seed): speed does not depend on their values. Uses python3-onnx
(onnx.helper) only to build the messages.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(model, path):
    onnx.checker.check_model(model)
    onnx.save(model, path + ".partial")
    os.replace(path + ".partial", path)


def make_resnet50(path):
    rng = np.random.default_rng(5)
    nodes, inits = [], []
    count = [0]

    def name(kind):
        count[0] += 1
        return f"{kind}_{count[0]}"

    def conv(x, c_in, c_out, kernel, stride=1, relu=True):
        n = name("conv")
        fan_in = c_in * kernel * kernel
        inits.append(numpy_helper.from_array(
            (rng.standard_normal((c_out, c_in, kernel, kernel)) * np.sqrt(2.0 / fan_in))
            .astype(np.float32), n + ".weight"))
        inits.append(numpy_helper.from_array(
            (rng.standard_normal(c_out) * 0.01).astype(np.float32), n + ".bias"))
        pad = kernel // 2
        out = n + "_out"
        nodes.append(helper.make_node("Conv", [x, n + ".weight", n + ".bias"], [out], name=n,
                                      kernel_shape=[kernel, kernel], strides=[stride, stride],
                                      pads=[pad, pad, pad, pad]))
        if not relu:
            return out
        activated = name("relu")
        nodes.append(helper.make_node("Relu", [out], [activated], name=activated))
        return activated

    x = conv("input", 3, 64, 7, stride=2)
    pooled = name("maxpool")
    nodes.append(helper.make_node("MaxPool", [x], [pooled], name=pooled, kernel_shape=[3, 3],
                                  strides=[2, 2], pads=[1, 1, 1, 1]))
    x, channels = pooled, 64
    for stage, (width, blocks) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)]):
        for block in range(blocks):
            stride = 2 if stage > 0 and block == 0 else 1
            h = conv(x, channels, width, 1)
            h = conv(h, width, width, 3, stride=stride)
            h = conv(h, width, width * 4, 1, relu=False)
            shortcut = x
            if block == 0:
                shortcut = conv(x, channels, width * 4, 1, stride=stride, relu=False)
            added = name("add")
            nodes.append(helper.make_node("Add", [h, shortcut], [added], name=added))
            activated = name("relu")
            nodes.append(helper.make_node("Relu", [added], [activated], name=activated))
            x, channels = activated, width * 4
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"], name="gap"))
    nodes.append(helper.make_node("Flatten", ["gap"], ["features"], name="flatten"))
    inits.append(numpy_helper.from_array(
        (rng.standard_normal((1000, 2048)) * 0.02).astype(np.float32), "fc.weight"))
    inits.append(numpy_helper.from_array(np.zeros(1000, np.float32), "fc.bias"))
    nodes.append(helper.make_node("Gemm", ["features", "fc.weight", "fc.bias"], ["logits"],
                                  name="fc", transB=1))
    graph = helper.make_graph(
        nodes, "eval_resnet50",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])], inits)
    model = helper.make_model(graph, producer_name="onyx_make_eval_models",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    save(model, path)
    return len(nodes)


def make_encoder(path, layers=6, seq=128, hidden=512, heads=8, ffn=2048):
    rng = np.random.default_rng(7)
    head = hidden // heads
    inits = [
        numpy_helper.from_array(np.array([1, seq, heads, head], np.int64), "split_shape"),
        numpy_helper.from_array(np.array([1, seq, hidden], np.int64), "merge_shape"),
        numpy_helper.from_array(np.array(np.sqrt(head), np.float32), "scale"),
        numpy_helper.from_array(np.array(np.sqrt(2.0), np.float32), "sqrt2"),
        numpy_helper.from_array(np.array(1.0, np.float32), "one"),
        numpy_helper.from_array(np.array(0.5, np.float32), "half"),
    ]
    nodes = []
    x = "hidden_states"
    for layer in range(layers):
        prefix = f"layer{layer}."
        count = [0]

        def node(op, inputs, **attrs):
            count[0] += 1
            out = f"{prefix}{op}_{count[0]}"
            nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
            return out

        def linear(name, inp, n_in, n_out):
            w, b = prefix + name + ".weight", prefix + name + ".bias"
            inits.append(numpy_helper.from_array(
                (rng.standard_normal((n_in, n_out)) * 0.02).astype(np.float32), w))
            inits.append(numpy_helper.from_array(np.zeros(n_out, np.float32), b))
            return node("Add", [node("MatMul", [inp, w]), b])

        def norm(inp, which):
            g, b = f"{prefix}{which}.weight", f"{prefix}{which}.bias"
            inits.append(numpy_helper.from_array(np.ones(hidden, np.float32), g))
            inits.append(numpy_helper.from_array(np.zeros(hidden, np.float32), b))
            return node("LayerNormalization", [inp, g, b], axis=-1, epsilon=1e-5)

        h = norm(x, "norm1")

        def split_heads(name, perm):
            return node("Transpose", [node("Reshape", [linear(name, h, hidden, hidden),
                                                       "split_shape"])], perm=perm)

        q = split_heads("q", [0, 2, 1, 3])
        k = split_heads("k", [0, 2, 3, 1])
        v = split_heads("v", [0, 2, 1, 3])
        probs = node("Softmax", [node("Div", [node("MatMul", [q, k]), "scale"])], axis=-1)
        context = node("Transpose", [node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        merged = node("Reshape", [context, "merge_shape"])
        x = node("Add", [x, linear("o", merged, hidden, hidden)])
        h = norm(x, "norm2")
        up = linear("up", h, hidden, ffn)
        erf = node("Erf", [node("Div", [up, "sqrt2"])])
        gelu = node("Mul", [node("Mul", [up, node("Add", [erf, "one"])]), "half"])
        x = node("Add", [x, linear("down", gelu, ffn, hidden)])
    graph = helper.make_graph(
        nodes, "eval_encoder",
        [helper.make_tensor_value_info("hidden_states", TensorProto.FLOAT, [1, seq, hidden])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, seq, hidden])], inits)
    model = helper.make_model(graph, producer_name="onyx_make_eval_models",
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    save(model, path)
    return len(nodes)


def main():
    args = [a for a in sys.argv[1:] if a != "--force"]
    folder = args[0] if args else "build/bench-models"
    os.makedirs(folder, exist_ok=True)
    for file, make in [("eval_resnet50.onnx", make_resnet50), ("eval_encoder.onnx", make_encoder)]:
        path = os.path.join(folder, file)
        if os.path.exists(path) and "--force" not in sys.argv[1:]:
            continue
        print(f"{path}: {make(path)} nodes", file=sys.stderr)


if __name__ == "__main__":
    main()
