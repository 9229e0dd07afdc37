#!/usr/bin/python3
"""Writes the quantized and float16 models of the evaluator benchmark (bench/eval_bench.sh,
QUANT=1; issue 33), each beside its input manifest as bench/make_eval_models.py writes them
(the float model's input, so one manifest serves all four forms of a net):

  eval_u2net.onnx            A U²-Net-shaped salient-object net (rembg's u2netp) at 320x320,
                             float32: six RSU blocks down (RSU7, 6, 5, 4 and two RSU4F, a 2x2/2
                             max pool between), five up (each fed the Concat of the block
                             below, Resized x2, and its encoder twin), every RSU a small U-Net
                             of Conv 3x3 + folded BatchNormalization + Relu, 2x2/2 max pools
                             down, a dilated bottom, bilinear Resize x2 (half_pixel, scales
                             from a Constant node) and channel Concats up, a residual Add
                             around it; the six side outputs (3x3 Conv to one channel, Resized
                             to 320x320) concatenated, fused by a 1x1 Conv, a Sigmoid. Middle
                             channels 16, block outputs 32 (u2netp's are 64: 2.7 times the
                             work); 119 convolutions, 7.3 G multiply-adds, opset 17.
                             Input [1, 3, 320, 320], output [1, 1, 320, 320] (the fused map
                             only; the exported net's six side Sigmoids are left out).
  eval_u2net1024.onnx        The same net at 1024x1024 (issue 43: the size a user's
                             segmentation runs at; 75 G multiply-adds).

From eval_resnet50.onnx, eval_u2net.onnx, eval_u2net1024.onnx and eval_encoder.onnx (made first
when missing):

  quant_NAME_dynamic.onnx    As onnxruntime's quantize_dynamic writes it (uint8 weights per
                             tensor): each Conv with an initializer weight becomes
                             DynamicQuantizeLinear of its input, ConvInteger with the uint8
                             weight (asymmetric over the whole tensor) and both zero points,
                             Cast to float, Mul by the product of the two scales and, with a
                             bias, Add of the bias as [1, C, 1, 1]; each MatMul with an
                             initializer B the same with MatMulInteger (its bias Add stays as
                             it was). An input several convolutions read is quantized once.
                             Everything else stays float, Gemm too (quantize_dynamic leaves it).
  quant_NAME_qdq.onnx        As quantize_static writes QuantFormat.QDQ: QuantizeLinear ->
                             DequantizeLinear pairs on activations (uint8, per tensor), weights
                             int8 symmetric per channel (in [-127, 127], zero points 0) through a
                             DequantizeLinear (Conv: axis 0, the output channel; MatMul: axis
                             1 of B, its output column), a Conv's bias int32 at scale input
                             scale x weight scale of its channel. The activations quantized:
                             every input of a Conv or MatMul (the two activations of the
                             encoder's attention MatMuls too) and every Conv or MatMul output,
                             taken after the Relu where a Conv's output goes to a Relu alone
                             (where quantize_static would fold the Relu into the quantized
                             range; the Relu stays here). A tensor is quantized once, all its
                             readers reading the DequantizeLinear. Gemm, the bias Adds and the
                             other nodes stay float.
  fp16_NAME.onnx             float16 weights and activations, a Cast to float16 after the graph
                             input and a Cast to float32 before the graph output (input and
                             output stay float32), as onnxconverter-common's float16 converter
                             writes it with keep_io_types. Stays float32 what the spec types
                             float only: Resize's scales.

Calibration (the QDQ scales): the float model runs once, in onyx's evaluator (the onyx Python
package: PYTHONPATH=<build>/python, eval_bench.sh builds it in build/bench), on the
benchmark's own input, with every tensor to quantize made a graph output; each tensor's scale
and zero point come from its min and max over that run, widened to take in 0 (quantize_static's
MinMax calibration on one sample).

  bench/make_quant_models.py [FOLDER] [--force]     (default FOLDER: build/bench-models)

Weights are random (fixed seeds), as in make_eval_models.py, whose helpers this uses; each
model passes onnx's full check.
"""
import collections
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_eval_models as em  # noqa: E402
from make_optimize_models import count_nodes  # noqa: E402

# ---------------------------------------------------------------------------------------------
# The float U²-Net


