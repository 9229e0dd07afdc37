"""Type stubs for the onyx package (the extension module onyx._onyx and onyx/__init__.py)."""

import concurrent.futures
import enum
import os
from typing import Any, Iterator, Mapping, Optional, Sequence, Union

import numpy as np

Path = Union[str, "os.PathLike[str]"]
BytesLike = Union[bytes, bytearray, memoryview]
PythonValue = Union[np.ndarray, list, dict, None]

__version__: str
"""onyx's version, as `onyx --version` prints it ("0.1.0")."""

class OnyxError(ValueError):
    """onyx refused the input: a malformed file, an invalid edit, a model it cannot run."""

    code: str
    """The kind of failure: 'malformed', 'invalid-argument', 'limit-exceeded', 'unsafe-path',
    'not-found', 'unsupported'."""
    path: str
    """The place in the model ('graph.node[3](conv1).attribute[0](pads)'), or ''."""
    offset: Optional[int]
    """For a decoding error, the byte where it was found."""

class CheckError(OnyxError):
    """The model breaks the ONNX rules (check(..., raise_errors=True))."""

    rule: str
    """The rule of the first error ('R29'); docs/checker.md lists them."""
    diagnostics: list[Diagnostic]
    """Everything check() found."""

class StaleReferenceError(ReferenceError):
    """A node, value, graph or function that is no longer part of its model: it was removed
    (a pass or inline_functions removed the node, or the function with its body)."""

class DataType(enum.IntEnum):
    """TensorProto.DataType: an element type, by its code on the wire."""

    UNDEFINED = 0
    FLOAT = 1
    UINT8 = 2
    INT8 = 3
    UINT16 = 4
    INT16 = 5
    INT32 = 6
    INT64 = 7
    STRING = 8
    BOOL = 9
    FLOAT16 = 10
    DOUBLE = 11
    UINT32 = 12
    UINT64 = 13
    COMPLEX64 = 14
    COMPLEX128 = 15
    BFLOAT16 = 16
    FLOAT8E4M3FN = 17
    FLOAT8E4M3FNUZ = 18
    FLOAT8E5M2 = 19
    FLOAT8E5M2FNUZ = 20
    UINT4 = 21
    INT4 = 22
    FLOAT4E2M1 = 23
    FLOAT8E8M0 = 24
    UINT2 = 25
    INT2 = 26

class Diagnostic:
    """One problem found in a model: its rule, severity and place."""

    rule: str
    """'R29', 'X5', ...; '' for a problem no rule names."""
    severity: str
    """'error' or 'warning'."""
    path: str
    """Where: 'graph.node[3](add).input[1]'."""
    message: str

class Tensor:
    """A tensor of a model: its type, dims and elements, which numpy() gives without a copy."""

    name: Optional[str]
    dtype: DataType
    shape: tuple[int, ...]
    size: int
    """The number of elements."""
    is_external: bool
    """Whether its bytes are in an external data file."""
    def numpy(self) -> np.ndarray:
        """The elements as NumPy: a read-only view where the bytes lie as NumPy lays them out,
        else a converted copy. Types NumPy lacks come as their bits (BFLOAT16 as uint16, the
        FLOAT8 types as uint8, 4- and 2-bit types one element per byte)."""
    def __array__(self, dtype: Any = None) -> np.ndarray: ...

class Type:
    """A value's type; str() gives its text ('float[N,3]', 'seq(int64[])')."""

    kind: str
    """'tensor', 'sequence', 'map', 'optional', 'sparse_tensor', 'opaque' or 'none'."""
    dtype: Optional[DataType]
    shape: Optional[tuple[Union[int, str, None], ...]]
    """Dims: int, str for a symbol, None for unknown; None when the rank is unknown."""
    elem_type: Optional[Type]
    """The element type of a sequence or optional, the value type of a map."""

class Attribute:
    """A node's attribute."""

    name: str
    type: str
    """AttributeProto.AttributeType's name: 'INT', 'FLOATS', 'GRAPH', ..."""
    value: Any
    """int, float, str, a list of them, Tensor, Graph, Type or a list of those; None for a
    reference to a function's attribute."""
    ref_attr_name: Optional[str]

