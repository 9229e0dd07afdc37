// `onyx ops [OP...] [--domain D] [--opset N] [--all-versions] [--json]`: the operator
// signatures onyx knows, as the registry resolves them at an opset version.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/registry.h"
#include "onyx/ops/schema_text.h"

namespace onyx::tool {

namespace {

struct OpsOptions {
  std::vector<std::string> names;  // empty: every operator
  std::string domain;              // empty: every standard domain
  int64_t opset = 0;               // 0: each domain's highest version
  bool all_versions = false;
  bool json = false;
  bool function_body = false;  // print the text of fixed function bodies
  bool version_steps = false;  // the table of version steps (docs/opset-steps.md)
};

// What is listed for one domain: each operator with the versions shown.
struct Listing {
  const OperatorSetInfo* set;
  int64_t opset;
  std::vector<std::pair<const Operator*, std::vector<const OpSchema*>>> operators;
};

bool isLiteralType(const char* name) {
  return std::string_view(name).find('(') != std::string_view::npos;
}

std::string countText(size_t low, size_t high) {
  if (high == OpSchema::kUnbounded) return fmt::format("{} or more", low);
  return low == high ? fmt::format("{}", low) : fmt::format("{} to {}", low, high);
}

std::string formalText(const FormalParameter& formal) {
  switch (formal.option) {
    case ParameterOption::kSingle: return fmt::format("{}: {}", formal.name, formal.type);
    case ParameterOption::kOptional: return fmt::format("{}?: {}", formal.name, formal.type);
    case ParameterOption::kVariadic:
      return fmt::format("{}...: {} ({} or more{})", formal.name, formal.type, formal.min_count,
                         formal.homogeneous ? "" : ", heterogeneous");
  }
  return formal.name;
}

std::string formalsText(std::initializer_list<FormalParameter> formals) {
  std::string text;
  for (const FormalParameter& formal : formals) {
    if (!text.empty()) text += ", ";
    text += formalText(formal);
  }
  return text.empty() ? "(none)" : text;
}

// A type set in short: the element types of each tensor form together,
// "tensor(float16, float); seq(tensor(int64))"; maps written out.
std::string compactTypeSetText(const TypeSet& set) {
  const std::pair<uint32_t, const char*> forms[] = {
      {set.tensor, "tensor({})"},
      {set.sequence, "seq(tensor({}))"},
      {set.optional_tensor, "optional(tensor({}))"},
      {set.optional_sequence, "optional(seq(tensor({})))"},
  };
  std::vector<std::string> parts;
  for (const auto& [bits, pattern] : forms) {
    if (bits == 0) continue;
    std::vector<std::string> elements;
    for (const std::string& name : typeSetNames(TypeSet{.tensor = bits})) {
      elements.push_back(name.substr(7, name.size() - 8));  // inside "tensor(...)"
    }
    parts.push_back(fmt::format(fmt::runtime(pattern), fmt::join(elements, ", ")));
  }
  TypeSet maps = set;
  maps.tensor = maps.sequence = maps.optional_tensor = maps.optional_sequence = 0;
  for (const std::string& name : typeSetNames(maps)) parts.push_back(name);
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string attributeText(const AttributeSpec& attribute) {
  std::string text = fmt::format("{}: {}", attribute.name, attributeKindName(attribute.kind));
  if (attribute.required) return text + " (required)";
  if (attribute.has_default) return text + " = " + attributeDefaultText(attribute);
  return text;
}

// "fixed, from opset 13; another from 18", "built for each node, from opset 13", or empty.
std::string functionBodyText(const OpSchema& schema) {
  if (schema.build_function_body != nullptr) {
    return fmt::format("built for each node, from opset {}", schema.since_version);
  }
  std::string text;
  for (const FunctionBodyText& body : schema.function_bodies) {
    text += text.empty() ? fmt::format("fixed, from opset {}", body.opset)
                         : fmt::format("; another from {}", body.opset);
  }
  return text;
}

// The fixed bodies to print: the one in force at `opset`, or every one (opset 0).
std::vector<const FunctionBodyText*> bodiesShown(const OpSchema& schema, int64_t opset) {
  std::vector<const FunctionBodyText*> shown;
  if (opset == 0) {
    for (const FunctionBodyText& body : schema.function_bodies) shown.push_back(&body);
  } else if (const FunctionBodyText* body = fixedFunctionBodyAt(schema, opset)) {
    shown.push_back(body);
  }
  return shown;
}

std::string indented(std::string_view text, std::string_view indent) {
  std::string out;
  size_t start = text.find_first_not_of('\n');
  while (start != std::string_view::npos && start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out += std::string(indent) + std::string(text.substr(start, end - start)) + "\n";
    start = end + 1;
  }
  return out;
}

void printSchema(const Operator& op, const OpSchema& schema, const OpsOptions& options,
                 int64_t opset) {
  fmt::print("{}-{}{}\n", op.name, schema.since_version, schema.deprecated ? " (deprecated)" : "");
  if (std::vector<std::string_view> traits = traitNames(schema.traits); !traits.empty()) {
    fmt::print("  traits: {}\n", fmt::join(traits, ", "));
  }
  fmt::print("  inputs ({}): {}\n", countText(schema.minInputs(), schema.maxInputs()),
             formalsText(schema.inputs));
  fmt::print("  outputs ({}): {}\n", countText(schema.minOutputs(), schema.maxOutputs()),
             formalsText(schema.outputs));
  for (const AttributeSpec& attribute : schema.attributes) {
    fmt::print("  attribute {}\n", attributeText(attribute));
  }
  for (const TypeConstraint& constraint : schema.constraints) {
    if (isLiteralType(constraint.name)) continue;
    fmt::print("  {} in {}\n", constraint.name, compactTypeSetText(constraint.allowed));
  }
  if (!hasFunctionBody(schema)) return;
  fmt::print("  function body: {}\n", functionBodyText(schema));
  if (!options.function_body) return;
  for (const FunctionBodyText* body : bodiesShown(schema, opset)) {
    fmt::print("{}", indented(body->text, "    "));
  }
}

nlohmann::ordered_json formalsJson(std::initializer_list<FormalParameter> formals) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const FormalParameter& formal : formals) {
    nlohmann::ordered_json item = {{"name", formal.name},
                                   {"type", formal.type},
                                   {"option", parameterOptionName(formal.option)}};
    if (formal.option == ParameterOption::kVariadic) {
      item["min_count"] = formal.min_count;
      item["homogeneous"] = formal.homogeneous;
    }
    list.push_back(std::move(item));
  }
  return list;
}

nlohmann::ordered_json defaultJson(const AttributeSpec& attribute) {
  switch (attribute.kind) {
    case AttributeKind::kInt: return attribute.default_int;
    case AttributeKind::kFloat: return attribute.default_float;
    case AttributeKind::kString: return attribute.default_string;
    case AttributeKind::kInts: return std::vector<int64_t>(attribute.default_ints);
    case AttributeKind::kStrings: {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (const char* value : attribute.default_strings) list.push_back(value);
      return list;
    }
    default: return nullptr;
  }
}

nlohmann::ordered_json countJson(size_t count) {
  if (count == OpSchema::kUnbounded) return nullptr;
  return count;
}

nlohmann::ordered_json functionBodyJson(const OpSchema& schema, const OpsOptions& options,
                                        int64_t opset) {
  if (!hasFunctionBody(schema)) return nullptr;
  nlohmann::ordered_json out;
  if (schema.build_function_body != nullptr) {
    out["kind"] = "built";
    out["from_opset"] = schema.since_version;
    return out;
  }
  out["kind"] = "fixed";
  nlohmann::ordered_json opsets = nlohmann::ordered_json::array();
  for (const FunctionBodyText& body : schema.function_bodies) opsets.push_back(body.opset);
  out["opsets"] = opsets;
  if (options.function_body) {
    nlohmann::ordered_json texts = nlohmann::ordered_json::array();
    for (const FunctionBodyText* body : bodiesShown(schema, opset)) {
      texts.push_back({{"opset", body->opset}, {"text", indented(body->text, "")}});
    }
    out["texts"] = texts;
  }
  return out;
}

nlohmann::ordered_json schemaJson(const OpSchema& schema, const OpsOptions& options,
                                  int64_t opset) {
  nlohmann::ordered_json out;
  out["since_version"] = schema.since_version;
  out["deprecated"] = schema.deprecated;
  out["traits"] = traitNames(schema.traits);
  out["min_inputs"] = schema.minInputs();
  out["max_inputs"] = countJson(schema.maxInputs());
  out["min_outputs"] = schema.minOutputs();
  out["max_outputs"] = countJson(schema.maxOutputs());
  out["inputs"] = formalsJson(schema.inputs);
  out["outputs"] = formalsJson(schema.outputs);
  nlohmann::ordered_json attributes = nlohmann::ordered_json::array();
  for (const AttributeSpec& attribute : schema.attributes) {
    nlohmann::ordered_json item = {{"name", attribute.name},
                                   {"kind", attributeKindName(attribute.kind)},
                                   {"required", attribute.required}};
    if (attribute.has_default) item["default"] = defaultJson(attribute);
    attributes.push_back(std::move(item));
  }
  out["attributes"] = attributes;
  nlohmann::ordered_json constraints = nlohmann::ordered_json::array();
  for (const TypeConstraint& constraint : schema.constraints) {
    constraints.push_back({{"name", constraint.name}, {"types", typeSetNames(constraint.allowed)}});
  }
  out["constraints"] = constraints;
  out["function_body"] = functionBodyJson(schema, options, opset);
  return out;
}

// The opset whose fixed body --function-body prints; 0 (every body) with --all-versions.
int64_t shownOpset(const OpsOptions& options, const Listing& listing) {
  return options.all_versions ? 0 : listing.opset;
}

bool wanted(const OpsOptions& options, const Operator& op) {
  if (options.names.empty()) return true;
  for (const std::string& name : options.names) {
    if (name == op.name) return true;
  }
  return false;
}

// One direction of a step, for the table: what a node does to cross it.
std::string crossing(const VersionStep& step, VersionAdapter adapter, const char* refuses,
                     bool down) {
  if (!step.reviewed) return "refused: not reviewed yet";
  std::string text = adapter != nullptr ? "adapter" : down ? "as is, types checked" : "as is";
  if (*refuses != '\0') text += fmt::format("; refuses {}", refuses);
  return text;
}

// docs/opset-steps.md: every step between adjacent versions of every operator, and how a
// node crosses it each way (OpSchema::step). A test keeps the file equal to this output.
void printVersionSteps(const std::vector<const OperatorSetInfo*>& sets) {
  fmt::print(
      "# Version steps\n\n"
      "Generated by `onyx ops --version-steps` from the op files (`OpSchema::step`); "
      "`tests/tools/version_steps_table.sh` keeps it equal to them. Each row is one step "
      "between adjacent versions of an operator: what changed, and how a node crosses it going "
      "up and going down in `onyx convert --opset N`. \"as is\" means the node stays as it is "
      "and is checked against the target version's signature (attributes, arity, types); an "
      "adapter rewrites it. A step not reviewed yet is refused.\n");
  for (const OperatorSetInfo* set : sets) {
    size_t steps = 0;
    size_t reviewed = 0;
    std::string rows;
    for (const Operator* op : allOperators()) {
      if (std::string_view(op->domain) != set->domain) continue;
      const OpSchema* previous = nullptr;
      for (const OpSchema& schema : op->versions) {
        if (previous != nullptr) {
          const VersionStep& step = schema.step;
          ++steps;
          if (step.reviewed) ++reviewed;
          rows += fmt::format("| {} | {} → {} | {} | {} | {} |\n", op->name,
                              previous->since_version, schema.since_version, step.change,
                              crossing(step, step.up, step.up_refuses, false),
                              crossing(step, step.down, step.down_refuses, true));
        }
        previous = &schema;
      }
    }
    fmt::print("\n## {}: {} steps, {} reviewed\n\n", set->domain, steps, reviewed);
    if (steps == 0) continue;
    fmt::print("| operator | step | what changed | up | down |\n| --- | --- | --- | --- | --- |\n");
    fmt::print("{}", rows);
  }
}

int runOps(const OpsOptions& options) {
  std::vector<const OperatorSetInfo*> sets;
  if (!options.domain.empty() || options.opset != 0) {
    std::string domain = options.domain.empty() ? std::string(kOnnxDomain) : options.domain;
    const OperatorSetInfo* set = findOperatorSet(domain);
    if (set == nullptr) {
      fmt::print(stderr, "onyx ops: {} is not a standard domain (they are", domain);
      for (const OperatorSetInfo& known : standardOperatorSets())
        fmt::print(stderr, " {}", known.domain);
      fmt::print(stderr, ")\n");
      return kExitUnreadable;
    }
    sets.push_back(set);
  } else {
    for (const OperatorSetInfo& set : standardOperatorSets()) sets.push_back(&set);
  }

  if (options.version_steps) {
    printVersionSteps(sets);
    return kExitOk;
  }

  std::vector<Listing> listings;
  size_t shown = 0;
  for (const OperatorSetInfo* set : sets) {
    int64_t opset = options.opset != 0 ? options.opset : set->last_version;
    if (opset < set->first_version || opset > set->last_version) {
      fmt::print(stderr, "onyx ops: {} has versions {} to {}, not {}\n", set->domain,
                 set->first_version, set->last_version, opset);
      return kExitUnreadable;
    }
    Listing listing{set, opset, {}};
    for (const Operator* op : allOperators()) {
      if (std::string_view(op->domain) != set->domain || !wanted(options, *op)) continue;
      std::vector<const OpSchema*> versions;
      if (options.all_versions) {
        for (const OpSchema& schema : op->versions) versions.push_back(&schema);
      } else if (const OpSchema* schema = op->at(opset)) {
        versions.push_back(schema);
      }
      if (versions.empty()) continue;
      listing.operators.emplace_back(op, std::move(versions));
      ++shown;
    }
    listings.push_back(std::move(listing));
  }
  if (!options.names.empty() && shown == 0) {
    fmt::print(stderr, "onyx ops: no operator named {} in {}\n", fmt::join(options.names, ", "),
               options.domain.empty() ? "the standard domains" : options.domain);
    return kExitUnreadable;
  }

  if (options.json) {
    nlohmann::ordered_json out;
    nlohmann::ordered_json sets_json = nlohmann::ordered_json::array();
    for (const Listing& listing : listings) {
      nlohmann::ordered_json operators = nlohmann::ordered_json::array();
      for (const auto& [op, versions] : listing.operators) {
        nlohmann::ordered_json versions_json = nlohmann::ordered_json::array();
        for (const OpSchema* schema : versions) {
          versions_json.push_back(schemaJson(*schema, options, shownOpset(options, listing)));
        }
        operators.push_back({{"name", op->name}, {"versions", versions_json}});
      }
      nlohmann::ordered_json set_json = {{"domain", listing.set->domain}};
      if (!options.all_versions) set_json["opset"] = listing.opset;
      set_json["operators"] = operators;
      sets_json.push_back(std::move(set_json));
    }
    out["operator_sets"] = sets_json;
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }

  bool first = true;
  for (const Listing& listing : listings) {
    if (!first) fmt::print("\n");
    first = false;
    if (options.all_versions) {
      fmt::print("# {}: {} operators, every version\n", listing.set->domain,
                 listing.operators.size());
    } else {
      fmt::print("# {} at opset {}: {} operators\n", listing.set->domain, listing.opset,
                 listing.operators.size());
    }
    for (const auto& [op, versions] : listing.operators) {
      for (const OpSchema* schema : versions) {
        fmt::print("\n");
        printSchema(*op, *schema, options, shownOpset(options, listing));
      }
    }
  }
  return kExitOk;
}

}  // namespace

void addOpsCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "ops", "List the operator signatures of the standard domains at an opset version");
  auto options = std::make_shared<OpsOptions>();
  command->add_option("OP", options->names, "only these operators (by name)");
  command->add_option("--domain", options->domain,
                      "one standard domain (ai.onnx, ai.onnx.ml, ai.onnx.training, "
                      "ai.onnx.preview, ai.onnx.preview.training); default: all of them");
  command->add_option("--opset", options->opset,
                      "the domain's opset version (default: its highest); without --domain, "
                      "of ai.onnx");
  command->add_flag("--all-versions", options->all_versions,
                    "every version of each operator instead of those in force at the opset");
  command->add_flag("--function-body", options->function_body,
                    "also print the text of fixed function bodies (the one in force at the "
                    "opset; every one with --all-versions)");
  command->add_flag("--json", options->json, "print JSON");
  command->add_flag("--version-steps", options->version_steps,
                    "print the table of every version step and how opset conversion crosses it "
                    "(docs/opset-steps.md)");
  command->callback([&exit_code, options] { exit_code = runOps(*options); });
}

}  // namespace onyx::tool
