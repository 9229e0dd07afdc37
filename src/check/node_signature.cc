// checkNodeSignature: the attribute names of every node (R46), then what the node binds to —
// a standard operator at its imported version (R41, R42, R98, then the schema rules), a
// model-local function (R53), or a custom operator nobody defines (an R41 warning).
#include "check/node_signature.h"

#include <cctype>
#include <unordered_map>

#include "check/signature_rules.h"
#include "onyx/core/quote.h"
#include "onyx/ir/name_table.h"
#include "onyx/ops/registry.h"

namespace onyx::check {

size_t SignatureMemo::KeyHash::operator()(const Key& key) const {
  return static_cast<size_t>(NameTable::hashName(key.op_type) * 31 +
                             NameTable::hashName(key.domain));
}

bool SignatureMemo::firstCustomUse(std::string_view domain, std::string_view op_type) {
  return custom_operators_.insert({domain, op_type}).second;
}

namespace {

// R46. Nodes have a handful of attributes, compared pairwise; a crafted node with thousands
// goes through a map instead, so that the rule stays linear.
void checkAttributeNamesUnique(const Node& node, const LazyPath& path, Diagnostics& out) {
  const ArenaList<Attribute*>& attributes = node.attributes;
  auto report = [&](size_t a, size_t first) {
    std::string where = path();
    std::string_view name = attributes[a]->nameOrEmpty();
    appendSegment(where, "attribute", a, name);
    out.error("R46", where,
              "attribute " + quoted(name) + " is given twice (first as attribute[" +
                  std::to_string(first) + "]); a node names each attribute once");
  };
  constexpr size_t kPairwiseLimit = 32;
  if (attributes.size() < 2) return;
  if (attributes.size() <= kPairwiseLimit) {
    for (size_t a = 1; a < attributes.size(); ++a) {
      if (attributes[a] == nullptr || attributes[a]->nameOrEmpty().empty()) continue;
      for (size_t b = 0; b < a; ++b) {
        if (attributes[b] != nullptr &&
            attributes[b]->nameOrEmpty() == attributes[a]->nameOrEmpty()) {
          report(a, b);
          break;
        }
      }
    }
    return;
  }
  std::unordered_map<std::string_view, size_t> first;
  for (size_t a = 0; a < attributes.size(); ++a) {
    if (attributes[a] == nullptr || attributes[a]->nameOrEmpty().empty()) continue;
    auto [at, added] = first.emplace(attributes[a]->nameOrEmpty(), a);
    if (!added) report(a, at->second);
  }
}

bool equalIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// R41 for a standard-domain node that binds to nothing: the operator is younger than the
// import, lives in another standard domain, or is misspelt.
void reportUnresolved(const Node& node, std::string_view domain, int64_t opset, const Operator* op,
                      const NodeContext& context, const LazyPath& path, Diagnostics& out) {
  std::string_view op_type = node.opType();
  std::string importer = context.function != nullptr ? "its function imports" : "the model imports";
  if (op != nullptr) {
    const OpSchema& first = *op->versions.begin();
    out.error("R41", path(),
              std::string(op_type) + " came with opset " + std::to_string(first.since_version) +
                  " of " + std::string(domainLabel(domain)) + ", and " + importer + " opset " +
                  std::to_string(opset) + ", where it does not exist yet");
    return;
  }
  std::string message = std::string(domainLabel(domain)) + " has no operator " + quoted(op_type);
  std::string hint;
  for (const Operator* other : allOperators()) {
    if (other->name == op_type) {
      hint = "; " + std::string(other->domain) + " has one (set the node's domain to " +
             quoted(other->domain) + ")";
      break;
    }
    if (hint.empty() && std::string_view(other->domain) == domainLabel(domain) &&
        equalIgnoringCase(other->name, op_type)) {
      hint = "; did you mean " + quoted(other->name) + "?";
    }
  }
  message += hint;
  if (context.callee != nullptr) {
    message +=
        "; a model-local function cannot add an operator to a standard domain (give it a "
        "domain of its own)";
  }
  out.error("R41", path(), message);
}

// Operators early ai.onnx had as experimental and later dropped without a schema. onnx's
// checker accepts them with a warning, and old exporters still write them (ATen above all),
// so they are a warning here too, like a custom operator.
bool isFormerExperimental(std::string_view op_type) {
  static constexpr std::string_view kOperators[] = {"ATen",
                                                    "Affine",
                                                    "ConstantFill",
                                                    "Crop",
                                                    "DynamicSlice",
                                                    "GRUUnit",
                                                    "GivenTensorFill",
                                                    "ImageScaler",
                                                    "ParametricSoftplus",
                                                    "Scale",
                                                    "ScaledTanh"};
  for (std::string_view name : kOperators) {
    if (name == op_type) return true;
  }
  return false;
}

// What replaced the operators the standard domains withdrew without a later version.
const char* replacementOf(std::string_view op_type) {
  if (op_type == "Upsample") return "Resize";
  if (op_type == "Scatter") return "ScatterElements";
  if (op_type == "TreeEnsembleClassifier" || op_type == "TreeEnsembleRegressor") {
    return "TreeEnsemble";
  }
  return nullptr;
}

// R42.
void reportDeprecated(const Node& node, const Operator& op, const OpSchema& schema,
                      std::string_view domain, int64_t opset, const NodeContext& context,
                      const LazyPath& path, Diagnostics& out) {
  std::string importer = context.function != nullptr ? "its function imports" : "the model imports";
  std::string message = std::string(node.opType()) + " is deprecated from opset " +
                        std::to_string(schema.since_version) + " of " +
                        std::string(domainLabel(domain)) + ", and " + importer + " opset " +
                        std::to_string(opset) + ", where it no longer exists";
  const OpSchema* later = nullptr;
  for (const OpSchema& version : op.versions) {
    if (version.since_version > schema.since_version && !version.deprecated) {
      later = &version;
      break;
    }
  }
  if (later != nullptr) {
    message += "; opset " + std::to_string(later->since_version) + " defines it again";
  } else if (const char* replacement = replacementOf(node.opType())) {
    message += "; use " + std::string(replacement) + " instead";
  }
  out.error("R42", path(), message);
}

// R98: a function's operator means the same under the function's import and the model's.
void checkImportAgreement(const Node& node, const Operator& op, const OpSchema& schema,
                          std::string_view domain, int64_t function_opset,
                          const NodeContext& context, const LazyPath& path, Diagnostics& out) {
  std::optional<int64_t> model_opset = context.model_imports->versionOf(domain);
  if (!model_opset || *model_opset == function_opset) return;
  const OperatorSetInfo* set = findOperatorSet(domain);
  if (set == nullptr || *model_opset < set->first_version || *model_opset > set->last_version) {
    return;  // R10 or R12 on the model's import
  }
  const OpSchema* under_model = op.at(*model_opset);
  if (under_model == &schema) return;
  std::string op_type(node.opType());
  std::string what =
      under_model == nullptr
          ? op_type + " does not exist at the model's opset " + std::to_string(*model_opset)
          : op_type + " binds to version " + std::to_string(under_model->since_version) +
                " under the model's opset " + std::to_string(*model_opset);
  out.error("R98", path(),
            "its function imports " + std::string(domainLabel(domain)) + " opset " +
                std::to_string(function_opset) + ", where " + op_type + " binds to version " +
                std::to_string(schema.since_version) + ", but " + what +
                "; a function's operators must mean the same under both imports");
}

}  // namespace

void checkNodeSignature(const Node& node, const NodeContext& context, const LazyPath& path,
                        Diagnostics& out) {
  checkAttributeNamesUnique(node, path, out);
  std::string_view op_type = node.opType();
  if (op_type.empty()) return;  // R39
  std::string_view domain = canonicalDomain(node.domainOrDefault());
  std::optional<int64_t> opset;
  if (context.imports != nullptr) opset = context.imports->versionOf(domain);

  const OperatorSetInfo* standard = findOperatorSet(domain);
  if (standard == nullptr) {
    if (context.callee != nullptr) {
      checkFunctionCall(node, *context.callee, path, out);
      return;
    }
    if (!opset) return;  // R11 or R97
    if (context.memo != nullptr && !context.memo->firstCustomUse(domain, op_type)) return;
    out.warning("R41", path(),
                quoted(op_type) + " of domain " + quoted(domain) +
                    " is a custom operator: no model-local function defines it and the domain "
                    "is not a standard one, so its inputs, outputs and attributes are not "
                    "checked (reported for its first node only)");
    return;
  }
  if (!opset) return;                                                               // R11 or R97
  if (*opset < standard->first_version || *opset > standard->last_version) return;  // R10, R12

  const Operator* op = findOperator(domain, op_type);
  const OpSchema* schema = op != nullptr ? op->at(*opset) : nullptr;
  if (schema == nullptr) {
    if (op == nullptr && domain.empty() && isFormerExperimental(op_type)) {
      if (context.memo != nullptr && !context.memo->firstCustomUse(domain, op_type)) return;
      out.warning("R41", path(),
                  quoted(op_type) +
                      " is one of the experimental operators of early ai.onnx that no opset "
                      "defines any more; runtimes may not know it, and its inputs, outputs and "
                      "attributes are not checked (reported for its first node only)");
      return;
    }
    reportUnresolved(node, domain, *opset, op, context, path, out);
    return;
  }
  if (context.function != nullptr && context.model_imports != nullptr) {
    checkImportAgreement(node, *op, *schema, domain, *opset, context, path, out);
  }
  if (schema->deprecated) {
    reportDeprecated(node, *op, *schema, domain, *opset, context, path, out);
    return;
  }
  std::vector<Misfit> misfits = misfitsOf(*schema, NodeSignatureView(node));
  SignatureSite site{node, *schema, domain, *opset, context, path, out, misfits};
  checkArguments(site);
  checkSchemaAttributes(site);
  checkTypeConstraints(site);
  checkControlFlowBodies(site);
}

}  // namespace onyx::check