def make_u2net(path, size=320, mid=16, out=32):
    net = em.Net(seed=37)

    def rebnconv(x, scope, c_in, c_out, dilation=1):
        """U²-Net's REBNCONV: a 3x3 convolution (padding = dilation) with its
        BatchNormalization folded in (scaled weights, a bias), then Relu."""
        conv = scope / "conv_s1"
        weight = net.rng.standard_normal((c_out, c_in, 3, 3)) * np.sqrt(2.0 / (c_in * 9))
        # The folded normalization's scale per output channel, as trained nets have it: a
        # little under 1 keeps the residual sums from growing a thousandfold through 11 blocks.
        weight *= net.rng.uniform(0.5, 0.9, (c_out, 1, 1, 1))
        inputs = [x, net.param(conv.param("weight"), weight),
                  net.param(conv.param("bias"), net.rng.normal(0.0, 0.1, c_out))]
        x = net.torch("Conv", inputs, conv, dilations=[dilation] * 2, group=1,
                      kernel_shape=[3, 3], pads=[dilation] * 4, strides=[1, 1])
        return net.torch("Relu", [x], scope / "relu_s1")

    def pool(x, scope):
        return net.torch("MaxPool", [x], scope, ceil_mode=1, dilations=[1, 1],
                         kernel_shape=[2, 2], pads=[0, 0, 0, 0], strides=[2, 2])

    def upsample(x, scope, factor):
        """F.interpolate(scale_factor=factor, mode="bilinear"): Resize, linear, half_pixel, no
        roi, the scales from a Constant node."""
        scales = numpy_helper.from_array(np.array([1, 1, factor, factor], np.float32))
        scales = net.torch("Constant", [], scope, value=scales)
        return net.torch("Resize", [x, "", scales], scope,
                         coordinate_transformation_mode="half_pixel", cubic_coeff_a=-0.75,
                         mode="linear", nearest_mode="floor")

    def concat(parts, scope):
        return net.torch("Concat", parts, scope, axis=1)

    def rsu(x, scope, levels, c_in):
        """RSU-L: a U-Net of `levels` - 1 convolutions down (a max pool before all but the
        first), a dilated bottom, as many up (each on the Concat of the level below, Resized
        x2, and its twin), plus the block's input convolution added back."""
        x_in = rebnconv(x, scope / "rebnconvin", c_in, out)
        down = [rebnconv(x_in, scope / "rebnconv1", out, mid)]
        for level in range(2, levels):
            down.append(rebnconv(pool(down[-1], scope / f"pool{level - 1}"),
                                 scope / f"rebnconv{level}", mid, mid))
        h = rebnconv(down[-1], scope / f"rebnconv{levels}", mid, mid, dilation=2)
        for level in range(levels - 1, 0, -1):
            h = rebnconv(concat([h, down[level - 1]], scope), scope / f"rebnconv{level}d",
                         2 * mid, out if level == 1 else mid)
            if level > 1:
                h = upsample(h, scope, 2)
        return net.torch("Add", [h, x_in], scope)

    def rsu4f(x, scope, c_in):
        """RSU-4F: no pooling; dilations 1, 2, 4, 8 down and 4, 2, 1 up."""
        x_in = rebnconv(x, scope / "rebnconvin", c_in, out)
        down = [rebnconv(x_in, scope / "rebnconv1", out, mid)]
        for level, dilation in ((2, 2), (3, 4)):
            down.append(rebnconv(down[-1], scope / f"rebnconv{level}", mid, mid, dilation))
        h = rebnconv(down[-1], scope / "rebnconv4", mid, mid, dilation=8)
        for level, dilation in ((3, 4), (2, 2), (1, 1)):
            h = rebnconv(concat([h, down[level - 1]], scope), scope / f"rebnconv{level}d",
                         2 * mid, out if level == 1 else mid, dilation)
        return net.torch("Add", [h, x_in], scope)

    def block(x, scope, levels, c_in):
        return rsu4f(x, scope, c_in) if levels == 0 else rsu(x, scope, levels, c_in)

    levels = [7, 6, 5, 4, 0, 0]  # 0: RSU-4F
    encoded, x, c_in = [], "input", 3
    for stage, depth in enumerate(levels, 1):
        if stage > 1:
            x = pool(x, em.Scope(f"pool{stage - 1}{stage}"))
        x = block(x, em.Scope(f"stage{stage}"), depth, c_in)
        encoded.append(x)
        c_in = out
    decoded = {6: encoded[5]}
    for stage in range(5, 0, -1):
        up = upsample(decoded[stage + 1], em.Scope(), 2)
        decoded[stage] = block(concat([up, encoded[stage - 1]], em.Scope()),
                               em.Scope(f"stage{stage}d"), levels[stage - 1], 2 * out)
    sides = []
    for stage in range(1, 7):
        scope = em.Scope(f"side{stage}")
        side = net.conv(decoded[stage], scope, out, 1, 3, bias=True)
        sides.append(upsample(side, em.Scope(), 2 ** (stage - 1)) if stage > 1 else side)
    fused = net.conv(concat(sides, em.Scope()), em.Scope("outconv"), 6, 1, 1, bias=True)
    net.torch("Sigmoid", [fused], em.Scope(), output="output")
    return net.save(path, "eval_u2net", "input", [1, 3, size, size], "output",
                    [1, 1, size, size], opset=17)


