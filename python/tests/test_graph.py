"""Walking and editing graphs: nodes, values, uses, attributes, patches."""

import numpy as np
import pytest

import onyx


def test_walk_nodes_values_and_uses(conv_model):
    graph = conv_model.graph
    conv, relu = list(graph)
    assert conv.op_type == "Conv" and conv.domain == "" and conv.name == "conv1"
    x, w, b = conv.inputs
    assert [x.name, w.name, b.name] == ["x", "w", "b"]
    assert x.is_graph_input() and not x.is_initializer()
    assert w.is_initializer() and w.const_value.shape == (4, 3, 3, 3)
    assert x.shape == ("N", 3, 8, 8) and x.dtype == onyx.DataType.FLOAT
    (conv_out,) = conv.outputs
    assert conv_out.producer() == conv and conv_out.index() == 0
    assert conv_out.uses() == [(relu, 0)]
    assert conv_out.consumers() == [relu]
    assert relu.outputs[0].is_graph_output()
    assert graph.outputs[0] == relu.outputs[0]
    assert set(graph.initializers) == {"w", "b"}
    assert graph.value("conv") == conv_out and graph.value("missing") is None
    assert graph.node("relu1") == relu and graph.node(-1) == relu
    assert conv.graph == graph and hash(conv) == hash(graph.node(0))


def test_attributes_read_and_written(conv_model):
    conv = conv_model.graph.node("conv1")
    assert conv.attributes["kernel_shape"].value == [3, 3]
    assert conv.attributes["pads"].type == "INTS"
    assert conv.attribute("group", 1) == 1
    conv.set_attribute("group", 1)
    conv.set_attribute("auto_pad", "NOTSET")
    conv.set_attribute("dilations", [1, 1])
    assert conv.attribute("auto_pad") == "NOTSET"
    assert conv.attributes["group"].type == "INT"
    assert conv.remove_attribute("auto_pad") and not conv.remove_attribute("auto_pad")
    relu = conv_model.graph.node("relu1")
    relu.set_attribute("alpha", 0.5)
    relu.set_attribute("scales", [1.0, 2])
    relu.set_attribute("names", ["a", "b"])
    relu.set_attribute("table", np.arange(3, dtype=np.int64))
    assert relu.attribute("alpha") == 0.5
    assert relu.attribute("scales") == [1.0, 2.0]
    assert relu.attribute("names") == ["a", "b"]
    assert relu.attribute("table").numpy().tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match="empty list"):
        relu.set_attribute("nothing", [])
    with pytest.raises(TypeError):
        relu.set_attribute("bad", object())


