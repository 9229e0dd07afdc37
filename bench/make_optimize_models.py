#!/usr/bin/python3
"""Writes the models the optimiser benchmark (bench/optimize_bench.sh) simplifies. They look
exported: PyTorch's names (/encoder/layers.0/self_attn/Reshape, ..._output_0, dotted parameter
paths, onnx::MatMul_123 for the weights the exporter transposed), Constant nodes where PyTorch
writes them, the scaffolding it writes for shapes that depend on a dynamic dimension, Cast
pairs, Dropout, Identity on a shared weight. Beside each NAME.onnx:

  NAME.input.json   the graph inputs (name, element type, the dimensions used for the run,
                    byte offset and length in NAME.input.bin) and the graph outputs' names
  NAME.input.bin    the inputs' elements one after another, raw little-endian (fixed seeds)

The models:

  opt_resnet50_bn.onnx      ResNet-50's shape with BatchNormalization left unfolded after each
                            convolution (make_eval_models' generator). Input [1, 3, 224, 224].
  opt_encoder_dynamic.onnx  A BERT-style masked-language encoder, 4 layers, hidden 256, 4 heads,
                            with dynamic [batch, sequence] inputs (input_ids, attention_mask):
                            x.view(b, s, h, d) as Shape, Gather, Unsqueeze, Concat, Reshape;
                            x.size()[:-2] + (hidden,) as Shape, Slice, Concat; the mask from
                            Shape, Expand, Cast, Where; token types from ConstantOfShape;
                            Constant -> Cast -> Mul chains, a Sqrt of the head size, Cast pairs
                            (int64 -> int32 -> int64 on a length, float -> float16 -> float on
                            an fp16-exact constant), Dropout, consecutive Transposes, Identity
                            on the tied output bias.
  opt_decoder_kv.onnx       A GPT-2-style decoder, 4 layers, hidden 256, 4 heads, with a
                            key/value cache: past_key_values.N.key/value inputs of dynamic
                            past length, Concat with the new keys and values, present.N.*
                            outputs, positions from Range, the causal mask from Range, Less
                            and Where, the tied embedding read through Identity by the head.
  opt_detection_head.onnx   A detection head as torchvision/ultralytics export it: a 4-stage
                            conv backbone with BatchNormalization and SiLU, boxes decoded
                            with Split, Slice, Mul and Add against constant anchors,
                            NonMaxSuppression, and an If on the number of detections (then:
                            GatherND, TopK, Gather; else: constant empty tensors).
  opt_swin.onnx             A Swin-style transformer of 12,851 nodes (swin_s's export has 12,830;
                            the stage depths 2-2-50-5 come nearest) with dynamic batch: window
                            partition and reverse as Reshape/Transpose chains with their Shape
                            scaffolding, shifted windows as Slice pairs and Concat, the shift
                            mask, relative position bias as a Gather on a constant table,
                            LayerNormalization spelled out (ReduceMean, Sub, Pow, ReduceMean,
                            Add, Sqrt, Div, Mul, Add), GELU spelled out with Erf, patch merging.
                            Widths 16-128, a 128x128 input: it runs in milliseconds.
  opt_recurrent_vad.onnx    A voice-activity detector as torch.jit.script exports it (Silero's
                            shape): an If on the sample rate at the top, each branch its own
                            LSTM (hidden 64) on [batch, 256] frames with a [2, batch, 64]
                            state; inside a branch, an If that resets an empty state (its
                            else branch an If again, three levels in all) whose branches end in
                            Identity of outer values; the state taken apart and put back with
                            Gather/Unsqueeze/Concat, and Shape/Gather/Unsqueeze/Concat
                            scaffolding for the views. Inputs [3, 256], [2, 3, 64], sr = 16000.
  opt_big_weights.onnx      Only with --big: 18 layers of MatMul (4096x4096 float32), Add of
                            a bias on every other layer (Linear with and without bias),
                            BatchNormalization (BatchNorm1d) and Relu, on [batch, 4096]; 1.2 GB
                            of weights in external data (opt_big_weights.onnx.data, offsets
                            aligned to 4096).

  bench/make_optimize_models.py [FOLDER] [--force] [--big]   (default FOLDER: build/bench-models)

A model (and its input) is written again only when it is missing or older than this script
or make_eval_models.py, whose helpers it uses. Opset 17, IR 8; each model passes onnx's
full check.
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_eval_models as em  # noqa: E402

OPSET = 17
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [os.path.abspath(__file__), os.path.join(HERE, "make_eval_models.py")]


class Path:
    """A module path as PyTorch's exporter names nodes in transformer models:
    Path("encoder/layers.0/self_attn") names its nodes /encoder/layers.0/self_attn/<Op> and
    its parameters encoder.layers.0.self_attn.<name>. The same interface as
    make_eval_models.Scope (node, param, /), whose torchvision-style names
    (/features/features.1/features.1.0/...) the convolution models keep."""

    def __init__(self, path=""):
        self.path = path

    def __truediv__(self, child):
        return Path(f"{self.path}/{child}" if self.path else child)

    def node(self, op):
        return f"/{self.path}/{op}" if self.path else f"/{op}"

    def param(self, name):
        return ".".join([p for p in self.path.split("/") if p] + [name])


class Exported(em.Net):
    """make_eval_models.Net with what an exporter adds around the arithmetic: Constant nodes,
    initializers named onnx::<Op>_<n>, ops of several outputs, the shape scaffolding, and
    nested graphs (If branches)."""

    def __init__(self, seed):
        super().__init__(seed)
        self.value_ids = 100  # PyTorch numbers the values it names onnx::<Op>_<n>

    def const(self, scope, values, dtype=np.int64):
        """A Constant node, as PyTorch writes a literal or a folded shape."""
        tensor = numpy_helper.from_array(np.asarray(values, dtype))
        return self.torch("Constant", [], scope, value=tensor)

    def onnx_param(self, consumer, values, dtype=np.float32):
        """An initializer the exporter made (a transposed weight, a folded constant), named
        onnx::<consumer>_<n>."""
        self.value_ids += 7
        name = f"onnx::{consumer}_{self.value_ids}"
        self.inits.append(numpy_helper.from_array(np.asarray(values, dtype), name))
        return name

    def multi(self, op, inputs, scope, count, **attrs):
        """A node of `count` outputs (..._output_0, _output_1, ...)."""
        name = self.op(op, inputs, scope.node(op), **attrs)
        node = self.nodes[-1]
        base = name[:-len("_output_0")]
        node.output[:] = [f"{base}_output_{i}" for i in range(count)]
        return list(node.output)

    def dim(self, x, scope, index):
        """x.size(index): Shape, then Gather of a Constant index (a scalar)."""
        shape = self.torch("Shape", [x], scope)
        return self.torch("Gather", [shape, self.const(scope, index)], scope, axis=0)

    def unsqueeze(self, x, scope, axes):
        return self.torch("Unsqueeze", [x, self.const(scope, axes)], scope)

    def shape_of(self, scope, parts):
        """The shape tuple (b, s, 4, 64) of a view(): every scalar part Unsqueezed, every
        literal a Constant [v], all Concatenated."""
        pieces = [self.unsqueeze(p, scope, [0]) if isinstance(p, str) else self.const(scope, [p])
                  for p in parts]
        return self.torch("Concat", pieces, scope, axis=0)

    def view(self, x, scope, parts):
        return self.torch("Reshape", [x, self.shape_of(scope, parts)], scope)

    def linear(self, x, scope, n_in, n_out, bias=True, transposed=True, output=None):
        """nn.Linear on a 3-d input as PyTorch writes it: MatMul with the weight transposed
        into an onnx::MatMul_<n> initializer, then Add of the bias (transposed=False: a
        Conv1D whose [in, out] weight is the parameter itself, as GPT-2 has it)."""
        values = self.rng.standard_normal((n_in, n_out)) * np.sqrt(1.0 / n_in)
        weight = (self.onnx_param("MatMul", values) if transposed
                  else self.param(scope.param("weight"), values))
        y = self.torch("MatMul", [x, weight], scope, output=None if bias else output)
        if not bias:
            return y
        b = self.param(scope.param("bias"), self.rng.standard_normal(n_out) * 0.02)
        return self.torch("Add", [b, y], scope, output=output)

    def norm_affine(self, scope, width):
        """A normalization's scale and shift, as training leaves them."""
        return (self.param(scope.param("weight"), self.rng.uniform(0.8, 1.2, width)),
                self.param(scope.param("bias"), self.rng.normal(0.0, 0.05, width)))

    def layer_norm(self, x, scope, width, output=None):
        gamma, beta = self.norm_affine(scope, width)
        return self.torch("LayerNormalization", [x, gamma, beta], scope, output=output, axis=-1,
                          epsilon=1e-5)

    def layer_norm_spelled(self, x, scope, width):
        """LayerNormalization as exports before opset 17 spell it."""
        mean = self.torch("ReduceMean", [x], scope, axes=[-1], keepdims=1)
        centred = self.torch("Sub", [x, mean], scope)
        square = self.torch("Pow", [centred, self.const(scope, 2.0, np.float32)], scope)
        variance = self.torch("ReduceMean", [square], scope, axes=[-1], keepdims=1)
        shifted = self.torch("Add", [variance, self.const(scope, 1e-5, np.float32)], scope)
        y = self.torch("Div", [centred, self.torch("Sqrt", [shifted], scope)], scope)
        gamma, beta = self.norm_affine(scope, width)
        return self.torch("Add", [self.torch("Mul", [y, gamma], scope), beta], scope)

    def gelu_erf(self, x, scope):
        """nn.GELU() spelled out: x * 0.5 * (1 + erf(x / sqrt 2)), the 0.5 as a Constant of
        double cast to float (a Constant -> Cast -> Mul chain)."""
        erf = self.torch("Erf", [self.torch("Div", [x, self.const(scope, 1.4142135, np.float32)],
                                            scope)], scope)
        y = self.torch("Mul", [x, self.torch("Add", [erf, self.const(scope, 1.0, np.float32)],
                                             scope)], scope)
        half = self.torch("Cast", [self.const(scope, 0.5, np.float64)], scope,
                          to=TensorProto.FLOAT)
        return self.torch("Mul", [y, half], scope)

    def branch(self, build):
        """The nodes `build` adds, taken out of the graph (an If branch's body)."""
        outer = self.nodes
        self.nodes = []
        try:
            outputs = build()
            return self.nodes, outputs
        finally:
            self.nodes = outer

    def model(self, name, inputs, outputs):
        """inputs, outputs: (name, element type, shape with str for a symbolic dimension)."""
        def infos(values):
            return [helper.make_tensor_value_info(n, t, s) for n, t, s in values]

        graph = helper.make_graph(self.nodes, name, infos(inputs), infos(outputs), self.inits)
        model = helper.make_model(graph, producer_name="pytorch", producer_version="2.1.0",
                                  opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 8
        return model

    def finish(self, path, name, inputs, outputs):
        """Checks and saves the model; returns its node count."""
        model = self.model(name, inputs, outputs)
        em.save(model, path)
        return count_nodes(model.graph)


def graphs(graph):
    """A graph and every graph nested in its nodes' attributes (If branches, loop bodies)."""
    yield graph
    for node in graph.node:
        for attr in node.attribute:
            for nested in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                yield from graphs(nested)


def count_nodes(graph):
    """Nodes of a graph and of the graphs nested in it."""
    return sum(len(g.node) for g in graphs(graph))


# ---------------------------------------------------------------------------------------------
# The models


def make_resnet50_bn(path):
    em.make_resnet50(path, fold=False)
    model = onnx.load(path)
    model.graph.name = "opt_resnet50_bn"
    em.save(model, path)
    rng = np.random.default_rng(11)
    return count_nodes(model.graph), [("input", rng.uniform(-1, 1, (1, 3, 224, 224))
                                                .astype(np.float32))]


def make_encoder(path, layers=4, hidden=256, heads=4, ffn=1024, vocab=1000, positions=512):
    net = Exported(seed=31)
    head = hidden // heads
    normal = net.rng.standard_normal

    emb = Path("embeddings")
    shape = net.torch("Shape", ["input_ids"], emb)
    seq = net.torch("Gather", [shape, net.const(emb, 1)], emb, axis=0)
    # int64 -> int32 -> int64: exact for a length
    seq = net.torch("Cast", [net.torch("Cast", [seq], emb, to=TensorProto.INT32)], emb,
                    to=TensorProto.INT64)
    net.inits.append(numpy_helper.from_array(np.arange(positions, dtype=np.int64)[None],
                                             "embeddings.position_ids"))
    position_ids = net.torch("Slice", ["embeddings.position_ids", net.const(emb, [0]),
                                       net.unsqueeze(seq, emb, [0]), net.const(emb, [1]),
                                       net.const(emb, [1])], emb)
    token_types = net.torch("ConstantOfShape", [shape], emb,
                            value=numpy_helper.from_array(np.array([0], np.int64)))

    def embedding(name, ids, rows):
        table = net.param(f"embeddings.{name}.weight", normal((rows, hidden)) * 0.5)
        return net.torch("Gather", [table, ids], emb / name)

    x = net.torch("Add", [embedding("word_embeddings", "input_ids", vocab),
                          embedding("token_type_embeddings", token_types, 2)], emb)
    x = net.torch("Add", [x, embedding("position_embeddings", position_ids, positions)], emb)
    x = net.layer_norm(x, emb / "LayerNorm", hidden)
    x = net.torch("Dropout", [x], emb / "dropout")

    # The additive mask [b, 1, s, s]: 0 where attended, -10000 where masked.
    top = Path()
    m = net.unsqueeze("attention_mask", top, [1, 2])
    b = net.dim("attention_mask", top, 0)
    s = net.dim("attention_mask", top, 1)
    m = net.torch("Expand", [m, net.shape_of(top, [b, 1, s, s])], top)
    m = net.torch("Cast", [m], top, to=TensorProto.FLOAT)
    inverted = net.torch("Sub", [net.const(top, 1.0, np.float32), m], top)
    masked = net.torch("Cast", [inverted], top, to=TensorProto.BOOL)
    lowest = net.torch("Cast", [net.torch("Cast", [net.const(top, -10000.0, np.float32)], top,
                                          to=TensorProto.FLOAT16)], top, to=TensorProto.FLOAT)
    mask = net.torch("Where", [masked, lowest, inverted], top)

    for layer in range(layers):
        scope = Path(f"encoder/layers.{layer}")
        attn = scope / "self_attn"
        b = net.dim(x, attn, 0)
        s = net.dim(x, attn, 1)

        def heads_of(name, perm):
            y = net.linear(x, attn / name, hidden, hidden)
            return net.torch("Transpose", [net.view(y, attn, [b, s, heads, head])], attn,
                             perm=perm)

        q = heads_of("q_proj", [0, 2, 1, 3])
        k = heads_of("k_proj", [0, 2, 1, 3])
        k = net.torch("Transpose", [k], attn, perm=[0, 1, 3, 2])  # k.transpose(-1, -2)
        v = heads_of("v_proj", [0, 2, 1, 3])
        scores = net.torch("MatMul", [q, k], attn)
        size = net.torch("Cast", [net.const(attn, head)], attn, to=TensorProto.FLOAT)
        scores = net.torch("Div", [scores, net.torch("Sqrt", [size], attn)], attn)
        scores = net.torch("Add", [scores, mask], attn)
        probs = net.torch("Softmax", [scores], attn, axis=-1)
        probs = net.torch("Dropout", [probs], attn / "dropout")
        context = net.torch("Transpose", [net.torch("MatMul", [probs, v], attn)], attn,
                            perm=[0, 2, 1, 3])
        # context.size()[:-2] + (hidden,)
        leading = net.torch("Slice", [net.torch("Shape", [context], attn), net.const(attn, [0]),
                                      net.const(attn, [-2]), net.const(attn, [0])], attn)
        merged_shape = net.torch("Concat", [leading, net.const(attn, [hidden])], attn, axis=0)
        context = net.torch("Reshape", [context, merged_shape], attn)
        y = net.torch("Dropout", [net.linear(context, attn / "out_proj", hidden, hidden)],
                      attn / "dropout_1")
        x = net.layer_norm(net.torch("Add", [y, x], scope), scope / "self_attn_layer_norm",
                           hidden)
        y = net.gelu_erf(net.linear(x, scope / "fc1", hidden, ffn), scope / "activation_fn")
        y = net.torch("Dropout", [net.linear(y, scope / "fc2", ffn, hidden)], scope / "dropout")
        last = layer + 1 == layers
        x = net.layer_norm(net.torch("Add", [y, x], scope), scope / "final_layer_norm", hidden,
                           output="last_hidden_state" if last else None)

    # The masked-language head; its decoder's bias is tied to cls.predictions.bias, which
    # the exporter reads through an Identity.
    head_scope = Path("cls/predictions")
    y = net.linear(x, head_scope / "transform/dense", hidden, hidden)
    y = net.layer_norm(net.gelu_erf(y, head_scope / "transform"),
                       head_scope / "transform/LayerNorm", hidden)
    bias = net.param("cls.predictions.bias", normal(vocab) * 0.02)
    tied = net.torch("Identity", [bias], head_scope / "decoder")
    y = net.linear(y, head_scope / "decoder", hidden, vocab, bias=False)
    net.torch("Add", [y, tied], head_scope / "decoder", output="logits")
    count = net.finish(path, "opt_encoder_dynamic",
                       [("input_ids", TensorProto.INT64, ["batch", "sequence"]),
                        ("attention_mask", TensorProto.INT64, ["batch", "sequence"])],
                       [("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", hidden]),
                        ("logits", TensorProto.FLOAT, ["batch", "sequence", vocab])])
    rng = np.random.default_rng(12)
    batch, sequence = 2, 12
    attention = np.ones((batch, sequence), np.int64)
    attention[1, 9:] = 0  # the second sequence is padded
    return count, [("input_ids", rng.integers(0, vocab, (batch, sequence), dtype=np.int64)),
                   ("attention_mask", attention)]


