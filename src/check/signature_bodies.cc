// R52: the graphs of the control-flow operators fit the node that runs them (Operators.md,
// If, Loop, Scan, SequenceMap). Counts only: the types a body declares are R36's, which needs
// inference.
#include "check/signature_rules.h"
#include "onyx/ir/graph.h"

namespace onyx::check {

namespace {

struct HeldGraph {
  const Graph* graph = nullptr;
  size_t index = 0;  // of the attribute on the node
};

// The graph the node's attribute `name` holds (not a reference, not another kind).
HeldGraph heldGraph(const Node& node, std::string_view name) {
  for (size_t a = 0; a < node.attributes.size(); ++a) {
    const Attribute* attribute = node.attributes[a];
    if (attribute == nullptr || attribute->nameOrEmpty() != name) continue;
    return {attribute->g, a};
  }
  return {};
}

std::string bodyPath(const SignatureSite& site, const HeldGraph& held) {
  return site.attributePath(held.index) + ".g";
}

class BodyCheck {
 public:
  explicit BodyCheck(const SignatureSite& site) : site_(site), node_(site.node) {}

  void ifBranches() {
    for (const char* name : {"then_branch", "else_branch"}) {
      HeldGraph branch = heldGraph(node_, name);
      if (branch.graph == nullptr) continue;  // R49, R50
      size_t inputs = branch.graph->passedInputCount();
      if (inputs != 0) {
        site_.out.error("R52", bodyPath(site_, branch),
                        std::string("the ") + name + " takes " +
                            countText(inputs, "input", "inputs") +
                            "; an If branch takes none (it reads outer values by name)");
      }
      size_t outputs = branch.graph->outputs.size();
      if (outputs != node_.outputCount()) {
        site_.out.error("R52", bodyPath(site_, branch),
                        std::string("the ") + name + " gives " +
                            countText(outputs, "output", "outputs") + ", but the If node has " +
                            countText(node_.outputCount(), "output", "outputs") +
                            "; each branch gives exactly the node's outputs");
      }
    }
  }

  void loopBody() {
    HeldGraph body = heldGraph(node_, "body");
    size_t node_inputs = node_.inputCount();
    if (node_inputs < 2) return;  // R43
    size_t carried = node_inputs - 2;
    size_t node_outputs = node_.outputCount();
    if (node_outputs < carried) {
      site_.out.error("R52", site_.path(),
                      "the Loop node carries " + countText(carried, "value", "values") +
                          " (its inputs after M and cond) but has " +
                          countText(node_outputs, "output", "outputs") +
                          "; its outputs are the final carried values, then the scan outputs");
    }
    if (body.graph == nullptr) return;
    size_t inputs = body.graph->passedInputCount();
    if (inputs != carried + 2) {
      site_.out.error("R52", bodyPath(site_, body),
                      "the Loop body takes " + countText(inputs, "input", "inputs") +
                          "; for this node's " +
                          countText(carried, "carried value", "carried values") + " it takes " +
                          std::to_string(carried + 2) +
                          ": the iteration number, the condition, then the carried values");
    }
    size_t outputs = body.graph->outputs.size();
    if (node_outputs >= carried && outputs != node_outputs + 1) {
      site_.out.error("R52", bodyPath(site_, body),
                      "the Loop body gives " + countText(outputs, "output", "outputs") +
                          "; for this node's " + countText(node_outputs, "output", "outputs") +
                          " it gives " + std::to_string(node_outputs + 1) +
                          ": the condition, the " +
                          countText(carried, "carried value", "carried values") + ", then " +
                          countText(node_outputs - carried, "scan output", "scan outputs"));
    }
  }