# ---------------------------------------------------------------------------------------------
# Shared by the transformations


def uint8_range(lo, hi):
    """Scale and zero point of asymmetric uint8 over [lo, hi] widened to take in 0."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    scale = (hi - lo) / 255.0 if hi > lo else 1.0
    return np.float32(scale), np.uint8(np.clip(np.round(-lo / scale), 0, 255))


def int8_per_channel(weight, axis):
    """Symmetric int8 per slice along `axis`: the quantized weight and the scales."""
    others = tuple(a for a in range(weight.ndim) if a != axis)
    largest = np.abs(weight).max(axis=others)
    scales = np.where(largest > 0, largest / 127.0, 1.0).astype(np.float32)
    shape = [1] * weight.ndim
    shape[axis] = -1
    quantized = np.clip(np.round(weight / scales.reshape(shape)), -127, 127).astype(np.int8)
    return quantized, scales


def rebuilt(model, nodes, initializers):
    """The model with these nodes and, of these initializers, the ones a node reads."""
    read = {name for node in nodes for name in node.input}
    graph = model.graph
    new = helper.make_graph(nodes, graph.name, graph.input, graph.output,
                            [t for t in initializers if t.name in read])
    result = helper.make_model(new, producer_name="onyx_make_quant_models",
                               opset_imports=model.opset_import)
    result.ir_version = model.ir_version
    return result


def initializer_arrays(graph):
    return {t.name: numpy_helper.to_array(t) for t in graph.initializer}


# ---------------------------------------------------------------------------------------------
# Dynamic int8


def quantize_dynamic(model):
    graph = model.graph
    weights = initializer_arrays(graph)
    inits = list(graph.initializer)
    nodes, quantized = [], {}

    def add(name, values):
        inits.append(numpy_helper.from_array(values, name))
        return name

    def activation(x):
        """DynamicQuantizeLinear of x, once however many nodes read it."""
        if x not in quantized:
            quantized[x] = (f"{x}_quantized", f"{x}_scale", f"{x}_zero_point")
            nodes.append(helper.make_node("DynamicQuantizeLinear", [x], list(quantized[x]),
                                          name=f"{x}_QuantizeLinear"))
        return quantized[x]

    def weight(w):
        values = weights[w]
        scale, zero = uint8_range(values.min(), values.max())
        q = np.clip(np.round(values / scale) + zero, 0, 255).astype(np.uint8)
        return (add(f"{w}_quantized", q), add(f"{w}_scale", np.array(scale)),
                add(f"{w}_zero_point", np.array(zero)))

    for node in graph.node:
        integer_op = {"Conv": "ConvInteger", "MatMul": "MatMulInteger"}.get(node.op_type)
        if integer_op is None or node.input[1] not in weights:
            nodes.append(node)
            continue
        x_q, x_scale, x_zero = activation(node.input[0])
        w_q, w_scale, w_zero = weight(node.input[1])
        y = node.output[0]
        attrs = list(node.attribute) if integer_op == "ConvInteger" else []
        integer = helper.make_node(integer_op, [x_q, w_q, x_zero, w_zero],
                                   [f"{y}_output_quantized"], name=f"{node.name}_quant")
        integer.attribute.extend(attrs)
        nodes.append(integer)
        nodes.append(helper.make_node("Cast", [integer.output[0]], [f"{y}_cast_output"],
                                      name=f"{y}_cast", to=TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", [x_scale, w_scale], [f"{y}_scales_mul"],
                                      name=f"{y}_scales_mul"))
        bias = node.input[2] if len(node.input) > 2 and node.input[2] else None
        scaled = f"{y}_output_scaled" if bias else y
        nodes.append(helper.make_node("Mul", [f"{y}_cast_output", f"{y}_scales_mul"], [scaled],
                                      name=f"{y}_output_scale_mul"))
        if bias:
            shaped = add(f"{bias}_reshaped", weights[bias].reshape(1, -1, 1, 1))
            nodes.append(helper.make_node("Add", [scaled, shaped], [y], name=f"{y}_bias_add"))
    return rebuilt(model, nodes, inits)


# ---------------------------------------------------------------------------------------------
# Static QDQ int8


def qdq_tensors(graph):
    """The activations to quantize, in the order they are made: the inputs of every Conv and
    MatMul that are not initializers, and their outputs (after a Relu that alone reads a Conv's
    output)."""
    weights = {t.name for t in graph.initializer}
    readers = collections.defaultdict(list)
    for node in graph.node:
        for name in node.input:
            readers[name].append(node)
    chosen = set()
    for node in graph.node:
        if node.op_type not in ("Conv", "MatMul"):
            continue
        chosen.update(x for x in node.input[:2] if x not in weights)
        y = node.output[0]
        after = readers[y]
        relu = node.op_type == "Conv" and len(after) == 1 and after[0].op_type == "Relu"
        chosen.add(after[0].output[0] if relu else y)
    made = [i.name for i in graph.input] + [y for node in graph.node for y in node.output]
    outputs = {o.name for o in graph.output}
    return [name for name in made if name in chosen and name not in outputs]


def calibrate(model, feeds, tensors):
    """{tensor: (min, max)} over one run of the float model in onyx's evaluator, every tensor
    made a graph output."""
    try:
        import onyx
    except ImportError:
        raise SystemExit("make_quant_models.py: calibration needs the onyx Python package: "
                         "PYTHONPATH=<build>/python (a build with -DONYX_PYTHON=ON)")
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    given = dict(feeds)
    wanted = [name for name in tensors if name not in given]
    probe.graph.output.extend(helper.make_tensor_value_info(name, TensorProto.FLOAT, None)
                              for name in wanted)
    values = dict(given)
    session = onyx.Session(onyx.from_onnx(probe), threads=0)
    values.update(zip(wanted, session.run(wanted, given)))
    return {name: (values[name].min(), values[name].max()) for name in tensors}


def quantize_static(model, feeds):
    """The QDQ model, its scales calibrated on one run on `feeds`."""
    return quantize_qdq(model, calibrate(model, feeds, qdq_tensors(model.graph)))


def quantize_qdq(model, ranges):
    """ranges: {activation: (min, max)}, the tensors qdq_tensors chose."""
    graph = model.graph
    weights = initializer_arrays(graph)
    inits = list(graph.initializer)
    nodes, scales = [], {}

    def add(name, values):
        inits.append(numpy_helper.from_array(values, name))
        return name

    def quantize(x):
        """Q -> DQ of activation x, right after it is made."""
        scale, zero = uint8_range(*ranges[x])
        scales[x] = scale
        s, z = add(f"{x}_scale", np.array(scale)), add(f"{x}_zero_point", np.array(zero))
        q = f"{x}_QuantizeLinear_Output"
        nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [q],
                                      name=f"{x}_QuantizeLinear"))
        nodes.append(helper.make_node("DequantizeLinear", [q, s, z],
                                      [f"{x}_DequantizeLinear_Output"],
                                      name=f"{x}_DequantizeLinear"))

    def dequantize(name, quantized, channel_scales, axis):
        zeros = np.zeros(channel_scales.shape, quantized.dtype)
        inputs = [add(f"{name}_quantized", quantized), add(f"{name}_scale", channel_scales),
                  add(f"{name}_zero_point", zeros)]
        out = f"{name}_DequantizeLinear_Output"
        nodes.append(helper.make_node("DequantizeLinear", inputs, [out],
                                      name=f"{name}_DequantizeLinear", axis=axis))
        return out

    for x in graph.input:
        if x.name in ranges:
            quantize(x.name)
    for node in graph.node:
        new = onnx.NodeProto()
        new.CopyFrom(node)
        for i, name in enumerate(node.input):
            if name in ranges:
                new.input[i] = f"{name}_DequantizeLinear_Output"
        if node.op_type in ("Conv", "MatMul") and node.input[1] in weights:
            axis = 0 if node.op_type == "Conv" else 1
            w_q, w_scales = int8_per_channel(weights[node.input[1]], axis)
            new.input[1] = dequantize(node.input[1], w_q, w_scales, axis)
            if len(node.input) > 2 and node.input[2]:
                bias_scales = (scales[node.input[0]] * w_scales).astype(np.float32)
                b_q = np.round(weights[node.input[2]] / bias_scales).astype(np.int32)
                new.input[2] = dequantize(node.input[2], b_q, bias_scales, 0)
        nodes.append(new)
        for y in node.output:
            if y in ranges:
                quantize(y)
    return rebuilt(model, nodes, inits)


# ---------------------------------------------------------------------------------------------
# float16

# Inputs the spec types float32 whatever the data's type: op -> input indices.
FLOAT32_INPUTS = {"Resize": {2}}


def to_float16(model):
    graph = model.graph
    keep = {node.input[i] for node in graph.node
            for i in FLOAT32_INPUTS.get(node.op_type, ()) if i < len(node.input)}

    def half(tensor):
        if tensor.data_type != TensorProto.FLOAT or tensor.name in keep:
            return tensor
        return numpy_helper.from_array(numpy_helper.to_array(tensor).astype(np.float16),
                                       tensor.name)

    (x,) = graph.input
    (y,) = graph.output
    cast_in, cast_out = "graph_input_cast_0", "graph_output_cast_0"
    nodes = [helper.make_node("Cast", [x.name], [cast_in], name="graph_input_cast0",
                              to=TensorProto.FLOAT16)]
    for node in graph.node:
        new = onnx.NodeProto()
        new.CopyFrom(node)
        new.input[:] = [cast_in if name == x.name else name for name in node.input]
        new.output[:] = [cast_out if name == y.name else name for name in node.output]
        if node.op_type == "Constant":
            for attr in new.attribute:
                if attr.name == "value" and node.output[0] not in keep:
                    attr.t.CopyFrom(half(attr.t))
        if node.op_type == "Cast":
            for attr in new.attribute:
                if attr.name == "to" and attr.i == TensorProto.FLOAT:
                    attr.i = TensorProto.FLOAT16
        nodes.append(new)
    nodes.append(helper.make_node("Cast", [cast_out], [y.name], name="graph_output_cast0",
                                  to=TensorProto.FLOAT))
    return rebuilt(model, nodes, [half(t) for t in graph.initializer])


# ---------------------------------------------------------------------------------------------
# The models

SOURCES = {"resnet50": ("eval_resnet50.onnx", em.make_resnet50),
           "u2net": ("eval_u2net.onnx", make_u2net),
           "encoder": ("eval_encoder.onnx", em.make_encoder),
           "u2net1024": ("eval_u2net1024.onnx", lambda path: make_u2net(path, size=1024))}


def write(path, make, force):
    """make(path) writes the model and returns its node count; then its inputs beside it."""
    if force or not all(os.path.exists(p) for p in [path, *em.input_paths(path)]):
        count = make(path)
        em.write_inputs(path, em.uniform_input(path))
        print(f"{path}: {count} nodes", file=sys.stderr)


def derived(source, form):
    """The maker of a form of a float model: form(model, the model's benchmark input)."""
    def make(path):
        file, make_source = SOURCES[source]
        source_path = os.path.join(os.path.dirname(path), file)
        write(source_path, make_source, force=False)
        model = onnx.load(source_path)
        result = form(model, em.uniform_input(source_path))
        result.graph.name = os.path.basename(path)[:-len(".onnx")]
        em.save(result, path)
        return count_nodes(result.graph)
    return make


MODELS = [("eval_u2net.onnx", make_u2net),
          ("eval_u2net1024.onnx", lambda path: make_u2net(path, size=1024))] + [
    (file.format(name), derived(name, form))
    for file, form in [("quant_{}_dynamic.onnx", lambda model, feeds: quantize_dynamic(model)),
                       ("quant_{}_qdq.onnx", quantize_static),
                       ("fp16_{}.onnx", lambda model, feeds: to_float16(model))]
    for name in SOURCES]


def main():
    args = [a for a in sys.argv[1:] if a != "--force"]
    force = "--force" in sys.argv[1:]
    folder = args[0] if args else "build/bench-models"
    os.makedirs(folder, exist_ok=True)
    for file, make in MODELS:
        write(os.path.join(folder, file), make, force)


if __name__ == "__main__":
    main()