def make_decoder(path, layers=4, hidden=256, heads=4, ffn=1024, vocab=1000, positions=512):
    net = Exported(seed=37)
    head = hidden // heads
    normal = net.rng.standard_normal
    top = Path()
    tr = Path("transformer")

    s = net.dim("input_ids", tr, 1)
    past = net.dim("past_key_values.0.key", tr, 2)
    total = net.torch("Add", [past, s], tr)
    # int64 -> int32 -> int64: exact for a length
    total = net.torch("Cast", [net.torch("Cast", [total], tr, to=TensorProto.INT32)], tr,
                      to=TensorProto.INT64)
    one = net.const(tr, 1)
    query_positions = net.torch("Range", [past, total, one], tr)
    position_ids = net.unsqueeze(query_positions, tr, [0])
    wte = net.param("transformer.wte.weight", normal((vocab, hidden)) * 0.5)
    wpe = net.param("transformer.wpe.weight", normal((positions, hidden)) * 0.1)
    x = net.torch("Add", [net.torch("Gather", [wte, "input_ids"], tr / "wte"),
                          net.torch("Gather", [wpe, position_ids], tr / "wpe")], tr)
    x = net.torch("Dropout", [x], tr / "drop")

    # The additive mask [b, 1, s, total]: causal (a key after the query is masked) plus the
    # padding of attention_mask; -10000 through a float16 Cast pair (exact for -10000).
    lowest = net.torch("Cast", [net.torch("Cast", [net.const(top, -10000.0, np.float32)], top,
                                          to=TensorProto.FLOAT16)], top, to=TensorProto.FLOAT)
    key_positions = net.torch("Range", [net.const(top, 0), total, one], top)
    later = net.torch("Less", [net.unsqueeze(query_positions, top, [1]),
                               net.unsqueeze(key_positions, top, [0])], top)
    causal = net.torch("Where", [later, lowest, net.const(top, 0.0, np.float32)], top)
    causal = net.unsqueeze(causal, top, [0, 1])
    padding = net.torch("Cast", [net.unsqueeze("attention_mask", top, [1, 2])], top,
                        to=TensorProto.FLOAT)
    padding = net.torch("Sub", [net.const(top, 1.0, np.float32), padding], top)
    padding = net.torch("Mul", [padding, lowest], top)
    mask = net.torch("Add", [causal, padding], top)

    presents = []
    for layer in range(layers):
        scope = tr / f"h.{layer}"
        attn = scope / "attn"
        h = net.layer_norm(x, scope / "ln_1", hidden)
        qkv = net.linear(h, attn / "c_attn", hidden, 3 * hidden, transposed=False)
        q, k, v = net.multi("Split", [qkv, net.const(attn, [hidden] * 3)], attn, 3, axis=2)

        def split_heads(t):
            bt = net.dim(t, attn, 0)
            st = net.dim(t, attn, 1)
            return net.torch("Transpose", [net.view(t, attn, [bt, st, heads, head])], attn,
                             perm=[0, 2, 1, 3])

        q, k, v = split_heads(q), split_heads(k), split_heads(v)
        key = f"present.{layer}.key"
        value = f"present.{layer}.value"
        k = net.torch("Concat", [f"past_key_values.{layer}.key", k], attn, output=key, axis=-2)
        v = net.torch("Concat", [f"past_key_values.{layer}.value", v], attn, output=value,
                      axis=-2)
        presents += [key, value]
        scores = net.torch("MatMul", [q, net.torch("Transpose", [k], attn, perm=[0, 1, 3, 2])],
                           attn)
        # attn_weights / value.size(-1) ** 0.5
        size = net.torch("Cast", [net.dim(v, attn, 3)], attn, to=TensorProto.FLOAT)
        size = net.torch("Pow", [size, net.const(attn, 0.5, np.float32)], attn)
        scores = net.torch("Add", [net.torch("Div", [scores, size], attn), mask], attn)
        probs = net.torch("Dropout", [net.torch("Softmax", [scores], attn, axis=-1)],
                          attn / "attn_dropout")
        context = net.torch("Transpose", [net.torch("MatMul", [probs, v], attn)], attn,
                            perm=[0, 2, 1, 3])
        context = net.view(context, attn, [net.dim(context, attn, 0), net.dim(context, attn, 1),
                                            hidden])
        y = net.linear(context, attn / "c_proj", hidden, hidden, transposed=False)
        x = net.torch("Add", [net.torch("Dropout", [y], attn / "resid_dropout"), x], scope)
        mlp = scope / "mlp"
        h = net.layer_norm(x, scope / "ln_2", hidden)
        h = net.linear(h, mlp / "c_fc", hidden, ffn, transposed=False)
        # gelu_new: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
        act = mlp / "act"
        cube = net.torch("Pow", [h, net.const(act, 3.0, np.float32)], act)
        inner = net.torch("Add", [h, net.torch("Mul", [net.const(act, 0.044715, np.float32),
                                                       cube], act)], act)
        inner = net.torch("Mul", [net.const(act, math.sqrt(2 / math.pi), np.float32), inner],
                          act)
        gate = net.torch("Add", [net.const(act, 1.0, np.float32),
                                 net.torch("Tanh", [inner], act)], act)
        h = net.torch("Mul", [net.torch("Mul", [net.const(act, 0.5, np.float32), h], act), gate],
                      act)
        h = net.linear(h, mlp / "c_proj", ffn, hidden, transposed=False)
        x = net.torch("Add", [x, net.torch("Dropout", [h], mlp / "dropout")], scope)
    x = net.layer_norm(x, tr / "ln_f", hidden)
    # lm_head's weight is the embedding table (tied), read through an Identity.
    lm_head = Path("lm_head")
    weight = net.torch("Transpose", [net.torch("Identity", [wte], lm_head)], lm_head, perm=[1, 0])
    net.torch("MatMul", [x, weight], lm_head, output="logits")

    cache = ["batch", heads, "past_sequence", head]
    present = ["batch", heads, "total_sequence", head]
    inputs = [("input_ids", TensorProto.INT64, ["batch", "sequence"]),
              ("attention_mask", TensorProto.INT64, ["batch", "total_sequence"])]
    for layer in range(layers):
        for kind in ("key", "value"):
            inputs.append((f"past_key_values.{layer}.{kind}", TensorProto.FLOAT, cache))
    outputs = [("logits", TensorProto.FLOAT, ["batch", "sequence", vocab])]
    outputs += [(name, TensorProto.FLOAT, present) for name in presents]
    count = net.finish(path, "opt_decoder_kv", inputs, outputs)

    rng = np.random.default_rng(13)
    batch, sequence, past_length = 2, 6, 10
    attention = np.ones((batch, past_length + sequence), np.int64)
    attention[1, :3] = 0  # the second sequence is padded on the left
    feeds = [("input_ids", rng.integers(0, vocab, (batch, sequence), dtype=np.int64)),
             ("attention_mask", attention)]
    for name, _, _ in inputs[2:]:
        feeds.append((name, rng.standard_normal((batch, heads, past_length, head))
                       .astype(np.float32)))
    return count, feeds


