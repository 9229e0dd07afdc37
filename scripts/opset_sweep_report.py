#!/usr/bin/env python3
"""Writes docs/opset-conversion-sweep.md from what the opset conversion sweep test prints.

    scripts/opset_sweep_report.py [BUILD_DIR]     (default build/release)

Runs OpsetConversionSweep in BUILD_DIR's test binary, reads its summary and its refusals by
reason, and writes them grouped by kind: the operator does not exist at the target, its
function body cannot cross either, a type the target version does not take, and what an
adapter cannot express.
"""
import datetime
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "release"
binary = build / "tests" / "onyx_tests"
run = subprocess.run(
    [str(binary), "--gtest_filter=OpsetConversionSweep.*"],
    capture_output=True, text=True, check=False)
lines = run.stdout.splitlines()
if run.returncode != 0:
    sys.exit("the sweep failed:\n" + run.stdout[-4000:])

summary = next(line for line in lines if "(model, opset) pairs" in line)
wrong = next(line for line in lines if "converted and wrong" in line)
counted = re.compile(r"^\s+(\d+)  (.*)$")
refusals = []
for line in lines[lines.index(next(l for l in lines if " refusals, " in l)) + 1:]:
    match = counted.match(line)
    if not match:
        break
    refusals.append((int(match.group(1)), match.group(2)))

KINDS = [
    ("body", "A function body that cannot cross either",
     "the operator does not exist at the target (or cannot cross), and its function body, put "
     "in its place, holds a node that cannot cross"),
    ("missing", "The operator does not exist at the target",
     "the operator does not exist at the target opset, and the spec gives it no function body"),
    ("type", "A type the target version does not take",
     "a value's type is one the target version does not take"),
    ("adapter", "What an adapter cannot express",
     "an adapter says what the target version cannot express"),
]


def kind_of(reason):
    if "function body cannot" in reason:
        return "body"
    if "does not exist before" in reason:
        return "missing"
    if re.search(r"which version \d+ does not (take|give)", reason):
        return "type"
    return "adapter"


groups = {key: [] for key, _, _ in KINDS}
for count, reason in refusals:
    groups[kind_of(reason)].append((count, reason))
total = sum(count for count, _ in refusals)

out = []
out.append("# Opset conversion over the backend test models\n")
out.append(
    f"What `tests/passes/opset_conversion_sweep_test.cc` found on {datetime.date.today()}: every "
    "backend test\nmodel of `../shared/conformance/onnx-backend/node` taken from its own opset "
    "down to each lower\none and up to each higher one (ai.onnx 1–28) until the first refusal; "
    "every result that\nconverts must pass `onyx check` and compute the model's expected outputs "
    "under the evaluator,\nand the lowest and highest it reaches are taken back to the model's "
    "own opset (round trips)\nand must compute them too. A model in which nodes were replaced by "
    "their function bodies is\nheld to one unit in the last place where its outputs are bfloat16 "
    "or float16 (the body rounds\nafter each of its operations). Written by "
    "`scripts/opset_sweep_report.py` from what the test\nprints; run the test alone with\n"
    "`build/release/tests/onyx_tests --gtest_filter='OpsetConversionSweep.*'`.\n")
out.append(f"- {summary}")
out.append(f"- {wrong.rstrip(':')}")
out.append(f"- {total} refusals, {len(refusals)} reasons, in {len(KINDS)} kinds:")
for key, _, words in KINDS:
    out.append(f"  - {sum(c for c, _ in groups[key])} where {words};")
out[-1] = out[-1][:-1] + "."
for key, title, _ in KINDS:
    out.append(f"\n## {title}\n")
    out.append("| refusals | reason |")
    out.append("| ---: | --- |")
    for count, reason in groups[key]:
        escaped = reason.replace("|", "\\|")
        out.append(f"| {count} | {escaped} |")
(ROOT / "docs" / "opset-conversion-sweep.md").write_text("\n".join(out) + "\n")
print(f"docs/opset-conversion-sweep.md: {total} refusals, {summary}", file=sys.stderr)
