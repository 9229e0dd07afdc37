#!/usr/bin/python3
"""Writes the decoder LLMs of issue 46 ("Decoder LLMs in standard ONNX"): a Llama-shaped
decoder (RMSNorm, rotary position embeddings, grouped-query attention with a key/value cache,
a SwiGLU MLP, no biases) with random weights, in four forms computed from the SAME weights:

  llm_NAME_std.onnx   Standard ai.onnx, opset 23, IR 10. RMSNormalization (epsilon 1e-6);
                      RotaryEmbedding on the 3-D [batch, seq, heads * head_size] Q and K
                      (num_heads set, not interleaved, the cos and sin caches
                      [2048, head_size / 2] as initializers, indexed by the position_ids
                      input); Attention on 3-D Q, K, V with q_num_heads, kv_num_heads,
                      is_causal = 1, past_key / past_value in and present_key / present_value
                      out (4-D [batch, kv_heads, seq, head_size]); the SwiGLU MLP spelled out
                      (Sigmoid, Mul, Mul). Every linear layer is MatMul(x, DequantizeLinear(W))
                      with W an INT4 initializer [K, N] (K the input axis), block-wise along
                      axis 0 with block_size 32, float32 scales [K / 32, N] and NO zero point
                      (the spec's default: 0). The embedding table is float16 [vocab, hidden]
                      through Gather, then Cast to float32. The head is tied to the
                      embedding: its weight is the table transposed, [hidden, vocab], int4
                      like the other linear layers (at vocab 151936 it is the largest matrix;
                      stored apart from the table, as exporters store a tied head).
  llm_NAME_scatter.onnx
                      The std form at opset 24 with a cache of fixed capacity (1024
                      positions), as opset 24 writes one in place: past and present
                      [batch, kv_heads, 1024, head_size]; each layer's K (after its rotary)
                      and V Reshaped to heads and Transposed to [batch, kv_heads, seq,
                      head_size], TensorScatter (axis 2) into the past at the run's first
                      position (position_ids[:, 0]) giving the present; Q likewise to 4-D;
                      Attention (is_causal = 1) on the presents with nonpad_kv_seqlen the last
                      position + 1, its output Transposed and Reshaped back. A runtime binds
                      each present to its past's buffer (onyx generate does).
  llm_NAME_f32.onnx   Float32, opset 17, IR 8, decomposed as optimum / transformers exports
                      write a Llama: RMSNorm as Pow, ReduceMean, Add, Sqrt, Reciprocal, Mul,
                      Mul; rotary with the [2048, head_size] cos and sin tables Gathered by
                      position_ids (once, shared by the layers), rotate_half as Slice, Slice,
                      Neg, Concat; Q, K, V Reshaped to heads and Transposed to
                      [batch, heads, seq, head_size]; the past Concatenated in front of K and V
                      (those are the present outputs); repeat_kv as Unsqueeze, Expand,
                      Reshape; scores by MatMul with K transposed, Mul by 1/sqrt(head_size),
                      Add of a [batch, 1, seq, total] mask, Softmax, MatMul with V. The mask is
                      built once from the attention_mask input and the positions in the cache
                      (Shape, Gather, Range, LessOrEqual, Cast, And, Where: 0 where allowed,
                      float32's lowest where not, as transformers does). SiLU as Sigmoid, Mul.
                      Its weights are the dequantized values of the std form (q * scale in
                      float32, as DequantizeLinear computes them) and its embedding the
                      float16 table's values in float32, so the two forms compute the same
                      function up to the rounding of their operators.
  llm_NAME_ort.onnx   onnxruntime's contrib form (for comparison only), as onnxruntime-genai's
                      model builder writes an int4 CPU model: ai.onnx opset 21 and
                      com.microsoft 1. MatMulNBits (bits 4, block_size 32, accuracy_level 0
                      unless --accuracy-level says otherwise) on the same 4-bit codes, repacked
                      to MatMulNBits' [N, K / 32, 16] uint8 layout (two codes a byte, the lower
                      K index in the low nibble, stored as code + 8: no zero-point input, so
                      the operator's default zero point 8 gives back the signed code) with the
                      scales [N * K / 32], N-major; GroupQueryAttention (do_rotary = 1 with the
                      same cos and sin caches, seqlens_k and total_sequence_length computed from
                      attention_mask: ReduceSum - 1 and its length, both Cast to int32);
                      SimplifiedLayerNormalization (domain ai.onnx, as onnxruntime registers
                      it) before the first layer and SkipSimplifiedLayerNormalization (its
                      fourth output the residual sum) wherever a residual Add precedes a norm;
                      the embedding and head as in the std form.

Shapes (rope theta 10000, 2048 positions, RMSNorm epsilon 1e-6, all heads of the sizes below):

  100m   hidden 768,  12 layers, 12 heads, 4 KV heads, head 64,  MLP 2048, vocab 32000
  500m   hidden 896,  24 layers, 14 heads, 2 KV heads, head 64,  MLP 4864, vocab 151936
         (Qwen2.5-0.5B without its Q/K/V biases)
  1.5b   hidden 1536, 28 layers, 12 heads, 2 KV heads, head 128, MLP 8960, vocab 151936
         (Qwen2.5-1.5B without its biases; its head is tied too, as Qwen2.5-1.5B's is)
  tiny   hidden 128,  2 layers,  4 heads,  2 KV heads, head 32,  MLP 256,  vocab 512
         (for checking the forms against each other in seconds)

Inputs: input_ids int64 [batch, sequence_length]; position_ids int64 [batch,
sequence_length] (std and f32); attention_mask int64 [batch, total_sequence_length] (f32 and
ort); past_key_values.N.key / .value float32 [batch, kv_heads, past_sequence_length,
head_size]. Outputs: logits float32 [batch, sequence_length, vocab]; present.N.key / .value
float32 [batch, kv_heads, total_sequence_length, head_size]. The first step feeds a past of
length 0.

Weights: one seeded NumPy generator (seed 46) draws them in a fixed order, float32: the
embedding table and the matrices from a normal distribution with standard deviation 0.02,
except the Q and K projections, drawn at 0.06 * sqrt(768 / hidden); the RMSNorm weights from
a normal around 1 with standard deviation 0.05. The wider Q and K give every size scores that
spread with a standard deviation near 2.8, so attention is peaked as in a trained model (over
a 16-token prompt a row's largest weight is 0.5 to 0.6 on average; with Q and K at 0.02 it is
under 0.2, close to uniform). With near-uniform attention every position sees the average
of the context, the token just fed in hardly shows through, and greedy decoding after a
512-token prompt repeats one token for good; as drawn, the 100m model's greedy tokens keep
changing (logits with a standard deviation near 0.55). Each matrix is quantized by
symmetric round-to-nearest (ties to even) per block of 32 along its input axis: scale =
max|w| / 7 over the block, code = round(w / scale), in [-7, 7].

What is written (node counts; sizes on disk, external data included):

  size   std                          f32                           ort
  100m   293 nodes, 112 MB (.data)    770 nodes, 500 MB             166 nodes, 112 MB (.data)
  500m   581 nodes, 582 MB (.data)    1514 nodes, 2.52 GB (.data)   322 nodes, 582 MB (.data)
  1.5b   677 nodes, 1.43 GB (.data)   1762 nodes, 7.11 GB (.data)   374 nodes, 1.43 GB (.data)

The int4 forms (std, ort) keep their tensors in a file beside them, llm_NAME_FORM.onnx.data
(every tensor of 1 KiB or more, each at an aligned offset), as onnxruntime-genai's model
builder writes int4 models: a runtime then reads them where they lie. The f32 form does so
when its tensors pass 1 GiB (the 1.5b one is about 7 GB, the 500m one 2.5 GB), as optimum
does past protobuf's 2 GB.
Written with onyx's Python package (PYTHONPATH=<build>/python): the graph in the ONNX text
syntax, the initializers from NumPy.

  bench/make_llm_models.py [FOLDER] [--size 100m|500m|1.5b|tiny] [--force]
                           [--forms std,f32,ort,scatter] [--accuracy-level N]
      (default FOLDER: build/bench-models; default size 100m; models already there are
      kept unless --force; --accuracy-level N sets MatMulNBits' accuracy_level in the ort form,
      0 by default: float32 activations; onnxruntime-genai writes 4 for CPU, int8 activations
      per block; a form at N other than 0 is written as llm_NAME_ort_accN.onnx)
"""
import argparse
import os
import sys
import time

