#!/usr/bin/python3
"""Writes the models the evaluator benchmark runs (bench/eval_bench.sh), and beside each
NAME.onnx its inputs, which both sides of the benchmark read (fixed seeds; a float input of
one model uniform in [-1, 1)):

  NAME.input.json   the graph inputs (name, element type, the dimensions used for the run,
                    byte offset and length in NAME.input.bin) and the graph outputs' names
  NAME.input.bin    the inputs' elements one after another, raw little-endian

Two models of the kernels' speed:

  eval_resnet50.onnx     ResNet-50's shape at batch 1: a 7x7/2 stem, a 3x3/2 max pool, 3-4-6-3
                         bottleneck blocks (1x1, 3x3, 1x1 convolutions, widths 64-128-256-512,
                         four times wider outputs, a projection on each stage's first block),
                         a global average pool and a 2048x1000 Gemm. Batch normalization is
                         folded into the convolutions' biases, as deployed models have it.
                         Input [1, 3, 224, 224]; 25.5 M weights; opset 13.
  eval_encoder.onnx      A 6-block transformer encoder at sequence 128, hidden 512, 8 heads,
                         feed-forward 2048: per block LayerNormalization, query/key/value
                         projections, heads split by Reshape and Transpose, scaled MatMul,
                         Softmax, an output projection, an Erf GELU feed-forward and residual
                         Adds. Input [1, 128, 512]; opset 17.

Five float32 models as exporters write them. PyTorch's (opset 17): a node is named by its
module path and op (/features/features.3/block/block.0/block.0.0/Conv), its output after it
(..._output_0), a parameter by its dotted path (features.3.block.0.0.weight); convolutions
spell out every attribute; BatchNormalization stays a node of its own after each
convolution, with trained-looking statistics; Resize gets an empty roi and a Constant node's
scales. tf2onnx's (opset 13): TensorFlow's names with :0 outputs, NHWC tensors and a
Transpose on each side of every convolution and pool.

  eval_mobilenetv3.onnx  torchvision's MobileNetV3-Large at 224x224: 15 inverted residual
                         blocks (1x1 expansion, depthwise kxk convolution with group =
                         channels, squeeze-excitation as GlobalAveragePool, 1x1 Conv, Relu,
                         1x1 Conv, HardSigmoid, Mul; 1x1 projection), HardSwish or Relu,
                         BatchNormalization (epsilon 1e-3) after every convolution outside
                         squeeze-excitation, a 960-1280-1000 classifier. Input [1, 3, 224, 224].
  eval_db_detector.onnx  A DB text detector (DBNet) at 640x640: a ResNet-18-shaped backbone at
                         half width (32-64-128-256), BatchNormalization after each convolution;
                         an FPN neck (1x1 laterals, nearest 2x Resize + Add top-down, a 3x3
                         convolution per level resized to 1/4 scale and concatenated); the
                         probability head: Conv + BatchNormalization + Relu, two stride-2
                         ConvTransposes, Sigmoid. Input [1, 3, 640, 640], output [1, 1, 640, 640].
  eval_resnet50_bn.onnx  eval_resnet50 with its BatchNormalization left unfolded (epsilon 1e-5):
                         bias-free convolutions, each followed by its BatchNormalization.
  eval_nhwc_cnn.onnx     A Keras CNN through tf2onnx: input [1, 224, 224, 3] NHWC, 10
                         convolutions (3x3, SAME padding written out, asymmetric where the
                         stride is 2) and 2 max pools, each between Transposes to NCHW and
                         back, Relu and residual Adds in NHWC, ReduceMean over H and W, MatMul +
                         Add, Softmax over 10 classes.
  eval_mbv3_small_paddle.onnx  A text-direction classifier as Paddle2ONNX writes PaddleOCR's:
                         MobileNetV3-Small at scale 0.35 on a 48x192 crop, every weight and
                         BatchNormalization statistic a Constant node (not an initializer),
                         HardSwish spelled Add(x, 3), Clip(0, 6), Div(6), Mul(x, ...),
                         squeeze-excitation with HardSigmoid(0.2, 0.5), two classes.
                         Input [1, 3, 48, 192]; opset 11. (Issue 32.)
  eval_logmel.onnx       A log-mel front end: 16,000 samples, the STFT as two strided Conv1d
                         (real and imaginary, 400-wide windows padded to 512-wide kernels,
                         hop 160), Pow 2 of each, Add, Transpose, MatMul with an 80-band mel
                         bank, Add of a floor, Log, ReduceMax over the frames, Sub.
                         Input [1, 1, 16000]; opset 17. (Issue 32.)
  eval_recurrent_vad.onnx  A voice-activity detector as TorchScript exports Silero VAD v5: an
                         If on the int64 sample rate at the top, in each branch reflect Pad,
                         the STFT as a strided Conv1d, magnitudes (Slice, Pow, Add, Sqrt), four
                         Conv1d + Relu, an LSTM cell (hidden 128) inside nested Ifs that reset
                         an empty state (Shape/Gather/Equal scaffolding), Relu, Conv1d, Sigmoid,
                         mean. Inputs input [batch, samples] (run at [1, 512]), state
                         [2, batch, 128], sr (16000); opset 17. (Issue 32.)
  eval_chain.onnx        2,000 small elementwise nodes on [1, 64] (per-node overhead): 200
                         blocks of Add, Mul, Tanh, Sub, Relu, Add, Sigmoid, Div, Neg, Exp, the
                         binary ones with small [64] or scalar initializers.

  bench/make_eval_models.py [FOLDER] [--force]     (default FOLDER: build/bench-models)

Weights are random (fixed seeds): speed does not depend on their values. Uses python3-onnx
(onnx.helper) only to build the messages; each model passes onnx's full check.
"""
import itertools
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(model, path):
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, path + ".partial")
    os.replace(path + ".partial", path)


