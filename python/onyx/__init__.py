"""onyx: ONNX models in Python, over onyx's C++ model.

Loading maps the file and decodes it in C++; nodes, values and tensors are views of the C++
objects (a tensor's numpy() shares its bytes), and check, infer, optimize, convert_opset and Session work on
the model in place, with no serialisation between Python and C++.

    import onyx
    model = onyx.load("model.onnx")
    for node in model.graph:
        print(node.op_type, [v.name for v in node.inputs if v is not None])
    outputs = onyx.Session(model).run(None, {"x": x})
"""

from ._onyx import __version__  # noqa: F401  (re-exported)
from ._onyx import (  # noqa: F401  (re-exported)
    Attribute,
    CheckError,
    DataType,
    Diagnostic,
    Function,
    Graph,
    Model,
    Node,
    OnyxError,
    Patch,
    Session,
    StaleReferenceError,
    Tensor,
    Type,
    Value,
    check,
    check_node,
    check_tensor,
    convert_opset,
    default_passes,
    infer,
    inline_functions,
    load,
    load_value,
    optimize,
    parse_graph,
    parse_node,
    parse_text,
    passes,
    save,
    tensor,
    verify,
)

__all__ = [
    "Attribute",
    "CheckError",
    "DataType",
    "Diagnostic",
    "Function",
    "Graph",
    "Model",
    "Node",
    "OnyxError",
    "Patch",
    "Session",
    "StaleReferenceError",
    "Tensor",
    "Type",
    "Value",
    "check",
    "check_node",
    "check_tensor",
    "convert_opset",
    "default_passes",
    "from_onnx",
    "infer",
    "inline_functions",
    "load",
    "load_value",
    "optimize",
    "parse_graph",
    "parse_node",
    "parse_text",
    "passes",
    "save",
    "tensor",
    "verify",
]


def from_onnx(model_proto):
    """An onyx Model from an onnx.ModelProto (through its bytes: the one place a copy is made).

    Tensors the proto keeps in external files stay references; `folder` is not known here, so
    load them with onyx.load(path) instead, or give the proto its data first.
    """
    return load(model_proto.SerializeToString())


def _to_onnx(model):
    """The model as an onnx.ModelProto (needs the onnx package; a copy through bytes)."""
    import onnx

    proto = onnx.ModelProto()
    proto.ParseFromString(model.to_bytes())
    return proto


Model.to_onnx = _to_onnx
