#include "support/text_samples.h"

namespace onyx::testing {

const std::vector<TextSample>& textSamples() {
  static const std::vector<TextSample> kSamples = {
      {"minimal", R"(tiny (float x) => (float y) { y = Neg(x) })"},

      {"header",
       R"(<
  ir_version: 9,
  opset_import: ["" : 19, "ai.onnx.ml" : 3],
  producer_name: "hand",
  producer_version: "0.1",
  domain: "org.example",
  model_version: 42,
  doc_string: "A model written by hand.",
  metadata_props: ["author" : "someone", "license" : "none"]
>
scale (float[B, 8] input) => (float[B, 8] output) {
  output = Mul(input, input)
})"},

      {"repeated_header_keys",
       R"(<ir_version: 3, ir_version: 8, opset_import: ["" : 13], opset_import: ["x.y" : 1],
  metadata_props: [], metadata_props: ["k" : "v"], doc_string: "first", doc_string: "last">
g () => () {})"},

      {"mlp",
       R"(<ir_version: 8, opset_import: ["" : 17]>
mlp (float[batch, 784] image, float[784, 128] w1, float[128] b1) => (float[batch, 10] scores)
<float[128, 10] w2 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, float[10] b2 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
 float[batch, 128] hidden>
{
  product = MatMul(image, w1)
  biased = Add(product, b1)
  hidden = Relu(biased)
  logits = Gemm <alpha = 1.0, beta = 1.0, transB = 0> (hidden, w2, b2)
  scores = Softmax <axis = -1> (logits)
})"},

      {"every_type",
       R"(types (float a, uint8 b, int8 c, uint16 d, int16 e, int32 f, int64 g, string h,
       bool i, float16 j, double k, uint32 l, uint64 m, complex64 n, complex128 o,
       bfloat16 p, float8e4m3fn q, float8e4m3fnuz r, float8e5m2 s, float8e5m2fnuz t,
       uint4 u, int4 v, float4e2m1 w, float8e8m0 x, uint2 y, int2 z) => () {})"},

      {"type_forms",
       R"(forms (float scalar, float[] unranked, float[N, ?, "a + b", 3, -1] mixed,
       seq(float[N]) sequence, seq(seq(int64[])) nested, map(string, float[2]) table,
       map(int64, seq(optional(bool))) deep, optional(float[N]) maybe,
       sparse_tensor(float[100, 100]) sparse, sparse_tensor(int8) sparse_scalar,
       sparse_tensor(float[]) sparse_unranked, opaque() o1, opaque(Thing) o2,
       opaque(com.example, Thing) o3, opaque(com.example.Thing) o4) => (float[N] out)
{
  out = Identity(scalar)
})"},

      {"initializers",
       R"(inits (float[2] x, float bias = {0.5}) => (float[2] y)
<int64[2] shape = {-9223372036854775808, 9223372036854775807},
 uint64[3] big = {18446744073709551615, 0, -1}, uint32[1] u32 = {4294967295},
 double[3] precise = {1.5, -1e300, 4.9e-324}, string[2] words = {"plain", "with \"quotes\" and \\"},
 int8[2] small = {-128, 127}, uint8[2] bytes = {0, 255}, bool[2] flags = {1, 0},
 float16[1] half = {15360}, bfloat16[1] brain = {16256}, float8e4m3fn[1] f8 = {56},
 int4[2] nibbles = {-8, 7}, complex64[2] c64 = {1, -2.5}, complex128[2] c128 = {0.5, 2},
 float[0] nothing = {}, int32[2] declared_only =,
 float[1000, 1000] stored = ["location" : "weights.bin", "offset" : "4096", "length" : "4000000"],
 float[2] annotated>
{
  y = Add(x, bias)
})"},

      {"number_spellings",
       R"(numbers () => ()
<float[12] f = {1e1, 2.0e-1, 3.1E-1, 4E+1, 5.5e-10, inf, -inf, nan, -nan, Infinity, 1., 007},
 double[2] tiny = {1e-320, 1e308}, float[2] underflow = {1e-40, 1e-50}>
{
  c = Constant <a = 0.625, b = -0, c = 1e-3, d = -0.0, e = 12, f: float = 3, g: float = -0,
                h = inf, i = -inf, j = NaN, k = -nan, l = INFINITY, m = -9223372036854775808> ()
})"},

