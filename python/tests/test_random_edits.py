"""Random sequences of edits, each either refused with an exception or leaving a model whose
graph invariants hold and which reads back from its own bytes: never a crash, never a broken
model. Seeded, so a failure repeats."""

import random

import numpy as np
import pytest

import onyx
from conftest import ADD_MUL, CONV_RELU

UNARY = ["Neg", "Relu", "Abs", "Identity", "Sigmoid"]


def random_edit(model, rng):
    graph = model.graph
    nodes = list(graph)
    values = [v for v in graph.inputs] + [v for n in nodes for v in n.outputs if v is not None]
    choice = rng.randrange(9)
    if choice == 0 or not nodes:
        source = rng.choice(values)
        anchor = rng.choice(nodes) if nodes and rng.random() < 0.5 else None
        graph.add_node(rng.choice(UNARY), [source], before=anchor)
    elif choice == 1:
        graph.remove(rng.choice(nodes))
    elif choice == 2:
        node = rng.choice(nodes)
        if node.inputs:
            node.replace_input_with(rng.randrange(len(node.inputs)), rng.choice(values + [None]))
    elif choice == 3:
        rng.choice(values).name = f"v{rng.randrange(1000)}"
    elif choice == 4:
        rng.choice(values).replace_all_uses_with(rng.choice(values))
    elif choice == 5:
        node = rng.choice(nodes)
        node.set_attribute(rng.choice(["alpha", "axis", "mode"]), rng.choice([1, 0.5, "x", [1, 2]]))
    elif choice == 6:
        graph.sort()
    elif choice == 7:
        node = rng.choice(nodes)
        with graph.patch() as patch:
            new = patch.add_node(rng.choice(UNARY), [rng.choice(values)], outputs=len(node.outputs))
            patch.replace_node(node, new)
    else:
        graph.add_initializer(np.full(2, rng.random(), np.float32), name=f"c{rng.randrange(1000)}")


@pytest.mark.parametrize("seed", range(12))
def test_random_edits_keep_the_model_whole(seed):
    rng = random.Random(seed)
    model = onyx.parse_text(CONV_RELU if seed % 2 else ADD_MUL)
    refused = 0
    for _ in range(60):
        try:
            random_edit(model, rng)
        except (onyx.OnyxError, ValueError, TypeError, IndexError):
            refused += 1
        assert onyx.verify(model) == []
        again = onyx.load(model.to_bytes())
        assert len(again.graph) == len(model.graph)
        onyx.check(model)  # may find problems (edits need not be valid ONNX), never crashes
    assert refused < 60
