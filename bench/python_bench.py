#!/usr/bin/python3
"""The Python benchmark: the onyx package against Debian's python3-onnx (1.12) on the same
models. bench/python_bench.sh runs each step in a fresh process and prints the table; the
steps can be run alone:

  python_bench.py weights MODEL onyx|onnx    load, then check, then infer: time and RSS
  python_bench.py walk MODEL onyx|onnx       load, then read every node's op type and inputs
  python_bench.py walk-parts MODEL onyx|onnx what each part of the walk costs per node
  python_bench.py session MODEL [--calls=N] [--batches=B]
                                             Session.run on the one-node model (written
                                             by `session-model` first)
  python_bench.py session-model PATH         writes the one-node model there
  python_bench.py graph-bytes MODEL          the file's bytes that are not tensor data
  python_bench.py table RESULTS              the table of every figure and verdict

Each step prints lines "KIND|side|field=value|..." for `table`. RSS is VmRSS from
/proc/self/status; "peak" is VmHWM after the peak was reset (/proc/self/clear_refs) just
before the step, so a copy made and freed within the step still shows.
"""
import gc
import os
import statistics
import sys
import time

# The one-node model of the Session.run overhead: small enough that the kernel's work is
# negligible beside the call's cost.
SESSION_MODEL = """
<ir_version: 8, opset_import: ["" : 17]>
session_relu (float[1,16] x) => (float[1,16] y) {
  y = Relu(x)
}
"""

# The targets of issue 22's acceptance item 2.
LOAD_MS_TARGET = 100
LOAD_RSS_SLACK_MIB = 50
WALK_RATIO_TARGET = 5
SESSION_OVERHEAD_US_TARGET = 20


