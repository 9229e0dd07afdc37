#!/usr/bin/env python3
"""Reads ONNX text files with onnx's own parser and writes each model it accepts as binary.

Usage: onnx_parse_texts.py MANIFEST, where each line of MANIFEST is `TEXT_PATH<TAB>OUT_PATH`.
A text the parser refuses gets no output file. Prints `N parsed, M refused` at the end.
Debian's python3-onnx (1.12) has an older parser than onnx's HEAD: it has no quoted names,
no nan or inf literals, no overloads and no types added after 1.12, so it refuses some texts
that HEAD reads; the caller counts only what it accepts.
"""
import sys

import onnx
import onnx.parser


def main(manifest_path):
    parsed = refused = 0
    with open(manifest_path, encoding="utf-8") as manifest:
        for line in manifest:
            text_path, out_path = line.rstrip("\n").split("\t")
            with open(text_path, "rb") as text_file:
                text = text_file.read().decode("utf-8", "surrogateescape")
            try:
                model = onnx.parser.parse_model(text)
            except Exception:  # the parser raises its own error types
                refused += 1
                continue
            with open(out_path, "wb") as out:
                out.write(model.SerializeToString())
            parsed += 1
    print(f"{parsed} parsed, {refused} refused")


if __name__ == "__main__":
    main(sys.argv[1])