class Value:
    """A value of a graph: a node output, a graph input or an initializer."""

    name: str
    """Setting it renames the value everywhere it is read."""
    type: Optional[Type]
    """Set it with an onyx.Type or its text ('float[N,3]')."""
    @property
    def dtype(self) -> Optional[DataType]: ...
    @dtype.setter
    def dtype(self, dtype: Optional[Union[DataType, int]]) -> None:
        """Declares a tensor of that element type, keeping the shape."""
    @property
    def shape(self) -> Optional[tuple[Union[int, str, None], ...]]: ...
    @shape.setter
    def shape(self, shape: Optional[Sequence[Union[int, str, None]]]) -> None:
        """Declares a tensor of that shape (None: unknown rank), keeping the element type."""
    graph: Graph
    const_value: Optional[Tensor]
    """The initializer's tensor, or None."""
    def producer(self) -> Optional[Node]: ...
    def index(self) -> Optional[int]:
        """Which output of its producer it is."""
    def uses(self) -> list[tuple[Node, int]]:
        """Each (node, input index) that reads it, subgraphs' included."""
    def consumers(self) -> list[Node]: ...
    def is_graph_input(self) -> bool: ...
    def is_graph_output(self) -> bool: ...
    def is_initializer(self) -> bool: ...
    def replace_all_uses_with(self, other: Value) -> None: ...

class Node:
    """A node: an operator call with inputs, outputs and attributes."""

    op_type: str
    domain: str
    name: str
    inputs: tuple[Optional[Value], ...]
    """None for an omitted optional input."""
    outputs: tuple[Optional[Value], ...]
    attributes: dict[str, Attribute]
    graph: Graph
    def attribute(self, name: str, default: Any = None) -> Any:
        """The value of attribute `name`, or `default`."""
    def set_attribute(self, name: str, value: Any) -> None:
        """The kind follows the value: int, float, str, a list of one of them, a Tensor or
        NumPy array, a Type."""
    def remove_attribute(self, name: str) -> bool: ...
    def replace_input_with(self, index: int, value: Optional[Value]) -> None: ...

class Graph:
    """A graph: iterating yields its nodes in order."""

    name: Optional[str]
    inputs: list[Value]
    outputs: list[Value]
    initializers: dict[str, Value]
    parent: Optional[Graph]
    def __iter__(self) -> Iterator[Node]: ...
    def __len__(self) -> int: ...
    def node(self, index_or_name: Union[int, str]) -> Node: ...
    def value(self, name: str) -> Optional[Value]:
        """The value `name` resolves to in this graph's scope."""
    def add_node(
        self,
        op_type: str,
        inputs: Sequence[Optional[Value]] = (),
        *,
        outputs: int = 1,
        domain: Optional[str] = None,
        name: Optional[str] = None,
        attributes: Optional[dict[str, Any]] = None,
        before: Optional[Node] = None,
        after: Optional[Node] = None,
    ) -> Node: ...
    def remove(self, node: Node) -> None:
        """Refused (OnyxError) while something reads its outputs."""
    def add_input(self, name: str, type: Union[Type, str, None] = None) -> Value: ...
    def add_output(self, value: Value) -> None: ...
    def add_initializer(self, tensor: Union[Tensor, np.ndarray], name: Optional[str] = None) -> Value: ...
    def sort(self) -> None:
        """Topological order; OnyxError naming a cycle."""
    def patch(self) -> Patch: ...