def input_paths(model_path):
    """Where a model's benchmark input lives: the manifest and the elements (both
    benchmarks' onyx and onnxruntime sides read them)."""
    base = model_path[:-len(".onnx")]
    return base + ".input.json", base + ".input.bin"


def write_inputs(model_path, feeds):
    """feeds: [(name, numpy array)] in the graph's input order."""
    model = onnx.load(model_path, load_external_data=False)
    declared = [i.name for i in model.graph.input]
    if declared != [name for name, _ in feeds]:
        raise SystemExit(f"{model_path}: inputs {declared}, feeds {[n for n, _ in feeds]}")
    manifest_path, data_path = input_paths(model_path)
    entries, offset = [], 0
    with open(data_path + ".partial", "wb") as data:
        for name, array in feeds:
            array = np.array(array, order="C")  # ascontiguousarray makes a scalar 1-d
            raw = array.astype(array.dtype.newbyteorder("<")).tobytes()
            entries.append({"name": name, "type": {np.dtype(np.float32): "float32",
                                                   np.dtype(np.int64): "int64"}[array.dtype],
                            "dims": list(array.shape), "offset": offset, "bytes": len(raw)})
            data.write(raw)
            offset += len(raw)
    manifest = {"inputs": entries, "outputs": [o.name for o in model.graph.output]}
    with open(manifest_path + ".partial", "w") as out:
        json.dump(manifest, out, indent=1)
    os.replace(data_path + ".partial", data_path)
    os.replace(manifest_path + ".partial", manifest_path)


def uniform_input(model_path):
    """The feed of a model of one float input of static dims: uniform in [-1, 1)."""
    model = onnx.load(model_path, load_external_data=False)
    (declared,) = model.graph.input
    shape = [d.dim_value for d in declared.type.tensor_type.shape.dim]
    return [(declared.name, np.random.default_rng(11).uniform(-1.0, 1.0, shape)
             .astype(np.float32))]


class Scope:
    """A PyTorch module path, which names the nodes and parameters of a module. Each group
    is a chain of containers whose children are named by index (features.3 is child 3 of
    features): Scope("features.3", "block.0.0") names its nodes
    /features/features.3/block/block.0/block.0.0/<Op> and its parameters
    features.3.block.0.0.<name>."""

    def __init__(self, *groups):
        self.groups = groups

    def __truediv__(self, child):
        """A module held as an attribute of this one (a new group)."""
        return Scope(*self.groups, child)

    def index(self, i):
        """Child i of this container."""
        return Scope(*self.groups[:-1], f"{self.groups[-1]}.{i}")

    def node(self, op):
        words = [group.split(".") for group in self.groups]
        parts = [".".join(w[:n]) for w in words for n in range(1, len(w) + 1)]
        return "".join("/" + part for part in parts) + "/" + op

    def param(self, name):
        return ".".join(self.groups + (name,))