import numpy as np

try:
    import onyx
except ImportError:
    sys.exit("make_llm_models.py: needs onyx's Python package (PYTHONPATH=<build>/python)")

SIZES = {
    # hidden, layers, heads, kv_heads, head_size, mlp, vocab
    "tiny": (128, 2, 4, 2, 32, 256, 512),
    "100m": (768, 12, 12, 4, 64, 2048, 32000),
    "500m": (896, 24, 14, 2, 64, 4864, 151936),
    "1.5b": (1536, 28, 12, 2, 128, 8960, 151936),
}
MAX_POSITIONS = 2048
ROPE_THETA = 10000.0
EPSILON = 1e-6
BLOCK = 32
SEED = 46
WEIGHT_STD = 0.02
QK_STD_768 = 0.06  # Q and K projections at hidden 768: peaked attention (see the docstring)
NORM_STD = 0.05
EXTERNAL_ABOVE = 1 << 30  # tensor bytes past which a model keeps them in a .data file
FORMS = ("std", "f32", "ort", "scatter")
CAPACITY = 1024  # the scatter form's cache positions


class Config:
    def __init__(self, name):
        (self.hidden, self.layers, self.heads, self.kv_heads, self.head_size, self.mlp,
         self.vocab) = SIZES[name]
        self.name = name
        self.q_size = self.heads * self.head_size
        self.kv_size = self.kv_heads * self.head_size


# ---------------------------------------------------------------------------------------------
# Weights


