"""The HTML picture in a browser: Debian's Chromium, headless, driven over the DevTools protocol.

Each test starts its own Chromium, opens a page onyx.draw wrote, and watches every console
message, uncaught exception and dialog while the page loads and is clicked.
"""

import base64
import json
import pathlib
import shutil
import subprocess
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ElementTree

import pytest

import onyx
from conftest import build_dir, program_environment
from test_draw import SCOPED, SVG as SVG_NAMESPACE

websocket = pytest.importorskip("websocket", reason="python3-websocket (scripts/deps.sh) drives Chromium")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (scripts/deps.sh installs it)")


class Browser:
    """One headless Chromium with one page, and what the page reported."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="onyx-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-dev-shm-usage", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
             "--window-size=1400,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=program_environment())
        port_file = pathlib.Path(self.profile) / "DevToolsActivePort"
        deadline = time.time() + 60
        while not port_file.exists() or not port_file.read_text().strip():
            assert time.time() < deadline, "Chromium did not start"
            assert self.process.poll() is None, "Chromium exited"
            time.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as response:
            pages = [t for t in json.load(response) if t["type"] == "page"]
        self.socket = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=60)
        self.next_id = 0
        self.events = []
        for domain in ["Page", "Runtime", "Log"]:
            self.call(f"{domain}.enable")

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method):
        while not any(event.get("method") == method for event in self.events):
            self.events.append(json.loads(self.socket.recv()))

    def open(self, path):
        self.events.clear()
        self.call("Page.navigate", url=pathlib.Path(path).resolve().as_uri())
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def problems(self):
        """Console errors, uncaught exceptions and dialogs the page caused so far."""
        found = []
        for event in self.events:
            method = event.get("method")
            params = event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(params["exceptionDetails"].get("text"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(str(params.get("args")))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append(params["entry"].get("text"))
            elif method == "Page.javascriptDialogOpening":
                found.append("dialog: " + params.get("message", ""))
        return found

    def screenshot(self, path):
        data = base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
        pathlib.Path(path).write_bytes(data)
        return data

    def close(self):
        self.socket.close()
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture
def browser():
    opened = Browser()
    yield opened
    opened.close()


SHOWN = "document.querySelectorAll('#viewport g.box, #viewport g.group').length"


def test_the_page_loads_shows_the_boxes_and_expands_a_group_on_click(browser, tmp_path):
    page = tmp_path / "scoped.html"
    onyx.draw(onyx.parse_text(SCOPED), page, depth=2)
    browser.open(page)
    # Depth 2: inputs x and flag, the encoder open with layer.0 and layer.1 collapsed, the If
    # open with its two branches collapsed, Sigmoid, outputs y and z.
    assert browser.evaluate(SHOWN) == 11
    assert browser.evaluate("document.querySelectorAll('#viewport [data-collapsed]').length") == 4
    browser.evaluate(
        "[...document.querySelectorAll('#viewport g.box.collapsed')]"
        ".find(g => g.querySelector('text.title').textContent === 'layer.0')"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    # layer.0 opens: its attn scope (collapsed) and its Add.
    assert browser.evaluate(SHOWN) == 13
    assert browser.evaluate(
        "[...document.querySelectorAll('#viewport g.group text.title')]"
        ".some(t => t.textContent === 'layer.0')")
    # Search finds a node by its shape and opens the groups around it.
    browser.evaluate(
        "const box = document.getElementById('search'); box.value = 'Relu';"
        "box.dispatchEvent(new Event('input'));"
        "document.querySelector('#results li').click()")
    assert browser.evaluate(
        "[...document.querySelectorAll('#viewport g.box text.title')]"
        ".some(t => t.textContent === 'Relu')")
    # Collapse all leaves the main graph's own boxes; a level more is depth 2 again.
    browser.evaluate("document.getElementById('collapse-all').click()")
    assert browser.evaluate(SHOWN) == 7
    browser.evaluate("document.getElementById('open-level').click()")
    assert browser.evaluate(SHOWN) == 11
    # A click on an open group's title closes it.
    browser.evaluate(
        "[...document.querySelectorAll('#viewport g.group text.toggle')]"
        ".find(t => t.textContent === 'encoder')"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    assert browser.evaluate(SHOWN) == 9
    assert browser.problems() == []
    # A blank page's screenshot against the picture's: the picture has something in it.
    shots = build_dir() / "draw-screenshots"
    shots.mkdir(exist_ok=True)
    picture = browser.screenshot(shots / "scoped.png")
    browser.open(tmp_path / "missing.html")
    blank = browser.screenshot(shots / "blank.png")
    assert picture[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(picture) > 2 * len(blank)


def test_the_page_places_every_box_where_the_svg_does(browser, tmp_path):
    # The page repeats the library's last layout step (placeRanks, in html_page.js): drawn
    # from the same layouts, its first picture must be the SVG's, box for box.
    model = onyx.parse_text(SCOPED)
    for depth in [1, 2, 9]:
        page = tmp_path / f"depth{depth}.html"
        onyx.draw(model, page, depth=depth)
        browser.open(page)
        drawn = browser.evaluate(
            "[...document.querySelectorAll('#viewport rect:not(.under)')].map(r =>"
            " ['x', 'y', 'width', 'height'].map(a => parseFloat(r.getAttribute(a))))")
        svg = ElementTree.fromstring(onyx.draw(model, depth=depth))
        expected = [[float(rect.get(a)) for a in ("x", "y", "width", "height")]
                    for rect in svg.iter(SVG_NAMESPACE + "rect") if rect.get("class") != "under"]
        assert len(drawn) == len(expected) > 3
        for page_rect, svg_rect in zip(sorted(drawn), sorted(expected)):
            assert page_rect == pytest.approx(svg_rect, abs=0.5), (depth, page_rect, svg_rect)
        assert browser.problems() == []


def test_names_that_are_markup_show_as_text_and_run_nothing(browser, tmp_path):
    onnx = pytest.importorskip("onnx", reason="the model is built with onnx's helper")
    from onnx import TensorProto, helper

    names = ['<script>window.ran = 1</script>', '<img src=x onerror="window.ran = 2">',
             "a\"b'c", "x]]>y", "line\nbreak", "</script><script>window.ran = 3</script>"]
    nodes = []
    previous = "in"
    for index, name in enumerate(names):
        nodes.append(helper.make_node("Relu", [previous], [f"v{index}"], name=name,
                                      doc_string=f"<script>window.ran = {10 + index}</script>"))
        previous = f"v{index}"
    graph = helper.make_graph(
        nodes, '<b>"graph"</b>', [helper.make_tensor_value_info("in", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info(previous, TensorProto.FLOAT, [2])])
    model = onyx.load(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
                      .SerializeToString())
    page = tmp_path / "names.html"
    onyx.draw(model, page)
    browser.open(page)
    assert browser.evaluate("window.ran === undefined")
    assert browser.evaluate("document.querySelectorAll('script').length") == 2  # data, viewer
    assert browser.evaluate("document.querySelectorAll('#viewport img, #viewport b').length") == 0
    tooltips = browser.evaluate(
        "[...document.querySelectorAll('#viewport g.box > title')].map(t => t.textContent)")
    for index, name in enumerate(names):
        doc = f"<script>window.ran = {10 + index}</script>"
        assert f"Relu {name.replace(chr(10), chr(92) + 'n')}\n{doc}" in tooltips, name
    assert browser.evaluate("document.title").startswith('<b>"graph"</b>')
    # The panel shows a clicked node's name as text too.
    browser.evaluate(
        "[...document.querySelectorAll('#viewport g.box.node')][0]"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    assert browser.evaluate("document.querySelector('#panel dd').textContent") == names[0]
    assert browser.evaluate(
        "[...document.querySelectorAll('#panel dd')].pop().textContent") == \
        "<script>window.ran = 10</script>"
    assert browser.evaluate("window.ran === undefined")
    assert browser.problems() == []
