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

import concurrent.futures
import threading

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
    _difference,
    _draw,
    _draw_format_of_path,
    check,
    check_node,
    check_tensor,
    convert_opset,
    cost,
    default_passes,
    extract,
    infer,
    inline_functions,
    load,
    load_value,
    merge,
    optimize,
    parse_graph,
    parse_node,
    parse_text,
    passes,
    save,
    set_dims,
    to_float16,
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
    "compare",
    "convert_opset",
    "cost",
    "default_passes",
    "draw",
    "extract",
    "from_onnx",
    "infer",
    "inline_functions",
    "load",
    "load_value",
    "merge",
    "optimize",
    "parse_graph",
    "parse_node",
    "parse_text",
    "passes",
    "save",
    "set_dims",
    "to_float16",
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

_async_runs = None
_async_runs_made = threading.Lock()


def _run_async(self, output_names, feeds, *, timeout=None, memory_limit=None, outputs=None):
    """As run(), on a thread of onyx's own: a concurrent.futures.Future of the outputs.

    Session.run frees the interpreter while it runs, so several of these run at once.
    Future.cancel() stops a run that has not started; Session.cancel() stops those running.
    """
    global _async_runs
    with _async_runs_made:
        if _async_runs is None:
            _async_runs = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="onyx-run")
    return _async_runs.submit(
        self.run,
        output_names,
        feeds,
        timeout=timeout,
        memory_limit=memory_limit,
        outputs=outputs,
    )


Session.run_async = _run_async


def _every_value(model):
    """A copy of `model` whose main graph outputs every node's outputs after its own."""
    copy = model.clone()
    names = [value.name for value in copy.graph.outputs]
    seen = set(names)
    for node in copy.graph:
        for value in node.outputs:
            if value is not None and value.name and value.name not in seen:
                names.append(value.name)
                seen.add(value.name)
    extract(copy, inputs=[value.name for value in copy.graph.inputs], outputs=names)
    return copy


def compare(a, b, feeds, *, rtol=1e-4, atol=1e-5):
    """Runs models `a` and `b` on `feeds` with every node's outputs kept, as `onyx compare` does,
    and compares the values both name, in `a`'s node order.

    Returns a list with one dict per value compared: value, node (its name), op_type, index
    (of the node in a's main graph), largest (absolute difference), relative, and beyond (some
    element differs by more than rtol * max(|x|, |y|) + atol, or is NaN against a number; also
    true when the shapes or types differ, two floating-point types being compared by value),
    measured by the same code as `onyx compare`. The first with beyond
    true is where the two part ways. A float feed is given to each model in the float format
    its input declares (a float16 model against its float32 original).
    """
    import numpy as np

    ours = _every_value(a)
    theirs = _every_value(b)
    floats = {DataType.FLOAT16: np.float16, DataType.FLOAT: np.float32, DataType.DOUBLE: np.float64}

    def fed(model):
        # A float feed takes the model's float format: a float16 model against its original.
        taken = {}
        for v in model.graph.inputs:
            if v.name in feeds:
                x = feeds[v.name]
                real = isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.floating)
                taken[v.name] = x.astype(floats[v.dtype]) if real and v.dtype in floats else x
        return taken

    mine = dict(zip([v.name for v in ours.graph.outputs], Session(ours).run(None, fed(ours))))
    other = dict(zip([v.name for v in theirs.graph.outputs], Session(theirs).run(None, fed(theirs))))
    rows = []
    for index, node in enumerate(a.graph):
        for value in node.outputs:
            if value is None or value.name not in mine or value.name not in other:
                continue
            x, y = mine[value.name], other[value.name]
            row = {"value": value.name, "node": node.name, "op_type": node.op_type,
                   "index": index, "largest": 0.0, "relative": 0.0, "beyond": False}
            if isinstance(x, np.ndarray) and isinstance(y, np.ndarray):
                # Measured as `onyx compare` measures (onyx/eval/value_difference.h).
                largest, relative, beyond, mismatch = _difference(x, y, rtol, atol)
                if mismatch and (x.shape != y.shape or x.dtype != y.dtype):
                    largest = relative = float("inf")  # not comparable element by element
                row.update(largest=largest, relative=relative, beyond=beyond or bool(mismatch))
            rows.append(row)
    return rows


def draw(model, path=None, *, format=None, depth=None, collapse=(), diff=None, title=""):
    """A picture of `model`: SVG, Graphviz DOT or a self-contained HTML page.

    With `path`, writes it there (the format follows the extension unless `format` says) and
    returns None; without, returns its text (SVG unless `format` says). Nodes are grouped by
    name scope, function call and subgraph; `depth` levels of them show (1: the main
    graph's boxes, its groups collapsed; by default the most levels that show at most 400
    boxes), and the scopes starting with one of `collapse` stay collapsed. With `diff`, an older version of the model: the picture shows
    `model` against it, with added, removed and changed nodes coloured.
    """
    if format is None:
        format = "svg"
        if path is not None:
            format = _draw_format_of_path(str(path))
            if format is None:
                raise ValueError(f"cannot tell the format from {path!r}: use .svg, .dot or .html")
    picture = _draw(model, format, depth, list(collapse), diff, title)
    if path is None:
        return picture
    with open(path, "w", encoding="utf-8") as file:
        file.write(picture)
    return None


def _model_svg(model):
    return draw(model, format="svg")


def _model_html(model):
    # Notebooks show the static picture: scripts in outputs do not run in untrusted notebooks.
    return '<div style="max-height: 800px; overflow: auto">' + draw(model, format="svg") + "</div>"


Model._repr_svg_ = _model_svg
Model._repr_html_ = _model_html