def quantize_blocks(w):
    """Symmetric round-to-nearest int4 per block of 32 along axis 0 of w [K, N]: the codes
    (int8 in [-7, 7]) [K, N] and the float32 scales [K / 32, N]."""
    k, n = w.shape
    blocks = w.reshape(k // BLOCK, BLOCK, n)
    scale = (np.abs(blocks).max(axis=1) / np.float32(7)).astype(np.float32)
    safe = np.where(scale == 0, np.float32(1), scale)
    codes = np.clip(np.rint(blocks / safe[:, None, :]), -7, 7).astype(np.int8)
    return codes.reshape(k, n), scale


def dequantize_blocks(codes, scale):
    """What DequantizeLinear computes: code * scale in float32."""
    k, n = codes.shape
    blocks = codes.reshape(k // BLOCK, BLOCK, n).astype(np.float32) * scale[:, None, :]
    return blocks.reshape(k, n)


def matmul_nbits_layout(codes, scale):
    """MatMulNBits' B [N, K / 32, 16] uint8 (code + 8, the even K index in the low nibble)
    and scales [N * K / 32] (N-major) from codes [K, N] and scales [K / 32, N]."""
    k, n = codes.shape
    unsigned = (codes.T.astype(np.int16) + 8).astype(np.uint8)
    pairs = unsigned.reshape(n, k // BLOCK, BLOCK // 2, 2)
    packed = pairs[..., 0] | (pairs[..., 1] << 4)
    return np.ascontiguousarray(packed), np.ascontiguousarray(scale.T).reshape(-1)


def rotary_caches(head_size):
    """cos and sin of position * theta^(-2i / head_size), [2048, head_size / 2] float32."""
    exponents = np.arange(0, head_size, 2, dtype=np.float64) / head_size
    inv_freq = 1.0 / (ROPE_THETA ** exponents)
    angles = np.outer(np.arange(MAX_POSITIONS, dtype=np.float64), inv_freq)
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# Graph text


class Text:
    """One form's graph as lines of ONNX text. A node's outputs are named after the node, as
    its exporter names them: `suffix` "_output_0" (torch.onnx) or "/output_0"
    (onnxruntime-genai's builder)."""

    def __init__(self, suffix):
        self.suffix = suffix
        self.lines = []

    def op(self, op_type, inputs, name, outputs=None, **attributes):
        """Adds node `name`; returns its output (a list for several)."""
        outputs = outputs if outputs is not None else [name + self.suffix]
        attrs = ""
        if attributes:
            attrs = " <" + ", ".join(f"{k} = {fmt(v)}" for k, v in attributes.items()) + ">"
        self.lines.append(f'  ["{name}"] {", ".join(q(o) for o in outputs)} = {op_type}{attrs} '
                          f'({", ".join(q(i) for i in inputs)})')
        return outputs[0] if len(outputs) == 1 else outputs


def q(name):
    """A value name, quoted where the text syntax needs it; "" (an omitted input or output)
    is written as nothing."""
    if name == "" or (name.replace("_", "a").isalnum() and not name[0].isdigit()):
        return name
    return f'"{name}"'


def fmt(value):
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def past_name(layer, which):
    return f"past_key_values.{layer}.{which}"


def present_name(layer, which):
    return f"present.{layer}.{which}"


def signature(cfg, inputs, opsets, ir_version, graph_name, capacity=None):
    kv = f"batch_size, {cfg.kv_heads}, past_sequence_length, {cfg.head_size}"
    kv_out = f"batch_size, {cfg.kv_heads}, total_sequence_length, {cfg.head_size}"
    if capacity:
        kv = kv_out = f"batch_size, {cfg.kv_heads}, {capacity}, {cfg.head_size}"
    declared = {
        "input_ids": "int64[batch_size, sequence_length] input_ids",
        "attention_mask": "int64[batch_size, total_sequence_length] attention_mask",
        "position_ids": "int64[batch_size, sequence_length] position_ids",
    }
    ins = [declared[i] for i in inputs]
    outs = [f"float[batch_size, sequence_length, {cfg.vocab}] logits"]
    for layer in range(cfg.layers):
        for which in ("key", "value"):
            ins.append(f'float[{kv}] "{past_name(layer, which)}"')
            outs.append(f'float[{kv_out}] "{present_name(layer, which)}"')
    imports = ", ".join(f'"{d}": {v}' for d, v in opsets)
    return (f"<ir_version: {ir_version}, opset_import: [{imports}], "
            f'producer_name: "onyx bench/make_llm_models.py">\n'
            f"{graph_name} ({', '.join(ins)}) => ({', '.join(outs)})")


# ---------------------------------------------------------------------------------------------
# The forms. Each builder writes its graph text and says which initializers it wants per
# weight: wants[key] = [(initializer name, how)], `how` naming one of conversions()' arrays.
# It returns the graph's signature and its constants (initializer name -> array).


def want(wants, key, *pairs):
    wants.setdefault(key, []).extend(pairs)


def swiglu(t, x, p, linear):
    """The MLP of layer scope p: down(silu(gate(x)) * up(x)), SiLU as Sigmoid and Mul."""
    gate = linear(x, "mlp.gate_proj")
    up = linear(x, "mlp.up_proj")
    sig = t.op("Sigmoid", [gate], f"{p}/mlp/act_fn/Sigmoid")
    act = t.op("Mul", [gate, sig], f"{p}/mlp/act_fn/Mul")
    return linear(t.op("Mul", [act, up], f"{p}/mlp/Mul"), "mlp.down_proj")


def decoder_layers(cfg, linear):
    """Per layer: its index, its nodes' scope, its weights' prefix, its attention's scope, and
    its linear layers, layer_linear(x, "mlp.up_proj") = linear(x, weight key, node scope)."""
    for i in range(cfg.layers):
        p, w = f"/model/layers.{i}", f"model.layers.{i}"

        def layer_linear(x, name, p=p, w=w):
            return linear(x, f"{w}.{name}", f"{p}/{name}")

        yield i, p, w, f"{p}/self_attn", layer_linear


def build_std(cfg, t, wants, capacity=None):
    """The std form; with `capacity`, the scatter form: opset 24, the cache of that many
    positions written in place (TensorScatter at the run's first position), Attention on 4-D
    heads told the valid length (nonpad_kv_seqlen, the last position + 1)."""
    consts = {}

    def ints(name, values):
        consts.setdefault(name, np.array(values, np.int64))
        return name

    def heads(x, count, s):
        """[batch, seq, count * head_size] -> [batch, count, seq, head_size]."""
        shape = ints(f"shape_heads_{count}", [0, 0, count, cfg.head_size])
        return t.op("Transpose", [t.op("Reshape", [x, shape], f"{s}/Reshape")], f"{s}/Transpose",
                    perm=[0, 2, 1, 3])

    def linear(x, key, scope, output=None):
        want(wants, key, (f"{key}.qweight", "int4"), (f"{key}.scales", "scales"))
        w = t.op("DequantizeLinear", [f"{key}.qweight", f"{key}.scales"],
                 f"{scope}/DequantizeLinear", axis=0, block_size=BLOCK)
        return t.op("MatMul", [x, w], f"{scope}/MatMul", outputs=[output] if output else None)

    def norm(x, key, scope):
        want(wants, key, (key, "f32"))
        return t.op("RMSNormalization", [x, key], f"{scope}/RMSNormalization", axis=-1,
                    epsilon=EPSILON)

    want(wants, "embed", ("model.embed_tokens.weight", "f16"))
    want(wants, "rotary", ("cos_cache", "cos"), ("sin_cache", "sin"))
    h = t.op("Gather", ["model.embed_tokens.weight", "input_ids"], "/model/embed_tokens/Gather",
             axis=0)
    h = t.op("Cast", [h], "/model/embed_tokens/Cast", to=1)
    if capacity:
        c, axis_1 = "/model/cache", ints("const_axes_1", [1])
        first = t.op("Slice", ["position_ids", ints("const_zero_1d", [0]), axis_1, axis_1],
                     f"{c}/Slice")
        write_at = t.op("Squeeze", [first, axis_1], f"{c}/Squeeze")
        last = t.op("Slice", ["position_ids", ints("const_minus_one_1d", [-1]),
                              ints("const_end_1d", [np.iinfo(np.int64).max]), axis_1],
                    f"{c}/Slice_1")
        valid = t.op("Add", [t.op("Squeeze", [last, axis_1], f"{c}/Squeeze_1"), axis_1],
                     f"{c}/Add")
    for i, p, w, a, layer_linear in decoder_layers(cfg, linear):
        x = norm(h, f"{w}.input_layernorm.weight", f"{p}/input_layernorm")
        qv = layer_linear(x, "self_attn.q_proj")
        kv = layer_linear(x, "self_attn.k_proj")
        vv = layer_linear(x, "self_attn.v_proj")
        rope = ["cos_cache", "sin_cache", "position_ids"]
        qr = t.op("RotaryEmbedding", [qv] + rope, f"{a}/q_rotary/RotaryEmbedding",
                  num_heads=cfg.heads)
        kr = t.op("RotaryEmbedding", [kv] + rope, f"{a}/k_rotary/RotaryEmbedding",
                  num_heads=cfg.kv_heads)
        if capacity:
            kc = t.op("TensorScatter", [past_name(i, "key"), heads(kr, cfg.kv_heads, f"{a}/k"),
                                        write_at], f"{a}/TensorScatter",
                      outputs=[present_name(i, "key")], axis=2)
            vc = t.op("TensorScatter", [past_name(i, "value"),
                                        heads(vv, cfg.kv_heads, f"{a}/v"), write_at],
                      f"{a}/TensorScatter_1", outputs=[present_name(i, "value")], axis=2)
            y = t.op("Attention", [heads(qr, cfg.heads, f"{a}/q"), kc, vc, "", "", "", valid],
                     f"{a}/Attention", is_causal=1)
            attn = t.op("Reshape", [t.op("Transpose", [y], f"{a}/Transpose", perm=[0, 2, 1, 3]),
                                    ints("shape_hidden", [0, 0, cfg.q_size])], f"{a}/Reshape")
        else:
            attn = t.op("Attention",
                        [qr, kr, vv, "", past_name(i, "key"), past_name(i, "value")],
                        f"{a}/Attention",
                        outputs=[f"{a}/Attention_output_0", present_name(i, "key"),
                                 present_name(i, "value")],
                        is_causal=1, q_num_heads=cfg.heads, kv_num_heads=cfg.kv_heads)[0]
        h = t.op("Add", [h, layer_linear(attn, "self_attn.o_proj")], f"{p}/Add")
        x = norm(h, f"{w}.post_attention_layernorm.weight", f"{p}/post_attention_layernorm")
        h = t.op("Add", [h, swiglu(t, x, p, layer_linear)], f"{p}/Add_1")
    x = norm(h, "model.norm.weight", "/model/norm")
    linear(x, "lm_head", "/lm_head", output="logits")
    if capacity:
        return signature(cfg, ["input_ids", "position_ids"], [("", 24)], 10, "llm_scatter",
                         capacity), consts
    return signature(cfg, ["input_ids", "position_ids"], [("", 23)], 10, "llm_std"), consts


def build_f32(cfg, t, wants):
    consts = {}

    def const(name, array):
        consts.setdefault(name, np.asarray(array))
        return name

    def ints(name, values):
        return const(name, np.array(values, np.int64))

    def linear(x, key, scope, output=None):
        want(wants, key, (f"{key}.weight", "dequantized"))
        return t.op("MatMul", [x, f"{key}.weight"], f"{scope}/MatMul",
                    outputs=[output] if output else None)

    def norm(x, key, s):
        """transformers' LlamaRMSNorm: x * rsqrt(mean(x^2) + eps), times the weight."""
        want(wants, key, (key, "f32"))
        sq = t.op("Pow", [x, const("const_two", np.float32(2))], f"{s}/Pow")
        mean = t.op("ReduceMean", [sq], f"{s}/ReduceMean", axes=[-1], keepdims=1)
        var = t.op("Add", [mean, const("const_epsilon", np.float32(EPSILON))], f"{s}/Add")
        inv = t.op("Reciprocal", [t.op("Sqrt", [var], f"{s}/Sqrt")], f"{s}/Reciprocal")
        return t.op("Mul", [key, t.op("Mul", [x, inv], f"{s}/Mul")], f"{s}/Mul_1")

    def heads(x, count, s):
        """[batch, seq, count * head_size] -> [batch, count, seq, head_size]."""
        shape = ints(f"shape_heads_{count}", [0, 0, count, cfg.head_size])
        return t.op("Transpose", [t.op("Reshape", [x, shape], f"{s}/Reshape")], f"{s}/Transpose",
                    perm=[0, 2, 1, 3])

    def rotate(x, s):
        """x * cos + rotate_half(x) * sin; rotate_half(x) = concat(-x2, x1)."""
        half, axis = cfg.head_size // 2, ints("const_axis_last", [-1])
        x1 = t.op("Slice", [x, ints("const_zero_1d", [0]), ints("const_half_1d", [half]), axis],
                  f"{s}/Slice")
        x2 = t.op("Slice", [x, ints("const_half_1d", [half]),
                            ints("const_end_1d", [np.iinfo(np.int64).max]), axis], f"{s}/Slice_1")
        rotated = t.op("Concat", [t.op("Neg", [x2], f"{s}/Neg"), x1], f"{s}/Concat", axis=-1)
        a = t.op("Mul", [x, "rotary_cos"], f"{s}/Mul")
        b = t.op("Mul", [rotated, "rotary_sin"], f"{s}/Mul_1")
        return t.op("Add", [a, b], f"{s}/Add")

    def repeat_kv(x, s):
        """[batch, kv_heads, total, head_size] -> [batch, heads, total, head_size]."""
        n_rep = cfg.heads // cfg.kv_heads
        if n_rep == 1:
            return x
        u = t.op("Unsqueeze", [x, ints("const_axes_2", [2])], f"{s}/Unsqueeze")
        e = t.op("Expand", [u, ints("shape_repeat_kv", [1, 1, n_rep, 1, 1])], f"{s}/Expand")
        return t.op("Reshape", [e, ints("shape_repeated", [0, cfg.heads, -1, cfg.head_size])],
                    f"{s}/Reshape")

    want(wants, "embed", ("model.embed_tokens.weight", "f16_as_f32"))
    want(wants, "rotary", ("rotary_cos_cached", "cos_full"), ("rotary_sin_cached", "sin_full"))
    h = t.op("Gather", ["model.embed_tokens.weight", "input_ids"], "/model/embed_tokens/Gather",
             axis=0)
    # The rotary tables at the positions, [batch, 1, seq, head_size], shared by the layers.
    axis_1 = ints("const_axes_1", [1])
    for which in ("cos", "sin"):
        r = f"/model/rotary_emb/{which}"
        g = t.op("Gather", [f"rotary_{which}_cached", "position_ids"], f"{r}/Gather", axis=0)
        t.op("Unsqueeze", [g, axis_1], f"{r}/Unsqueeze", outputs=[f"rotary_{which}"])
    # The mask [batch, 1, seq, total]: key position <= query position (past + i) and
    # attention_mask set; 0 there, float32's lowest elsewhere.
    m = "/model/mask"
    one = const("const_one", np.int64(1))
    total = t.op("Gather", [t.op("Shape", ["attention_mask"], f"{m}/Shape"), one],
                 f"{m}/Gather", axis=0)
    seq = t.op("Gather", [t.op("Shape", ["input_ids"], f"{m}/Shape_1"), one], f"{m}/Gather_1",
               axis=0)
    past = t.op("Sub", [total, seq], f"{m}/Sub")
    key_pos = t.op("Range", [const("const_zero", np.int64(0)), total, one], f"{m}/Range")
    query_pos = t.op("Unsqueeze", [t.op("Range", [past, total, one], f"{m}/Range_1"), axis_1],
                     f"{m}/Unsqueeze")
    causal = t.op("LessOrEqual", [key_pos, query_pos], f"{m}/LessOrEqual")
    given = t.op("Unsqueeze", [t.op("Cast", ["attention_mask"], f"{m}/Cast", to=9),
                               ints("const_axes_12", [1, 2])], f"{m}/Unsqueeze_1")
    allowed = t.op("And", [causal, given], f"{m}/And")
    t.op("Where", [allowed, const("const_zero_f", np.float32(0)),
                   const("const_lowest_f", np.float32(np.finfo(np.float32).min))],
         f"{m}/Where", outputs=["attention_bias"])
    scale = const("const_scale", np.float32(cfg.head_size ** -0.5))
    for i, p, w, a, layer_linear in decoder_layers(cfg, linear):
        x = norm(h, f"{w}.input_layernorm.weight", f"{p}/input_layernorm")
        qh = heads(layer_linear(x, "self_attn.q_proj"), cfg.heads, f"{a}/q")
        kh = heads(layer_linear(x, "self_attn.k_proj"), cfg.kv_heads, f"{a}/k")
        vh = heads(layer_linear(x, "self_attn.v_proj"), cfg.kv_heads, f"{a}/v")
        qr = rotate(qh, f"{a}/q_rotary")
        kc = t.op("Concat", [past_name(i, "key"), rotate(kh, f"{a}/k_rotary")], f"{a}/Concat",
                  outputs=[present_name(i, "key")], axis=2)
        vc = t.op("Concat", [past_name(i, "value"), vh], f"{a}/Concat_1",
                  outputs=[present_name(i, "value")], axis=2)
        kt = t.op("Transpose", [repeat_kv(kc, f"{a}/repeat_kv")], f"{a}/Transpose",
                  perm=[0, 1, 3, 2])
        scores = t.op("Mul", [t.op("MatMul", [qr, kt], f"{a}/MatMul"), scale], f"{a}/Mul")
        scores = t.op("Add", [scores, "attention_bias"], f"{a}/Add")
        probs = t.op("Softmax", [scores], f"{a}/Softmax", axis=-1)
        ctx = t.op("MatMul", [probs, repeat_kv(vc, f"{a}/repeat_kv_1")], f"{a}/MatMul_1")
        ctx = t.op("Transpose", [ctx], f"{a}/Transpose_1", perm=[0, 2, 1, 3])
        ctx = t.op("Reshape", [ctx, ints("shape_hidden", [0, 0, cfg.q_size])], f"{a}/Reshape")
        h = t.op("Add", [h, layer_linear(ctx, "self_attn.o_proj")], f"{p}/Add")
        x = norm(h, f"{w}.post_attention_layernorm.weight", f"{p}/post_attention_layernorm")
        h = t.op("Add", [h, swiglu(t, x, p, layer_linear)], f"{p}/Add_1")
    x = norm(h, "model.norm.weight", "/model/norm")
    linear(x, "lm_head", "/lm_head", output="logits")
    inputs = ["input_ids", "attention_mask", "position_ids"]
    return signature(cfg, inputs, [("", 17)], 8, "llm_f32"), consts


def build_ort(cfg, t, wants, accuracy_level):
    consts = {}

    def const(name, array):
        consts.setdefault(name, np.asarray(array))
        return name

    def matmul_nbits(x, key, scope, k, n, output=None):
        want(wants, key, (f"{key}.MatMul.weight_Q4", "nbits"),
             (f"{key}.MatMul.weight_scales", "nbits_scales"))
        return t.op("com.microsoft.MatMulNBits",
                    [x, f"{key}.MatMul.weight_Q4", f"{key}.MatMul.weight_scales"],
                    f"{scope}/MatMul_Q4", outputs=[output] if output else None,
                    K=k, N=n, bits=4, block_size=BLOCK, accuracy_level=accuracy_level)

    def skip_norm(x, residual, key, scope, with_sum=True):
        """(normed, residual sum) from SkipSimplifiedLayerNormalization(x, residual)."""
        want(wants, key, (key, "f32"))
        outputs = [f"{scope}/output_0"] + (["", "", f"{scope}/output_3"] if with_sum else [])
        got = t.op("com.microsoft.SkipSimplifiedLayerNormalization", [x, residual, key], scope,
                   outputs=outputs, epsilon=EPSILON)
        return (got[0], got[3]) if with_sum else (got, None)

    want(wants, "embed", ("model.embed_tokens.weight", "f16"))
    want(wants, "rotary", ("cos_cache", "cos"), ("sin_cache", "sin"))
    m = "/model/attn_mask_reformat/attn_mask_subgraph"
    one = const("const_one", np.int64(1))
    seqlens = t.op("ReduceSum", ["attention_mask", const("const_axes_1", np.array([1], np.int64))],
                   f"{m}/ReduceSum", keepdims=0)
    seqlens = t.op("Sub", [seqlens, one], f"{m}/Sub")
    t.op("Cast", [seqlens], f"{m}/Sub/Cast", outputs=["seqlens_k"], to=6)
    total = t.op("Gather", [t.op("Shape", ["attention_mask"], f"{m}/Shape"), one],
                 f"{m}/Gather", axis=0)
    t.op("Cast", [total], f"{m}/Gather/Cast", outputs=["total_seq_len"], to=6)
    h = t.op("Gather", ["model.embed_tokens.weight", "input_ids"], "/model/embed_tokens/Gather",
             axis=0)
    h = t.op("Cast", [h], "/model/embed_tokens/Cast", to=1)
    shapes = {"self_attn.q_proj": (cfg.hidden, cfg.q_size),
              "self_attn.k_proj": (cfg.hidden, cfg.kv_size),
              "self_attn.v_proj": (cfg.hidden, cfg.kv_size),
              "self_attn.o_proj": (cfg.q_size, cfg.hidden),
              "mlp.gate_proj": (cfg.hidden, cfg.mlp), "mlp.up_proj": (cfg.hidden, cfg.mlp),
              "mlp.down_proj": (cfg.mlp, cfg.hidden)}
    residual, pending = h, None
    for i in range(cfg.layers):
        p, w = f"/model/layers.{i}", f"model.layers.{i}"

        def layer_linear(x, name):
            k, n = shapes[name]
            return matmul_nbits(x, f"{w}.{name}", f"{p}/{name.replace('self_attn', 'attn')}", k, n)

        key = f"{w}.input_layernorm.weight"
        if pending is None:
            want(wants, key, (key, "f32"))
            x = t.op("SimplifiedLayerNormalization", [h, key], f"{p}/input_layernorm/LayerNorm",
                     axis=-1, epsilon=EPSILON)
        else:
            x, residual = skip_norm(pending, residual, key, f"{p}/input_layernorm/SkipLayerNorm")
        qv = layer_linear(x, "self_attn.q_proj")
        kv = layer_linear(x, "self_attn.k_proj")
        vv = layer_linear(x, "self_attn.v_proj")
        attn = t.op("com.microsoft.GroupQueryAttention",
                    [qv, kv, vv, past_name(i, "key"), past_name(i, "value"), "seqlens_k",
                     "total_seq_len", "cos_cache", "sin_cache"],
                    f"{p}/attn/GroupQueryAttention",
                    outputs=[f"{p}/attn/GroupQueryAttention/output_0", present_name(i, "key"),
                             present_name(i, "value")],
                    num_heads=cfg.heads, kv_num_heads=cfg.kv_heads, do_rotary=1,
                    rotary_interleaved=0, scale=float(cfg.head_size ** -0.5),
                    local_window_size=-1)[0]
        x, residual = skip_norm(layer_linear(attn, "self_attn.o_proj"), residual,
                                f"{w}.post_attention_layernorm.weight",
                                f"{p}/post_attention_layernorm/SkipLayerNorm")
        pending = swiglu(t, x, p, layer_linear)
    x, _ = skip_norm(pending, residual, "model.norm.weight",
                     "/model/layers.final_norm_layernorm/SkipLayerNorm", with_sum=False)
    matmul_nbits(x, "lm_head", "/lm_head", cfg.hidden, cfg.vocab, output="logits")
    opsets = [("", 21), ("com.microsoft", 1)]
    return signature(cfg, ["input_ids", "attention_mask"], opsets, 10, "llm_ort"), consts


# ---------------------------------------------------------------------------------------------
# Filling in the weights


def weights(cfg):
    """(key, value) in a fixed order from one seeded generator: matrices as
    ("matrix", w [K, N] float32), norms as ("norm", w), the table as ("embed", E)."""
    rng = np.random.default_rng(SEED)

    def normal(shape, std=WEIGHT_STD):
        return rng.standard_normal(shape, dtype=np.float32) * np.float32(std)

    def norm():
        return np.float32(1) + normal(cfg.hidden, NORM_STD)

    qk_std = QK_STD_768 * (768 / cfg.hidden) ** 0.5
    yield "embed", ("embed", normal((cfg.vocab, cfg.hidden)))
    for i in range(cfg.layers):
        w = f"model.layers.{i}"
        yield f"{w}.input_layernorm.weight", ("norm", norm())
        yield f"{w}.self_attn.q_proj", ("matrix", normal((cfg.hidden, cfg.q_size), qk_std))
        yield f"{w}.self_attn.k_proj", ("matrix", normal((cfg.hidden, cfg.kv_size), qk_std))
        yield f"{w}.self_attn.v_proj", ("matrix", normal((cfg.hidden, cfg.kv_size)))
        yield f"{w}.self_attn.o_proj", ("matrix", normal((cfg.q_size, cfg.hidden)))
        yield f"{w}.post_attention_layernorm.weight", ("norm", norm())
        yield f"{w}.mlp.gate_proj", ("matrix", normal((cfg.hidden, cfg.mlp)))
        yield f"{w}.mlp.up_proj", ("matrix", normal((cfg.hidden, cfg.mlp)))
        yield f"{w}.mlp.down_proj", ("matrix", normal((cfg.mlp, cfg.hidden)))
    yield "model.norm.weight", ("norm", norm())


def conversions(kind, value, cfg):
    """The arrays one weight gives, by `how` (see the builders), computed once each."""
    cache = {}
    if kind == "matrix":
        codes, scale = quantize_blocks(value)
        cache["int4"] = codes
        cache["scales"] = scale
        cache["dequantized"] = lambda: dequantize_blocks(codes, scale)
        cache["nbits"] = lambda: matmul_nbits_layout(codes, scale)[0]
        cache["nbits_scales"] = lambda: matmul_nbits_layout(codes, scale)[1]
    elif kind == "norm":
        cache["f32"] = value
    elif kind == "embed":
        cache["f16"] = lambda: value.astype(np.float16)
        cache["f16_as_f32"] = lambda: value.astype(np.float16).astype(np.float32)
    elif kind == "rotary":
        cos, sin = rotary_caches(cfg.head_size)
        cache.update(cos=cos, sin=sin, cos_full=np.concatenate([cos, cos], axis=1),
                     sin_full=np.concatenate([sin, sin], axis=1))
    return cache


def main():
    parser = argparse.ArgumentParser(description="Writes the decoder LLMs of issue 46.")
    parser.add_argument("folder", nargs="?", default="build/bench-models")
    parser.add_argument("--size", default="100m", choices=sorted(SIZES))
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--accuracy-level", type=int, default=0)
    args = parser.parse_args()
    cfg = Config(args.size)
    os.makedirs(args.folder, exist_ok=True)
    forms = [f for f in args.forms.split(",") if f]
    for form in forms:
        if form not in FORMS:
            sys.exit(f"make_llm_models.py: unknown form {form}")
    paths = {f: os.path.join(args.folder, f"llm_{cfg.name}_{f}.onnx") for f in forms}
    if "ort" in paths and args.accuracy_level != 0:
        paths["ort"] = os.path.join(args.folder,
                                    f"llm_{cfg.name}_ort_acc{args.accuracy_level}.onnx")
    forms = [f for f in forms if args.force or not os.path.exists(paths[f])]
    if not forms:
        print(f"llm_{cfg.name}: all forms present (--force to rewrite)", file=sys.stderr)
        return
    start = time.time()
    models, wants, node_counts, nbytes = {}, {}, {}, {}
    for form in forms:
        t = Text("/output_0" if form == "ort" else "_output_0")
        wanted = {}
        if form == "std":
            head, consts = build_std(cfg, t, wanted)
        elif form == "scatter":
            head, consts = build_std(cfg, t, wanted, CAPACITY)
        elif form == "f32":
            head, consts = build_f32(cfg, t, wanted)
        else:
            head, consts = build_ort(cfg, t, wanted, args.accuracy_level)
        models[form] = onyx.parse_text(head + " {\n" + "\n".join(t.lines) + "\n}\n")
        wants[form] = wanted
        node_counts[form] = len(t.lines)
        nbytes[form] = 0
        for name, value in consts.items():
            models[form].graph.add_initializer(onyx.tensor(value, name=name), name=name)
            nbytes[form] += value.nbytes

    def add(key, kind, value):
        conv = conversions(kind, value, cfg)
        for form in forms:
            for name, how in wants[form].get(key, []):
                array = conv[how]() if callable(conv[how]) else conv[how]
                if how == "int4":
                    tensor = onyx.tensor(array, dtype=onyx.DataType.INT4, name=name)
                    nbytes[form] += (array.size + 1) // 2
                else:
                    tensor = onyx.tensor(np.ascontiguousarray(array), name=name)
                    nbytes[form] += array.nbytes
                models[form].graph.add_initializer(tensor, name=name)

    add("rotary", "rotary", None)
    for key, (kind, value) in weights(cfg):
        if kind == "embed":
            add("embed", kind, value)
            # The tied head: the table transposed, [hidden, vocab], quantized along hidden.
            add("lm_head", "matrix", np.ascontiguousarray(value.T))
        else:
            add(key, kind, value)
        del value
    for form in forms:
        model = models[form]
        if form != "ort":  # onyx checks standard operators only
            errors = [d for d in onyx.check(model) if str(d.severity).lower().endswith("error")]
            if errors:
                sys.exit(f"{paths[form]}: {errors[:5]}")
        data = None
        if nbytes[form] > EXTERNAL_ABOVE or form != "f32":
            data = os.path.basename(paths[form]) + ".data"
            data_path = os.path.join(args.folder, data)
            if os.path.exists(data_path):
                os.remove(data_path)
        onyx.save(model, paths[form], external_data=data, size_threshold=1024)
        on_disk = os.path.getsize(paths[form])
        if data:
            on_disk += os.path.getsize(os.path.join(args.folder, data))
        print(f"{paths[form]}: {node_counts[form]} nodes, {len(model.graph.initializers)} "
              f"initializers, {on_disk / 1e6:.1f} MB"
              f"{' (external data: ' + data + ')' if data else ''}", file=sys.stderr)
        del models[form]
    print(f"llm_{cfg.name}: {time.time() - start:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
