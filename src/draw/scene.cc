// The scene of a model: boxes for nodes, inputs, outputs and groups; edges for values.
#include "draw/scene.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "infer/merge.h"
#include "onyx/core/element_type.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/type.h"
#include "onyx/ops/callee.h"
#include "onyx/ops/registry.h"
#include "onyx/text/printer.h"

namespace onyx::draw {

namespace {

// How deep graphs and function calls may nest in a picture: the checker's limit for graphs.
constexpr uint32_t kMaxNesting = kMaxGraphNesting;
// An attribute's text longer than this is cut (a long list of ints reads no better whole).
constexpr size_t kMaxAttributeText = 240;

struct Source {
  uint32_t box = kNoBox;
  uint32_t value = 0;
};

// The values one graph (or one call's function body) defines, and where to look next for a
// value it reads from outside (a subgraph reads its parents'; a function body nothing).
struct ValueScope {
  std::unordered_map<const Value*, Source> defined;
  const ValueScope* outer = nullptr;

  const Source* find(const Value* value) const {
    for (const ValueScope* scope = this; scope != nullptr; scope = scope->outer) {
      auto found = scope->defined.find(value);
      if (found != scope->defined.end()) return &found->second;
    }
    return nullptr;
  }
};

// `float[64,3,7,7]`: a tensor's type as formatType() spells a value's.
std::string tensorText(const Tensor& tensor) {
  std::string text;
  if (tensor.data_type) {
    if (const ElementTypeInfo* info = elementTypeInfo(*tensor.data_type)) text = info->shortName;
  }
  text += '[';
  for (size_t i = 0; i < tensor.dims.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(tensor.dims[i]);
  }
  return text + ']';
}

std::string attributeText(const Attribute& attribute) {
  std::string name(attribute.nameOrEmpty());
  switch (attribute.kind()) {
    case AttributeKind::kGraph: return name + ": graph";
    case AttributeKind::kGraphs:
      return name + ": " + std::to_string(attribute.rare().graphs.size()) + " graphs";
    case AttributeKind::kTensor:
      if (attribute.t != nullptr) return name + ": tensor " + tensorText(*attribute.t);
      break;
    case AttributeKind::kTensors:
      return name + ": " + std::to_string(attribute.rare().tensors.size()) + " tensors";
    default: break;
  }
  std::string text = printAttribute(attribute);
  if (text.size() > kMaxAttributeText) {
    text.resize(kMaxAttributeText);
    text += " ...";
  }
  return text;
}

// The name scopes of a node's name, outermost first: `/encoder/layer.3/attn/MatMul` is in
// `encoder`, `layer.3`, `attn`; the last part names the node itself.
std::vector<std::string_view> scopesOf(std::string_view name) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t slash = name.find('/', start);
    if (slash == std::string_view::npos) break;
    if (slash > start) parts.push_back(name.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

bool isAttachedConstant(const Node& node) {
  return isStandardOperator(node, "Constant") && node.inputCount() == 0 &&
         node.outputCount() == 1 && node.output(0) != nullptr &&
         !node.output(0)->isGraphOutputOfItsGraph();
}

class SceneBuilder {
 public:
  SceneBuilder(const Model& model, InferResult& inferred, Scene& scene)
      : model_(model), inferred_(inferred), scene_(scene), callees_(model) {}

  Status build() {
    scene_.boxes.clear();
    scene_.edges.clear();
    scene_.values.clear();
    if (model_.graph == nullptr) return Status::ok();
    uint32_t root = addBox(BoxKind::kGraph, kNoBox, "graph", "");
    scene_.boxes[root].name = std::string(model_.graph->name.value_or(""));
    scene_.boxes[root].doc = std::string(
        model_.graph->doc_string.value_or(model_.doc_string.value_or(std::string_view())));
    if (scene_.title.empty()) scene_.title = scene_.boxes[root].name;
    ValueScope scope;
    Status status =
        addGraph(*model_.graph, root, scope, scopeOf(model_, *model_.graph), 0, std::string());
    if (!status.isOk()) return status;
    dissolveLoneChildScopes();
    blockCrowdedGroups();
    renumberInTreeOrder();
    countNodesAndDepths(scene_);
    return Status::ok();
  }

 private:
  uint32_t addBox(BoxKind kind, uint32_t parent, std::string title, std::string name) {
    auto index = static_cast<uint32_t>(scene_.boxes.size());
    Box& box = scene_.boxes.emplace_back();
    box.kind = kind;
    box.parent = parent;
    box.title = std::move(title);
    box.name = std::move(name);
    if (parent != kNoBox) scene_.boxes[parent].children.push_back(index);
    return index;
  }

  // A value's type as inference knows it (declared and inferred merged), else as declared,
  // else an initializer's; empty when nothing says.
  std::string typeText(const Value& value) {
    auto known = inferred_.values.find(&value);
    if (known != inferred_.values.end() && known->second.type.isKnown()) {
      return infer::describe(known->second.type, inferred_.dims);
    }
    if (const Type* type = value.type()) return formatType(*type);
    if (const Tensor* tensor = value.initializer()) return tensorText(*tensor);
    return {};
  }

  uint32_t addValue(const Value& value) {
    auto index = static_cast<uint32_t>(scene_.values.size());
    scene_.values.push_back({std::string(value.name()), typeText(value)});
    return index;
  }

  // The box a node goes in: its graph's box, or the innermost of its name scopes there.
  uint32_t scopeBox(uint32_t graph_box, std::string_view node_name, const std::string& prefix,
                    std::unordered_map<std::string, uint32_t>& scope_boxes) {
    uint32_t parent = graph_box;
    std::string path;
    for (std::string_view part : scopesOf(node_name)) {
      if (!path.empty()) path += '/';
      path += part;
      auto [found, inserted] = scope_boxes.try_emplace(path, kNoBox);
      if (inserted) {
        found->second = addBox(BoxKind::kScope, parent, std::string(part), path);
        scene_.boxes[found->second].key = prefix + "<scope>" + path;
      }
      parent = found->second;
    }
    return parent;
  }

  // Draws the node's inputs: an edge from where each is computed, or a line in the box for a
  // weight (an initializer, a Constant node's value).
  void addInputs(const Node& node, uint32_t box, const ValueScope& scope, const OpSchema* schema) {
    for (size_t i = 0; i < node.inputCount(); ++i) {
      const Value* value = node.input(i);
      if (value == nullptr || value->name().empty()) continue;
      if (value->isInitializer() || constants_.contains(value)) {
        std::string formal;
        if (schema != nullptr) {
          if (const FormalParameter* parameter = schema->inputAt(i)) formal = parameter->name;
        }
        if (formal.empty()) formal = "in" + std::to_string(i);
        std::string line = formal + ": " + typeText(*value);
        scene_.boxes[box].details.push_back(std::move(line));
        continue;
      }
      if (const Source* source = scope.find(value)) {
        scene_.edges.push_back({source->box, box, source->value});
      }
    }
  }

  // The node's attributes, key and signature (Box::key, Box::signature).
  void identify(const Node& node, uint32_t index, const std::string& prefix) {
    Box& box = scene_.boxes[index];
    for (const Attribute* attribute : node.attributes) {
      box.attributes.push_back(attributeText(*attribute));
    }
    box.doc = std::string(node.rare().doc_string.value_or(""));
    for (const Value* output : node.outputs()) {
      if (output != nullptr && !output->name().empty()) {
        box.key = prefix + std::string(output->name());
        break;
      }
    }
    // A node without a named output (the spec allows one) is known by its name, when it has one.
    if (box.key.empty() && !node.nameOrEmpty().empty()) {
      box.key = prefix + "<node>" + std::string(node.nameOrEmpty());
    }
    box.signature = box.title + "(";
    for (size_t i = 0; i < node.inputCount(); ++i) {
      if (i > 0) box.signature += ", ";
      if (const Value* input = node.input(i)) box.signature += input->name();
    }
    box.signature += ")";
    for (const std::string& attribute : box.attributes) box.signature += "\n" + attribute;
  }

  void addOutputs(const Node& node, uint32_t box, ValueScope& scope) {
    for (const Value* value : node.outputs()) {
      if (value == nullptr || value->name().empty()) continue;
      scope.defined[value] = {box, addValue(*value)};
    }
  }

  // A graph's or function's input, with its type; the values read from it come from here.
  void addInputBox(uint32_t parent, const Value& value, const std::string& prefix,
                   ValueScope& scope) {
    uint32_t box = addBox(BoxKind::kInput, parent, "input", std::string(value.name()));
    scene_.boxes[box].key = prefix + "<in>" + std::string(value.name());
    std::string type = typeText(value);
    if (!type.empty()) scene_.boxes[box].details.push_back(std::move(type));
    scope.defined[&value] = {box, addValue(value)};
  }

  // A graph's or function's output, with its type and the edge from where it is made.
  void addOutputBox(uint32_t parent, const Value& value, const std::string& prefix,
                    const ValueScope& scope) {
    uint32_t box = addBox(BoxKind::kOutput, parent, "output", std::string(value.name()));
    scene_.boxes[box].key = prefix + "<out>" + std::string(value.name());
    std::string type = typeText(value);
    if (!type.empty()) scene_.boxes[box].details.push_back(std::move(type));
    if (const Source* source = scope.find(&value)) {
      scene_.edges.push_back({source->box, box, source->value});
    }
  }

  // The nodes of `body` (a graph or a function body) in `box`; Constant nodes only read by
  // others become lines in their readers' boxes.
  Status addNodes(const Graph& body, uint32_t box, ValueScope& scope, const GraphScope& graph_scope,
                  uint32_t nesting, const std::string& prefix) {
    // Graphs in graphs and calls in bodies recurse here: bounded, as the checker bounds graphs.
    if (nesting > kMaxNesting) {
      return Status(ErrorCode::kLimitExceeded, "graphs and function calls nest more than " +
                                                   std::to_string(kMaxNesting) + " deep");
    }
    std::unordered_map<std::string, uint32_t> scope_boxes;
    for (const Node* node : body.nodes()) {
      if (isAttachedConstant(*node)) {
        constants_.insert(node->output(0));
        continue;
      }
      Status status = addNode(*node, box, scope, graph_scope, scope_boxes, nesting, prefix);
      if (!status.isOk()) return status;
    }
    return Status::ok();
  }

  // `prefix` starts the keys of the graph's boxes (Box::key): empty for the main graph.
  Status addGraph(const Graph& graph, uint32_t graph_box, ValueScope& scope,
                  const GraphScope& graph_scope, uint32_t nesting, const std::string& prefix) {
    for (const ValueInfo* input : graph.inputs) {
      const Value* value = input->bound();
      if (value != nullptr && !value->isInitializer()) {
        addInputBox(graph_box, *value, prefix, scope);
      }
    }
    Status status = addNodes(graph, graph_box, scope, graph_scope, nesting, prefix);
    if (!status.isOk()) return status;
    for (const ValueInfo* output : graph.outputs) {
      if (const Value* value = output->bound()) addOutputBox(graph_box, *value, prefix, scope);
    }
    return Status::ok();
  }

  Status addNode(const Node& node, uint32_t graph_box, ValueScope& scope,
                 const GraphScope& graph_scope,
                 std::unordered_map<std::string, uint32_t>& scope_boxes, uint32_t nesting,
                 const std::string& prefix) {
    uint32_t parent = scopeBox(graph_box, node.nameOrEmpty(), prefix, scope_boxes);
    Callee callee = callees_.resolve(node, graph_scope.imports);
    const Function* body = callee.function;
    if (body != nullptr && calling_.contains(body)) body = nullptr;  // recursion: not expanded
    bool control_flow = node.holdsGraphs();
    BoxKind kind = control_flow      ? BoxKind::kControlFlow
                   : body != nullptr ? BoxKind::kCall
                                     : BoxKind::kNode;
    std::string title(node.opType());
    if (std::string_view domain = canonicalDomain(node.domainOrDefault()); !domain.empty()) {
      title = std::string(domain) + "." + title;
    }
    uint32_t box = addBox(kind, parent, std::move(title), std::string(node.nameOrEmpty()));
    scene_.boxes[box].node = &node;
    identify(node, box, prefix);
    addInputs(node, box, scope, callee.schema);
    if (control_flow) {
      for (const Attribute* attribute : node.attributes) {
        std::vector<const Graph*> graphs;
        if (attribute->kind() == AttributeKind::kGraph && attribute->g != nullptr) {
          graphs.push_back(attribute->g);
        } else if (attribute->kind() == AttributeKind::kGraphs) {
          for (const Graph* graph : attribute->rare().graphs) graphs.push_back(graph);
        }
        for (const Graph* graph : graphs) {
          uint32_t graph_box_inner =
              addBox(BoxKind::kGraph, box, std::string(attribute->nameOrEmpty()),
                     std::string(graph->name.value_or("")));
          ValueScope inner;
          inner.outer = &scope;
          std::string inner_prefix =
              scene_.boxes[box].key + "/" + std::string(attribute->nameOrEmpty()) + "/";
          scene_.boxes[graph_box_inner].key = inner_prefix;
          scene_.boxes[graph_box_inner].doc = std::string(graph->doc_string.value_or(""));
          Status status =
              addGraph(*graph, graph_box_inner, inner, graph_scope, nesting + 1, inner_prefix);
          if (!status.isOk()) return status;
        }
      }
    } else if (body != nullptr && body->body != nullptr) {
      calling_.insert(body);
      ValueScope inner;  // a function body sees only its own inputs
      GraphScope body_scope = scopeOf(model_, *body->body);
      Status status = addFunctionBody(*body, box, inner, body_scope, nesting + 1,
                                      scene_.boxes[box].key + "/body/");
      calling_.erase(body);
      if (!status.isOk()) return status;
    }
    addOutputs(node, box, scope);
    return Status::ok();
  }

  Status addFunctionBody(const Function& function, uint32_t box, ValueScope& scope,
                         const GraphScope& body_scope, uint32_t nesting,
                         const std::string& prefix) {
    for (const Value* value : function.inputs) {
      if (value != nullptr) addInputBox(box, *value, prefix, scope);
    }
    Status status = addNodes(*function.body, box, scope, body_scope, nesting, prefix);
    if (!status.isOk()) return status;
    for (const Use* use : function.outputs) {
      if (const Value* value = use != nullptr ? use->value() : nullptr) {
        addOutputBox(box, *value, prefix, scope);
      }
    }
    return Status::ok();
  }

  // A name scope that holds one box says nothing its box does not: the box takes its place
  // (a scope inside it takes the outer scope's name as a prefix, `encoder/layer.3`). Edges
  // never end at a scope, so only the tree changes.
  void dissolveLoneChildScopes() {
    std::vector<Box>& boxes = scene_.boxes;
    // Children come after their parents, so walking backwards dissolves inner scopes first.
    for (size_t i = boxes.size(); i-- > 1;) {
      Box& box = boxes[i];
      if (box.kind != BoxKind::kScope || box.children.size() != 1) continue;
      uint32_t child = box.children.front();
      if (boxes[child].kind == BoxKind::kScope) {
        boxes[child].title = box.title + "/" + boxes[child].title;
      }
      boxes[child].parent = box.parent;
      for (uint32_t& sibling : boxes[box.parent].children) {
        if (sibling == i) sibling = child;
      }
      box.children.clear();
    }
  }

  // A group of more than kMaxChildren boxes (a graph exported without name scopes) has its
  // nodes and scopes put in blocks of consecutive ones, so that a picture of 100,000 nodes
  // shows a few hundred blocks until asked for more. Inputs and outputs stay where they are.
  void blockCrowdedGroups() {
    constexpr size_t kMaxChildren = 1000;
    constexpr size_t kBlock = 256;
    const size_t existing = scene_.boxes.size();
    for (size_t group = 0; group < existing; ++group) {
      if (scene_.boxes[group].children.size() <= kMaxChildren) continue;
      std::vector<uint32_t> inputs;
      std::vector<uint32_t> middle;
      std::vector<uint32_t> outputs;
      for (uint32_t child : scene_.boxes[group].children) {
        BoxKind kind = scene_.boxes[child].kind;
        (kind == BoxKind::kInput    ? inputs
         : kind == BoxKind::kOutput ? outputs
                                    : middle)
            .push_back(child);
      }
      const size_t block = std::max(kBlock, (middle.size() + kMaxChildren - 1) / kMaxChildren);
      std::vector<uint32_t> children = std::move(inputs);
      for (size_t first = 0; first < middle.size(); first += block) {
        auto index = static_cast<uint32_t>(scene_.boxes.size());
        Box& box = scene_.boxes.emplace_back();
        box.kind = BoxKind::kScope;
        box.parent = static_cast<uint32_t>(group);
        box.title = "block " + std::to_string(first / block + 1);
        box.key = scene_.boxes[group].key + "<block>" + std::to_string(first / block);
        for (size_t i = first; i < std::min(first + block, middle.size()); ++i) {
          box.children.push_back(middle[i]);
          scene_.boxes[middle[i]].parent = index;
        }
        children.push_back(index);
      }
      children.insert(children.end(), outputs.begin(), outputs.end());
      scene_.boxes[group].children = std::move(children);
    }
  }

  // Numbers the boxes in tree order from the main graph (parents before children, which
  // countNodesAndDepths and the layout rely on), dropping those no longer in the tree.
  void renumberInTreeOrder() {
    std::vector<Box>& boxes = scene_.boxes;
    std::vector<uint32_t> renumbered(boxes.size(), kNoBox);
    std::vector<uint32_t> order;
    order.reserve(boxes.size());
    std::vector<uint32_t> stack{0};
    while (!stack.empty()) {
      uint32_t box = stack.back();
      stack.pop_back();
      renumbered[box] = static_cast<uint32_t>(order.size());
      order.push_back(box);
      const auto& children = boxes[box].children;
      for (size_t i = children.size(); i-- > 0;) stack.push_back(children[i]);
    }
    std::vector<Box> ordered;
    ordered.reserve(order.size());
    for (uint32_t old : order) {
      Box& box = ordered.emplace_back(std::move(boxes[old]));
      if (box.parent != kNoBox) box.parent = renumbered[box.parent];
      for (uint32_t& child : box.children) child = renumbered[child];
    }
    boxes = std::move(ordered);
    for (Edge& edge : scene_.edges) {
      edge.from = renumbered[edge.from];
      edge.to = renumbered[edge.to];
    }
  }

  const Model& model_;
  InferResult& inferred_;
  Scene& scene_;
  CalleeResolver callees_;
  std::unordered_set<const Value*> constants_;
  std::unordered_set<const Function*> calling_;
};

}  // namespace

void countNodesAndDepths(Scene& scene) {
  std::vector<Box>& boxes = scene.boxes;
  // Parents come before their children: depths forward, counts backward.
  for (Box& box : boxes) box.node_count = 0;
  for (size_t i = 1; i < boxes.size(); ++i) boxes[i].depth = boxes[boxes[i].parent].depth + 1;
  for (size_t i = boxes.size(); i-- > 0;) {
    Box& box = boxes[i];
    if (box.isNode()) box.node_count += 1;
    if (box.parent != kNoBox) boxes[box.parent].node_count += box.node_count;
  }
}

Status buildScene(const Model& model, Scene& scene) {
  InferOptions options;
  options.keep_values = true;
  InferResult inferred = inferModel(model, options);  // a const model: nothing written
  return SceneBuilder(model, inferred, scene).build();
}

}  // namespace onyx::draw