class Patch:
    """Edits to one graph, applied together after a check of the whole set, or none."""

    def add_node(
        self,
        op_type: str,
        inputs: Sequence[Optional[Value]] = (),
        *,
        outputs: int = 1,
        domain: Optional[str] = None,
        name: Optional[str] = None,
        attributes: Optional[dict[str, Any]] = None,
        before: Optional[Node] = None,
    ) -> Node: ...
    def add_initializer(self, tensor: Union[Tensor, np.ndarray], name: Optional[str] = None) -> Value: ...
    def name_value(self, value: Value, name: str) -> None: ...
    def replace_all_uses_with(self, old: Value, new: Value) -> None: ...
    def set_input(self, node: Node, index: int, value: Optional[Value]) -> None: ...
    def set_operator(self, node: Node, op_type: str, *, domain: str = "") -> None:
        """Gives `node` the operator `op_type` of `domain`, at apply()."""
    def set_attribute(self, node: Node, name: str, value: Any) -> None:
        """Sets attribute `name` of `node` at apply(), as Node.set_attribute does."""
    def remove_attribute(self, node: Node, name: str) -> None:
        """Removes attribute `name` of `node` at apply()."""
    def resize_inputs(self, node: Node, count: int) -> None:
        """Gives `node` `count` input slots at apply() (for set_input)."""
    def remove_node(self, node: Node) -> None: ...
    def replace_node(self, node: Node, replacement: Node) -> None: ...
    def apply(self) -> None: ...
    def discard(self) -> None: ...
    def __enter__(self) -> Patch: ...
    def __exit__(self, *exc: Any) -> bool: ...

class Function:
    """A model-local function; iterating yields its body's nodes."""

    name: str
    domain: str
    overload: str
    inputs: list[Optional[Value]]
    outputs: list[Optional[Value]]
    attributes: list[str]
    graph: Graph
    def __iter__(self) -> Iterator[Node]: ...
    def __len__(self) -> int: ...

class Model:
    """An ONNX model in onyx's memory. Nodes, values and tensors taken from it keep it alive."""

    graph: Optional[Graph]
    ir_version: Optional[int]
    opset_imports: dict[str, int]
    producer_name: Optional[str]
    producer_version: Optional[str]
    functions: list[Function]
    metadata_props: dict[str, str]
    """A new dict each time: change it with set_metadata / remove_metadata."""
    doc_string: Optional[str]
    def set_metadata(self, key: str, value: str) -> None: ...
    def remove_metadata(self, key: str) -> bool: ...
    def __init__(
        self, *, ir_version: int = 10, opset_imports: dict[str, int] = {"": 21}, graph_name: str = "main"
    ) -> None:
        """A new model with an empty main graph."""
    def set_opset(self, domain: str, version: int) -> None: ...
    def to_text(self) -> str: ...
    def to_bytes(self) -> bytes: ...
    def to_onnx(self) -> Any:
        """An onnx.ModelProto (needs the onnx package; a copy through bytes)."""
    def clone(self) -> Model: ...
    def _repr_svg_(self) -> str:
        """The model's picture (onyx.draw), for notebooks."""
    def _repr_html_(self) -> str:
        """The same picture in a scrolling box (no script: notebooks run none from outputs)."""

class Session:
    """A model prepared to run many times; the model must not change while it is used."""

    input_names: list[str]
    output_names: list[str]
    def __init__(
        self,
        model: Model,
        *,
        threads: int = 0,
        threads_per_run: int = 0,
        runs_at_once: int = 0,
        fusions: bool = True,
        seed: int = 0,
        constant_initializers: bool = False,
        max_isa: Optional[str] = None,
        int8_activations: bool = False,
    ) -> None: ...
    def run(
        self,
        output_names: Optional[Sequence[str]],
        feeds: dict[str, Any],
        *,
        timeout: Optional[float] = None,
        memory_limit: Optional[int] = None,
        outputs: Optional[dict[str, np.ndarray]] = None,
    ) -> list[PythonValue]:
        """Outputs named (None: all), as NumPy arrays (lists, dicts or None for sequences,
        maps and empty optionals). Past `timeout` seconds: TimeoutError; cancel():
        concurrent.futures.CancelledError; past `memory_limit` bytes: OnyxError. An output
        bound in `outputs` is written in the caller's array, which is returned for it."""
    def run_async(
        self,
        output_names: Optional[Sequence[str]],
        feeds: dict[str, Any],
        *,
        timeout: Optional[float] = None,
        memory_limit: Optional[int] = None,
        outputs: Optional[dict[str, np.ndarray]] = None,
    ) -> concurrent.futures.Future[list[PythonValue]]:
        """As run(), on a thread of onyx's own."""
    def generate(
        self,
        *,
        prompt: Optional[Sequence[int]] = None,
        prompt_tokens: int = 128,
        new_tokens: int = 32,
        seed: int = 46,
        warmup: int = 0,
        prompt_chunk: int = 0,
    ) -> dict[str, Any]:
        """A decoder LLM's greedy loop on token ids (as `onyx generate`): the prompt once, then
        `new_tokens` runs of one token, the cache handed from run to run. A dict: prompt,
        tokens, prompt_seconds, prompt_tokens_per_second, steps, steps_seconds,
        steps_tokens_per_second, prompt_logits."""
    def cancel(self) -> None:
        """Stops the runs in progress at their next step; later runs are not affected."""

