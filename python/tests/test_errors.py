"""Bad input raises a Python exception that says what is wrong; it never crashes."""

import gc

import numpy as np
import pytest

import onyx
from conftest import ADD_MUL


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing.onnx"):
        onyx.load(tmp_path / "nothing.onnx")
    with pytest.raises(FileNotFoundError, match="nothing.pb"):
        onyx.load_value(tmp_path / "nothing.pb")
    with pytest.raises(FileNotFoundError, match="folder"):
        onyx.save(onyx.parse_text(ADD_MUL), tmp_path / "no" / "folder" / "m.onnx")


def test_a_folder_is_not_a_model(tmp_path):
    with pytest.raises(onyx.OnyxError, match="is a directory, not a regular file"):
        onyx.load(tmp_path)


def test_damaged_bytes_say_where(conv_model):
    data = conv_model.to_bytes()
    with pytest.raises(onyx.OnyxError) as caught:
        onyx.load(data[: len(data) // 2])
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.code == "malformed" and error.offset is not None
    assert "at byte" in str(error)


def test_damaged_file(tmp_path, conv_model):
    data = bytearray(conv_model.to_bytes())
    data[3] ^= 0xFF
    path = tmp_path / "damaged.onnx"
    path.write_bytes(bytes(data[:-7]))
    with pytest.raises(onyx.OnyxError, match="damaged.onnx"):
        onyx.load(path)


def test_every_truncation_is_an_error_or_a_model(conv_model):
    data = conv_model.to_bytes()
    for end in range(0, len(data), 7):
        try:
            onyx.load(data[:end])
        except onyx.OnyxError:
            pass


def test_bad_text_names_line_and_column():
    with pytest.raises(onyx.OnyxError, match="line 1, column"):
        onyx.parse_text("<ir_version: 8> g (float x) => (float y) { y = }")


def test_node_outlives_the_model_variable(conv_model):
    node = conv_model.graph.node(0)
    del conv_model
    gc.collect()
    assert node.op_type == "Conv"  # the node keeps its model alive
    assert node.inputs[0].name == "x"


def test_removed_node_and_value_are_stale(arith_model):
    graph = arith_model.graph
    neg = graph.add_node("Neg", [graph.inputs[0]])
    out = neg.outputs[0]
    graph.remove(neg)
    with pytest.raises(onyx.StaleReferenceError, match="removed"):
        neg.inputs
    with pytest.raises(ReferenceError):
        out.uses()
    with pytest.raises(ReferenceError):
        neg.set_attribute("alpha", 1.0)
    assert repr(neg) == "<onyx.Node Neg (removed)>"


def test_mixing_models_is_refused(arith_model):
    other = arith_model.clone()
    with pytest.raises(ValueError, match="another model"):
        arith_model.graph.add_node("Neg", [other.graph.inputs[0]])
    with pytest.raises(ValueError, match="different models"):
        arith_model.graph.inputs[0].replace_all_uses_with(other.graph.inputs[0])


def test_model_that_cannot_run_says_why():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17, "custom" : 1]>
        g (float[2] x) => (float[2] y) { y = custom.Mystery (x) }
        """
    )
    with pytest.raises(onyx.OnyxError, match="Mystery"):
        onyx.Session(model).run(None, {"x": np.zeros(2, np.float32)})


def test_walk_stops_when_the_next_node_is_removed(arith_model):
    graph = arith_model.graph
    extra = graph.add_node("Neg", [graph.inputs[0]])
    walk = iter(graph)
    next(walk)
    next(walk)  # the Mul; the walk will go on to `extra`
    graph.remove(extra)
    with pytest.raises(onyx.StaleReferenceError):
        next(walk)


def test_arguments_of_the_wrong_kind_are_type_errors(arith_model, tmp_path):
    graph = arith_model.graph
    with pytest.raises(TypeError):
        graph.add_node("Neg", [graph.inputs[0]], before="not a node")
    with pytest.raises(TypeError):
        graph.node(1.5)
    with pytest.raises(TypeError):
        graph.add_node("Neg", ["a"])
    with pytest.raises(TypeError):
        onyx.load_value(b"", type=3)
    with pytest.raises(TypeError):
        graph.node(0).name = 3