def status_kib(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def reset_peak():
    """Makes VmHWM start again from the current RSS (Linux 4.0 and later)."""
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")


def measured_step(side, step, action):
    """Runs action() once, printing its wall and CPU time and the RSS around it."""
    gc.collect()
    before = status_kib("VmRSS")
    anon_before = status_kib("RssAnon")
    file_before = status_kib("RssFile")
    reset_peak()
    wall = time.perf_counter()
    cpu = time.process_time()
    note = ""
    result = None
    try:
        result = action()
    except Exception as error:  # the anchor may refuse; that is a result too
        note = f"{type(error).__name__}: {error}".replace("|", "/").replace("\n", " ")[:160]
    wall_ms = (time.perf_counter() - wall) * 1e3
    cpu_ms = (time.process_time() - cpu) * 1e3
    peak = status_kib("VmHWM")
    print(f"STEP|{side}|step={step}|wall_ms={wall_ms:.2f}|cpu_ms={cpu_ms:.2f}"
          f"|rss_before_kib={before}|rss_after_kib={status_kib('VmRSS')}|peak_kib={peak}"
          f"|anon_growth_kib={status_kib('RssAnon') - anon_before}"
          f"|file_growth_kib={status_kib('RssFile') - file_before}|note={note}", flush=True)
    return result


def weights(path, side):
    if side == "onyx":
        import onyx
        model = measured_step(side, "load", lambda: onyx.load(path))
        if model is None:
            return
        measured_step(side, "check", lambda: onyx.check(model))
        measured_step(side, "infer", lambda: onyx.infer(model))
    else:
        import onnx
        model = measured_step(side, "load", lambda: onnx.load(path))
        if model is None:
            return
        measured_step(side, "check", lambda: onnx.checker.check_model(model))
        # infer_shapes returns a new ModelProto; kept until the step's RSS is read, as a
        # caller keeps it.
        measured_step(side, "infer", lambda: onnx.shape_inference.infer_shapes(model))


def walk(path, side):
    """The issue's walk: every node's op type and input names. Load and walk are timed apart."""
    gc.collect()
    if side == "onyx":
        import onyx
        start = time.perf_counter()
        model = onyx.load(path)
        loaded = time.perf_counter()
        count = 0
        for node in model.graph:
            node.op_type
            [v.name for v in node.inputs if v is not None]
            count += 1
    else:
        import onnx
        start = time.perf_counter()
        model = onnx.load(path)
        loaded = time.perf_counter()
        count = 0
        for node in model.graph.node:
            node.op_type
            list(node.input)
            count += 1
    walked = time.perf_counter()
    print(f"WALK|{side}|load_ms={(loaded - start) * 1e3:.2f}"
          f"|walk_ms={(walked - loaded) * 1e3:.2f}|nodes={count}", flush=True)


def walk_parts(path, side):
    """Where the walk's time goes: passes over the graph that each add one part of the walk,
    per node, the fastest of 3 after a warm-up pass (so warmer than the walk above)."""
    if side == "onyx":
        import onyx
        graph = onyx.load(path).graph

        def iterate():
            for node in graph:
                pass

        def op_type():
            for node in graph:
                node.op_type

        def inputs():
            for node in graph:
                node.op_type
                node.inputs

        def names():
            for node in graph:
                node.op_type
                [v.name for v in node.inputs if v is not None]

        passes = (("iterate", iterate), ("+ op_type", op_type), ("+ inputs", inputs),
                  ("+ input names", names))
    else:
        import onnx
        graph = onnx.load(path).graph

        def iterate():
            for node in graph.node:
                pass

        def op_type():
            for node in graph.node:
                node.op_type

        def inputs():
            for node in graph.node:
                node.op_type
                list(node.input)

        passes = (("iterate", iterate), ("+ op_type", op_type), ("+ input names", inputs))
    count = len(graph) if side == "onyx" else len(graph.node)
    names()  if side == "onyx" else inputs()  # warm-up
    for name, walk_pass in passes:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            walk_pass()
            times.append(time.perf_counter() - start)
        print(f"PART|{side}|{name}|{min(times) / count * 1e9:.0f}", flush=True)


def session_model(path):
    import onyx
    onyx.save(onyx.parse_text(SESSION_MODEL), path)


def session(path, calls, batches):
    """Session.run per call: B batches of N calls after a warm-up batch, median per call."""
    import numpy
    import onyx
    model = onyx.load(path)
    run = onyx.Session(model, threads=1).run
    # The same elements the C++ side feeds (session_overhead.cc).
    x = (numpy.arange(16, dtype=numpy.float32) % 7 - 3).reshape(1, 16)
    feeds = {"x": x}
    expected = numpy.maximum(x, 0)
    if not numpy.array_equal(run(None, feeds)[0], expected):
        sys.exit("python_bench.py: Session.run gave a wrong answer")
    per_call = []
    for batch in range(batches + 1):
        start = time.perf_counter()
        for _ in range(calls):
            run(None, feeds)
        micros = (time.perf_counter() - start) * 1e6 / calls
        if batch > 0:
            per_call.append(micros)
    print(f"SESSION|python|{statistics.median(per_call):.3f}|{min(per_call):.3f}", flush=True)


def graph_bytes(path):
    """The model file's bytes that are not tensor data: what the graph costs on disk."""
    import onyx
    model = onyx.load(path)
    tensor_bytes = 0
    for value in model.graph.initializers.values():
        tensor_bytes += value.const_value.numpy().nbytes  # views: no element is read
    size = os.path.getsize(path)
    print(f"GRAPH|{os.path.basename(path)}|file_bytes={size}|tensor_bytes={tensor_bytes}"
          f"|graph_bytes={size - tensor_bytes}", flush=True)


# ---- the table -----------------------------------------------------------------------------

def read_results(path):
    steps = {}   # (side, step) -> list of dicts, one per process
    walks = {}   # side -> list of dicts
    sessions = {}  # side -> (median, min)
    walk_parts_of = {}  # side -> [(part, ns per node)], each part adding to the one before
    graph = {}
    with open(path) as results:
        for line in results:
            parts = line.rstrip("\n").split("|")
            fields = dict(part.split("=", 1) for part in parts[2:] if "=" in part)
            if parts[0] == "STEP":
                steps.setdefault((parts[1], fields["step"]), []).append(fields)
            elif parts[0] == "WALK":
                walks.setdefault(parts[1], []).append(fields)
            elif parts[0] == "SESSION":
                sessions[parts[1]] = (float(parts[2]), float(parts[3]))
            elif parts[0] == "PART":
                walk_parts_of.setdefault(parts[1], []).append((parts[2], float(parts[3])))
            elif parts[0] == "GRAPH":
                graph = fields
    return steps, walks, sessions, graph, walk_parts_of


def median_of(rows, field):
    values = [float(row[field]) for row in rows if row.get(field, "") != ""]
    return statistics.median(values) if values else None


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def table(path):
    steps, walks, sessions, graph, walk_parts_of = read_results(path)
    rows = []  # (figure, onyx, anchor, ratio or difference, target, verdict)
    verdicts = []

    def row(figure, onyx_text, anchor_text, compared, target, holds):
        verdict = "n/a" if holds is None else ("holds" if holds else "MISSES")
        if target == "":
            verdict = "-"
        else:
            verdicts.append(verdict)
        rows.append((figure, onyx_text, anchor_text, compared, target, verdict))

    # 1 and 2: the 1.2 GB model, each side in its own processes; medians over them.
    graph_b = int(graph.get("graph_bytes", 0)) if graph else None
    for step in ("load", "check", "infer"):
        ours = steps.get(("onyx", step), [])
        theirs = steps.get(("onnx", step), [])
        if not ours:
            row(f"1.2 GB model: {step}", "failed", "-", "-", "", None)
            continue
        wall = median_of(ours, "wall_ms")
        their_wall = median_of([r for r in theirs if not r["note"]], "wall_ms")
        growth = median_of([{"g": int(r["rss_after_kib"]) - int(r["rss_before_kib"])}
                            for r in ours], "g")
        peak = median_of([{"g": int(r["peak_kib"]) - int(r["rss_before_kib"])} for r in ours],
                         "g")
        their_growth = median_of([{"g": int(r["rss_after_kib"]) - int(r["rss_before_kib"])}
                                  for r in theirs], "g")
        their_peak = median_of([{"g": int(r["peak_kib"]) - int(r["rss_before_kib"])}
                                for r in theirs], "g")
        refused = sorted({r["note"] for r in theirs if r["note"]})
        their_wall_text = f"{their_wall:.1f} ms" if their_wall is not None else "refused"
        ratio = f"{their_wall / wall:.0f}x" if their_wall and wall else "-"
        if step == "load":
            row("1.2 GB model: load, wall", f"{wall:.1f} ms", f"onnx.load {their_wall_text}",
                ratio, f"< {LOAD_MS_TARGET} ms", wall < LOAD_MS_TARGET)
            limit_kib = (graph_b or 0) / 1024 + LOAD_RSS_SLACK_MIB * 1024
            row("1.2 GB model: load, RSS growth (peak)", f"{mib(growth)} ({mib(peak)})",
                f"{mib(their_growth)} ({mib(their_peak)})" if theirs else "-",
                f"graph {graph_b / 1e6:.3f} MB" if graph_b is not None else "-",
                f"< graph + {LOAD_RSS_SLACK_MIB} MiB = {mib(limit_kib)}",
                graph_b is not None and peak < limit_kib)
            # What the growth is: memory allocated (the arena, names) and pages of the mapped
            # file touched (each tensor's header, with the kernel's fault-around).
            row("  of which allocated (RssAnon) / file pages (RssFile)",
                f"{mib(median_of(ours, 'anon_growth_kib'))} / "
                f"{mib(median_of(ours, 'file_growth_kib'))}",
                f"{mib(median_of(theirs, 'anon_growth_kib'))} / "
                f"{mib(median_of(theirs, 'file_growth_kib'))}" if theirs else "-", "", "", None)
        else:
            name = {"check": "onnx.checker.check_model", "infer": "infer_shapes"}[step]
            row(f"1.2 GB model: {step}, wall", f"{wall:.1f} ms", f"{name} {their_wall_text}",
                ratio, "", None)
            # Flat: the step adds less than one of the model's tensors (4 MB) would; a copy
            # of any tensor data would show.
            row(f"1.2 GB model: {step}, RSS before -> after (peak growth)",
                f"{mib(median_of(ours, 'rss_before_kib'))} -> "
                f"{mib(median_of(ours, 'rss_after_kib'))} (+{mib(peak)})",
                (f"{mib(median_of(theirs, 'rss_before_kib'))} -> "
                 f"{mib(median_of(theirs, 'rss_after_kib'))} (+{mib(their_peak)})")
                if theirs else "-",
                f"{growth:+.0f} KiB", "peak growth < 4 MB (one tensor)",
                peak * 1024 < 4_000_000)
            for note in refused:
                row(f"  onnx {step} refused", "", note, "", "", None)

    # 3: load + walk of the 200,000-node graph.
    if walks.get("onyx") and walks.get("onnx"):
        parts = {}
        for side in ("onyx", "onnx"):
            runs = walks[side]
            for r in runs:
                r["total_ms"] = float(r["load_ms"]) + float(r["walk_ms"])
            parts[side] = {k: median_of(runs, k) for k in ("load_ms", "walk_ms", "total_ms")}
            parts[side].update({"min " + k: min(float(r[k]) for r in runs)
                                for k in ("load_ms", "walk_ms", "total_ms")})
            parts[side]["n"] = len(runs)
            parts[side]["nodes"] = runs[0]["nodes"]
        for key, what in (("load_ms", "load"), ("walk_ms", "walk"), ("total_ms", "load + walk")):
            ours, theirs = parts["onyx"][key], parts["onnx"][key]
            ratio = theirs / ours
            is_total = key == "total_ms"
            row(f"{parts['onyx']['nodes']} nodes: {what}, median of {parts['onyx']['n']} (min)",
                f"{ours:.1f} ms ({parts['onyx']['min ' + key]:.1f})",
                f"{theirs:.1f} ms ({parts['onnx']['min ' + key]:.1f})", f"{ratio:.2f}x",
                f">= {WALK_RATIO_TARGET}x" if is_total else "",
                ratio >= WALK_RATIO_TARGET if is_total else None)
    else:
        row("200,000 nodes: load + walk", "failed" if not walks.get("onyx") else "",
            "failed" if not walks.get("onnx") else "", "-", f">= {WALK_RATIO_TARGET}x", None)

    # Where the walk's time goes, per node (information).
    for side in ("onyx", "onnx"):
        before = 0.0
        for part, ns in walk_parts_of.get(side, []):
            row(f"  walk per node, {side}: {part}", f"{ns:.0f} ns" if side == "onyx" else "",
                f"{ns:.0f} ns" if side == "onnx" else "", f"+{ns - before:.0f} ns", "", None)
            before = ns

    # 4: Session.run against Evaluator::run.
    if "python" in sessions and "cpp" in sessions:
        py_us, cpp_us = sessions["python"][0], sessions["cpp"][0]
        row("one-node Relu: per call, Session.run vs Evaluator::run",
            f"{py_us:.2f} us", f"C++ {cpp_us:.2f} us", f"+{py_us - cpp_us:.2f} us",
            f"< {SESSION_OVERHEAD_US_TARGET} us", py_us - cpp_us < SESSION_OVERHEAD_US_TARGET)
    else:
        row("one-node Relu: Session.run overhead", "", "", "failed", "", None)

    headers = ("figure", "onyx", "anchor", "ratio / diff", "target", "verdict")
    widths = [max(len(str(r[i])) for r in rows + [headers]) for i in range(len(headers))]
    for r in [headers] + rows:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(r, widths)).rstrip())
    missed = verdicts.count("MISSES") + verdicts.count("n/a")
    print(f"VERDICT|{len(verdicts) - missed} of {len(verdicts)} targets hold"
          + ("" if missed == 0 else f"; {missed} miss or were not measured"))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    command, args = sys.argv[1], sys.argv[2:]
    options = {a.split("=", 1)[0]: a.split("=", 1)[1] for a in args if a.startswith("--")}
    args = [a for a in args if not a.startswith("--")]
    if command == "weights":
        weights(args[0], args[1])
    elif command == "walk":
        walk(args[0], args[1])
    elif command == "walk-parts":
        walk_parts(args[0], args[1])
    elif command == "session":
        session(args[0], int(options.get("--calls", 20000)), int(options.get("--batches", 7)))
    elif command == "session-model":
        session_model(args[0])
    elif command == "graph-bytes":
        graph_bytes(args[0])
    elif command == "table":
        table(args[0])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
