"""check, infer, optimize and inline_functions on models in memory."""

import pathlib

import numpy as np
import pytest

import onyx
from conftest import CALLS_TWICE, onyx_tool, run_onyx_tool

UNTYPED = """
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x, float[3,4] w) => (float[2,4] y) {
  h = MatMul (x, w)
  y = Relu (h)
}
"""


def test_check_lists_every_problem(arith_model):
    assert onyx.check(arith_model) == []
    arith_model.graph.node(0).set_attribute("bogus", 1)
    diagnostics = onyx.check(arith_model)
    assert len(diagnostics) == 1
    (problem,) = diagnostics
    assert problem.severity == "error" and problem.rule.startswith("R")
    assert problem.path.startswith("graph.node[0]")
    assert str(problem).startswith("error " + problem.rule)


def test_check_raising_form_carries_rule_and_path(arith_model):
    onyx.check(arith_model, raise_errors=True)  # valid: nothing raised
    arith_model.graph.node(1).set_attribute("bogus", 1)
    with pytest.raises(onyx.CheckError) as caught:
        onyx.check(arith_model, raise_errors=True)
    error = caught.value
    assert isinstance(error, ValueError) and isinstance(error, onyx.OnyxError)
    assert error.rule and error.path.startswith("graph.node[1]")
    assert len(error.diagnostics) == 1 and error.diagnostics[0].rule == error.rule


def test_infer_fills_in_types():
    model = onyx.parse_text(UNTYPED)
    hidden = model.graph.node(0).outputs[0]
    assert hidden.type is None
    assert onyx.infer(model) == []
    assert hidden.shape == (2, 4) and hidden.dtype == onyx.DataType.FLOAT


def test_cost_counts_each_node_once_types_are_inferred():
    model = onyx.parse_text(UNTYPED)
    onyx.infer(model)
    cost = onyx.cost(model)
    # MatMul [2,3] x [3,4]: 2 x 8 results x 3; Relu one a result.
    assert [node["flops"] for node in cost["nodes"]] == [48, 8]
    assert cost["flops"] == 56 and cost["uncounted"] == 0
    assert cost["nodes"][0]["op_type"] == "MatMul" and cost["nodes"][0]["activation_bytes"] == 32
    batch = UNTYPED.replace("float[2,3] x", "float[N,3] x").replace("float[2,4] y", "float[N,4] y")
    untyped = onyx.cost(onyx.parse_text(batch))
    assert untyped["uncounted"] == 2 and untyped["nodes"][0]["flops"] is None


CHAIN = """
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x, float[2] y) => (float[2] z) <float[2] k = {2, 3}> {
  a = Add (x, y)
  b = Mul (a, k)
  z = Relu (b)
}
"""


def test_extract_cuts_the_model_in_place_and_the_part_computes_the_same():
    feeds = {"x": np.array([1, -2], np.float32), "y": np.array([0.5, 0.25], np.float32)}
    (whole,) = onyx.Session(onyx.parse_text(CHAIN)).run(None, feeds)
    first = onyx.parse_text(CHAIN)
    report = onyx.extract(first, outputs=["a"])
    assert report["nodes_kept"] == 1 and report["nodes_removed"] == 2
    assert [v.name for v in first.graph.inputs] == ["x", "y"]
    second = onyx.parse_text(CHAIN)
    onyx.extract(second, inputs=["a"], outputs=["z"])
    assert [node.op_type for node in second.graph] == ["Mul", "Relu"]
    (a,) = onyx.Session(first).run(None, feeds)
    (z,) = onyx.Session(second).run(None, {"a": a})
    np.testing.assert_array_equal(z, whole)


def test_extract_names_what_it_cannot_reach_and_leaves_the_model():
    model = onyx.parse_text(CHAIN)
    before = model.to_bytes()
    with pytest.raises(onyx.OnyxError, match="output 'z': it depends on 'y'"):
        onyx.extract(model, inputs=["x"], outputs=["z"])
    with pytest.raises(onyx.OnyxError, match="defines no value 'nope'"):
        onyx.extract(model, outputs=["nope"])
    assert model.to_bytes() == before