  void scanBody() {
    // Scan 8 passes sequence_lens first; from 9 every input is a state or a scan input.
    size_t skipped = site_.schema.since_version < 9 ? 1 : 0;
    if (node_.inputCount() <= skipped) return;  // R43
    size_t given = node_.inputCount() - skipped;
    std::optional<int64_t> scan_inputs = node_.intAttr("num_scan_inputs");
    if (!scan_inputs) return;  // R49, R48, or a reference in a function body
    if (*scan_inputs < 1 || static_cast<uint64_t>(*scan_inputs) > given) {
      site_.out.error("R52", site_.path(),
                      "num_scan_inputs is " + std::to_string(*scan_inputs) + ", but the node has " +
                          countText(given, "state or scan input", "state or scan inputs") +
                          "; it scans at least 1 of them and at most all");
      return;
    }
    size_t scanned = static_cast<size_t>(*scan_inputs);
    size_t states = given - scanned;
    size_t node_outputs = node_.outputCount();
    if (node_outputs < states) {
      site_.out.error("R52", site_.path(),
                      "the Scan node has " +
                          countText(states, "state variable", "state variables") + " but " +
                          countText(node_outputs, "output", "outputs") +
                          "; its outputs are the final states, then the scan outputs");
      return;
    }
    size_t scan_outputs = node_outputs - states;
    if (skipped == 1) {
      listLength("directions", scanned, true);
    } else {
      listLength("scan_input_axes", scanned, true);
      listLength("scan_input_directions", scanned, true);
      listLength("scan_output_axes", scan_outputs, false);
      listLength("scan_output_directions", scan_outputs, false);
    }
    HeldGraph body = heldGraph(node_, "body");
    if (body.graph == nullptr) return;
    size_t inputs = body.graph->passedInputCount();
    if (inputs != given) {
      site_.out.error(
          "R52", bodyPath(site_, body),
          "the Scan body takes " + countText(inputs, "input", "inputs") +
              "; it takes one per state variable and scan input: " + std::to_string(given));
    }
    size_t outputs = body.graph->outputs.size();
    if (outputs != node_outputs) {
      site_.out.error("R52", bodyPath(site_, body),
                      "the Scan body gives " + countText(outputs, "output", "outputs") +
                          "; it gives one per output of the node (the states, then the scan "
                          "outputs): " +
                          std::to_string(node_outputs));
    }
  }

  void sequenceMapBody() {
    HeldGraph body = heldGraph(node_, "body");
    if (body.graph == nullptr) return;
    size_t inputs = body.graph->passedInputCount();
    if (inputs != node_.inputCount()) {
      site_.out.error(
          "R52", bodyPath(site_, body),
          "the SequenceMap body takes " + countText(inputs, "input", "inputs") +
              "; it takes one per input of the node: " + std::to_string(node_.inputCount()));
    }
    if (body.graph->outputs.size() != node_.outputCount()) {
      site_.out.error(
          "R52", bodyPath(site_, body),
          "the SequenceMap body gives " +
              countText(body.graph->outputs.size(), "output", "outputs") +
              "; it gives one per output of the node: " + std::to_string(node_.outputCount()));
    }
  }

 private:
  // A Scan list attribute, when given, has one entry per scan input (or scan output).
  void listLength(std::string_view name, size_t expected, bool of_inputs) {
    for (size_t a = 0; a < node_.attributes.size(); ++a) {
      const Attribute* attribute = node_.attributes[a];
      if (attribute == nullptr || attribute->nameOrEmpty() != name) continue;
      if (attribute->isReference() || attribute->kind() != AttributeKind::kInts) return;
      size_t length = attribute->ints.size();
      if (length == expected) return;
      site_.out.error("R52", site_.attributePath(a),
                      std::string(name) + " has " + countText(length, "entry", "entries") +
                          "; it has one per scan " +
                          (of_inputs ? "input (num_scan_inputs is " : "output (the node has ") +
                          std::to_string(expected) + ")");
      return;
    }
  }

  const SignatureSite& site_;
  const Node& node_;
};

}  // namespace

void checkControlFlowBodies(const SignatureSite& site) {
  if (!site.domain.empty()) return;
  std::string_view op_type = site.node.opType();
  BodyCheck check(site);
  if (op_type == "If") {
    check.ifBranches();
  } else if (op_type == "Loop") {
    check.loopBody();
  } else if (op_type == "Scan") {
    check.scanBody();
  } else if (op_type == "SequenceMap") {
    check.sequenceMapBody();
  }
}

}  // namespace onyx::check
