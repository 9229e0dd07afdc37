"""Reading and writing models: load, save, bytes, text, onnx interop, reprs."""

import os

import numpy as np
import pytest

import onyx
from conftest import ADD_MUL, CALLS_TWICE, CONV_RELU


def test_parse_text_gives_the_graph(conv_model):
    assert conv_model.ir_version == 8
    assert conv_model.opset_imports == {"": 17}
    assert conv_model.producer_name == "tests"
    assert [node.op_type for node in conv_model.graph] == ["Conv", "Relu"]
    assert len(conv_model.graph) == 2


def test_save_and_load_round_trip_is_byte_identical(tmp_path, conv_model):
    path = tmp_path / "net.onnx"
    onyx.save(conv_model, path)
    first = path.read_bytes()
    loaded = onyx.load(path)
    again = tmp_path / "again.onnx"
    onyx.save(loaded, str(again))
    assert again.read_bytes() == first
    assert loaded.to_bytes() == first


def test_load_from_bytes(conv_model):
    data = conv_model.to_bytes()
    for source in (data, bytearray(data), memoryview(data)):
        model = onyx.load(source)
        assert [node.op_type for node in model.graph] == ["Conv", "Relu"]


def test_external_data_is_written_and_read_back(tmp_path, conv_model):
    path = tmp_path / "net.onnx"
    onyx.save(conv_model, path, external_data="net.data", size_threshold=16)
    assert (tmp_path / "net.data").exists()
    loaded = onyx.load(path)
    weights = loaded.graph.initializers["w"].const_value
    assert weights.is_external
    np.testing.assert_array_equal(
        weights.numpy(), conv_model.graph.initializers["w"].const_value.numpy()
    )
    inline = tmp_path / "inline.onnx"
    onyx.save(loaded, inline, all_inline=True)
    assert not onyx.load(inline).graph.initializers["w"].const_value.is_external


def test_text_round_trip(conv_model):
    text = conv_model.to_text()
    assert "Conv" in text and "[conv1]" in text
    assert onyx.parse_text(text).to_bytes() == conv_model.to_bytes()


def test_reprs(conv_model):
    graph = conv_model.graph
    assert repr(conv_model) == "<onyx.Model ir_version=8 opsets=ai.onnx:17 nodes=2>"
    assert repr(graph) == "<onyx.Graph 'net' nodes=2>"
    assert repr(graph.node(0)) == "<onyx.Node Conv 'conv1'>"
    assert repr(graph.inputs[0]) == "<onyx.Value 'x' float[N,3,8,8]>"
    assert repr(graph.initializers["b"].const_value) == "<onyx.Tensor 'b' FLOAT[4]>"
    kernel = graph.node(0).attributes["kernel_shape"]
    assert repr(kernel) == "<onyx.Attribute kernel_shape=[3, 3]>"
    assert repr(graph.inputs[0].type) == "<onyx.Type float[N,3,8,8]>"


def test_model_metadata_can_be_changed(arith_model):
    arith_model.producer_name = "me"
    arith_model.producer_version = "1.0"
    arith_model.ir_version = 9
    arith_model.set_opset("com.example", 2)
    again = onyx.load(arith_model.to_bytes())
    assert (again.producer_name, again.producer_version, again.ir_version) == ("me", "1.0", 9)
    assert again.opset_imports == {"": 17, "com.example": 2}


def test_clone_is_independent(arith_model):
    copy = arith_model.clone()
    copy.graph.node(0).name = "renamed"
    assert arith_model.graph.node(0).name == ""
    assert copy.graph.node(0).name == "renamed"


def test_onnx_interop(conv_model):
    onnx = pytest.importorskip("onnx", reason="the onnx package (python3-onnx) is not installed")
    proto = conv_model.to_onnx()
    assert isinstance(proto, onnx.ModelProto)
    assert [node.op_type for node in proto.graph.node] == ["Conv", "Relu"]
    back = onyx.from_onnx(proto)
    assert back.to_bytes() == conv_model.to_bytes()


def test_functions_are_listed():
    model = onyx.parse_text(CALLS_TWICE)
    (function,) = model.functions
    assert (function.domain, function.name) == ("local", "Twice")
    assert [node.op_type for node in function] == ["Add"]
    assert [value.name for value in function.inputs] == ["a"]
    assert repr(function) == "<onyx.Function 'local.Twice'>"


def test_text_and_file_sources_agree(tmp_path):
    path = tmp_path / "arith.onnx"
    onyx.save(onyx.parse_text(ADD_MUL), os.fspath(path))
    assert onyx.load(path).to_text() == onyx.parse_text(ADD_MUL).to_text()
    assert onyx.parse_text(CONV_RELU).graph.name == "net"


def test_metadata_and_doc_string(arith_model):
    assert arith_model.metadata_props == {} and arith_model.doc_string is None
    arith_model.set_metadata("exporter", "tests")
    arith_model.set_metadata("version", "1")
    arith_model.set_metadata("version", "2")
    arith_model.doc_string = "adds and multiplies"
    again = onyx.load(arith_model.to_bytes())
    assert again.metadata_props == {"exporter": "tests", "version": "2"}
    assert again.doc_string == "adds and multiplies"
    assert again.remove_metadata("exporter") and not again.remove_metadata("exporter")
    assert again.metadata_props == {"version": "2"}