def test_merge_puts_two_halves_back_together():
    feeds = {"x": np.array([1, -2], np.float32), "y": np.array([0.5, 0.25], np.float32)}
    (whole,) = onyx.Session(onyx.parse_text(CHAIN)).run(None, feeds)
    first, second = onyx.parse_text(CHAIN), onyx.parse_text(CHAIN)
    onyx.extract(first, outputs=["a"])
    onyx.extract(second, inputs=["a"], outputs=["z"])
    report = onyx.merge(first, second, connect={"a": "a"}, prefix_b="second/")
    assert report == {"nodes_a": 1, "nodes_b": 2, "conversions": [], "shared_inputs": []}
    assert [v.name for v in first.graph.outputs] == ["second/z"]
    (z,) = onyx.Session(first).run(None, feeds)
    np.testing.assert_array_equal(z, whole)
    with pytest.raises(onyx.OnyxError, match="B defines .z. too"):
        onyx.merge(onyx.parse_text(CHAIN), onyx.parse_text(CHAIN), connect={"z": "x"})


BAKED = """
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,6] x) => (float[2,3,2] y) <int64[3] shape = {2, 3, 2}> {
  y = Reshape (x, shape)
}
"""


def test_set_dims_rewrites_the_baked_batch():
    model = onyx.parse_text(BAKED)
    report = onyx.set_dims(model, {"x:0": "batch"})
    assert report["rewritten"] == ["Reshape"]
    assert str(model.graph.outputs[0].type) == "float[batch,3,2]"
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    (y,) = onyx.Session(model).run(None, {"x": x})
    np.testing.assert_array_equal(y, x.reshape(4, 3, 2))
    with pytest.raises(onyx.OnyxError, match="declares no input 'nope'"):
        onyx.set_dims(model, {"nope:0": 1})


def test_to_float16_converts_in_place_and_computes_nearly_the_same():
    feeds = {"x": np.array([1, -2], np.float32), "y": np.array([0.5, 0.25], np.float32)}
    original = onyx.parse_text(CHAIN)
    (want,) = onyx.Session(original).run(None, feeds)
    model = onyx.parse_text(CHAIN)
    report = onyx.to_float16(model)
    assert report["nodes_converted"] == 3 and report["tensors_converted"] == 1
    assert str(model.graph.inputs[0].type) == "float16[2]"
    half = {name: x.astype(np.float16) for name, x in feeds.items()}
    (got,) = onyx.Session(model).run(None, half)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype(np.float32), want, rtol=1e-2)
    # compare feeds each model in its own float format and compares across formats.
    assert not any(row["beyond"] for row in onyx.compare(original, model, feeds, rtol=1e-2))

    kept = onyx.parse_text(CHAIN)
    report = onyx.to_float16(kept, keep_io_types=True, keep=["Relu"])
    assert report["kept_ops"] == {"Relu": 1} and report["casts_added"] == 3
    assert report["unmatched_keep_ops"] == []
    assert str(kept.graph.outputs[0].type) == "float[2]"
    (same,) = onyx.Session(kept).run(None, feeds)
    assert same.dtype == np.float32
    np.testing.assert_allclose(same, want, rtol=1e-2)


def test_compare_names_the_node_of_a_perturbed_initializer():
    feeds = {"x": np.array([1, -2], np.float32), "y": np.array([0.5, 0.25], np.float32)}
    a = onyx.parse_text(CHAIN)
    b = onyx.parse_text(CHAIN.replace("{2, 3}", "{2, 3.5}"))
    rows = onyx.compare(a, b, feeds)
    assert [row["value"] for row in rows] == ["a", "b", "z"]
    first = next(row for row in rows if row["beyond"])
    assert first["op_type"] == "Mul" and first["value"] == "b"
    assert first["largest"] == 1.75 * 0.5  # a = x + y = [1.5, -1.75], k[1] up by 0.5
    assert not any(row["beyond"] for row in onyx.compare(a, a.clone(), feeds))


