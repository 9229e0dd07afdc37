"""onyx.draw and `onyx draw`: pictures of models as SVG, DOT and HTML.

The pictures of the 1802 backend models are checked by the tools that read them: Graphviz's
`dot` for DOT, an XML parser for SVG, a JSON parser for the HTML page's data. The HTML page
itself runs in headless Chromium in test_draw_page.py.
"""

import json
import pathlib
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

import pytest

import onyx
from conftest import REPO, onyx_tool, program_environment, run_onyx_tool

BACKEND = REPO.parent / "shared" / "conformance" / "onnx-backend" / "node"
SVG = "{http://www.w3.org/2000/svg}"

# An exporter's shapes: name scopes, a weight, a Constant node, an If with two branches.
SCOPED = """
<ir_version: 9, opset_import: ["" : 17]>
encoder (float[N,S,8] x, bool flag) => (float[N,S,8] y, float[N,S,8] z)
<float[8,8] w = {1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
  0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0,
  0, 0, 0, 0, 0, 0, 0, 1}>
{
  ["/encoder/layer.0/attn/MatMul"] a0 = MatMul(x, w)
  ["/encoder/layer.0/attn/Constant"] half = Constant<value = float {0.5}>()
  ["/encoder/layer.0/attn/Mul"] a1 = Mul(a0, half)
  ["/encoder/layer.0/Add"] r0 = Add(a1, x)
  ["/encoder/layer.1/attn/MatMul"] c0 = MatMul(r0, w)
  ["/encoder/layer.1/attn/Relu"] c1 = Relu(c0)
  ["/encoder/layer.1/Add"] r1 = Add(c1, r0)
  ["/head/If"] y = If(flag) <
    then_branch = g1 () => (float[N,S,8] t) { ["/head/then/Neg"] t = Neg(r1) },
    else_branch = g2 () => (float[N,S,8] e) { ["/head/else/Identity"] e = Identity(r1) }
  >
  ["/tail/Sigmoid"] z = Sigmoid(r0)
}
"""


def svg_texts(svg):
    """Every text element's content, in document order."""
    root = ElementTree.fromstring(svg)
    return ["".join(element.itertext()) for element in root.iter(SVG + "text")]


def page_data(html):
    """The JSON the HTML page draws from."""
    found = re.search(r'<script type="application/json" id="onyx-data">(.*?)</script>', html, re.S)
    assert found, "the page holds no data"
    return json.loads(found.group(1))


def test_a_picture_shows_scopes_weights_and_inferred_shapes():
    model = onyx.parse_text(SCOPED)
    texts = svg_texts(onyx.draw(model, depth=9))
    # Scopes as group titles (a scope of one box is that box), weights inside their readers,
    # shapes inference found on the edges, symbolic dims by name.
    for expected in ["encoder", "layer.0", "attn", "layer.1", "then_branch", "else_branch",
                     "B: float[8,8]", "float[N,S,8]"]:
        assert expected in texts, expected
    assert not any(text.startswith("Constant") for text in texts), "a Constant drew as a box"
    # `head` holds one box (the If), so it is no group of its own; If's title names it.
    assert "head" not in texts
    # Drawing never changes the model.
    assert onyx.parse_text(SCOPED).to_bytes() == model.to_bytes()


def test_depth_and_collapse_choose_what_is_expanded():
    model = onyx.parse_text(SCOPED)
    shallow = svg_texts(onyx.draw(model, depth=1))
    assert "encoder" in shallow and "layer.0" not in shallow
    assert "6 nodes" in shallow  # the collapsed encoder says how much it holds
    assert "layer.0" in svg_texts(onyx.draw(model, depth=2))
    collapsed = svg_texts(onyx.draw(model, depth=9, collapse=["encoder/layer.1"]))
    assert "layer.0" in collapsed and "layer.1" in collapsed and "Relu" not in collapsed
    assert "Relu" in svg_texts(onyx.draw(model, depth=9))


def test_the_dot_file_is_graphviz_s_and_the_command_writes_each_format(tmp_path):
    source = tmp_path / "scoped.onnxtxt"
    source.write_text(SCOPED)
    for extension in ["svg", "dot", "html"]:
        out = tmp_path / f"scoped.{extension}"
        finished = run_onyx_tool("draw", source, "-o", out, "--depth", "9")
        assert finished.returncode == 0, finished.stderr
        assert out.stat().st_size > 500
    dot = (tmp_path / "scoped.dot").read_text()
    assert "subgraph cluster_" in dot and 'label="float[N,S,8]"' in dot
    finished = run_onyx_tool("draw", source, "-o", tmp_path / "scoped.png")
    assert finished.returncode == 2 and ".svg, .dot or .html" in finished.stderr


def test_cost_and_profile_colour_the_boxes(tmp_path):
    source = tmp_path / "scoped.onnxtxt"
    source.write_text(SCOPED)
    out = tmp_path / "cost.svg"
    finished = run_onyx_tool("draw", source, "-o", out, "--depth", "9", "--cost", "--dim", "N=2",
                             "--dim", "S=4")
    assert finished.returncode == 0, finished.stderr
    texts = svg_texts(out.read_text())
    # A MatMul of [2,4,8] by [8,8]: 2 x 64 x 8 multiply-adds.
    assert "1.02 kFLOPs" in texts
    assert 'style="fill:#f28b82"' in out.read_text()  # the largest: a MatMul
    trace = tmp_path / "run.json"
    with open(trace, "w") as written:
        ran = subprocess.run([onyx_tool(), "run", str(source), "--dim", "N=2", "--dim",
                              "S=4", "--profile", "--json"], stdout=written,
                             stderr=subprocess.PIPE, env=program_environment(), check=False)
    assert ran.returncode == 0, ran.stderr
    finished = run_onyx_tool("draw", source, "-o", tmp_path / "profile.svg", "--profile", trace)
    assert finished.returncode == 0, finished.stderr
    assert any(text.endswith(" ms") for text in svg_texts((tmp_path / "profile.svg").read_text()))
    finished = run_onyx_tool("draw", source, "-o", tmp_path / "x.svg", "--cost", "--profile", trace)
    assert finished.returncode == 2 and "one measure" in finished.stderr


