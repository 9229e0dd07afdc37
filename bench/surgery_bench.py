#!/usr/bin/python3
"""Issue 47's acceptance on the benchmarks' exported models (bench/make_optimize_models.py):
the encoder, the decoder with a key/value cache, the Swin graph and the detection head, each
run on the inputs written beside it (NAME.input.json / .input.bin).

For each model:
  whole      onyx.extract with no names writes the same bytes
  halves     the first half of the node list and the second, cut at the values the second
             reads from the first (and at the graph outputs the first makes); the first half's
             outputs equal the original's intermediate values bit for bit (read through
             onyx.extract of the original with those values made outputs too)
  merged     onyx.merge of the halves, connected at the cut, computes the original's outputs
             (largest difference, bit for bit expected: the same nodes in the same order)
  compare    one element of the first float weight a node reads from the middle on, changed:
             onyx.compare must name that node as the first that differs

  float16    onyx.to_float16, with and without keep_io_types, run in onyx and (when node and
             onnxruntime-node are at hand: build/bench-node, as bench/optimize_bench.sh installs
             it) in onnxruntime on the same inputs rounded to float16: each output's largest
             difference over its largest magnitude, the worst output named. The detection
             head's ranked detections are compared as a set (rows sorted by class and box):
             float16 can make two scores equal and swap their rank.

For the decoder, the batch: the decoder as an exporter writes it at batch 2 (its inputs
declared at 2, every Shape of the batch folded by onyx optimize), then onyx set-dims to 1 and
to a symbol; the symbolic one runs at batch 4 and each row is compared with the batch-2
model's output for that row; the batch-1 one with row 0.

  bench/surgery_bench.py [FOLDER]      (default FOLDER: build/bench-models; onyx from
                                        build/release, or ONYX=<build dir>)
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import onyx
from python_threads import read_inputs  # NAME.input.json / .bin, as the benchmarks read them

MODELS = ["opt_encoder_dynamic", "opt_decoder_kv", "opt_swin", "opt_detection_head"]
def run(model, feeds):
    """The model's outputs by name, fed those of `feeds` its inputs name."""
    names = [value.name for value in model.graph.inputs]
    outputs = onyx.Session(model).run(None, {name: feeds[name] for name in names if name in feeds})
    return dict(zip([value.name for value in model.graph.outputs], outputs))


def reads(node):
    """The names a node reads, those of the graphs its attributes hold included."""
    names = {value.name for value in node.inputs if value is not None}
    for name in node.attributes:
        held = node.attribute(name)
        graphs = held if isinstance(held, list) else [held]
        for graph in graphs:
            if isinstance(graph, onyx.Graph):
                for inner in graph:
                    names |= reads(inner)
                names |= {value.name for value in graph.outputs}
    return names


def largest_difference(got, want):
    worst = 0.0
    for name, expected in want.items():
        actual = got[name]
        if actual.shape != expected.shape:
            return float("inf")
        if expected.size and np.issubdtype(expected.dtype, np.floating):
            worst = max(worst, float(np.max(np.abs(actual.astype(np.float64) -
                                                  expected.astype(np.float64)))))
        elif not np.array_equal(actual, expected):
            return float("inf")
    return worst