def test_subgraph_attribute_is_a_graph():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17]>
        g (bool c, float[2] x) => (float[2] y) {
          y = If (c) <then_branch = t () => (float[2] a) { a = Neg (x) },
                      else_branch = e () => (float[2] a) { a = Abs (x) }>
        }
        """
    )
    branch = model.graph.node(0).attribute("then_branch")
    assert isinstance(branch, onyx.Graph)
    assert [node.op_type for node in branch] == ["Neg"]
    assert branch.parent == model.graph
    # A capture from the enclosing graph counts as a use.
    assert (branch.node(0), 0) in model.graph.inputs[1].uses()


def test_add_nodes_edit_and_remove(arith_model):
    graph = arith_model.graph
    a, b = graph.inputs
    total = graph.node(0)
    double = graph.add_node("Add", [total.outputs[0], total.outputs[0]], name="double", after=total)
    assert [node.op_type for node in graph] == ["Add", "Add", "Mul"]
    new_output = double.outputs[0]
    new_output.name = "doubled"
    new_output.type = "float[N]"
    graph.add_output(new_output)
    assert [value.name for value in graph.outputs] == ["sum", "product", "doubled"]
    neg = graph.add_node("Neg", [a], before=total)
    assert graph.node(0) == neg
    total.replace_input_with(0, neg.outputs[0])
    assert total.inputs[0] == neg.outputs[0]
    assert onyx.check(arith_model) == []
    with pytest.raises(onyx.OnyxError):
        graph.remove(neg)  # its output is read
    total.replace_input_with(0, a)
    graph.remove(neg)
    assert [node.op_type for node in graph] == ["Add", "Add", "Mul"]
    assert onyx.check(arith_model) == []


def test_replace_all_uses_with(arith_model):
    graph = arith_model.graph
    a, b = graph.inputs
    a.replace_all_uses_with(b)
    assert a.uses() == []
    assert graph.node(0).inputs == (b, b)


def test_initializers_and_inputs_added(arith_model):
    graph = arith_model.graph
    scale = graph.add_initializer(onyx.tensor(np.full(4, 2.0, np.float32)), name="scale")
    assert graph.initializers["scale"] == scale
    np.testing.assert_array_equal(scale.const_value.numpy(), [2, 2, 2, 2])
    extra = graph.add_input("c", "float[N]")
    assert extra.type.dtype == onyx.DataType.FLOAT and extra.shape == ("N",)
    extra.type = "float[4]"
    assert extra.shape == (4,)
    with pytest.raises(onyx.OnyxError):
        graph.add_input("a", "float[1]")  # the name is taken


def test_patch_replaces_a_node(arith_model):
    graph = arith_model.graph
    mul = graph.node(1)
    a, b = mul.inputs
    before = arith_model.to_bytes()
    with graph.patch() as patch:
        div = patch.add_node("Div", [a, b])
        patch.replace_node(mul, div)
    assert [node.op_type for node in graph] == ["Add", "Div"]
    assert graph.outputs[1].producer().op_type == "Div"
    assert arith_model.to_bytes() != before
    assert onyx.check(arith_model) == []


def test_patch_discarded_on_error_leaves_the_model(arith_model):
    graph = arith_model.graph
    before = arith_model.to_bytes()
    with pytest.raises(RuntimeError):
        with graph.patch() as patch:
            patch.add_node("Neg", [graph.inputs[0]])
            raise RuntimeError("stop")
    assert arith_model.to_bytes() == before
    patch = graph.patch()
    patch.remove_node(graph.node(0))  # its output is a graph output: refused at apply
    with pytest.raises(onyx.OnyxError):
        patch.apply()
    assert arith_model.to_bytes() == before
    with pytest.raises(ValueError, match="applied or discarded"):
        patch.apply()


SQUEEZE_11 = """
<ir_version: 8, opset_import: ["" : 11]>
g (float[1,2] x) => (float[2] y) {
  s = Squeeze <axes = [0]> (x)
  y = Relu (s)
}
"""


def test_patch_changes_nodes_in_place():
    # Squeeze 11 -> 13 as an opset conversion does it: the axes attribute becomes an input.
    model = onyx.parse_text(SQUEEZE_11)
    graph = model.graph
    squeeze, relu = graph
    before = model.to_bytes()
    with graph.patch() as patch:
        axes = patch.add_node(
            "Constant", attributes={"value": np.array([0], dtype=np.int64)}, before=squeeze
        )
        patch.remove_attribute(squeeze, "axes")
        patch.resize_inputs(squeeze, 2)
        patch.set_input(squeeze, 1, axes.outputs[0])
        patch.set_operator(relu, "LeakyRelu")
        patch.set_attribute(relu, "alpha", 0.25)
        assert model.to_bytes() == before  # nothing changes until the block ends
    assert [node.op_type for node in graph] == ["Constant", "Squeeze", "LeakyRelu"]
    assert squeeze.inputs[1].producer().op_type == "Constant"
    assert "axes" not in squeeze.attributes
    assert relu.attributes["alpha"].value == 0.25
    onyx.verify(model)


def test_patch_refuses_an_input_the_node_will_not_have():
    model = onyx.parse_text(SQUEEZE_11)
    squeeze = model.graph.node(0)
    patch = model.graph.patch()
    with pytest.raises(IndexError):
        patch.set_input(squeeze, 1, None)
    patch.resize_inputs(squeeze, 2)
    patch.set_input(squeeze, 1, None)  # allowed once the slot is planned
    patch.discard()
    assert squeeze.inputs == (model.graph.inputs[0],)


def test_sort_restores_order(arith_model):
    graph = arith_model.graph
    a = graph.inputs[0]
    first = graph.node(0)
    neg = graph.add_node("Neg", [a])  # last
    first.replace_input_with(0, neg.outputs[0])
    assert any(d.rule for d in onyx.check(arith_model))
    graph.sort()
    order = list(graph)
    assert order.index(neg) < order.index(first)
    assert onyx.check(arith_model) == []


def test_build_a_model_from_nothing():
    model = onyx.Model(opset_imports={"": 21})
    graph = model.graph
    x = graph.add_input("x", "float[N,4]")
    scale = graph.add_initializer(np.full(4, 3.0, np.float32), name="scale")
    scaled = graph.add_node("Mul", [x, scale], name="scale_it")
    (y,) = graph.add_node("Relu", scaled.outputs).outputs
    y.name = "y"
    y.type = "float[N,4]"
    graph.add_output(y)
    assert onyx.check(model) == []
    (result,) = onyx.Session(model).run(None, {"x": np.array([[1, -1, 2, -2]], np.float32)})
    np.testing.assert_array_equal(result, [[3, 0, 6, 0]])
    assert onyx.load(model.to_bytes()).to_text() == model.to_text()


def test_a_tensor_added_twice_or_from_another_model_is_copied(arith_model, conv_model):
    graph = arith_model.graph
    bias = conv_model.graph.initializers["b"].const_value
    first = graph.add_initializer(bias, name="bias_copy")
    second = graph.add_initializer(first.const_value, name="bias_again")
    assert bias.name == "b" and first.const_value.name == "bias_copy"
    assert second.const_value.name == "bias_again"
    np.testing.assert_array_equal(second.const_value.numpy(), bias.numpy())
    assert onyx.check(arith_model) == [] and onyx.check(conv_model) == []
    x = graph.inputs[0]
    x.type = conv_model.graph.inputs[0].type  # a type of another model is copied too
    assert str(x.type) == "float[N,3,8,8]"


def test_a_values_shape_and_dtype_can_be_set():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[N,3,H,W] x) => (float[N,3,H,W] y) { y = Relu (x) }
        """
    )
    x = model.graph.inputs[0]
    x.shape = [1, 3, 48, 192]  # fixing a dynamic batch and size, the most common edit
    assert x.shape == (1, 3, 48, 192)
    assert str(x.type) == "float[1,3,48,192]"
    assert onyx.check(model, infer=False) == []
    x.dtype = onyx.DataType.FLOAT16
    assert str(x.type) == "float16[1,3,48,192]"
    x.shape = ["batch", None, 48, 192]
    assert x.shape == ("batch", None, 48, 192)
    x.shape = None
    assert x.shape is None and x.dtype == onyx.DataType.FLOAT16
    with pytest.raises(TypeError, match="a shape is a list"):
        x.shape = "1,3"
    with pytest.raises(ValueError, match="cannot be negative"):
        x.shape = [-1]
    sequence = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17]>
        g (seq(float[2]) s) => (seq(float[2]) t) { t = Identity (s) }
        """
    ).graph.inputs[0]
    with pytest.raises(ValueError, match="dtype and shape are a tensor's"):
        sequence.shape = [2]