class Net:
    """A graph being built: its nodes in order, its initializers, a seeded generator of
    weights. Node names are made unique as exporters do (a second /neck/Add is
    /neck/Add_1); an output is named after its node, PyTorch's way (..._output_0) or
    TensorFlow's (...:0)."""

    def __init__(self, seed, output_suffix="_output_0"):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.names = set()
        self.output_suffix = output_suffix

    def op(self, op, inputs, name, output=None, **attrs):
        unique = name
        for n in itertools.count(1):
            if unique not in self.names:
                break
            unique = f"{name}_{n}"
        self.names.add(unique)
        output = output or unique + self.output_suffix
        self.nodes.append(helper.make_node(op, inputs, [output], name=unique, **attrs))
        return output

    def torch(self, op, inputs, scope, **attrs):
        return self.op(op, inputs, scope.node(op), **attrs)

    def param(self, name, values):
        self.inits.append(numpy_helper.from_array(np.asarray(values, np.float32), name))
        return name

    def he_weight(self, name, shape, fan_in):
        return self.param(name, self.rng.standard_normal(shape) * np.sqrt(2.0 / fan_in))

    def conv(self, x, scope, c_in, c_out, kernel, stride=1, groups=1, bias=False):
        inputs = [x, self.he_weight(scope.param("weight"), (c_out, c_in // groups, kernel, kernel),
                                    c_in // groups * kernel * kernel)]
        if bias:
            inputs.append(self.param(scope.param("bias"), self.rng.standard_normal(c_out) * 0.01))
        pad = kernel // 2
        return self.torch("Conv", inputs, scope, dilations=[1, 1], group=groups,
                          kernel_shape=[kernel, kernel], pads=[pad] * 4, strides=[stride] * 2)

    def conv_transpose(self, x, scope, c_in, c_out, kernel, stride):
        weight = self.he_weight(scope.param("weight"), (c_in, c_out, kernel, kernel), c_in)
        bias = self.param(scope.param("bias"), self.rng.standard_normal(c_out) * 0.01)
        return self.torch("ConvTranspose", [x, weight, bias], scope, dilations=[1, 1], group=1,
                          kernel_shape=[kernel, kernel], pads=[0] * 4, strides=[stride] * 2)

    def batch_norm(self, x, scope, channels, epsilon=1e-5, momentum=0.9):
        """Inference-mode BatchNormalization with statistics as training leaves them:
        variances around 1, means and shifts around 0, scales of 0.3-0.9 (larger ones let
        the activations grow a thousandfold through these nets, which saturates the DB
        detector's Sigmoid and hides a wrong result)."""
        uniform, normal = self.rng.uniform, self.rng.normal
        params = [("weight", uniform(0.3, 0.9, channels)), ("bias", normal(0.0, 0.1, channels)),
                  ("running_mean", normal(0.0, 0.1, channels)),
                  ("running_var", uniform(0.5, 1.5, channels))]
        inputs = [x] + [self.param(scope.param(name), values) for name, values in params]
        return self.torch("BatchNormalization", inputs, scope, epsilon=epsilon, momentum=momentum)

    def conv_bn(self, x, conv_scope, bn_scope, c_in, c_out, kernel, stride=1, groups=1,
                fold=False, **bn):
        """A bias-free convolution and its BatchNormalization, or (fold) one convolution with
        a bias, as an exporter writes it after folding the normalization in."""
        if fold:
            return self.conv(x, conv_scope, c_in, c_out, kernel, stride, groups, bias=True)
        x = self.conv(x, conv_scope, c_in, c_out, kernel, stride, groups)
        return self.batch_norm(x, bn_scope, c_out, **bn)

    def linear(self, x, scope, n_in, n_out, weight_scale=None, bias_scale=0.01, output=None):
        """nn.Linear as PyTorch writes it: Gemm with the weight [out, in] transposed."""
        weight = self.rng.standard_normal((n_out, n_in)) * (weight_scale or np.sqrt(1.0 / n_in))
        weight = self.param(scope.param("weight"), weight)
        bias = self.rng.standard_normal(n_out) * bias_scale if bias_scale else np.zeros(n_out)
        bias = self.param(scope.param("bias"), bias)
        return self.torch("Gemm", [x, weight, bias], scope, output=output, alpha=1.0, beta=1.0,
                          transB=1)

    def upsample(self, x, scope, factor):
        """F.interpolate(scale_factor=factor), nearest, as PyTorch writes it from opset 13 on:
        no roi, the scales from a Constant node."""
        scales = numpy_helper.from_array(np.array([1, 1, factor, factor], np.float32))
        scales = self.torch("Constant", [], scope, value=scales)
        return self.torch("Resize", [x, "", scales], scope,
                          coordinate_transformation_mode="asymmetric", cubic_coeff_a=-0.75,
                          mode="nearest", nearest_mode="floor")

    def save(self, path, name, input_name, input_shape, output_name, output_shape, opset):
        graph = helper.make_graph(
            self.nodes, name,
            [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, input_shape)],
            [helper.make_tensor_value_info(output_name, TensorProto.FLOAT, output_shape)],
            self.inits)
        model = helper.make_model(graph, producer_name="onyx_make_eval_models",
                                  opset_imports=[helper.make_opsetid("", opset)])
        model.ir_version = 7 if opset <= 13 else 8
        save(model, path)
        return len(self.nodes)


def resnet_stem(net, x, scope, width, fold):
    """torchvision ResNet's conv1, bn1, relu and 3x3/2 max pool."""
    x = net.conv_bn(x, scope / "conv1", scope / "bn1", 3, width, 7, stride=2, fold=fold)
    x = net.torch("Relu", [x], scope / "relu")
    return net.torch("MaxPool", [x], scope / "maxpool", ceil_mode=0, dilations=[1, 1],
                     kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2])


def resnet_stage(net, x, scope, c_in, width, blocks, stride, bottleneck, fold):
    """torchvision ResNet's layerN: `blocks` BasicBlocks (two 3x3 convolutions) or
    Bottlenecks (1x1, 3x3, 1x1 to four times the width); the first block takes the stride
    and, where the shape changes, a projection (downsample). Returns the output and its
    channels."""
    c_out = width * 4 if bottleneck else width
    for b in range(blocks):
        block = scope.index(b)
        block_stride = stride if b == 0 else 1
        if bottleneck:
            convs = [(c_in, width, 1, 1), (width, width, 3, block_stride), (width, c_out, 1, 1)]
        else:
            convs = [(c_in, width, 3, block_stride), (width, width, 3, 1)]
        h = x
        for i, (conv_in, conv_out, kernel, conv_stride) in enumerate(convs):
            h = net.conv_bn(h, block / f"conv{i + 1}", block / f"bn{i + 1}", conv_in, conv_out,
                            kernel, conv_stride, fold=fold)
            if i + 1 < len(convs):  # the block's one ReLU module, called once per use
                h = net.torch("Relu", [h], block / ("relu" if i == 0 else f"relu_{i}"))
        shortcut = x
        if block_stride != 1 or c_in != c_out:
            shortcut = net.conv_bn(x, block / "downsample.0", block / "downsample.1", c_in, c_out,
                                   1, block_stride, fold=fold)
        h = net.torch("Add", [h, shortcut], block)
        x = net.torch("Relu", [h], block / f"relu_{len(convs) - 1}")
        c_in = c_out
    return x, c_out


def make_resnet50(path, fold=True):
    net = Net(seed=5)
    x = resnet_stem(net, "input", Scope(), 64, fold)
    channels = 64
    for stage, (width, blocks) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)]):
        x, channels = resnet_stage(net, x, Scope(f"layer{stage + 1}"), channels, width, blocks,
                                   1 if stage == 0 else 2, bottleneck=True, fold=fold)
    x = net.torch("GlobalAveragePool", [x], Scope("avgpool"))
    x = net.torch("Flatten", [x], Scope(), axis=1)
    net.linear(x, Scope("fc"), 2048, 1000, weight_scale=0.02, bias_scale=0, output="logits")
    name = "eval_resnet50" if fold else "eval_resnet50_bn"
    return net.save(path, name, "input", [1, 3, 224, 224], "logits", [1, 1000],
                    opset=13 if fold else 17)


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



