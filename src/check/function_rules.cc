#include "check/function_rules.h"

#include <vector>

#include "check/metadata_rules.h"
#include "onyx/core/quote.h"

namespace onyx::check {

namespace {

std::string functionPath(const Model& model, size_t index) {
  std::string text;
  const Function* function = model.functions[index];
  appendSegment(text, "functions", index,
                function != nullptr ? function->nameOrEmpty() : std::string_view());
  return text;
}

std::string itemPath(const std::string& prefix, std::string_view list, size_t index,
                     std::string_view name = {}) {
  std::string text = prefix;
  appendSegment(text, list, index, name);
  return text;
}

// R101: an attribute default is usable as the value of the attribute. Scalars may lack
// their field (a proto3 writer drops a zero) and lists may be empty; a message value may not.
// The value rules stay silent about what this reports (ValueContext::is_attribute_default);
// a default whose value sits in another field, or in several, is R58's or R57's, and one
// without a type is R56's from IR 2.
void checkDefault(const Attribute& attribute, int64_t ir_version, const LazyPath& path,
                  Diagnostics& out) {
  if (attribute.isReference()) {
    out.error("R101", path(),
              "a default refers to another attribute (ref_attr_name); a default holds its value");
    return;
  }
  if (valueFieldCount(attribute) > 0) return;
  if (!attribute.type) {
    if (ir_version < 2) out.error("R101", path(), "the default has no type and no value");
    return;
  }
  AttributeKind kind = attribute.kind();
  switch (kind) {
    case AttributeKind::kUndefined:
      out.error("R101", path(), "the default has type UNDEFINED and no value");
      return;
    case AttributeKind::kTensor:
    case AttributeKind::kGraph:
    case AttributeKind::kSparseTensor:
    case AttributeKind::kTypeProto:
      out.error("R101", path(),
                "the default has type " + std::string(attributeTypeName(kind)) +
                    " but holds no such value");
      return;
    default: return;
  }
}

// The functions each function calls, from its body and the graphs nested in it.
std::vector<std::vector<size_t>> callGraph(const CheckContext& context) {
  const Model& model = context.model;
  std::vector<std::vector<size_t>> calls(model.functions.size());
  std::vector<const Graph*> pending;
  for (size_t i = 0; i < model.functions.size(); ++i) {
    const Function* function = model.functions[i];
    if (function == nullptr || function->body == nullptr) continue;
    pending.assign(1, function->body);
    while (!pending.empty()) {
      const Graph* graph = pending.back();
      pending.pop_back();
      for (const Node* node = graph->firstNode(); node != nullptr; node = node->next()) {
        if (auto callee = context.functions.localFunctionIndex(*node)) {
          calls[i].push_back(*callee);
        }
        for (const Attribute* attribute : node->attributes) {
          if (attribute == nullptr) continue;
          if (attribute->g != nullptr) pending.push_back(attribute->g);
          for (const Graph* sub : attribute->rare().graphs) {
            if (sub != nullptr) pending.push_back(sub);
          }
        }
      }
    }
  }
  return calls;
}

// R93: reports each cycle of calls once, at the function where the walk re-entered it.
void checkRecursion(const CheckContext& context) {
  const Model& model = context.model;
  std::vector<std::vector<size_t>> calls = callGraph(context);
  enum class Mark : uint8_t { kNew, kOnPath, kDone };
  std::vector<Mark> marks(calls.size(), Mark::kNew);
  struct Step {
    size_t function;
    size_t next_call;
  };
  std::vector<Step> path;
  for (size_t start = 0; start < calls.size(); ++start) {
    if (marks[start] != Mark::kNew) continue;
    marks[start] = Mark::kOnPath;
    path.push_back({start, 0});
    while (!path.empty()) {
      Step& step = path.back();
      if (step.next_call == calls[step.function].size()) {
        marks[step.function] = Mark::kDone;
        path.pop_back();
        continue;
      }
      size_t callee = calls[step.function][step.next_call++];
      if (marks[callee] == Mark::kNew) {
        marks[callee] = Mark::kOnPath;
        path.push_back({callee, 0});
      } else if (marks[callee] == Mark::kOnPath) {
        std::string cycle;
        bool on = false;
        for (const Step& item : path) {
          on = on || item.function == callee;
          if (!on) continue;
          const Function* function = model.functions[item.function];
          cycle += quoted(function->nameOrEmpty()) + " -> ";
        }
        cycle += quoted(model.functions[callee]->nameOrEmpty());
        context.out.error(
            "R93", functionPath(model, callee),
            "the function calls itself (" + cycle + "); model-local functions are not recursive");
      }
    }
  }
}

void checkSignature(const Function& function, const std::string& prefix,
                    const CheckContext& context) {
  Diagnostics& out = context.out;
  NameSet inputs;
  for (size_t k = 0; k < function.inputs.size(); ++k) {
    const Value* value = function.inputs[k];
    std::string_view name = value != nullptr ? value->name() : std::string_view();
    if (name.empty()) {
      out.error("X3", itemPath(prefix, "input", k), "the function input has no name");
      continue;
    }
    if (!inputs.insert(name)) {
      out.error("R94", itemPath(prefix, "input", k),
                quoted(name) + " is listed twice among the function's inputs");
      continue;
    }
    const Value* bound = function.body != nullptr ? function.body->names().find(name) : nullptr;
    if (bound != nullptr && bound != value && bound->producer() != nullptr) {
      out.error("R95", itemPath(prefix, "input", k),
                quoted(name) +
                    " is a function input and also the output of a body node; every "
                    "name in a function has one definition");
    }
  }
  NameSet outputs;
  for (size_t k = 0; k < function.outputs.size(); ++k) {
    const Use* use = function.outputs[k];
    const Value* value = use != nullptr ? use->value() : nullptr;
    std::string_view name = value != nullptr ? value->name() : std::string_view();
    if (name.empty()) {
      out.error("X3", itemPath(prefix, "output", k), "the function output has no name");
      continue;
    }
    if (!outputs.insert(name)) {
      out.error("R94", itemPath(prefix, "output", k),
                quoted(name) + " is listed twice among the function's outputs");
    } else if (value->isUndefined() || value->graph() == nullptr) {
      out.error("R96", itemPath(prefix, "output", k),
                quoted(name) +
                    " is never computed: no body node outputs it and no input has "
                    "this name");
    }
  }
  NameSet attributes;
  for (size_t k = 0; k < function.attribute.size(); ++k) {
    std::string_view name = function.attribute[k];
    if (name.empty()) {
      out.error("X3", itemPath(prefix, "attribute", k), "the attribute parameter has no name");
    } else if (!attributes.insert(name)) {
      out.error("R94", itemPath(prefix, "attribute", k),
                quoted(name) + " is listed twice among the function's attributes");
    }
  }
  for (size_t k = 0; k < function.attribute_proto.size(); ++k) {
    const Attribute* attribute = function.attribute_proto[k];
    if (attribute == nullptr) continue;
    std::string_view name = attribute->nameOrEmpty();
    if (name.empty()) continue;  // R55, a value rule
    if (!attributes.insert(name)) {
      out.error("R94", itemPath(prefix, "attribute_proto", k, name),
                quoted(name) +
                    " is already an attribute of the function; a parameter is listed "
                    "once, in attribute (no default) or attribute_proto (a default)");
    }
  }
}

}  // namespace

void checkFunctionIds(CheckContext& context) {
  const Model& model = context.model;
  for (auto [index, first] : context.functions.repeatedIds()) {
    const Function& function = *model.functions[index];
    FunctionId id = FunctionId::of(function, context.functions.countsOverload());
    std::string what = "domain " + quoted(id.domain) + ", name " + quoted(id.name);
    if (context.functions.countsOverload()) what += ", overload " + quoted(id.overload);
    std::string first_path;
    appendSegment(first_path, "functions", first, function.nameOrEmpty());
    context.out.error("R92", pathSegment("functions", index, function.nameOrEmpty()),
                      "has the same id (" + what + ") as " + first_path +
                          "; a call could not tell which function it means");
  }
}

void checkFunctions(CheckContext& context, Walker& walker) {
  const Model& model = context.model;
  if (model.functions.empty()) return;
  Diagnostics& out = context.out;
  auto list_path = [] { return std::string("functions"); };
  context.fieldSince("R15", 8, LazyPath(list_path), "ModelProto.functions");

  for (size_t i = 0; i < model.functions.size(); ++i) {
    const Function* function = model.functions[i];
    if (function == nullptr) continue;
    std::string prefix = functionPath(model, i);
    auto path = [&] { return prefix; };
    LazyPath lazy(path);
    if (function->nameOrEmpty().empty()) {
      out.error("R91", prefix, "the function has no name; a node calls a function by its name");
    }
    if (context.ir >= 8 && !function->domain) {
      out.error("R91", prefix,
                "the function has no domain; from IR 8 a function says which domain it belongs "
                "to (its callers import that domain)");
    }
    if (function->overload) {
      auto at = [&] { return prefix + ".overload"; };
      context.fieldSince("R100", 10, LazyPath(at), "FunctionProto.overload");
    }
    if (!function->attribute_proto.empty()) {
      auto at = [&] { return prefix + ".attribute_proto"; };
      context.fieldSince("R100", 9, LazyPath(at), "FunctionProto.attribute_proto");
    }
    checkMetadata(function->metadata_props, MetadataOwner::kFunction, lazy, context);
    OpsetImports imports = readOpsetImports(function->opset_import, prefix, out);
    checkSignature(*function, prefix, context);

    RootScope scope;
    scope.imports = &imports;
    scope.function = function;
    ValueContext values = context.valueContext(nullptr, false);
    values.is_attribute_default = true;
    for (size_t k = 0; k < function->attribute_proto.size(); ++k) {
      const Attribute* attribute = function->attribute_proto[k];
      if (attribute == nullptr) continue;
      auto at = [&] { return itemPath(prefix, "attribute_proto", k, attribute->nameOrEmpty()); };
      runValueRule(
          out,
          [&](const std::string& where, Diagnostics& sink) {
            checkAttribute(*attribute, values, where, sink);
          },
          at);
      Walker::checkAttributeMetadata(*attribute, LazyPath(at), context);
      checkDefault(*attribute, context.ir_version, LazyPath(at), out);
      GraphPlace place;
      if (attribute->g != nullptr) {
        place.root = at() + ".g";
        walker.walk(*attribute->g, place, GraphRole::kAttributeDefault, scope);
      }
      for (size_t g = 0; g < attribute->rare().graphs.size(); ++g) {
        const Graph* graph = attribute->rare().graphs[g];
        if (graph == nullptr) continue;
        place.root = at();
        appendSegment(place.root, "graphs", g, graph->name.value_or(std::string_view()));
        walker.walk(*graph, place, GraphRole::kAttributeDefault, scope);
      }
    }

    if (function->body != nullptr) {
      GraphPlace place;
      place.root = prefix;
      RootScope body_scope = scope;
      body_scope.in_function_body = true;
      walker.walk(*function->body, place, GraphRole::kFunctionBody, body_scope);
    }
  }
  checkRecursion(context);
}

}  // namespace onyx::check