def check_model(folder, name):
    path = os.path.join(folder, name + ".onnx")
    feeds = read_inputs(path)
    original = onyx.load(path)
    expected = run(original, feeds)
    graph_inputs = [value.name for value in original.graph.inputs]
    graph_outputs = [value.name for value in original.graph.outputs]

    whole = onyx.load(path)
    onyx.extract(whole)
    same = whole.to_bytes() == original.to_bytes()

    nodes = list(original.graph)
    middle = len(nodes) // 2
    made_first = {value.name for node in nodes[:middle] for value in node.outputs if value}
    read_second = set()
    for node in nodes[middle:]:
        read_second |= reads(node)
    cut = sorted(made_first & read_second)
    first_outputs = cut + [name for name in graph_outputs if name in made_first and name not in cut]

    first = onyx.load(path)
    onyx.extract(first, outputs=first_outputs)
    second = onyx.load(path)
    second_outputs = [name for name in graph_outputs if name not in made_first]
    onyx.extract(second, inputs=cut + graph_inputs, outputs=second_outputs)

    # The original's values at the cut: the original with them made outputs too.
    observed = onyx.load(path)
    onyx.extract(observed, outputs=graph_outputs + [n for n in cut if n not in graph_outputs])
    intermediate = run(observed, feeds)
    halves = run(first, feeds)
    exact = all(halves[n].tobytes() == intermediate[n].tobytes() for n in first_outputs)

    first_nodes = len(list(first.graph))
    merged = first
    report = onyx.merge(merged, second, connect={n: n for n in cut})
    merged_outputs = run(merged, feeds)
    difference = largest_difference(merged_outputs, expected)
    # One weight perturbed: onyx.compare must name the node that reads it first.
    perturbed = onyx.load(path)
    target = None
    perturbed_nodes = list(perturbed.graph)
    # From the middle on, else from the start.
    for index in list(range(middle, len(perturbed_nodes))) + list(range(middle)):
        node = perturbed_nodes[index]
        for slot, value in enumerate(node.inputs):
            if value is not None and value.is_initializer() and \
                    value.const_value.numpy().dtype == np.float32 and value.const_value.numpy().size:
                target = (index, node, slot, value)
                break
        if target:
            break
    index, node, slot, value = target
    changed = value.const_value.numpy().copy()
    changed.flat[0] += 1.0
    node.replace_input_with(slot, perturbed.graph.add_initializer(changed, value.name + ".perturbed"))
    rows = onyx.compare(original, perturbed, feeds)
    first_beyond = next((row for row in rows if row["beyond"]), None)
    named = first_beyond is not None and first_beyond["index"] == index
    print(f"{name}: one element of {value.name!r} (read by node {index}, {node.op_type}) "
          f"perturbed: compare names node "
          f"{first_beyond['index'] if first_beyond else None} ({first_beyond and first_beyond['op_type']})"
          f"{' (right)' if named else ' (WRONG)'}")

    print(f"{name}: {len(nodes)} nodes; whole extract {'the same bytes' if same else 'DIFFERS'}; "
          f"cut after node {middle} at {len(cut)} values; first half ({first_nodes} "
          f"nodes) {'equals' if exact else 'DIFFERS FROM'} the original's values bit for bit; "
          f"merged ({report['nodes_a']} + {report['nodes_b']} nodes) largest difference from the "
          f"original's outputs {difference:.3g}")
    return same and exact and difference == 0.0 and named


ORT_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "optimize_bench_ort.js")
NODE_MODULES = os.environ.get("NODE_PATH", "build/bench-node/node_modules")


def half_feeds(model, feeds):
    """`feeds` in the float format each input of `model` declares."""
    taken = {}
    for value in model.graph.inputs:
        if value.name in feeds:
            x = feeds[value.name]
            half = value.dtype == onyx.DataType.FLOAT16 and x.dtype == np.float32
            taken[value.name] = x.astype(np.float16) if half else x
    return taken


def detections_as_set(outputs):
    """The detection head's rows (box, score, class) in an order float16 cannot change."""
    boxes, scores, classes = (np.asarray(outputs[n], np.float64) for n in
                              ("det_boxes", "det_scores", "det_classes"))
    order = np.lexsort((boxes[:, 1].round(1), boxes[:, 0].round(1), classes))
    return {"det_boxes": boxes[order], "det_scores": scores[order], "det_classes": classes[order]}


def relative_differences(got, want):
    """Each output's largest |got - want| over its largest |want|."""
    differences = {}
    for name, expected in want.items():
        actual = np.asarray(got[name], np.float64).reshape(np.shape(expected))
        expected = np.asarray(expected, np.float64)
        largest = float(np.max(np.abs(expected))) if expected.size else 0.0
        gap = float(np.max(np.abs(actual - expected))) if expected.size else 0.0
        differences[name] = gap / largest if largest > 0 else gap
    return differences


def ort_outputs(model_path, feeds_of, scratch):
    """`model_path`'s outputs in onnxruntime on the inputs beside `feeds_of`; None without it."""
    if not os.path.isdir(os.path.join(NODE_MODULES, "onnxruntime-node")):
        return None
    out = os.path.join(scratch, "ort_outputs.json")
    environment = dict(os.environ, NODE_PATH=NODE_MODULES)
    subprocess.run(["node", ORT_SCRIPT, "outputs", model_path, feeds_of, out], check=True,
                   env=environment)
    with open(out) as written:
        return {name: np.array(value["data"]).reshape(value["dims"])
                for name, value in json.load(written).items()}


