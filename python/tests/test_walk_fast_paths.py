"""The node iterator and the properties a walk reads on every node (Node.op_type, inputs,
outputs, Value.name) are C API slots and descriptors rather than pybind11 functions (see
fast_objects.cc): they must behave as the rest of the bindings, errors included."""

import gc

import pytest

import onyx


def test_iterator_is_its_own_iterator_and_stays_exhausted(arith_model):
    walk = iter(arith_model.graph)
    assert iter(walk) is walk
    assert [node.op_type for node in walk] == ["Add", "Mul"]
    with pytest.raises(StopIteration):
        next(walk)
    with pytest.raises(StopIteration):
        next(walk)


def test_iterator_keeps_its_model_alive(conv_model):
    walk = iter(conv_model.graph)
    del conv_model
    gc.collect()
    assert [node.op_type for node in walk] == ["Conv", "Relu"]


def test_iterator_at_an_inlined_call_is_stale():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17, "local" : 1]>
        g (float[2] x) => (float[2] y) { y = local.Twice (x) }
        <domain: "local", opset_import: ["" : 17]>
        Twice (a) => (b) { b = Add (a, a) }
        """
    )
    walk = iter(model.graph)
    onyx.inline_functions(model)
    with pytest.raises(onyx.StaleReferenceError):
        next(walk)


def test_properties_read_as_before(conv_model):
    conv, relu = conv_model.graph
    assert conv.op_type == "Conv" and relu.op_type == "Relu"
    assert [v.name for v in conv.inputs] == ["x", "w", "b"]
    assert [v.name for v in conv.outputs] == ["conv"]
    assert relu.inputs == conv.outputs
    assert isinstance(conv.inputs, tuple)
    for name in ("op_type", "inputs", "outputs"):
        assert getattr(onyx.Node, name).__doc__
    assert onyx.Value.name.__doc__


def test_omitted_optional_input_is_none():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[N,4] x, int64[2] shape) => (float[N,4] y) { y = Clip (x, , shape) }
        """
    )
    (clip,) = model.graph
    assert [None if v is None else v.name for v in clip.inputs] == ["x", None, "shape"]


def test_renaming_a_value_through_the_descriptor(arith_model):
    graph = arith_model.graph
    add = graph.node(0)
    add.outputs[0].name = "total"
    assert [v.name for v in graph.outputs] == ["total", "product"]
    with pytest.raises(TypeError, match="str"):
        add.outputs[0].name = 3
    with pytest.raises(AttributeError):
        del add.outputs[0].name
    with pytest.raises(onyx.OnyxError):
        add.outputs[0].name = "product"  # taken
    assert add.outputs[0].name == "total"


def test_removed_node_raises_through_the_descriptors(arith_model):
    graph = arith_model.graph
    neg = graph.add_node("Neg", [graph.inputs[0]])
    graph.remove(neg)
    for name in ("op_type", "inputs", "outputs"):
        with pytest.raises(onyx.StaleReferenceError, match="removed"):
            getattr(neg, name)


def test_descriptors_refuse_other_objects():
    with pytest.raises(TypeError):
        onyx.Node.op_type.__get__(object())
    with pytest.raises(TypeError):
        onyx.Value.name.__set__(object(), "x")
