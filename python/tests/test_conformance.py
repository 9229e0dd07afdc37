"""Every ONNX backend test case through onyx.Session gets the verdict `onyx test` gives it.

The cases are read in place from ../shared/conformance (ONYX_CONFORMANCE_DIR overrides). Each
case's inputs are read with onyx.load_value, run by a Session, and compared as `onyx test`
compares (onyx/eval/test_case.h): floating-point elements within atol + rtol * |expected|
(data.json may set both), NaN equal to NaN, everything else exactly.
"""

import json
import os
import pathlib
import re

import numpy as np
import pytest

import onyx
from conftest import REPO, run_onyx_tool

CASES = pathlib.Path(
    os.environ.get("ONYX_CONFORMANCE_DIR", REPO.parent / "shared" / "conformance" / "onnx-backend" / "node")
)

needs_cases = pytest.mark.skipif(
    not CASES.is_dir(), reason=f"the ONNX backend cases are not at {CASES}"
)


def tolerance(case):
    rtol, atol = 1e-3, 1e-7
    data = case / "data.json"
    if data.exists():
        values = json.loads(data.read_text())
        if isinstance(values, dict):
            rtol = values.get("rtol", rtol)
            atol = values.get("atol", atol)
    return rtol, atol


def difference(expected, actual, rtol, atol):
    """Why `actual` is not `expected`, or None when they agree."""
    if expected is None or actual is None:
        return None if expected is None and actual is None else "another kind of value"
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return "another sequence length"
        for index, (want, got) in enumerate(zip(expected, actual)):
            why = difference(want, got, rtol, atol)
            if why:
                return f"element {index}: {why}"
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict) or expected.keys() != actual.keys():
            return "other keys"
        for key in expected:
            why = difference(expected[key], actual[key], rtol, atol)
            if why:
                return f"key {key}: {why}"
        return None
    if not isinstance(actual, np.ndarray) or actual.dtype != expected.dtype:
        return f"dtype {getattr(actual, 'dtype', type(actual))}, expected {expected.dtype}"
    if actual.shape != expected.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if expected.dtype.kind in "fc":
        want = expected.astype(np.complex128 if expected.dtype.kind == "c" else np.float64)
        got = actual.astype(want.dtype)
        parts = [(want, got)] if want.dtype.kind == "f" else [(want.real, got.real), (want.imag, got.imag)]
        for w, g in parts:
            both_nan = np.isnan(w) & np.isnan(g)
            infinite = np.isinf(w) | np.isinf(g)
            with np.errstate(invalid="ignore"):
                close = np.abs(g - w) <= atol + rtol * np.abs(w)
            ok = both_nan | np.where(infinite, w == g, close)
            if not ok.all():
                index = int(np.argmin(ok.reshape(-1)))
                return f"index {index}: {g.reshape(-1)[index]}, expected {w.reshape(-1)[index]}"
        return None
    if not np.array_equal(expected, actual):
        return "elements differ"
    return None


def session_verdict(case):
    """None when the case passes through onyx.Session, else why not."""
    try:
        model = onyx.load(case / "model.onnx")
        graph = model.graph
        inputs = [value for value in graph.inputs if not value.is_initializer()]
        session = onyx.Session(model)
        rtol, atol = tolerance(case)
        for data_set in sorted(case.glob("test_data_set_*")):
            feeds = {}
            for index, value in enumerate(inputs):
                path = data_set / f"input_{index}.pb"
                if path.exists():
                    feeds[value.name] = onyx.load_value(path, value.type)
            outputs = session.run(None, feeds)
            for index, value in enumerate(graph.outputs):
                expected = onyx.load_value(data_set / f"output_{index}.pb", value.type)
                why = difference(expected, outputs[index], rtol, atol)
                if why:
                    return f"{data_set.name} output '{value.name}': {why}"
    except (onyx.OnyxError, OSError, TypeError, ValueError) as error:
        return f"{type(error).__name__}: {error}"
    return None


def cli_failures(cases):
    result = run_onyx_tool("test", *cases)
    assert re.search(r"\d+ passed, \d+ failed", result.stdout + result.stderr), result.stderr
    return set(re.findall(r"^FAILED (\S+?):", result.stdout + result.stderr, re.MULTILINE))


@needs_cases
def test_every_case_gets_the_verdict_of_onyx_test():
    cases = sorted(path for path in CASES.iterdir() if (path / "model.onnx").exists())
    assert len(cases) > 1000
    expected_failures = cli_failures(cases)
    failures = {}
    for case in cases:
        why = session_verdict(case)
        if why:
            failures[case.name] = why
    disagreements = {
        name: failures.get(name, "passes through Session")
        for name in set(failures) ^ expected_failures
    }
    assert not disagreements, f"{len(disagreements)} cases disagree: {sorted(disagreements.items())[:20]}"
    assert len(cases) - len(failures) >= 1796
