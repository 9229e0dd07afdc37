#!/usr/bin/python3
"""The anchor of the inference benchmark: Debian python3-onnx's
onnx.shape_inference.infer_shapes(model, data_prop=True) on a ModelProto already loaded,
CPU time (time.process_time), median of N runs after one warm-up. Also counts what it
knows: node outputs with a shape (rank known) and with every dimension a number or a name.

  bench/infer_bench.py MODEL... [--reps=N]

Prints "RESULT|model|infer|ms" and "COUNT|model|ranked|n", "COUNT|model|complete|n" lines
for infer_bench.sh.
"""
import statistics
import sys
import time

import onnx


def measure(reps, step):
    step()
    times = []
    for _ in range(reps):
        start = time.process_time()
        step()
        times.append((time.process_time() - start) * 1e3)
    return statistics.median(times), min(times)


def count_known(model):
    types = {info.name: info.type for info in model.graph.value_info}
    types.update({info.name: info.type for info in model.graph.output})
    ranked = complete = 0
    for node in model.graph.node:
        for name in node.output:
            t = types.get(name)
            if not name or t is None or not t.HasField("tensor_type"):
                continue
            if not t.tensor_type.HasField("shape"):
                continue
            ranked += 1
            dims = t.tensor_type.shape.dim
            if all(d.HasField("dim_value") or (d.HasField("dim_param") and d.dim_param)
                   for d in dims):
                complete += 1
    return ranked, complete


def main():
    reps = 7
    models = []
    for arg in sys.argv[1:]:
        if arg.startswith("--reps="):
            reps = max(1, int(arg[len("--reps="):]))
        else:
            models.append(arg)
    print(f"onnx {onnx.__version__}")
    for path in models:
        model = onnx.load(path)
        infer = measure(reps, lambda: onnx.shape_inference.infer_shapes(model, data_prop=True))
        ranked, complete = count_known(onnx.shape_inference.infer_shapes(model, data_prop=True))
        print(f"{path:40} onnx infer_shapes(data_prop) {infer[0]:9.2f} ms (min {infer[1]:.2f}); "
              f"{ranked} outputs with a shape, {complete} with every dim known or named")
        print(f"RESULT|{path}|infer|{infer[0]:.3f}")
        print(f"COUNT|{path}|ranked|{ranked}")
        print(f"COUNT|{path}|complete|{complete}")


if __name__ == "__main__":
    main()