def test_compare_measures_as_the_command_line_does():
    # onyx.compare's measure is the C++ one onyx compare uses (onyx/eval/value_difference.h).
    nan = float("nan")
    x = np.array([1.0, nan, 4.0, -2.0], np.float32)
    same_nan = np.array([1.0, nan, 4.5, -2.0], np.float32)
    assert onyx._difference(x, same_nan, 1e-4, 1e-5)[:3] == (0.5, 0.5 / 4.5, True)
    largest, relative, beyond, mismatch = onyx._difference(
        x, np.array([1.0, 0.0, 4.0, -2.0], np.float32), 1e-4, 1e-5)
    assert largest == float("inf") and beyond and mismatch == ""  # NaN against a number
    # Two float formats compare by value; shapes or other types cannot be compared.
    assert onyx._difference(x, x.astype(np.float16), 1e-3, 0)[2] is False
    assert onyx._difference(x, x[:2], 1e-4, 1e-5)[3] != ""
    whole = np.array([1.0, 2.0], np.float32)
    assert onyx._difference(whole, whole.astype(np.int32), 1e-4, 1e-5)[3] != ""


def test_infer_reports_a_conflict():
    model = onyx.parse_text(UNTYPED.replace("float[2,4] y", "float[2,5] y"))
    assert any(d.rule == "R36" for d in onyx.infer(model))


INITIALIZER_AS_INPUT = """
    <ir_version: 8, opset_import: ["" : 8]>
    g (float[2,12] x, int64[2] target) => (y) <int64[2] target = {3, 8}> {
      y = Reshape (x, target)
    }
"""


def test_infer_takes_initializers_listed_as_inputs_as_constants_when_asked():
    model = onyx.parse_text(INITIALIZER_AS_INPUT)
    assert onyx.infer(model) == []
    assert model.graph.outputs[0].shape == (None, None)  # a caller may feed another target
    model = onyx.parse_text(INITIALIZER_AS_INPUT)
    assert onyx.infer(model, constant_initializers=True) == []
    assert model.graph.outputs[0].shape == (3, 8)


def test_strict_infer_reports_a_type_the_operator_does_not_take():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17]>
        g (int32[2] s) => (y) { y = ConstantOfShape (s) }
        """
    )
    assert onyx.infer(model) == []
    found = onyx.infer(model, strict=True)
    assert [diagnostic.rule for diagnostic in found] == ["R51"]
    assert "tensor(int32), which ConstantOfShape-9 does not accept" in found[0].message


SCALED_DEFAULTS = """
    <ir_version: 8, opset_import: ["" : 9]>
    g (float[2] x, float[2] w, float[1] two) => (float[2] y) <float[2] w = {1, 2}, float[1] two = {2}> {
      t = Mul (w, two)
      y = Add (x, t)
    }
"""


def test_optimize_and_session_take_initializers_listed_as_inputs_as_constants_when_asked():
    model = onyx.parse_text(SCALED_DEFAULTS)
    onyx.optimize(model)
    assert [node.op_type for node in model.graph] == ["Mul", "Add"]  # defaults: not folded
    assert onyx.Session(model).input_names == ["x", "w", "two"]
    onyx.optimize(model, constant_initializers=True)
    assert [node.op_type for node in model.graph] == ["Add"]
    session = onyx.Session(model, constant_initializers=True)
    assert session.input_names == ["x"]
    (y,) = session.run(None, {"x": np.array([1, 1], dtype=np.float32)})
    assert y.tolist() == [3, 5]
    with pytest.raises(ValueError, match="no input 'w'"):
        session.run(None, {"x": np.ones(2, np.float32), "w": np.zeros(2, np.float32)})


def test_initializers_not_inputs_takes_them_out_of_the_inputs():
    model = onyx.parse_text(SCALED_DEFAULTS)
    onyx.optimize(model, ["initializers-not-inputs"])
    assert [value.name for value in model.graph.inputs] == ["x"]
    assert "initializers-not-inputs" in onyx.passes()


def test_optimize_folds_and_reports():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[2] x) => (float[2] y) <float[2] a = {1, 2}, float[2] b = {3, 4}> {
          c = Add (a, b)
          y = Mul (x, c)
        }
        """
    )
    report = onyx.optimize(model)
    assert [node.op_type for node in model.graph] == ["Mul"]
    assert report["rounds"] >= 1 and not report["reached_cap"]
    assert sum(p["nodes_removed"] for p in report["passes"].values()) >= 1
    folded = model.graph.node(0).inputs[1].const_value.numpy()
    np.testing.assert_array_equal(folded, [4, 6])
    assert set(onyx.default_passes()) <= set(onyx.passes())
    with pytest.raises(onyx.OnyxError, match="no pass named"):
        onyx.optimize(model, ["no-such-pass"])