def check_float16(folder, name):
    path = os.path.join(folder, name + ".onnx")
    feeds = read_inputs(path)
    expected = run(onyx.load(path), feeds)
    ordered = detections_as_set if name == "opt_detection_head" else (lambda outputs: outputs)
    held = True
    with tempfile.TemporaryDirectory() as scratch:
        for keep_io_types in (False, True):
            model = onyx.load(path)
            report = onyx.to_float16(model, keep_io_types=keep_io_types)
            converted = os.path.join(scratch, "half.onnx")
            onyx.save(model, converted)
            label = "float16, io kept" if keep_io_types else "float16"
            runs = {"onyx": run(model, half_feeds(model, feeds))}
            from_ort = ort_outputs(converted, path, scratch)
            if from_ort is not None:
                runs["onnxruntime"] = from_ort
            for runtime, outputs in runs.items():
                differences = relative_differences(ordered(outputs), ordered(expected))
                worst = max(differences, key=differences.get)
                held = held and differences[worst] <= 1e-2
                print(f"{name}: {label} ({report['nodes_converted']} nodes converted, "
                      f"{report['casts_added']} Casts) in {runtime}: largest relative difference "
                      f"{differences[worst]:.2e} ({worst})")
    return held


def onyx_tool():
    return os.path.join(os.environ.get("ONYX", "build/release"), "tools", "onyx", "onyx")


def check_batch(folder):
    path = os.path.join(folder, "opt_decoder_kv.onnx")
    feeds = read_inputs(path)  # batch 2
    tool = onyx_tool()
    with tempfile.TemporaryDirectory() as scratch:
        declared = os.path.join(scratch, "declared_b2.onnx")
        baked = os.path.join(scratch, "decoder_b2.onnx")
        subprocess.run([tool, "set-dims", path, declared, "--dim", "batch=2"], check=True)
        subprocess.run([tool, "optimize", declared, baked], check=True)
        inputs = [value.name for value in onyx.load(baked).graph.inputs]
        results = {}
        for target in ("1", "batch"):
            out = os.path.join(scratch, f"decoder_{target}.onnx")
            dims = []
            for name in inputs:
                dims += ["--dim", f"{name}:0={target}"]
            done = subprocess.run([tool, "set-dims", baked, out] + dims, capture_output=True,
                                  text=True)
            print(f"set-dims to {target}: exit {done.returncode}: {done.stderr.strip()}")
            results[target] = out
        batch2 = onyx.load(baked)
        # Rows 0..3: two runs of the batch-2 model, the second on the rows swapped.
        swapped = {name: value[::-1].copy() for name, value in feeds.items()}
        pair = run(batch2, feeds)
        pair_swapped = run(batch2, swapped)
        four = {name: np.concatenate([value, value[::-1]]) for name, value in feeds.items()}
        free = run(onyx.load(results["batch"]), four)
        worst = 0.0
        for name, values in free.items():
            want = np.concatenate([pair[name], pair_swapped[name]])
            worst = max(worst, float(np.max(np.abs(values - want))))
        one = run(onyx.load(results["1"]), {name: value[:1] for name, value in feeds.items()})
        worst_one = max(float(np.max(np.abs(one[name] - pair[name][:1]))) for name in one)
        scale = max(float(np.max(np.abs(values))) for values in pair.values())
        print(f"decoder exported at batch 2 ({os.path.basename(baked)}): at batch 4 under a "
              f"symbol, largest difference from the batch-2 model's rows {worst:.3g}; at batch 1 "
              f"{worst_one:.3g} (outputs up to {scale:.3g})")
        return worst <= 1e-5 * scale and worst_one <= 1e-5 * scale


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "build/bench-models"
    held = all([check_model(folder, name) for name in MODELS])
    held = check_batch(folder) and held
    held = all([check_float16(folder, name) for name in MODELS]) and held
    print("every check holds" if held else "a check does not hold")
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
