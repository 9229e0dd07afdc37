"""The Python examples of README.md and docs/python.md run as written, every line of them."""

import os
import re

import pytest

from conftest import REPO

DOCUMENTS = ["README.md", "docs/python.md"]


def python_blocks(document):
    text = (REPO / document).read_text()
    return re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_examples_run(document, tmp_path, monkeypatch, capsys):
    blocks = python_blocks(document)
    assert blocks, f"{document} has no Python example"
    # The examples name examples/tiny_cnn.onnx and write beside it: run them in a folder of
    # their own that holds the example model.
    (tmp_path / "examples").mkdir()
    os.symlink(REPO / "examples" / "tiny_cnn.onnx", tmp_path / "examples" / "tiny_cnn.onnx")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__doc_example__"}
    for block in blocks:  # one namespace: later blocks go on from earlier ones
        exec(compile(block, document, "exec"), namespace)
    printed = capsys.readouterr().out
    assert "Conv" in printed
    assert (tmp_path / "tiny_cnn_leaky.onnx").exists()
