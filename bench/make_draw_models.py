#!/usr/bin/python3
"""Writes the models the drawing benchmark (bench/draw_bench.sh) draws: the exported BERT-style
encoder of the optimiser benchmark (bench/make_optimize_models.py: PyTorch's name scopes such as
/encoder/layers.3/attention/self/MatMul, Constant nodes, the Shape scaffolding of dynamic
dimensions), with as many layers as make it 10,000 and 100,000 nodes, and small widths so
that the files stay small (a picture shows shapes, not weights).

  bench/make_draw_models.py [FOLDER]     (default build/bench-models)

  draw10k.onnx    126 layers, 10,013 nodes
  draw100k.onnx   1,266 layers, 100,073 nodes
  drawflat10k.onnx, drawflat100k.onnx
                  the same without node names: what an exporter that writes no scopes gives
                  (onyx draws such a graph in blocks of consecutive nodes)

Existing files are kept.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_optimize_models  # noqa: E402  (the encoder's generator)
import onnx  # noqa: E402

MODELS = {"draw10k.onnx": 126, "draw100k.onnx": 1266}


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "build/bench-models"
    os.makedirs(folder, exist_ok=True)
    for name, layers in MODELS.items():
        path = os.path.join(folder, name)
        if os.path.exists(path):
            continue
        print(f"writing {path} ({layers} layers)", file=sys.stderr)
        make_optimize_models.make_encoder(path, layers=layers, hidden=16, heads=2, ffn=32,
                                          vocab=50, positions=64)
    for name in MODELS:
        flat = os.path.join(folder, name.replace("draw", "drawflat"))
        if os.path.exists(flat):
            continue
        print(f"writing {flat} (no node names)", file=sys.stderr)
        model = onnx.load(os.path.join(folder, name))
        for node in model.graph.node:
            node.name = ""
        onnx.save(model, flat)


if __name__ == "__main__":
    main()