def load(source: Union[Path, BytesLike], *, load_external_data: bool = True, folder: Optional[str] = None) -> Model: ...
def save(
    model: Model,
    path: Path,
    *,
    external_data: Optional[str] = None,
    size_threshold: int = 1024,
    all_inline: bool = False,
) -> None: ...
def parse_text(text: str) -> Model: ...
def parse_node(text: str) -> Node:
    """One node from the text syntax, held by an otherwise empty model."""
def parse_graph(text: str) -> Graph:
    """A lone graph from the text syntax, held by an otherwise empty model."""
def load_value(source: Union[Path, BytesLike], type: Optional[Type] = None) -> PythonValue: ...
def tensor(value: Any, dtype: Optional[DataType] = None, name: Optional[str] = None) -> Tensor: ...
def check(
    model: Model,
    *,
    infer: bool = True,
    external_data: bool = True,
    name_style: bool = False,
    raise_errors: bool = False,
) -> list[Diagnostic]: ...
def check_node(
    node: Node,
    opset: Optional[int] = None,
    *,
    domains: Optional[Mapping[str, int]] = None,
    ir_version: Optional[int] = None,
) -> list[Diagnostic]:
    """One node against its operator's signature at `opset`; paths start with 'node'."""
def check_tensor(tensor: Tensor, *, ir_version: Optional[int] = None) -> list[Diagnostic]:
    """One tensor as the checker checks an initializer; paths start with 'tensor'."""
def draw(
    model: Model,
    path: Optional[Path] = None,
    *,
    format: Optional[str] = None,
    depth: Optional[int] = None,
    collapse: Sequence[str] = (),
    diff: Optional[Model] = None,
    title: str = "",
) -> Optional[str]:
    """A picture of the model (SVG, DOT or HTML): written to `path`, or returned as text."""
def verify(model: Model) -> list[Diagnostic]:
    """The graph API's invariants (use-lists, producers, scopes, names); [] when consistent."""
def infer(
    model: Model, *, strict: bool = False, name_unknown_dims: bool = False, constant_initializers: bool = False
) -> list[Diagnostic]: ...
def cost(model: Model) -> dict[str, Any]: ...
def extract(
    model: Model,
    *,
    inputs: Optional[Sequence[str]] = None,
    outputs: Optional[Sequence[str]] = None,
) -> dict[str, Any]: ...
def merge(
    a: Model,
    b: Model,
    *,
    connect: Optional[Mapping[str, str]] = None,
    prefix_a: str = "",
    prefix_b: str = "",
) -> dict[str, Any]: ...
def set_dims(model: Model, dims: Mapping[str, Union[int, str]]) -> dict[str, Any]: ...
def to_float16(
    model: Model, *, keep_io_types: bool = False, keep: Optional[Sequence[str]] = None
) -> dict[str, Any]: ...
def compare(
    a: Model, b: Model, feeds: Mapping[str, Any], *, rtol: float = 1e-4, atol: float = 1e-5
) -> list[dict[str, Any]]: ...
def optimize(
    model: Model,
    passes: Optional[Sequence[str]] = None,
    *,
    aggressive: bool = False,
    fold_limit: int = ...,  # OptimizeOptions' default
    max_rounds: int = ...,  # PassManagerOptions' default
    constant_initializers: bool = False,
) -> dict[str, Any]: ...
def convert_opset(
    model: Model, version: int, *, domains: Optional[Mapping[str, int]] = None
) -> dict[str, int]: ...
def default_passes() -> list[str]: ...
def passes() -> dict[str, str]: ...
def inline_functions(
    model: Model, *, function_operators: bool = False, remove_unused_functions: bool = True
) -> dict[str, Any]: ...
def from_onnx(model_proto: Any) -> Model: ...
