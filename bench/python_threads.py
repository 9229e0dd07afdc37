"""Two Python threads on one onyx.Session against one (issue 45, acceptance 4).

Session.run frees the interpreter while it runs, and the runs of one Session run side by
side, so two threads on two cores should give nearly twice one thread's throughput (target:
at least 1.7x). Each run uses one kernel thread (Session(threads_per_run=1)): the two callers are the
parallelism. The inputs are those onyx_bench_eval reads (MODEL.input.json and .input.bin,
written by bench/make_eval_models.py).

    /usr/bin/python3 bench/python_threads.py [MODEL.onnx ...]   (default: the detector and
                                                                  MobileNetV3 eval models)
    PYTHONPATH=build/release/python, or any build folder's python/ that holds onyx; RUNS=n
    runs per thread (default 40 for models over 1 ms a run, scaled up for smaller ones).

Prints the CPU (lscpu) and per model "THREADS|<model>|<runs/s one thread>|<runs/s two
threads>|<ratio>|<target>|<verdict>"; every concurrent run's outputs are checked bit for bit
against a lone run's.
"""

import json
import os
import subprocess
import sys
import threading
import time

import numpy as np

import onyx

DTYPES = {"float32": np.float32, "int64": np.int64, "int32": np.int32, "uint8": np.uint8,
          "bool": np.bool_}


def read_inputs(model_path):
    stem = model_path[: -len(".onnx")]
    with open(stem + ".input.json") as described:
        description = json.load(described)
    with open(stem + ".input.bin", "rb") as data:
        raw = data.read()
    feeds = {}
    for item in description["inputs"]:
        chunk = raw[item["offset"] : item["offset"] + item["bytes"]]
        array = np.frombuffer(chunk, DTYPES[item["type"]]).reshape(item["dims"])
        feeds[item["name"]] = array.copy()
    return feeds


def throughput(session, feeds, reference, threads, runs):
    """Runs per second of `threads` threads each making `runs` runs at once."""
    failures = []

    def caller():
        for _ in range(runs):
            outputs = session.run(None, feeds)
            for got, want in zip(outputs, reference):
                if got.tobytes() != want.tobytes():
                    failures.append("outputs differ from the lone run's")

    workers = [threading.Thread(target=caller) for _ in range(threads)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - start
    if failures:
        sys.exit(f"{len(failures)} runs: {failures[0]}")
    return threads * runs / elapsed


def main():
    folder = "build/bench-models"
    models = sys.argv[1:] or [
        f"{folder}/eval_db_detector.onnx",
        f"{folder}/eval_mobilenetv3.onnx",
    ]
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    name = next((line.split(":", 1)[1].strip() for line in cpu.splitlines()
                 if line.startswith("Model name")), "unknown")
    print(f"CPU: {name}, {os.cpu_count()} cores")
    for path in models:
        session = onyx.Session(onyx.load(path), threads_per_run=1)
        feeds = read_inputs(path)
        reference = session.run(None, feeds)
        start = time.perf_counter()
        session.run(None, feeds)
        one_run = time.perf_counter() - start
        runs = int(os.environ.get("RUNS", max(40, int(40 * 0.001 / max(one_run, 1e-6)))))
        throughput(session, feeds, reference, 2, 2)  # both executors made and warm
        one = throughput(session, feeds, reference, 1, runs)
        two = throughput(session, feeds, reference, 2, runs)
        ratio = two / one
        verdict = "MET" if ratio >= 1.7 else "MISSED"
        model = os.path.basename(path)
        print(f"THREADS|{model}|{one:.2f}|{two:.2f}|{ratio:.2f}|>= 1.7|{verdict}", flush=True)


if __name__ == "__main__":
    main()