def test_a_diff_marks_added_removed_and_changed_nodes():
    before = onyx.parse_text(SCOPED)
    after = onyx.parse_text(
        SCOPED.replace('Relu(c0)', 'Tanh(c0)')
        .replace('["/tail/Sigmoid"] z = Sigmoid(r0)',
                 '["/tail/Sigmoid"] s = Sigmoid(r0)\n  ["/tail/Neg"] z = Neg(s)')
        .replace('["/encoder/layer.0/attn/Mul"] a1 = Mul(a0, half)', "")
        .replace("Add(a1, x)", "Add(a0, x)")
    )
    svg = onyx.draw(after, diff=before, depth=9)
    root = ElementTree.fromstring(svg)

    def titles(change):
        return sorted(
            "".join(group.find(SVG + "text").itertext())
            for group in root.iter(SVG + "g")
            if change in group.get("class", "").split()
        )

    # Nodes are matched by the value they make: z's maker changed from Sigmoid to Neg, c1's
    # from Relu to Tanh, r0's reads a0 now; Sigmoid makes a new value, s; a1 is made no more.
    assert titles("changed") == ["Add", "Neg", "Tanh"]
    assert titles("added") == ["Sigmoid"]
    assert titles("removed") == ["Mul"]


def test_untrusted_names_are_shown_literally_in_svg_and_dot(tmp_path):
    onnx = pytest.importorskip("onnx", reason="the model is built with onnx's helper")
    from onnx import TensorProto, helper

    # A slash starts a name scope, so the script's name shows as `script>` in a box (its
    # scope holds one box, so it is no group) and whole in the box's tooltip.
    names = ['<script>alert("x")</script>', '<img src=x onerror="alert(1)">', "a\"b'c",
             "x]]>y", "line\nbreak", "&amp;"]
    nodes = []
    previous = "in"
    for index, name in enumerate(names):
        output = f"v{index}"
        nodes.append(helper.make_node("Relu", [previous], [output], name=name))
        previous = output
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("in", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info(previous, TensorProto.FLOAT, [2])])
    model = onyx.load(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
                      .SerializeToString())
    svg = onyx.draw(model)
    texts = svg_texts(svg)
    tooltips = ["".join(e.itertext()) for e in ElementTree.fromstring(svg).iter(SVG + "title")]
    for name in names:
        shown = name.replace("\n", "\\n")
        assert f"Relu {shown}" in tooltips, name
        assert shown.rsplit("/", 1)[-1] in texts, name
    dot_file = tmp_path / "names.dot"
    onyx.draw(model, dot_file)
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (scripts/deps.sh installs it)")
    svg = subprocess.run(["dot", "-Tsvg", str(dot_file)], capture_output=True, text=True,
                         check=True, env=program_environment()).stdout
    drawn = svg_texts(svg)
    for name in names:
        assert any(name.replace("\n", "\\n").rsplit("/", 1)[-1] in text for text in drawn), name


@pytest.mark.skipif(not BACKEND.is_dir(), reason="../shared/conformance is not beside the clone")
def test_every_backend_model_draws_valid_svg_dot_and_html(tmp_path):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (scripts/deps.sh installs it)")
    cases = sorted(BACKEND.iterdir())
    assert len(cases) >= 1800
    dot_files = []
    for case in cases:
        model = onyx.load(str(case / "model.onnx"), load_external_data=False)
        svg = onyx.draw(model, format="svg")
        ElementTree.fromstring(svg)  # well-formed, or this raises
        data = page_data(onyx.draw(model, format="html"))
        assert len(data["boxes"]) >= 2, case.name  # at least an output and what makes it
        dot_file = tmp_path / f"{case.name}.dot"
        onyx.draw(model, dot_file)
        dot_files.append(dot_file)
    # Graphviz reads many files per run and names the one it refuses.
    for start in range(0, len(dot_files), 300):
        batch = [str(path) for path in dot_files[start:start + 300]]
        finished = subprocess.run(["dot", "-Tsvg", "-O", *batch], capture_output=True, text=True,
                                  check=False, env=program_environment())
        assert finished.returncode == 0, finished.stderr[:2000]
    assert all(pathlib.Path(f"{path}.svg").stat().st_size > 0 for path in dot_files)



def test_the_pictures_in_docs_are_what_onyx_draws_now(tmp_path):
    # scripts/draw_docs.sh draws them; a change to the drawing that leaves them stale fails
    # here (texts compared, not coordinates, which the last digit of a float may move).
    drawn = svg_texts(onyx.draw(onyx.load(str(REPO / "examples" / "tiny_cnn.onnx"))))
    assert svg_texts((REPO / "docs" / "draw" / "tiny_cnn.svg").read_text()) == drawn
    before = onyx.parse_text((REPO / "docs" / "draw" / "exported_block.onnxtxt").read_text())
    after = before.clone()
    onyx.optimize(after)
    diff = onyx.draw(after, diff=before,
                     title="exported_block.onnxtxt before and after onyx optimize")
    assert svg_texts((REPO / "docs" / "draw" / "optimize_diff.svg").read_text()) == svg_texts(diff)
    assert ' removed"' in diff and ' changed"' in diff