def test_inline_functions_makes_old_views_stale():
    model = onyx.parse_text(CALLS_TWICE)
    call = model.graph.node(0)
    report = onyx.inline_functions(model)
    assert report["function_calls"] == 1 and report["functions_removed"] == 1
    assert [node.op_type for node in model.graph] == ["Add"]
    assert model.functions == []
    with pytest.raises(onyx.StaleReferenceError, match="removed"):
        call.op_type
    assert repr(call).endswith("(removed)>")


CALLS_LEAKY = """
<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
g (float[2] x) => (float[2] y) { y = local.Leaky (x) }
<domain: "local", opset_import: ["" : 17]>
Leaky (a) => (b) { b = LeakyRelu <alpha = 0.1> (a) }
"""


def test_optimize_with_inline_makes_old_views_stale():
    # The inline pass rebuilds the model: a node taken from the function body before must not
    # edit the discarded copy silently.
    model = onyx.parse_text(CALLS_LEAKY)
    leaky = next(iter(model.functions[0]))
    assert leaky.op_type == "LeakyRelu"
    onyx.optimize(model, passes=["inline"])
    with pytest.raises(onyx.StaleReferenceError):
        leaky.set_attribute("alpha", 0.5)
    assert [node.op_type for node in model.graph] == ["LeakyRelu"]
    assert "alpha: float = 0.1" in model.to_text()


# For each pass that removes or replaces nodes: a model where it does, and the op type of the
# node it takes away.
def _graph(body, signature="(float[2] x) => (float[2] y)", initializers=""):
    return (
        '<ir_version: 8, opset_import: ["" : 17]>\n'
        f"g {signature} {initializers} {{\n  " + body + "\n}\n"
    )


REMOVING_PASSES = {
    "noop": (_graph("a = Abs (x)\n  b = Identity (a)\n  y = Neg (b)"), "Identity"),
    "dead-code": (_graph("unused = Neg (x)\n  y = Abs (x)"), "Neg"),
    "common-subexpression": (_graph("a = Abs (x)\n  b = Abs (x)\n  y = Add (a, b)"), "Abs"),
    "constant-folding": (
        _graph("c = Constant <value = float[2] {1, 2}> ()\n  d = Neg (c)\n  y = Add (x, d)"),
        "Neg",
    ),
    "constant-to-initializer": (
        _graph("c = Constant <value = float[2] {1, 2}> ()\n  y = Add (x, c)"),
        "Constant",
    ),
    "shape-folding": (
        _graph("s = Shape (x)\n  y = Reshape (x, s)", "(float[2,3] x) => (float[2,3] y)"),
        "Shape",
    ),
    "standard-fusions": (
        _graph(
            "m = MatMul (x, w)\n  y = Add (m, b)",
            "(float[2,2] x) => (float[2,2] y)",
            "<float[2,2] w = {1, 2, 3, 4}, float[2] b = {1, 1}>",
        ),
        "MatMul",
    ),
}


