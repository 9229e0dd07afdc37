#!/usr/bin/python3
"""What bench/optimize_bench.sh measures in a model file, independently of onyx:

  optimize_bench.py count MODEL
      COUNT|<nodes>|<Shape nodes>: the nodes of the graph and of the graphs nested in it
      (If branches), the same way for the original and for every optimiser's result.
  optimize_bench.py memory ORIGINAL OPTIMISED
      MEMORY|<graph bytes>|<folded bytes>: what the peak RSS target allows beside its
      64 MiB. The graph is ORIGINAL's .onnx file (without its external data). Folded bytes
      are those of OPTIMISED's tensors (initializers, Constant values) that are not one of
      ORIGINAL's unchanged: same name (a Constant's is its output's), type, dims and bytes.
      An external tensor that still points at the same bytes of the same file is unchanged
      without being read.

Debian's python3-onnx (1.12) and numpy only; external data is never loaded whole.
"""
import os
import sys

import onnx
from onnx import TensorProto, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_optimize_models import count_nodes, graphs  # noqa: E402


def load(path):
    return onnx.load(path, load_external_data=False)


def count(path):
    model = load(path)
    shapes = sum(n.op_type == "Shape" and n.domain in ("", "ai.onnx")
                 for g in graphs(model.graph) for n in g.node)
    print(f"COUNT|{count_nodes(model.graph)}|{shapes}")


class TensorBytes:
    """A tensor's data as stored: inline bytes, or a range of an external file (read only
    when two tensors have to be compared)."""

    def __init__(self, tensor, folder):
        self.tensor = tensor
        self.external = None
        if tensor.data_location == TensorProto.EXTERNAL:
            fields = {e.key: e.value for e in tensor.external_data}
            offset = int(fields.get("offset", 0))
            file = os.path.realpath(os.path.join(folder, fields["location"]))
            length = int(fields["length"]) if "length" in fields else (
                os.path.getsize(file) - offset)
            self.external = (file, offset, length)
            self.size = length
        elif tensor.HasField("raw_data"):
            self.size = len(tensor.raw_data)
        else:
            self.size = numpy_helper.to_array(tensor).nbytes

    def chunks(self, size=64 << 20):
        if self.external is None:
            data = (self.tensor.raw_data if self.tensor.HasField("raw_data")
                    else numpy_helper.to_array(self.tensor).tobytes())
            for start in range(0, len(data), size):
                yield data[start:start + size]
            return
        file, offset, length = self.external
        with open(file, "rb") as f:
            f.seek(offset)
            while length > 0:
                chunk = f.read(min(size, length))
                if not chunk:
                    return
                length -= len(chunk)
                yield chunk

    def same(self, other):
        t, o = self.tensor, other.tensor
        if t.data_type != o.data_type or list(t.dims) != list(o.dims) or self.size != other.size:
            return False
        if self.external is not None and self.external == other.external:
            return True
        # Compared chunk by chunk, whatever the two sides' chunk boundaries.
        a_chunks, b_chunks = self.chunks(), other.chunks()
        a = b = b""
        while True:
            if not a:
                a = next(a_chunks, b"")
            if not b:
                b = next(b_chunks, b"")
            if not a or not b:
                return not a and not b
            n = min(len(a), len(b))
            if a[:n] != b[:n]:
                return False
            a, b = a[n:], b[n:]


def tensors(model):
    """(name, tensor) of every initializer and Constant value, a Constant's named after its
    output (the name it keeps when a pass turns it into an initializer)."""
    for g in graphs(model.graph):
        yield from ((t.name, t) for t in g.initializer)
        for node in g.node:
            if node.op_type == "Constant" and node.domain in ("", "ai.onnx"):
                yield from ((node.output[0], attr.t) for attr in node.attribute
                            if attr.HasField("t"))


def memory(original_path, optimised_path):
    before = {name: TensorBytes(t, os.path.dirname(original_path))
              for name, t in tensors(load(original_path))}
    folded = 0
    for name, tensor in tensors(load(optimised_path)):
        data = TensorBytes(tensor, os.path.dirname(optimised_path))
        if not (name in before and before[name].same(data)):
            folded += data.size
    print(f"MEMORY|{os.path.getsize(original_path)}|{folded}")


def main():
    args = sys.argv[1:]
    if args[:1] == ["count"] and len(args) == 2:
        count(args[1])
    elif args[:1] == ["memory"] and len(args) == 3:
        memory(args[1], args[2])
    else:
        raise SystemExit("usage: optimize_bench.py count MODEL | memory ORIGINAL OPTIMISED")


if __name__ == "__main__":
    main()
