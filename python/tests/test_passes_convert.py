"""onyx.convert_opset: in place, all or nothing, every blocking node named."""

import pytest

import onyx


def test_convert_opset_moves_the_import_and_keeps_references():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 14]>
        g (float[2] x) => (float[2] y) {
          y = Relu (x)
        }
        """
    )
    relu = model.graph.node(0)
    done = onyx.convert_opset(model, 13)
    assert done == {"nodes_seen": 1, "nodes_changed": 0, "nodes_expanded": 0}
    assert model.opset_imports[""] == 13
    assert relu.op_type == "Relu"  # the node was converted in place
    assert onyx.check(model) == []


def test_a_refused_conversion_names_each_node_and_changes_nothing():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 14]>
        g (int8[2] a, int8[2] b) => (int8[2] y, int8[2] z) {
          y = Relu (a)
          z = Relu (b)
        }
        """
    )
    before = model.to_bytes()
    with pytest.raises(onyx.OnyxError) as raised:
        onyx.convert_opset(model, 13)
    message = str(raised.value)
    assert "graph.node[0]: Relu 14 to 13" in message
    assert "graph.node[1]: Relu 14 to 13" in message
    assert model.to_bytes() == before


def test_an_operator_the_target_lacks_becomes_its_function_body():
    model = onyx.parse_text(
        """
        <ir_version: 9, opset_import: ["" : 20]>
        g (float[3] x) => (float[3] y) {
          y = Gelu (x)
        }
        """
    )
    gelu = model.graph.node(0)
    done = onyx.convert_opset(model, 13)
    assert done["nodes_expanded"] == 1
    assert "Gelu" not in [node.op_type for node in model.graph]
    assert onyx.check(model) == []
    with pytest.raises(onyx.StaleReferenceError):
        gelu.op_type