@pytest.mark.parametrize("pass_name", sorted(REMOVING_PASSES))
def test_optimize_makes_views_of_removed_nodes_stale(pass_name):
    text, removed_op = REMOVING_PASSES[pass_name]
    model = onyx.parse_text(text)
    gone = [node for node in model.graph if node.op_type == removed_op][-1]
    report = onyx.optimize(model, passes=[pass_name])
    assert report["passes"][pass_name]["nodes_removed"] >= 1
    with pytest.raises(onyx.StaleReferenceError, match="removed"):
        gone.set_attribute("bogus", 1)


def test_inline_functions_keeps_untouched_views_and_drops_removed_functions():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17, "local" : 1]>
        g (float[2] x) => (float[2] y) {
          r = Relu (x)
          y = local.Twice (r)
        }
        <domain: "local", opset_import: ["" : 17]>
        Twice (a) => (b) { b = Add (a, a) }
        """
    )
    relu = model.graph.node(0)
    twice = model.functions[0]
    body = twice.graph
    onyx.inline_functions(model)
    assert [node.op_type for node in model.graph] == ["Relu", "Add"]
    relu.set_attribute("note", 1)  # still the model's node: the edit lands
    assert model.graph.node(0).attributes["note"].value == 1
    with pytest.raises(onyx.StaleReferenceError, match="removed"):
        list(twice)
    with pytest.raises(onyx.StaleReferenceError, match="removed"):
        list(body)


def test_version_is_the_command_lines():
    assert onyx.__version__.count(".") == 2
    if pathlib.Path(onyx_tool()).exists():  # the build tree: the same version as the command line
        run = run_onyx_tool("--version")
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == "onyx " + onyx.__version__


def test_parse_graph_gives_a_graph_and_names_the_place_of_an_error():
    graph = onyx.parse_graph("agraph (float[2] x) => (float[2] y) { y = Relu (x) }")
    assert [node.op_type for node in graph] == ["Relu"]
    assert graph.outputs[0].name == "y"
    try:
        onyx.parse_graph("agraph (float[2] x => ")
    except onyx.OnyxError as error:
        assert "line 1, column 21" in str(error)
    else:
        raise AssertionError("a broken graph text parsed")


def test_check_node_judges_one_node_at_an_opset():
    relu = onyx.parse_node("y = Relu <alpha: float = 1.0> (x)")
    found = onyx.check_node(relu, 17)
    assert [(diagnostic.rule, diagnostic.path) for diagnostic in found] == [
        ("R47", "node.attribute[0](alpha)")
    ]
    assert onyx.check_node(onyx.parse_node("y = Gemm <transA: int = 1> (a, b)"), 13) == []
    assert [d.rule for d in onyx.check_node(onyx.parse_node("y = Foo (a)"), 13)] == ["R41"]
    # LeakyRelu's alpha has been there from the first version: the same node is valid.
    assert onyx.check_node(onyx.parse_node("y = LeakyRelu <alpha: float = 1.0> (x)"), 6) == []


def test_check_tensor_judges_one_tensor_at_an_ir_version():
    model = onyx.parse_text(
        """
        <ir_version: 10, opset_import: ["" : 21]>
        g (float[2] x) => (float[2] y) <float8e4m3fn[2] w = {56, 64}> { y = Identity (x) }
        """
    )
    tensor = model.graph.initializers["w"].const_value
    assert onyx.check_tensor(tensor) == []
    found = onyx.check_tensor(tensor, ir_version=8)
    assert [(diagnostic.rule, diagnostic.path) for diagnostic in found] == [("R62", "tensor(w).data_type")]


def test_parse_node_gives_one_node():
    node = onyx.parse_node("[scale] y = Mul (x, k)")
    assert (node.op_type, node.name) == ("Mul", "scale")
    assert [value.name for value in node.inputs] == ["x", "k"]
    with pytest.raises(ValueError, match="holds 2 nodes"):
        onyx.parse_node("a = Neg (x)\nb = Neg (a)")
    with pytest.raises(onyx.OnyxError, match="cannot parse the node text"):
        onyx.parse_node("y = (x")