def make_detection_head(path, size=128, classes=8, max_detections=10):
    net = Exported(seed=41)
    x = "images"
    channels = 3
    for stage, width in enumerate([16, 32, 64, 64]):
        block = em.Scope(f"model.{stage}")
        x = net.conv_bn(x, block / "conv", block / "bn", channels, width, 3, stride=2)
        x = net.torch("Mul", [x, net.torch("Sigmoid", [x], block / "act")], block / "act")
        channels = width
    cells = (size // 16) ** 2
    detect = em.Scope("model.4")
    x = net.conv(x, detect / "cv", channels, 4 + classes, 1, bias=True)
    # x.view(b, 4 + classes, -1).split((4, classes), 1)
    x = net.view(x, detect, [net.dim(x, detect, 0), 4 + classes, -1])
    box, cls = net.multi("Split", [x, net.const(detect, [4, classes])], detect, 2, axis=1)

    def part(i):
        return net.torch("Slice", [box, net.const(detect, [i]), net.const(detect, [i + 1]),
                                   net.const(detect, [1])], detect)

    # Box decoding against the anchor grid (cell centres), stride 16, anchor side 24.
    side = size // 16
    centres = (np.arange(side, dtype=np.float32) + 0.5) * 16
    anchor_x = net.const(detect, np.tile(centres, side).reshape(1, 1, cells), np.float32)
    anchor_y = net.const(detect, np.repeat(centres, side).reshape(1, 1, cells), np.float32)
    stride = net.const(detect, 16.0, np.float32)
    cx = net.torch("Add", [net.torch("Mul", [part(0), stride], detect), anchor_x], detect)
    cy = net.torch("Add", [net.torch("Mul", [part(1), stride], detect), anchor_y], detect)
    anchor_side = net.const(detect, 24.0, np.float32)
    half = net.const(detect, 0.5, np.float32)
    half_w = net.torch("Mul", [net.torch("Mul", [net.torch("Exp", [part(2)], detect),
                                                 anchor_side], detect), half], detect)
    half_h = net.torch("Mul", [net.torch("Mul", [net.torch("Exp", [part(3)], detect),
                                                 anchor_side], detect), half], detect)
    corners = [net.torch("Sub", [cy, half_h], detect), net.torch("Sub", [cx, half_w], detect),
               net.torch("Add", [cy, half_h], detect), net.torch("Add", [cx, half_w], detect)]
    boxes = net.torch("Transpose", [net.torch("Concat", corners, detect, axis=1)], detect,
                      perm=[0, 2, 1])  # [1, cells, 4]
    scores = net.torch("Sigmoid", [cls], detect)  # [1, classes, cells]
    selected = net.torch("NonMaxSuppression",
                         [boxes, scores, net.const(detect, [100]),
                          net.const(detect, [0.45], np.float32),
                          net.const(detect, [0.25], np.float32)], detect, center_point_box=0)
    found = net.dim(selected, detect, 0)
    any_found = net.torch("Greater", [found, net.const(detect, 0)], detect)

    def then_branch():
        scope = detect / "then"
        picked_scores = net.torch("GatherND", [scores, selected], scope)
        k = net.unsqueeze(net.torch("Min", [found, net.const(scope, max_detections)], scope),
                          scope, [0])
        top_scores, order = net.multi("TopK", [picked_scores, k], scope, 2, axis=0, largest=1,
                                      sorted=1)
        box_index = net.torch("Gather", [selected, net.const(scope, 2)], scope, axis=1)
        class_index = net.torch("Gather", [selected, net.const(scope, 1)], scope, axis=1)
        chosen = net.torch("Gather", [box_index, order], scope, axis=0)
        flat = net.torch("Squeeze", [boxes, net.const(scope, [0])], scope)
        return [net.torch("Gather", [flat, chosen], scope, axis=0),
                net.torch("Identity", [top_scores], scope),
                net.torch("Gather", [class_index, order], scope, axis=0)]

    def else_branch():
        scope = detect / "else"
        return [net.const(scope, np.zeros((0, 4)), np.float32),
                net.const(scope, np.zeros(0), np.float32), net.const(scope, np.zeros(0))]

    outputs = [("det_boxes", TensorProto.FLOAT, ["detections", 4]),
               ("det_scores", TensorProto.FLOAT, ["detections"]),
               ("det_classes", TensorProto.INT64, ["detections"])]

    def body(name, build):
        nodes, results = net.branch(build)
        return helper.make_graph(nodes, name, [], [
            helper.make_tensor_value_info(r, t, None) for r, (_, t, _) in zip(results, outputs)])

    then_graph = body("then_branch", then_branch)
    else_graph = body("else_branch", else_branch)
    net.nodes.append(helper.make_node("If", [any_found], [n for n, _, _ in outputs],
                                      name=detect.node("If"), then_branch=then_graph,
                                      else_branch=else_graph))
    count = net.finish(path, "opt_detection_head",
                       [("images", TensorProto.FLOAT, [1, 3, size, size])], outputs)
    rng = np.random.default_rng(14)
    return count, [("images", rng.uniform(-1, 1, (1, 3, size, size)).astype(np.float32))]


def make_recurrent_vad(path, frame=256, hidden=64):
    net = Exported(seed=53)
    x, state, sr = "input", "state", "sr"
    top = em.Scope("_model")
    is_16k = net.torch("Equal", [sr, net.const(top, 16000)], top)
    float_output = TensorProto.FLOAT

    def untyped(results):
        return [helper.make_tensor_value_info(r, float_output, None) for r in results]

    def state_reset(scope, batch, depth):
        """if len(state) == 0: zeros(2, batch, hidden) else: state, written as nested Ifs
        whose conditions follow from the state's declared static dims."""
        empty = net.torch("Equal", [net.dim(state, scope, 0), net.const(scope, 0)], scope)

        def zeros():
            shape = net.shape_of(scope / "zeros", [2, batch, hidden])
            return [net.torch("ConstantOfShape", [shape], scope / "zeros",
                              value=numpy_helper.from_array(np.zeros(1, np.float32)))]

        def keep():
            if depth > 1:
                return state_reset(scope / "keep", batch, depth - 1)
            return [net.torch("Identity", [state], scope / "keep")]

        then_nodes, then_out = net.branch(zeros)
        else_nodes, else_out = net.branch(keep)
        return [net.torch("If", [empty], scope,
                          then_branch=helper.make_graph(then_nodes, "then", [], untyped(then_out)),
                          else_branch=helper.make_graph(else_nodes, "else", [], untyped(else_out)))]

    def detector(tag):
        scope = top / tag
        batch = net.dim(x, scope, 0)
        features = net.torch("Relu", [net.linear(x, scope / "encoder", frame, hidden)], scope)
        (current,) = state_reset(scope / "reset", batch, 2)
        h0 = net.unsqueeze(net.torch("Gather", [current, net.const(scope, 0)], scope, axis=0),
                           scope, [0])
        c0 = net.unsqueeze(net.torch("Gather", [current, net.const(scope, 1)], scope, axis=0),
                           scope, [0])
        sequence = net.unsqueeze(features, scope, [0])
        lstm = scope / "lstm"
        w = net.param(lstm.param("weight_ih"),
                      net.rng.standard_normal((1, 4 * hidden, hidden)) * 0.1)
        r = net.param(lstm.param("weight_hh"),
                      net.rng.standard_normal((1, 4 * hidden, hidden)) * 0.1)
        b = net.param(lstm.param("bias"), net.rng.standard_normal((1, 8 * hidden)) * 0.05)
        y, y_h, y_c = net.multi("LSTM", [sequence, w, r, b, "", h0, c0], lstm, 3,
                                hidden_size=hidden)
        # y.view(batch, hidden) through the scaffolding, the state put back with Concat.
        flat = net.view(y, scope, [net.dim(y, scope, 2), hidden])
        decoder = scope / "decoder"
        probability = net.torch("Sigmoid", [net.linear(net.torch("Relu", [flat], decoder),
                                                       decoder, hidden, 1)], decoder)
        new_state = net.torch("Concat", [y_h, y_c], scope, axis=0)
        return [net.torch("Identity", [probability], scope),
                net.torch("Identity", [new_state], scope)]

    then_nodes, then_out = net.branch(lambda: detector("_16k"))
    else_nodes, else_out = net.branch(lambda: detector("_8k"))
    net.nodes.append(helper.make_node(
        "If", [is_16k], ["output", "stateN"], name=top.node("If"),
        then_branch=helper.make_graph(then_nodes, "then_branch", [], untyped(then_out)),
        else_branch=helper.make_graph(else_nodes, "else_branch", [], untyped(else_out))))
    count = net.finish(path, "opt_recurrent_vad",
                       [("input", TensorProto.FLOAT, ["batch", frame]),
                        ("state", TensorProto.FLOAT, [2, "batch", hidden]),
                        ("sr", TensorProto.INT64, [])],
                       [("output", TensorProto.FLOAT, ["batch", 1]),
                        ("stateN", TensorProto.FLOAT, [2, "batch", hidden])])
    rng = np.random.default_rng(15)
    return count, [("input", rng.uniform(-1, 1, (3, frame)).astype(np.float32)),
                   ("state", rng.uniform(-0.5, 0.5, (2, 3, hidden)).astype(np.float32)),
                   ("sr", np.array(16000, np.int64))]


SWIN_TARGET_NODES = 12830


def swin_nodes(depths):
    """Nodes of the Swin graph with these stage depths (built in memory, not saved)."""
    net = Exported(seed=43)
    build_swin(net, depths)
    return len(net.nodes)


def build_swin(net, depths, size=128, embed=16, window=4, heads=(1, 2, 4, 8), classes=10):
    """torchvision's swin_t/s/b layout at small widths: patch embedding (4x4 Conv, permute to
    channels last, norm), stages of SwinTransformerBlocks (shift window/2 on odd blocks)
    separated by PatchMerging, then norm, permute, average pool, flatten, head."""
    resolution = size // 4
    features = em.Scope("features.0")
    patch = features.index(0)
    weight = net.he_weight(patch.param("weight"), (embed, 3, 4, 4), 3 * 16)
    bias = net.param(patch.param("bias"), net.rng.standard_normal(embed) * 0.01)
    x = net.torch("Conv", ["input", weight, bias], patch, dilations=[1, 1], group=1,
                  kernel_shape=[4, 4], pads=[0, 0, 0, 0], strides=[4, 4])
    x = net.torch("Transpose", [x], features.index(1), perm=[0, 2, 3, 1])
    x = net.layer_norm_spelled(x, features.index(2), embed)
    channels = embed
    index = 1
    for stage, depth in enumerate(depths):
        if stage:
            x = patch_merging(net, x, em.Scope(f"features.{index}"), channels)
            channels *= 2
            resolution //= 2
            index += 1
        for block in range(depth):
            shift = window // 2 if block % 2 and resolution > window else 0
            x = swin_block(net, x, em.Scope(f"features.{index}.{block}"), channels,
                           heads[stage], window, shift, resolution)
        index += 1
    x = net.layer_norm_spelled(x, em.Scope("norm"), channels)
    x = net.torch("Transpose", [x], em.Scope("permute"), perm=[0, 3, 1, 2])
    x = net.torch("GlobalAveragePool", [x], em.Scope("avgpool"))
    x = net.torch("Flatten", [x], em.Scope("flatten"), axis=1)
    em.Net.linear(net, x, em.Scope("head"), channels, classes, output="logits")
    return channels


def patch_merging(net, x, scope, channels):
    """x0..x3 = x[:, 0::2, 0::2], x[:, 1::2, 0::2], ...; concat; norm; reduction."""
    parts = []
    for row, column in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        parts.append(net.torch("Slice", [x, net.const(scope, [row, column]),
                                         net.const(scope, [2**62, 2**62]),
                                         net.const(scope, [1, 2]), net.const(scope, [2, 2])],
                               scope))
    x = net.torch("Concat", parts, scope, axis=-1)
    x = net.layer_norm_spelled(x, scope / "norm", 4 * channels)
    weight = net.rng.standard_normal((4 * channels, 2 * channels)) * np.sqrt(1.0 / channels / 4)
    return net.torch("MatMul", [x, net.onnx_param("MatMul", weight)], scope / "reduction")


def roll(net, x, scope, shift, axes):
    """torch.roll(x, shifts, dims) as PyTorch writes it: per axis, two Slices and a Concat."""
    for axis in axes:
        tail = net.torch("Slice", [x, net.const(scope, [-shift]), net.const(scope, [2**62]),
                                   net.const(scope, [axis])], scope)
        head = net.torch("Slice", [x, net.const(scope, [0]), net.const(scope, [-shift]),
                                   net.const(scope, [axis])], scope)
        x = net.torch("Concat", [tail, head], scope, axis=axis)
    return x


def shift_mask(resolution, window, shift):
    """The attention mask of shifted windows: [windows, window^2, window^2], -100 between
    tokens of different regions."""
    regions = np.zeros((resolution, resolution), np.float32)
    cuts = (slice(0, -window), slice(-window, -shift), slice(-shift, None))
    label = 0
    for rows in cuts:
        for columns in cuts:
            regions[rows, columns] = label
            label += 1
    n = resolution // window
    windows = regions.reshape(n, window, n, window).transpose(0, 2, 1, 3).reshape(-1, window**2)
    difference = windows[:, None, :] - windows[:, :, None]
    return difference


def swin_block(net, x, scope, channels, heads, window, shift, resolution):
    """A SwinTransformerBlock as torchvision's shifted_window_attention traces with a dynamic
    batch: every size read back from the tensor with Shape."""
    attn = scope / "attn"
    h = net.layer_norm_spelled(x, scope / "norm1", channels)
    B, H, W, C = (net.dim(h, attn, i) for i in range(4))
    ws = net.const(attn, window)
    # pad_r = (window - W % window) % window, and the same for H
    pads = [net.torch("Mod", [net.torch("Sub", [ws, net.torch("Mod", [d, ws], attn)], attn), ws],
                      attn) for d in (H, W)]
    zero = net.const(attn, [0])
    pad_amounts = net.torch("Concat", [zero, zero, zero, zero, zero,
                                       net.unsqueeze(pads[0], attn, [0]), net.unsqueeze(
                                           pads[1], attn, [0]), zero], attn, axis=0)
    h = net.torch("Pad", [h, pad_amounts, net.const(attn, 0.0, np.float32)], attn,
                  mode="constant")
    pH, pW = net.dim(h, attn, 1), net.dim(h, attn, 2)
    if shift:
        h = roll(net, h, attn, -shift, (1, 2))
    # window partition: view(B, pH // ws, ws, pW // ws, ws, C), permute, reshape
    rows = net.torch("Div", [pH, ws], attn)
    columns = net.torch("Div", [pW, ws], attn)
    h = net.view(h, attn, [B, rows, window, columns, window, C])
    h = net.torch("Transpose", [h], attn, perm=[0, 1, 3, 2, 4, 5])
    count = net.torch("Mul", [B, net.torch("Mul", [rows, columns], attn)], attn)
    h = net.view(h, attn, [count, window * window, C])
    # qkv = linear(x).reshape(x.size(0), x.size(1), 3, heads, C // heads).permute(2, 0, 3, 1, 4)
    qkv = net.linear(h, attn / "qkv", channels, 3 * channels)
    head_width = net.torch("Div", [C, net.const(attn, heads)], attn)
    qkv = net.view(qkv, attn, [net.dim(h, attn, 0), net.dim(h, attn, 1), 3, heads, head_width])
    qkv = net.torch("Transpose", [qkv], attn, perm=[2, 0, 3, 1, 4])
    q, k, v = (net.torch("Gather", [qkv, net.const(attn, i)], attn, axis=0) for i in range(3))
    scale = net.torch("Pow", [net.torch("Cast", [head_width], attn, to=TensorProto.FLOAT),
                              net.const(attn, -0.5, np.float32)], attn)
    q = net.torch("Mul", [q, scale], attn)
    scores = net.torch("MatMul", [q, net.torch("Transpose", [k], attn, perm=[0, 1, 3, 2])], attn)
    # relative position bias: table[index].view(N, N, -1).permute(2, 0, 1).unsqueeze(0)
    n = window * window
    table = net.param(attn.param("relative_position_bias_table"),
                      net.rng.normal(0.0, 0.02, ((2 * window - 1)**2, heads)))
    coords = np.stack(np.meshgrid(np.arange(window), np.arange(window), indexing="ij"))
    coords = coords.reshape(2, -1)
    relative = (coords[:, :, None] - coords[:, None, :]).transpose(1, 2, 0) + window - 1
    position_index = relative[..., 0] * (2 * window - 1) + relative[..., 1]
    bias = net.torch("Gather", [table, net.const(attn, position_index.reshape(-1))], attn, axis=0)
    bias = net.torch("Reshape", [bias, net.const(attn, [n, n, -1])], attn)
    bias = net.unsqueeze(net.torch("Transpose", [bias], attn, perm=[2, 0, 1]), attn, [0])
    scores = net.torch("Add", [scores, bias], attn)
    if shift:
        # attn.view(count // windows, windows, heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
        windows = (resolution // window)**2
        mask = net.const(attn, shift_mask(resolution, window, shift), np.float32)
        mask = net.torch("Where", [net.torch("Not", [net.torch("Equal", [
            mask, net.const(attn, 0.0, np.float32)], attn)], attn),
            net.const(attn, -100.0, np.float32), net.const(attn, 0.0, np.float32)], attn)
        mask = net.unsqueeze(net.unsqueeze(mask, attn, [1]), attn, [0])
        per_image = net.torch("Div", [net.dim(scores, attn, 0), net.const(attn, windows)], attn)
        scores = net.view(scores, attn, [per_image, windows, heads, n, n])
        scores = net.torch("Add", [scores, mask], attn)
        scores = net.view(scores, attn, [-1, heads, n, n])
    probs = net.torch("Softmax", [scores], attn, axis=-1)
    h = net.torch("Transpose", [net.torch("MatMul", [probs, v], attn)], attn, perm=[0, 2, 1, 3])
    h = net.view(h, attn, [net.dim(h, attn, 0), net.dim(h, attn, 1), C])
    h = net.linear(h, attn / "proj", channels, channels)
    # window reverse: view(B, pH // ws, pW // ws, ws, ws, C), permute, reshape(B, pH, pW, C)
    h = net.view(h, attn, [B, rows, columns, window, window, C])
    h = net.torch("Transpose", [h], attn, perm=[0, 1, 3, 2, 4, 5])
    h = net.view(h, attn, [B, pH, pW, C])
    if shift:
        h = roll(net, h, attn, shift, (1, 2))
    # unpad: x[:, :H, :W, :]
    ends = net.torch("Concat", [net.unsqueeze(H, attn, [0]), net.unsqueeze(W, attn, [0])], attn,
                     axis=0)
    h = net.torch("Slice", [h, net.const(attn, [0, 0]), ends, net.const(attn, [1, 2])], attn)
    x = net.torch("Add", [x, h], scope)
    h = net.layer_norm_spelled(x, scope / "norm2", channels)
    mlp = scope / "mlp"
    h = net.linear(h, mlp.index(0), channels, 4 * channels)
    h = net.gelu_erf(h, mlp.index(1))
    h = net.linear(h, mlp.index(3), 4 * channels, channels)
    return net.torch("Add", [x, h], scope)


def swin_depths():
    """Stage depths that give SWIN_TARGET_NODES nodes, or as near as they come. Blocks of the
    first three stages alternate plain and shifted (more nodes); the last stage's resolution
    is the window, so its blocks never shift. A graph's node count is linear in the number
    of each kind of block, so three builds give the coefficients."""
    base = swin_nodes([2, 2, 2, 2])
    pair = swin_nodes([2, 2, 4, 2]) - base  # a plain and a shifted block
    plain = swin_nodes([2, 2, 2, 3]) - base
    best = None
    for third in range(2, 80, 2):
        for fourth in range(1, 8):
            nodes = base + (third - 2) // 2 * pair + (fourth - 2) * plain
            if best is None or abs(nodes - SWIN_TARGET_NODES) < abs(best[0] - SWIN_TARGET_NODES):
                best = (nodes, [2, 2, third, fourth])
    return best[1]


def make_swin(path):
    net = Exported(seed=43)
    build_swin(net, swin_depths())
    count = net.finish(path, "opt_swin", [("input", TensorProto.FLOAT, ["batch", 3, 128, 128])],
                       [("logits", TensorProto.FLOAT, ["batch", 10])])
    rng = np.random.default_rng(15)
    return count, [("input", rng.uniform(-1, 1, (2, 3, 128, 128)).astype(np.float32))]


def make_big_weights(path, layers=18, width=4096):
    """Written tensor by tensor: the weights never sit in memory together, nor in a message."""
    net = Exported(seed=47)
    data_name = os.path.basename(path) + ".data"
    data_path = path + ".data"
    externals = []  # (name, shape, seed): written after the graph is built
    x = "input"
    for layer in range(layers):
        scope = Path(f"layers.{layer}")
        weight = scope.param("linear.weight")
        externals.append((weight, (width, width), layer))
        x = net.torch("MatMul", [x, weight], scope / "linear")
        if layer % 2:  # odd layers: nn.Linear with a bias; even ones: Linear(bias=False)
            bias = net.param(scope.param("linear.bias"), net.rng.normal(0, 0.02, width))
            x = net.torch("Add", [bias, x], scope / "linear")
        x = net.batch_norm(x, scope / "norm", width)
        x = net.torch("Relu", [x], scope / "act",
                      output="output" if layer + 1 == layers else None)
    offset = 0
    with open(data_path + ".partial", "wb") as data:
        for name, shape, seed in externals:
            rng = np.random.default_rng(1000 + seed)
            values = rng.standard_normal(shape, dtype=np.float32)
            values *= np.float32(np.sqrt(2.0 / shape[0]))
            raw = values.astype("<f4").tobytes()
            offset = (offset + 4095) // 4096 * 4096
            data.seek(offset)
            data.write(raw)
            tensor = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=list(shape),
                                 data_location=TensorProto.EXTERNAL)
            for key, value in [("location", data_name), ("offset", str(offset)),
                               ("length", str(len(raw)))]:
                tensor.external_data.add(key=key, value=value)
            net.inits.append(tensor)
            offset += len(raw)
    os.replace(data_path + ".partial", data_path)
    model = net.model("opt_big_weights", [("input", TensorProto.FLOAT, ["batch", width])],
                      [("output", TensorProto.FLOAT, ["batch", width])])
    # Checked from the file: the checker finds the external data beside it.
    onnx.save(model, path + ".partial")
    os.replace(path + ".partial", path)
    onnx.checker.check_model(path, full_check=True)
    rng = np.random.default_rng(16)
    return count_nodes(model.graph), [("input", rng.uniform(-1, 1, (2, width))
                                       .astype(np.float32))]


MODELS = [
    ("opt_resnet50_bn.onnx", make_resnet50_bn),
    ("opt_encoder_dynamic.onnx", make_encoder),
    ("opt_decoder_kv.onnx", make_decoder),
    ("opt_detection_head.onnx", make_detection_head),
    ("opt_swin.onnx", make_swin),
    ("opt_recurrent_vad.onnx", make_recurrent_vad),
]
BIG = ("opt_big_weights.onnx", make_big_weights)


def up_to_date(paths):
    newest_source = max(os.path.getmtime(s) for s in SOURCES)
    return all(os.path.exists(p) and os.path.getmtime(p) > newest_source for p in paths)


def main():
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    unknown = flags - {"--force", "--big"}
    if unknown:
        raise SystemExit(f"usage: make_optimize_models.py [FOLDER] [--force] [--big] "
                         f"(unknown: {' '.join(sorted(unknown))})")
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    folder = args[0] if args else "build/bench-models"
    os.makedirs(folder, exist_ok=True)
    for file, make in MODELS + ([BIG] if "--big" in flags else []):
        path = os.path.join(folder, file)
        written = [path, *em.input_paths(path)] + ([path + ".data"] if make is make_big_weights
                                                 else [])
        if "--force" not in flags and up_to_date(written):
            continue
        count, feeds = make(path)
        em.write_inputs(path, feeds)
        print(f"{path}: {count} nodes", file=sys.stderr)


if __name__ == "__main__":
    main()