# torchvision's MobileNetV3-Large: input channels, kernel, expanded channels, output channels,
# squeeze-excitation, HardSwish (else ReLU), stride.
MOBILENETV3_LARGE = [
    (16, 3, 16, 16, False, False, 1),
    (16, 3, 64, 24, False, False, 2),
    (24, 3, 72, 24, False, False, 1),
    (24, 5, 72, 40, True, False, 2),
    (40, 5, 120, 40, True, False, 1),
    (40, 5, 120, 40, True, False, 1),
    (40, 3, 240, 80, False, True, 2),
    (80, 3, 200, 80, False, True, 1),
    (80, 3, 184, 80, False, True, 1),
    (80, 3, 184, 80, False, True, 1),
    (80, 3, 480, 112, True, True, 1),
    (112, 3, 672, 112, True, True, 1),
    (112, 5, 672, 160, True, True, 2),
    (160, 5, 960, 160, True, True, 1),
    (160, 5, 960, 160, True, True, 1),
]


def make_divisible(value, divisor=8):
    """torchvision's channel rounding: to a multiple of `divisor`, never down by over 10%."""
    rounded = max(divisor, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


def make_mobilenetv3(path):
    net = Net(seed=13)

    def conv_norm_activation(x, scope, c_in, c_out, kernel, stride=1, groups=1,
                             activation="HardSwish"):
        # torchvision's Conv2dNormActivation: children 0 (Conv2d), 1 (BatchNorm2d with
        # eps 0.001, momentum 0.01, which PyTorch writes as 0.99), 2 (the activation).
        x = net.conv_bn(x, scope.index(0), scope.index(1), c_in, c_out, kernel, stride, groups,
                        epsilon=1e-3, momentum=0.99)
        return net.torch(activation, [x], scope.index(2)) if activation else x

    def squeeze_excitation(x, scope, channels):
        squeezed = make_divisible(channels // 4)
        s = net.torch("GlobalAveragePool", [x], scope / "avgpool")
        s = net.conv(s, scope / "fc1", channels, squeezed, 1, bias=True)
        s = net.torch("Relu", [s], scope / "activation")
        s = net.conv(s, scope / "fc2", squeezed, channels, 1, bias=True)
        s = net.torch("HardSigmoid", [s], scope / "scale_activation", alpha=1.0 / 6, beta=0.5)
        return net.torch("Mul", [s, x], scope)

    x = conv_norm_activation("input", Scope("features.0"), 3, 16, 3, stride=2)
    for i, (c_in, kernel, expanded, c_out, se, hard_swish, stride) in enumerate(
            MOBILENETV3_LARGE, 1):
        block = Scope(f"features.{i}", "block")
        activation = "HardSwish" if hard_swish else "Relu"
        layer = itertools.count()
        h = x
        if expanded != c_in:
            h = conv_norm_activation(h, block.index(next(layer)), c_in, expanded, 1,
                                     activation=activation)
        h = conv_norm_activation(h, block.index(next(layer)), expanded, expanded, kernel, stride,
                                 groups=expanded, activation=activation)
        if se:
            h = squeeze_excitation(h, block.index(next(layer)), expanded)
        h = conv_norm_activation(h, block.index(next(layer)), expanded, c_out, 1, activation=None)
        if stride == 1 and c_in == c_out:
            h = net.torch("Add", [h, x], Scope(f"features.{i}"))
        x = h
    x = conv_norm_activation(x, Scope("features.16"), 160, 960, 1)
    x = net.torch("GlobalAveragePool", [x], Scope("avgpool"))
    x = net.torch("Flatten", [x], Scope(), axis=1)
    x = net.linear(x, Scope("classifier.0"), 960, 1280)
    x = net.torch("HardSwish", [x], Scope("classifier.1"))
    net.linear(x, Scope("classifier.3"), 1280, 1000, output="output")  # classifier.2: Dropout
    return net.save(path, "eval_mobilenetv3", "input", [1, 3, 224, 224], "output", [1, 1000],
                    opset=17)


def make_db_detector(path, widths=(32, 64, 128, 256), inner=128, size=640):
    net = Net(seed=17)
    backbone = Scope("backbone")
    x = resnet_stem(net, "input", backbone, widths[0], fold=False)
    features, channels = [], widths[0]
    for stage, width in enumerate(widths):
        x, channels = resnet_stage(net, x, backbone / f"layer{stage + 1}", channels, width, 2,
                                   1 if stage == 0 else 2, bottleneck=False, fold=False)
        features.append(x)
    # DBNet's FPN: laterals in2..in5 (1/4 .. 1/32 of the input), out4 = in4 + up2(in5) and so
    # on down, then per level a 3x3 convolution to inner/4 channels (out2..out5), brought to
    # 1/4 scale and concatenated.
    neck = Scope("neck")
    lateral = [net.conv(f, neck / f"in{level + 2}", c, inner, 1)
               for level, (f, c) in enumerate(zip(features, widths))]
    merged = lateral[:]
    for level in (2, 1, 0):
        merged[level] = net.torch("Add", [lateral[level], net.upsample(merged[level + 1], neck, 2)],
                                  neck)
    pyramid = []
    for level in (3, 2, 1, 0):
        out = neck / f"out{level + 2}"
        p = net.conv(merged[level], out.index(0), inner, inner // 4, 3)
        pyramid.append(net.upsample(p, out.index(1), 2**level) if level else p)
    fused = net.torch("Concat", pyramid, neck, axis=1)
    head = Scope("head", "binarize")
    h = net.conv_bn(fused, head.index(0), head.index(1), inner, inner // 4, 3)
    h = net.torch("Relu", [h], head.index(2))
    h = net.conv_transpose(h, head.index(3), inner // 4, inner // 4, 2, 2)
    h = net.batch_norm(h, head.index(4), inner // 4)
    h = net.torch("Relu", [h], head.index(5))
    h = net.conv_transpose(h, head.index(6), inner // 4, 1, 2, 2)
    net.torch("Sigmoid", [h], head.index(7), output="output")
    return net.save(path, "eval_db_detector", "input", [1, 3, size, size], "output",
                    [1, 1, size, size], opset=17)


def make_nhwc_cnn(path, size=224, classes=10):
    net = Net(seed=19, output_suffix=":0")
    keras = "StatefulPartitionedCall/model"
    added = itertools.count(1)  # tf2onnx numbers the nodes it adds: Conv2D__7
    layers = {}

    def layer(kind):
        n = layers.get(kind, 0)
        layers[kind] = n + 1
        return f"{keras}/{kind}" + (f"_{n}" if n else "")

    def nchw(x, name, op, params=(), **attrs):
        # An NCHW-only op between Transposes, as tf2onnx leaves it when its transpose
        # optimizer cannot move them away.
        x = net.op("Transpose", [x], f"{name}__{next(added)}", perm=[0, 3, 1, 2])
        x = net.op(op, [x, *params], name, **attrs)
        return net.op("Transpose", [x], f"{name}__{next(added)}", perm=[0, 2, 3, 1])

    spatial = [size]

    def conv(x, c_in, c_out, stride=1, relu=True):
        # Keras Conv2D(3, padding="same"): tf2onnx writes SAME's pads out, the extra one at
        # the end when the padding is odd.
        p = layer("conv2d")
        weight = net.he_weight(f"{p}/Conv2D/ReadVariableOp:0", (c_out, c_in, 3, 3), c_in * 9)
        bias = net.param(f"{p}/BiasAdd/ReadVariableOp:0", net.rng.standard_normal(c_out) * 0.01)
        out = -(-spatial[0] // stride)
        total = max((out - 1) * stride + 3 - spatial[0], 0)
        spatial[0] = out
        x = nchw(x, f"{p}/BiasAdd", "Conv", params=[weight, bias], dilations=[1, 1],
                 kernel_shape=[3, 3], pads=[total // 2] * 2 + [total - total // 2] * 2,
                 strides=[stride, stride])
        return net.op("Relu", [x], f"{p}/Relu") if relu else x

    def residual(x, channels):
        h = conv(conv(x, channels, channels), channels, channels, relu=False)
        x = net.op("Add", [h, x], layer("add") + "/add")
        return net.op("Relu", [x], layer("re_lu") + "/Relu")

    def max_pool(x):
        spatial[0] //= 2
        return nchw(x, layer("max_pooling2d") + "/MaxPool", "MaxPool", kernel_shape=[2, 2],
                    strides=[2, 2])

    x = conv("input_1", 3, 16, stride=2)
    x = conv(x, 16, 32, stride=2)
    channels = 32
    for stage, width in enumerate([32, 64, 128]):
        if stage:
            x = conv(max_pool(x), channels, width)
            channels = width
        x = residual(x, channels)
    x = net.op("ReduceMean", [x], layer("global_average_pooling2d") + "/Mean", axes=[1, 2],
               keepdims=0)
    dense = layer("dense")
    weight = net.param(f"{dense}/MatMul/ReadVariableOp:0",
                       net.rng.standard_normal((channels, classes)) * np.sqrt(1.0 / channels))
    bias = net.param(f"{dense}/BiasAdd/ReadVariableOp:0", net.rng.standard_normal(classes) * 0.01)
    x = net.op("Add", [net.op("MatMul", [x, weight], f"{dense}/MatMul"), bias], f"{dense}/BiasAdd")
    net.op("Softmax", [x], f"{dense}/Softmax", output="dense", axis=-1)
    return net.save(path, "tf2onnx", "input_1", [1, size, size, 3], "dense", [1, classes],
                    opset=13)


def make_chain(path, blocks=200, width=64):
    net = Net(seed=23)
    uniform, normal = net.rng.uniform, net.rng.normal
    x = "input"
    for b in range(blocks):
        scope = Scope(f"layers.{b}")

        def binary(op, x, name, values):
            return net.torch(op, [x, net.param(scope.param(name), values)], scope)

        x = binary("Add", x, "shift", normal(0.0, 0.5, width))
        x = binary("Mul", x, "scale", uniform(0.5, 1.5, width))
        x = net.torch("Tanh", [x], scope)
        x = binary("Sub", x, "offset", normal(0.0, 0.5, width))
        x = net.torch("Relu", [x], scope)
        x = binary("Add", x, "bias", normal(0.0, 0.5, width))
        x = net.torch("Sigmoid", [x], scope)
        x = binary("Div", x, "temperature", uniform(1.0, 2.0, ()))
        x = net.torch("Neg", [x], scope)
        x = net.torch("Exp", [x], scope, output="output" if b + 1 == blocks else None)
    return net.save(path, "eval_chain", "input", [1, width], "output", [1, width], opset=17)


class PaddleNet(Net):
    """Net as Paddle2ONNX writes a graph: parameters as Constant nodes, names p2o.Op.N."""

    def __init__(self, seed):
        super().__init__(seed, output_suffix=".tmp_0")
        self.counts = {}

    def param(self, name, values):
        tensor = numpy_helper.from_array(np.asarray(values, np.float32))
        return self.op("Constant", [], f"p2o.Constant.{len(self.nodes)}", output=name,
                       value=tensor)

    def p2o(self, op, inputs, **attrs):
        n = self.counts.get(op, 0)
        self.counts[op] = n + 1
        return self.op(op, inputs, f"p2o.{op}.{n}", **attrs)


def make_mbv3_small_paddle(path, scale=0.35, classes=2):
    net = PaddleNet(seed=29)
    scalars = {}

    def scalar(value):
        if value not in scalars:
            scalars[value] = net.param(f"fill_constant_{len(scalars)}.tmp_0", [value])
        return scalars[value]

    def hard_swish(x):
        shifted = net.p2o("Add", [x, scalar(3.0)])
        clipped = net.p2o("Clip", [shifted, scalar(0.0), scalar(6.0)])
        return net.p2o("Mul", [x, net.p2o("Div", [clipped, scalar(6.0)])])

    def conv_bn(x, name, c_in, c_out, kernel, stride=1, groups=1, activation=None):
        weight = net.param(f"{name}_weights", net.rng.standard_normal(
            (c_out, c_in // groups, kernel, kernel)) * np.sqrt(2.0 / (c_in // groups * kernel**2)))
        pad = kernel // 2
        x = net.p2o("Conv", [x, weight], dilations=[1, 1], group=groups,
                    kernel_shape=[kernel, kernel], pads=[pad] * 4, strides=[stride] * 2)
        uniform, normal = net.rng.uniform, net.rng.normal
        stats = [net.param(f"{name}_bn_{part}", values) for part, values in (
            ("scale", uniform(0.3, 0.9, c_out)), ("offset", normal(0.0, 0.1, c_out)),
            ("mean", normal(0.0, 0.1, c_out)), ("variance", uniform(0.5, 1.5, c_out)))]
        x = net.p2o("BatchNormalization", [x] + stats, epsilon=1e-5, momentum=0.9)
        if activation == "hardswish":
            return hard_swish(x)
        if activation == "relu":
            return net.p2o("Relu", [x])
        return x

    def squeeze_excitation(x, name, channels):
        squeezed = make_divisible(channels // 4)
        s = net.p2o("GlobalAveragePool", [x])
        w1 = net.param(f"{name}_1_weights", net.rng.standard_normal((squeezed, channels, 1, 1))
                       * np.sqrt(2.0 / channels))
        b1 = net.param(f"{name}_1_offset", net.rng.normal(0.0, 0.01, squeezed))
        s = net.p2o("Relu", [net.p2o("Conv", [s, w1, b1], kernel_shape=[1, 1])])
        w2 = net.param(f"{name}_2_weights", net.rng.standard_normal((channels, squeezed, 1, 1))
                       * np.sqrt(2.0 / squeezed))
        b2 = net.param(f"{name}_2_offset", net.rng.normal(0.0, 0.01, channels))
        s = net.p2o("Conv", [s, w2, b2], kernel_shape=[1, 1])
        s = net.p2o("HardSigmoid", [s], alpha=0.2, beta=0.5)
        return net.p2o("Mul", [x, s])

    # PaddleOCR's MobileNetV3 "small": kernel, expanded, out, se, activation, stride.
    blocks = [(3, 16, 16, True, "relu", (2, 1)), (3, 72, 24, False, "relu", (2, 1)),
              (3, 88, 24, False, "relu", 1), (5, 96, 40, True, "hardswish", (2, 1)),
              (5, 240, 40, True, "hardswish", 1), (5, 240, 40, True, "hardswish", 1),
              (5, 120, 48, True, "hardswish", 1), (5, 144, 48, True, "hardswish", 1),
              (5, 288, 96, True, "hardswish", (2, 1)), (5, 576, 96, True, "hardswish", 1),
              (5, 576, 96, True, "hardswish", 1)]
    c_in = make_divisible(16 * scale)
    x = conv_bn("x", "conv1", 3, c_in, 3, stride=2, activation="hardswish")
    for i, (kernel, expanded, c_out, se, activation, stride) in enumerate(blocks):
        expanded, c_out = make_divisible(scale * expanded), make_divisible(scale * c_out)
        name = f"conv{i + 2}"
        h = conv_bn(x, f"{name}_expand", c_in, expanded, 1, activation=activation)
        # Paddle's classifier backbone strides (2, 1) to keep the text line's width; a
        # square stride here: onyx's and onnxruntime's kernels take either alike.
        h = conv_bn(h, f"{name}_depthwise", expanded, expanded, kernel,
                    stride=2 if stride != 1 else 1, groups=expanded, activation=activation)
        if se:
            h = squeeze_excitation(h, f"{name}_se", expanded)
        h = conv_bn(h, f"{name}_linear", expanded, c_out, 1)
        if stride == 1 and c_in == c_out:
            h = net.p2o("Add", [x, h])
        x, c_in = h, c_out
    last = make_divisible(scale * 576)
    x = conv_bn(x, "conv_last", c_in, last, 1, activation="hardswish")
    x = net.p2o("GlobalAveragePool", [x])
    x = net.p2o("Flatten", [x], axis=1)
    weight = net.param("fc_0.w_0", net.rng.standard_normal((last, classes)) * np.sqrt(1.0 / last))
    bias = net.param("fc_0.b_0", np.zeros(classes))
    x = net.p2o("Add", [net.p2o("MatMul", [x, weight]), bias])
    net.p2o("Softmax", [x], axis=1)
    net.nodes[-1].output[0] = "softmax_0.tmp_0"
    return net.save(path, "eval_mbv3_small_paddle", "x", [1, 3, 48, 192], "softmax_0.tmp_0",
                    [1, classes], opset=11)


def make_logmel(path, samples=16000, window=400, fft=512, hop=160, mels=80):
    net = Net(seed=31)
    scope = Scope("frontend")
    bins = fft // 2 + 1
    # A Hann window of `window` samples centred in the 512-wide DFT kernels.
    hann = np.zeros(fft)
    start = (fft - window) // 2
    hann[start:start + window] = np.hanning(window + 1)[:-1]
    n = np.arange(fft)
    angles = 2 * np.pi * np.outer(np.arange(bins), n) / fft
    real = net.param(scope.param("stft_real"), (np.cos(angles) * hann)[:, None, :])
    imag = net.param(scope.param("stft_imag"), (-np.sin(angles) * hann)[:, None, :])
    conv = dict(dilations=[1], group=1, kernel_shape=[fft], pads=[fft // 2, fft // 2],
                strides=[hop])
    re = net.torch("Conv", ["input", real], scope, **conv)
    im = net.torch("Conv", ["input", imag], scope, **conv)
    two = net.torch("Constant", [], scope, value=numpy_helper.from_array(np.array(2.0, np.float32)))
    power = net.torch("Add", [net.torch("Pow", [re, two], scope),
                              net.torch("Pow", [im, two], scope)], scope)
    frames = net.torch("Transpose", [power], scope, perm=[0, 2, 1])
    bank = net.rng.uniform(0.0, 1.0, (bins, mels)) * (net.rng.uniform(size=(bins, mels)) < 0.05)
    mel = net.torch("MatMul", [frames, net.param(scope.param("mel_bank"), bank)], scope)
    floor = net.torch("Constant", [], scope,
                      value=numpy_helper.from_array(np.array(1e-6, np.float32)))
    log = net.torch("Log", [net.torch("Add", [mel, floor], scope)], scope)
    peak = net.torch("ReduceMax", [log], scope, axes=[1], keepdims=1)
    net.torch("Sub", [log, peak], scope, output="output")
    count = samples // hop + 1
    return net.save(path, "eval_logmel", "input", [1, 1, samples], "output", [1, count, mels],
                    opset=17)


def make_recurrent_vad(path, samples=512, hidden=128):
    """A voice-activity detector as TorchScript exports Silero VAD v5: an If on the sample
    rate (an int64 input) at the top, each branch a detector of its own: Pad (reflect), the
    STFT as one strided Conv1d, magnitudes from Slice, Pow 2, Add, Sqrt, four Conv1d + Relu,
    an LSTM cell inside nested Ifs that reset the state when it comes in empty (Shape,
    Gather, Equal, ConstantOfShape), the decoder's Relu, Conv1d, Sigmoid and mean."""
    from make_optimize_models import Exported, count_nodes  # builds on this module's Net

    net = Exported(seed=61)
    top = Scope("_model")

    def untyped(results):
        return [helper.make_tensor_value_info(r, TensorProto.FLOAT, None) for r in results]

    def conv1d(x, scope, c_in, c_out, kernel, stride, pad, bias=True):
        inputs = [x, net.he_weight(scope.param("weight"), (c_out, c_in, kernel), c_in * kernel)]
        if bias:
            inputs.append(net.param(scope.param("bias"), net.rng.standard_normal(c_out) * 0.01))
        return net.torch("Conv", inputs, scope, dilations=[1], group=1, kernel_shape=[kernel],
                         pads=[pad, pad], strides=[stride])

    def state_reset(scope, depth):
        """if len(state) == 0: zeros(2, batch, hidden) else: state, as nested Ifs."""
        empty = net.torch("Equal", [net.dim("state", scope, 0), net.const(scope, 0)], scope)

        def zeros():
            shape = net.shape_of(scope / "zeros", [2, net.dim("input", scope / "zeros", 0),
                                                   hidden])
            return [net.torch("ConstantOfShape", [shape], scope / "zeros",
                              value=numpy_helper.from_array(np.zeros(1, np.float32)))]

        def keep():
            if depth > 1:
                return state_reset(scope / "keep", depth - 1)
            return [net.torch("Identity", ["state"], scope / "keep")]

        then_nodes, then_out = net.branch(zeros)
        else_nodes, else_out = net.branch(keep)
        return [net.torch("If", [empty], scope,
                          then_branch=helper.make_graph(then_nodes, "then", [], untyped(then_out)),
                          else_branch=helper.make_graph(else_nodes, "else", [], untyped(else_out)))]

    def detector(tag, window):
        scope = top / tag
        bins, hop = window // 2 + 1, window // 2
        x = net.unsqueeze("input", scope, [1])
        x = net.torch("Pad", [x, net.const(scope, [0, 0, 0, 0, 0, window // 4])], scope,
                      mode="reflect")
        angles = 2 * np.pi * np.outer(np.arange(bins), np.arange(window)) / window
        hann = np.hanning(window + 1)[:-1]
        basis = np.concatenate([np.cos(angles) * hann, -np.sin(angles) * hann])[:, None, :]
        stft = scope / "stft"
        spectrum = net.torch("Conv", [x, net.param(stft.param("forward_basis_buffer"), basis)],
                             stft, dilations=[1], group=1, kernel_shape=[window], pads=[0, 0],
                             strides=[hop])

        def half(start, end):
            return net.torch("Slice", [spectrum, net.const(stft, [start]), net.const(stft, [end]),
                                       net.const(stft, [1])], stft)

        two = net.const(stft, 2.0, np.float32)
        power = net.torch("Add", [net.torch("Pow", [half(0, bins), two], stft),
                                  net.torch("Pow", [half(bins, 2 * bins), two], stft)], stft)
        x = net.torch("Sqrt", [power], stft)
        encoder = scope / "encoder"
        for i, (c_in, c_out, stride) in enumerate([(bins, 128, 1), (128, 64, 2), (64, 64, 2),
                                                   (64, 128, 1)]):
            block = encoder.index(i)
            x = net.torch("Relu", [conv1d(x, block / "reparam_conv", c_in, c_out, 3, stride, 1)],
                          block / "activation")
        features = net.torch("Squeeze", [x, net.const(scope, [-1])], scope)
        (current,) = state_reset(scope / "reset", 2)
        h0, c0 = (net.unsqueeze(net.torch("Gather", [current, net.const(scope, i)], scope, axis=0),
                                scope, [0]) for i in (0, 1))
        rnn = scope / "decoder" / "rnn"
        w = net.param(rnn.param("weight_ih"), net.rng.standard_normal((1, 4 * hidden, 128)) * 0.1)
        r = net.param(rnn.param("weight_hh"),
                      net.rng.standard_normal((1, 4 * hidden, hidden)) * 0.1)
        b = net.param(rnn.param("bias"), net.rng.standard_normal((1, 8 * hidden)) * 0.05)
        y, y_h, y_c = net.multi("LSTM", [net.unsqueeze(features, scope, [0]), w, r, b, "", h0,
                                         c0], rnn, 3, hidden_size=hidden)
        decoder = scope / "decoder" / "decoder"
        flat = net.view(y, decoder, [net.dim(y, decoder, 2), hidden, 1])
        logit = conv1d(net.torch("Relu", [flat], decoder.index(1)), decoder.index(2), hidden, 1,
                       1, 1, 0)
        probability = net.torch("ReduceMean", [net.torch("Sigmoid", [logit], decoder.index(3))],
                                scope, axes=[2], keepdims=0)
        new_state = net.torch("Concat", [y_h, y_c], scope, axis=0)
        return [net.torch("Identity", [probability], scope),
                net.torch("Identity", [new_state], scope)]

    is_16k = net.torch("Equal", ["sr", net.const(top, 16000)], top)
    then_nodes, then_out = net.branch(lambda: detector("_16k", 256))
    else_nodes, else_out = net.branch(lambda: detector("_8k", 128))
    net.nodes.append(helper.make_node(
        "If", [is_16k], ["output", "stateN"], name=top.node("If"),
        then_branch=helper.make_graph(then_nodes, "then_branch", [], untyped(then_out)),
        else_branch=helper.make_graph(else_nodes, "else_branch", [], untyped(else_out))))
    model = net.model("eval_recurrent_vad",
                      [("input", TensorProto.FLOAT, ["batch", "samples"]),
                       ("state", TensorProto.FLOAT, [2, "batch", hidden]),
                       ("sr", TensorProto.INT64, [])],
                      [("output", TensorProto.FLOAT, ["batch", 1]),
                       ("stateN", TensorProto.FLOAT, [2, "batch", hidden])])
    save(model, path)
    rng = np.random.default_rng(11)
    feeds = [("input", rng.uniform(-1, 1, (1, samples)).astype(np.float32)),
             ("state", rng.uniform(-0.5, 0.5, (2, 1, hidden)).astype(np.float32)),
             ("sr", np.array(16000, np.int64))]
    return count_nodes(model.graph), feeds


MODELS = [
    ("eval_resnet50.onnx", make_resnet50),
    ("eval_encoder.onnx", make_encoder),
    ("eval_mobilenetv3.onnx", make_mobilenetv3),
    ("eval_db_detector.onnx", make_db_detector),
    ("eval_resnet50_bn.onnx", lambda path: make_resnet50(path, fold=False)),
    ("eval_nhwc_cnn.onnx", make_nhwc_cnn),
    ("eval_chain.onnx", make_chain),
    ("eval_mbv3_small_paddle.onnx", make_mbv3_small_paddle),
    ("eval_logmel.onnx", make_logmel),
    ("eval_recurrent_vad.onnx", make_recurrent_vad),
]


def main():
    args = [a for a in sys.argv[1:] if a != "--force"]
    force = "--force" in sys.argv[1:]
    folder = args[0] if args else "build/bench-models"
    os.makedirs(folder, exist_ok=True)
    for file, make in MODELS:
        path = os.path.join(folder, file)
        if force or not all(os.path.exists(p) for p in [path, *input_paths(path)]):
            made = make(path)
            count, feeds = made if isinstance(made, tuple) else (made, uniform_input(path))
            write_inputs(path, feeds)
            print(f"{path}: {count} nodes", file=sys.stderr)

if __name__ == "__main__":
    main()
