// Rewrite rules written in the ONNX text syntax (parseRewriteRules in onyx/passes/pattern.h):
// a pattern function, then its replacement function.
#include <algorithm>
#include <memory>
#include <unordered_map>

#include "onyx/core/quote.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/text/parser.h"
#include "passes/pattern_data.h"

namespace onyx {

namespace {

Status ruleError(const Function& function, const std::string& what) {
  return Status(ErrorCode::kInvalidArgument,
                "rule " + quoted(function.nameOrEmpty()) + ": " + what);
}

Value* outputOf(const Function& function, size_t i) {
  return function.outputs[i] != nullptr ? function.outputs[i]->value() : nullptr;
}

// The names a text pattern's input types give dims, so that the same name binds one dim.
void collectDimNames(const Type& type, std::vector<std::string>& names) {
  if (type.shape == nullptr) return;
  for (const Dimension& dim : type.shape->dims) {
    if (!dim.isSymbolic()) continue;
    std::string name(*dim.dim_param);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
}

Status matchByValue(const Function& function, const Attribute& attribute, PatternNode& node) {
  std::string_view name = attribute.nameOrEmpty();
  switch (attribute.kind()) {
    case AttributeKind::kInt: node.attr(name, attribute.i.value_or(0)); return Status::ok();
    case AttributeKind::kFloat: node.attr(name, attribute.f.value_or(0.0f)); return Status::ok();
    case AttributeKind::kString:
      node.attr(name, attribute.s.value_or(std::string_view()));
      return Status::ok();
    case AttributeKind::kInts: {
      std::vector<int64_t> ints(attribute.ints.begin(), attribute.ints.end());
      node.attrWhere(name, [ints](const Attribute* found) {
        return found != nullptr && found->kind() == AttributeKind::kInts &&
               std::equal(found->ints.begin(), found->ints.end(), ints.begin(), ints.end());
      });
      return Status::ok();
    }
    default:
      return ruleError(function, "attribute " + quoted(name) +
                                     " can be matched by value only as an int, a float, a "
                                     "string or a list of ints");
  }
}

// The pattern a function describes: its inputs are variables, its nodes pattern nodes.
Result<Pattern> patternOf(const Function& function) {
  Pattern pattern;
  std::unordered_map<const Value*, PatternValue> bound;
  for (Value* input : function.inputs) {
    if (input == nullptr) return ruleError(function, "an input has no name");
    PatternValue variable = pattern.var(input->name());
    if (const Type* type = input->type(); type != nullptr && type->isTensor()) {
      pattern.data().values.back().type = type;
      collectDimNames(*type, pattern.data().dim_names);
    }
    bound.emplace(input, variable);
  }
  for (const Node* node : function.body->nodes()) {
    std::vector<PatternValue> inputs;
    for (size_t i = 0; i < node->inputCount(); ++i) {
      const Value* input = node->input(i);
      if (input == nullptr) {
        inputs.push_back(pattern.absent());
        continue;
      }
      auto found = bound.find(input);
      if (found == bound.end()) {
        return ruleError(function, quoted(input->name()) +
                                       " is neither an input nor computed before it is read");
      }
      inputs.push_back(found->second);
    }
    PatternNode made = pattern.op(node->opType(), inputs, node->outputCount());
    made.domain(node->domainOrDefault());
    for (const Attribute* attribute : node->attributes) {
      if (attribute->isReference()) {
        made.bindAttr(attribute->nameOrEmpty(), *attribute->rare().ref_attr_name);
      } else {
        ONYX_RETURN_IF_ERROR(matchByValue(function, *attribute, made));
      }
    }
    for (size_t o = 0; o < node->outputCount(); ++o) {
      if (node->output(o) != nullptr) bound.emplace(node->output(o), made.output(o));
    }
  }
  if (function.outputs.empty()) return ruleError(function, "a pattern needs an output");
  std::vector<PatternValue> outputs;
  for (size_t o = 0; o < function.outputs.size(); ++o) {
    auto found = bound.find(outputOf(function, o));
    if (found == bound.end()) return ruleError(function, "an output is not computed by a node");
    outputs.push_back(found->second);
  }
  pattern.setOutputs(outputs);
  return pattern;
}

// Gives `node` the attribute `name` with the value of `from`; false for a kind that is not
// copied (graphs, sparse tensors, types).
bool setAttributeLike(Node& node, const GraphEditor& edit, std::string_view name,
                      const Attribute& from) {
  switch (from.kind()) {
    case AttributeKind::kInt: edit.setIntAttr(&node, name, from.i.value_or(0)); return true;
    case AttributeKind::kFloat: edit.setFloatAttr(&node, name, from.f.value_or(0.0f)); return true;
    case AttributeKind::kString:
      edit.setStringAttr(&node, name, from.s.value_or(std::string_view()));
      return true;
    case AttributeKind::kInts:
      edit.setIntsAttr(&node, name, std::span<const int64_t>(from.ints.begin(), from.ints.size()));
      return true;
    case AttributeKind::kFloats:
      edit.setFloatsAttr(&node, name,
                         std::span<const float>(from.floats.begin(), from.floats.size()));
      return true;
    case AttributeKind::kStrings: {
      const ArenaList<std::string_view>& strings = from.rare().strings;
      edit.setStringsAttr(&node, name,
                          std::span<const std::string_view>(strings.data(), strings.size()));
      return true;
    }
    case AttributeKind::kTensor: {
      // Through an Array, so the tensor's bytes are the model's own.
      Result<Array> array = from.t != nullptr
                                ? arrayFromTensor(*from.t)
                                : Result<Array>(Status(ErrorCode::kMalformed, "no tensor"));
      if (!array) return false;
      edit.setTensorAttr(&node, name, edit.tensorFromArray(*array));
      return true;
    }
    default: return false;
  }
}

// Builds a replacement function's nodes for a match.
class Replacement {
 public:
  Replacement(std::shared_ptr<const Model> rules, const Function& function)
      : rules_(std::move(rules)), function_(function) {}

  std::vector<Value*> build(const Match& match, RewriteBuilder& builder) const {
    std::unordered_map<const Value*, Value*> mapped;
    for (const Value* input : function_.inputs) mapped[input] = match.value(input->name());
    for (const Node* node : function_.body->nodes()) {
      std::string_view domain = node->domainOrDefault();
      if (!canonicalDomain(domain).empty() && !builder.model().opsetVersion(domain)) return {};
      std::vector<Value*> inputs;
      for (size_t i = 0; i < node->inputCount(); ++i) {
        inputs.push_back(node->input(i) != nullptr ? mapped.at(node->input(i)) : nullptr);
      }
      Node& made = builder.add(node->opType(), inputs, node->outputCount(), domain);
      for (const Attribute* attribute : node->attributes) {
        const Attribute* value = attribute;
        if (attribute->isReference()) {
          value = match.attr(*attribute->rare().ref_attr_name);
          if (value == nullptr) continue;  // absent where matched: the default applies
        }
        if (!setAttributeLike(made, builder.editor(), attribute->nameOrEmpty(), *value)) return {};
      }
      for (size_t o = 0; o < node->outputCount(); ++o) {
        if (node->output(o) != nullptr) mapped[node->output(o)] = made.output(o);
      }
    }
    std::vector<Value*> outputs;
    for (size_t o = 0; o < function_.outputs.size(); ++o) {
      outputs.push_back(mapped.at(outputOf(function_, o)));
    }
    return outputs;
  }

 private:
  std::shared_ptr<const Model> rules_;  // keeps function_ alive
  const Function& function_;
};

Status checkReplacement(const Function& pattern, const Function& replacement) {
  for (const Value* input : replacement.inputs) {
    bool known = false;
    for (const Value* variable : pattern.inputs) {
      known = known || (input != nullptr && variable->name() == input->name());
    }
    if (!known) {
      return ruleError(replacement,
                       "an input is none of the pattern's (" + quoted(pattern.nameOrEmpty()) + ")");
    }
  }
  if (replacement.outputs.size() != pattern.outputs.size()) {
    return ruleError(replacement, "has " + std::to_string(replacement.outputs.size()) +
                                      " outputs where its pattern has " +
                                      std::to_string(pattern.outputs.size()));
  }
  std::unordered_map<const Value*, bool> defined;
  for (const Value* input : replacement.inputs) defined[input] = true;
  for (const Node* node : replacement.body->nodes()) {
    for (size_t i = 0; i < node->inputCount(); ++i) {
      if (node->input(i) != nullptr && !defined.count(node->input(i))) {
        return ruleError(replacement, quoted(node->input(i)->name()) +
                                          " is neither an input nor computed before it is read");
      }
    }
    for (size_t o = 0; o < node->outputCount(); ++o) defined[node->output(o)] = true;
  }
  for (size_t o = 0; o < replacement.outputs.size(); ++o) {
    Value* output = outputOf(replacement, o);
    if (output == nullptr || !defined.count(output)) {
      return ruleError(replacement, "an output is neither an input nor computed");
    }
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<RewriteRule>> parseRewriteRules(std::string_view text) {
  Result<Model> parsed = parseFunctionsText(text);
  if (!parsed) return parsed.status();
  auto rules_model = std::make_shared<const Model>(std::move(*parsed));
  const ArenaList<Function*>& functions = rules_model->functions;
  if (functions.size() % 2 != 0) {
    return Status(ErrorCode::kInvalidArgument,
                  "rules come in pairs of functions, a pattern then its replacement; the last "
                  "one ('" +
                      std::string(functions[functions.size() - 1]->nameOrEmpty()) +
                      "') has no replacement");
  }
  std::vector<RewriteRule> rules;
  for (size_t f = 0; f < functions.size(); f += 2) {
    const Function& pattern_function = *functions[f];
    const Function& replacement_function = *functions[f + 1];
    Result<Pattern> pattern = patternOf(pattern_function);
    if (!pattern) return pattern.status();
    ONYX_RETURN_IF_ERROR(checkReplacement(pattern_function, replacement_function));
    pattern->data().owner = rules_model;
    RewriteRule rule;
    rule.name = std::string(pattern_function.nameOrEmpty());
    rule.pattern = std::move(*pattern);
    Status valid = rule.pattern.validate();
    if (!valid.isOk()) return ruleError(pattern_function, std::string(valid.message()));
    auto replacement = std::make_shared<Replacement>(rules_model, replacement_function);
    rule.rewrite = [replacement](const Match& match, RewriteBuilder& builder) {
      return replacement->build(match, builder);
    };
    rules.push_back(std::move(rule));
  }
  return rules;
}

}  // namespace onyx