      {"attributes",
       R"(attrs (float[N] x) => (float[N] y) {
  y = Custom <i = 7, f = 0.5, s = "text", ints = [1, 2, 3], floats = [0.5, 1, 2],
              strings = ["a", "b"], typed_floats: floats = [1, 2], typed_int: int = 4,
              int_list_of_singleton: int = [1, 2], empty_ints: ints = [], empty_strings: strings = [],
              empty_floats: floats = [], t = float[3] {1, 2, 3}, named_t = int64[2] shape {4, 5},
              t_with_equals = float[2] = {1, 2}, scalar_t = double {2.5},
              tp = float[N, 3], tp_seq = seq(int64[]), g = body () => (z) { z = Identity(x) }> (x)
})"},

      {"attribute_lists_of_messages",
       R"(messages () => () {
  c = Custom <types = [float, int64[2], seq(float)], tensors = [float[1] {1}, float[2] b {2, 3}],
              graphs = [first () => () {}, second (a) => (a) {}],
              no_tensors: tensors = [], no_graphs: graphs = [], no_types: type_protos = []> ()
})"},

      {"nodes",
       R"(nodes (a, b) => (out) {
  x1 = Op(a, , b)
  x2 = Op( , b)
  x3 = Op("", b)
  x4 = Op(a,)
  x5 = Op(,)
  x6 = Op()
  = NoOutputs(a)
  p, , q = Split(a)
  [label] x7 = Op(a)
  ["a label with spaces"] x8 = Op(a)
  [] x9 = Op(a)
  x10 = com.example.Op(a)
  x11 = com . example # a comment between the parts
        . Op(a)
  x12 = .Op(a)
  x13 = (a)
  x14 = Op:variant(a)
  x15 = dom.Op:variant <k = 1> (a)
  x16 = Op (a) <k = 2>
  "x/17" = Op("a")
  "x\"18" = Op("b")
  out = Sum(x1, x2, x3, x4, x5, x6, p, q, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16)
})"},

      {"subgraphs",
       R"(<ir_version: 8, opset_import: ["" : 16]>
control (bool cond, int64 trips, float[4] seed) => (float[4] result, float[4] last) {
  result = If (cond) <
    then_branch = yes () => (float[4] a) { a = Identity(seed) },
    else_branch = no () => (float[4] b) { b = Neg(seed) }>
  last, scan = Loop (trips, cond, seed) <body = step (int64 i, bool c, float[4] acc) => (bool c2, float[4] acc2, float[4] out)
      <float[4] one = {1, 1, 1, 1}> {
    c2 = Identity(c)
    acc2 = Add(acc, one)
    out = If (c) <then_branch = inner () => (x) { x = Identity(result) },
                  else_branch = inner2 () => (x) { x = Identity(acc2) }>
  }>
})"},

      {"functions",
       R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
main (float[N] x) => (float[N] y, float[N] z) {
  t = lib.Scaled <alpha = 2.0> (x)
  y = lib.Twice(t)
  z = lib.Twice:alt(t)
}
<opset_import: ["" : 18], domain: "lib", doc_string: "Multiplies by alpha, plus gamma.">
Scaled <alpha: float = 1.5, gamma, "odd name", sizes: ints = [1, 2], mode = "fast"> (X) => (Y) {
  a = Constant <value_float: float = @alpha> ()
  g = Constant <value_float = @gamma> ()
  o = Constant <value_string = @"odd name"> ()
  prod = Mul(a, X)
  Y = Add(prod, g)
}
<domain: "lib", opset_import: ["" : 18]>
Twice (float[N] in, scale) => (float[N] out) <float[N] tmp, other> {
  tmp = Add(in, in)
  out = Identity(tmp)
}
<domain: "lib", overload: "alt", opset_import: ["" : 18]>
Twice (in) => (out) { out = Add(in, in) }
"quoted function" ("#in") => ("!out") { "!out" = Identity("#in") }
empty () => () {})"},

      {"quoted_names",
       R"("a graph name" (float[N] "input/0", float[N] "input 1") => (float[N] "out:0") {
  "tmp/mul" = Mul("input/0", "input 1")
  "out:0" = Identity("tmp/mul")
})"},

      {"comments_everywhere",
       R"(# before the header
<ir_version: 8 # after a value
, opset_import: ["" : 13]> # after the header
commented # after the name
(x) # after the inputs
=> (y) # after the outputs
{
  # a comment line
  y = Identity(x) # after a node
} # after the graph
# at the very end, with no newline)"},

      {"graph_without_input_list",
       R"(noinputs => (float[2] c) { c = Constant <value = float[2] {1, 2}> () })"},

      {"printer_forms",
       R"(<
   ir_version: 8,
   opset_import: ["" : 13]
>
printed (float[2] x) => (float[2] y) 
   <float[2] w =  {1,2}, string[0] none = }>
{
   [n0] y = Add (x, w)
   c = Constant <value: tensor = float[2] "odd name" {1,2}, s: strings = ], f: float = 1>()
   z = If (x) <then_branch: graph = "graph name" () => (float[2] a) {
      a = Identity (x)
   }, else_branch: graph = "" () => (float[2] b) {
      b = Identity (x)
   }>
})"},
  };
  return kSamples;
}

}  // namespace onyx::testing
