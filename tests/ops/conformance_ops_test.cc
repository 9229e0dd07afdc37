// Every node of every conformance model, in its main graph, subgraphs and functions, binds
// to a schema of the opset its scope imports and fits it: input and output counts, empty
// names only where optional, attributes known with the declared kind, required ones present,
// and declared types inside the type constraints. The strongest check of the signature data.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onyx/ir/opset_imports.h"
#include "onyx/ops/registry.h"
#include "onyx/ops/schema_text.h"
#include "onyx/serde/model_io.h"
#include "support/conformance.h"

namespace onyx {
namespace {

using Opsets = OpsetImports;

struct Tally {
  size_t standard_nodes = 0;   // nodes of a standard domain
  size_t resolved = 0;         // ... that bind to a schema and fit it
  size_t other_nodes = 0;      // nodes of other domains (model-local functions)
  size_t typed_arguments = 0;  // inputs and outputs with a declared type, checked
  std::vector<std::string> failures;
};

std::string whereText(const std::string& model, const Node& node) {
  return model + ": " + std::string(node.domainOrDefault()) + "::" + std::string(node.opType()) +
         "(" + std::string(node.name.value_or("")) + ")";
}

// The problems of `node` against `schema`; empty when it fits.
std::vector<std::string> misfits(const Node& node, const OpSchema& schema, Tally& tally) {
  std::vector<std::string> problems;
  size_t inputs = node.inputCount();
  size_t outputs = node.outputCount();
  if (inputs < schema.minInputs() || inputs > schema.maxInputs()) {
    problems.push_back("has " + std::to_string(inputs) + " inputs");
  }
  if (outputs < schema.minOutputs() || outputs > schema.maxOutputs()) {
    problems.push_back("has " + std::to_string(outputs) + " outputs");
  }
  for (size_t i = 0; i < inputs; ++i) {
    const FormalParameter* formal = schema.inputAt(i);
    if (formal == nullptr) continue;
    const Value* value = node.input(i);
    if (value == nullptr) {
      if (formal->option == ParameterOption::kSingle) {
        problems.push_back("leaves out input " + std::string(formal->name));
      }
      continue;
    }
    const TypeConstraint* constraint = schema.constraint(formal->type);
    if (value->type() != nullptr && constraint != nullptr) {
      ++tally.typed_arguments;
      if (!constraint->allowed.allows(*value->type())) {
        problems.push_back("input " + std::string(formal->name) + " of type " +
                           formatType(*value->type()) + " is outside " + formal->type);
      }
    }
  }
  for (size_t i = 0; i < outputs; ++i) {
    const FormalParameter* formal = schema.outputAt(i);
    const Value* value = node.output(i);
    if (formal == nullptr || value == nullptr) continue;
    const TypeConstraint* constraint = schema.constraint(formal->type);
    if (value->type() != nullptr && constraint != nullptr) {
      ++tally.typed_arguments;
      if (!constraint->allowed.allows(*value->type())) {
        problems.push_back("output " + std::string(formal->name) + " of type " +
                           formatType(*value->type()) + " is outside " + formal->type);
      }
    }
  }
  for (const Attribute* attribute : node.attributes) {
    const AttributeSpec* spec = schema.attribute(attribute->nameOrEmpty());
    if (spec == nullptr) {
      problems.push_back("has an unknown attribute " + std::string(attribute->nameOrEmpty()));
    } else if (spec->kind != attribute->kind()) {
      problems.push_back("has attribute " + std::string(spec->name) + " as " +
                         std::string(attributeKindName(attribute->kind())) + ", not " +
                         std::string(attributeKindName(spec->kind)));
    }
  }
  for (const AttributeSpec& spec : schema.attributes) {
    if (spec.required && node.attribute(spec.name) == nullptr) {
      problems.push_back("lacks required attribute " + std::string(spec.name));
    }
  }
  return problems;
}

void checkGraph(const std::string& model, const Graph& graph, const Opsets& opsets, Tally& tally) {
  for (const Node* node = graph.firstNode(); node != nullptr; node = node->next()) {
    for (const Attribute* attribute : node->attributes) {
      if (attribute->g) checkGraph(model, *attribute->g, opsets, tally);
      for (const Graph* nested : attribute->rare().graphs) {
        checkGraph(model, *nested, opsets, tally);
      }
    }
    std::string_view domain = canonicalDomain(node->domainOrDefault());
    if (findOperatorSet(domain) == nullptr) {
      ++tally.other_nodes;
      continue;
    }
    ++tally.standard_nodes;
    std::optional<int64_t> imported = opsets.versionOf(domain);
    if (!imported) {
      tally.failures.push_back(whereText(model, *node) + ": its domain is not imported");
      continue;
    }
    const OpSchema* schema = findSchema(domain, node->opType(), *imported);
    if (schema == nullptr) {
      tally.failures.push_back(whereText(model, *node) + ": no schema at opset " +
                               std::to_string(*imported));
      continue;
    }
    std::vector<std::string> problems = misfits(*node, *schema, tally);
    if (problems.empty()) {
      ++tally.resolved;
      continue;
    }
    std::string text =
        whereText(model, *node) + " against version " + std::to_string(schema->since_version) + ":";
    for (const std::string& problem : problems) text += " " + problem + ";";
    tally.failures.push_back(text);
  }
}

TEST(ConformanceOps, EveryNodeResolvesAndFitsItsSchema) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  Tally tally;
  size_t models = 0;
  for (const auto& dir : cases) {
    LoadOptions options;
    options.load_external_data = false;
    auto model = loadModel((dir / "model.onnx").string(), options);
    ASSERT_TRUE(model) << dir << ": " << model.status().toString();
    ++models;
    std::string name = dir.filename().string();
    Opsets opsets(model->opset_import);
    if (model->graph) checkGraph(name, *model->graph, opsets, tally);
    for (const TrainingInfo* training : model->training_info) {
      if (training->algorithm) checkGraph(name, *training->algorithm, opsets, tally);
      if (training->initialization) checkGraph(name, *training->initialization, opsets, tally);
    }
    for (const Function* function : model->functions) {
      if (function->body) checkGraph(name, *function->body, Opsets(function->opset_import), tally);
    }
  }
  std::string failures;
  for (size_t i = 0; i < tally.failures.size() && i < 40; ++i) {
    failures += tally.failures[i] + "\n";
  }
  EXPECT_EQ(tally.resolved, tally.standard_nodes) << failures;
  EXPECT_GT(tally.standard_nodes, 1802u);
  EXPECT_GT(tally.typed_arguments, 3000u);
  std::printf(
      "%zu/%zu nodes resolve and fit (%zu models; %zu typed arguments checked; %zu nodes "
      "of model-local domains not checked)\n",
      tally.resolved, tally.standard_nodes, models, tally.typed_arguments, tally.other_nodes);
}

}  // namespace
}  // namespace onyx
