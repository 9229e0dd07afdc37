#!/usr/bin/python3
"""The anchor of the checker benchmark: Debian python3-onnx's
onnx.checker.check_model(model, full_check=True), on a ModelProto already loaded (the
checker alone) and with onnx.load first (what a user's script does). CPU time
(time.process_time), median of N runs after one warm-up.

  bench/check_bench.py MODEL... [--reps=N]

Prints "RESULT|model|check|ms" and "RESULT|model|load_check|ms" lines for check_bench.sh.
The model object is checked, never the path: onnx 1.12's check_model(path, full_check=True)
writes the inferred model back over the file.
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
        check = measure(reps, lambda: onnx.checker.check_model(model, full_check=True))
        load_check = measure(
            reps, lambda: onnx.checker.check_model(onnx.load(path), full_check=True))
        print(f"{path:40} onnx check_model(full)    {check[0]:9.2f} ms (min {check[1]:.2f})")
        print(f"{'':40} onnx load+check_model     {load_check[0]:9.2f} ms (min {load_check[1]:.2f})")
        print(f"RESULT|{path}|check|{check[0]:.3f}")
        print(f"RESULT|{path}|load_check|{load_check[0]:.3f}")


if __name__ == "__main__":
    main()
