// The fixed function bodies of the schemas (OpSchema::function_bodies): each parses, its
// header names the operator and agrees with the schema version it belongs to, and each is a
// valid function at the opset it is written against and at every opset it stands for — the
// checker holds every node of the body to the schemas of those opsets.
#include <gtest/gtest.h>

#include <bit>
#include <set>
#include <string>

#include "onyx/check/checker.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/type.h"
#include "onyx/ir/verify.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/registry.h"
#include "onyx/ops/schema_text.h"
#include "onyx/text/parser.h"

namespace onyx {
namespace {

struct FixedBody {
  const Operator* op;
  const OpSchema* schema;
  const FunctionBodyText* body;
  int last_opset;  // the highest opset this body stands for
};

int domainLastVersion(const Operator& op) { return findOperatorSet(op.domain)->last_version; }

std::vector<FixedBody> allFixedBodies() {
  std::vector<FixedBody> found;
  for (const Operator* op : allOperators()) {
    for (const OpSchema& schema : op->versions) {
      int schema_end = domainLastVersion(*op);
      if (&schema + 1 != op->versions.end()) schema_end = (&schema + 1)->since_version - 1;
      for (const FunctionBodyText& body : schema.function_bodies) {
        int end = schema_end;
        if (&body + 1 != schema.function_bodies.end()) end = (&body + 1)->opset - 1;
        found.push_back({op, &schema, &body, end});
      }
    }
  }
  return found;
}

std::string label(const FixedBody& fixed) {
  return std::string(fixed.op->name) + "-" + std::to_string(fixed.schema->since_version) +
         " body for opset " + std::to_string(fixed.body->opset);
}

std::optional<int64_t> importOf(const Function& function, std::string_view domain) {
  return OpsetImports(function.opset_import).versionOf(domain);
}

// Whether `value` holds the schema's default for `spec`.
bool holdsDefault(const Attribute& value, const AttributeSpec& spec) {
  switch (spec.kind) {
    case AttributeKind::kInt: return value.i == spec.default_int;
    case AttributeKind::kFloat:
      return value.f &&
             std::bit_cast<uint32_t>(*value.f) == std::bit_cast<uint32_t>(spec.default_float);
    case AttributeKind::kString: return value.s == std::string_view(spec.default_string);
    case AttributeKind::kInts:
      return std::vector<int64_t>(value.ints.values.begin(), value.ints.values.end()) ==
             std::vector<int64_t>(spec.default_ints);
    default: return false;
  }
}

TEST(FunctionBodies, EveryFixedBodyMatchesItsSchema) {
  std::vector<FixedBody> bodies = allFixedBodies();
  ASSERT_GE(bodies.size(), 40u);
  std::set<const OpSchema*> versions;
  for (const FixedBody& fixed : bodies) {
    SCOPED_TRACE(label(fixed));
    versions.insert(fixed.schema);
    Result<Model> parsed = parseFunctionText(fixed.body->text);
    ASSERT_TRUE(parsed) << parsed.status().toString();
    ASSERT_EQ(parsed->functions.size(), 1u);
    const Function& function = *parsed->functions[0];
    const OpSchema& schema = *fixed.schema;
    EXPECT_EQ(function.nameOrEmpty(), fixed.op->name);
    EXPECT_EQ(canonicalDomain(function.domainOrEmpty()), canonicalDomain(fixed.op->domain));
    std::optional<int64_t> written_for = importOf(function, fixed.op->domain);
    ASSERT_TRUE(written_for) << "the header does not import the operator's domain";
    EXPECT_LE(*written_for, fixed.body->opset);
    EXPECT_GE(fixed.body->opset, schema.since_version);
    EXPECT_LE(fixed.body->opset, fixed.last_opset);

    ASSERT_EQ(function.inputs.size(), schema.inputs.size());
    for (size_t i = 0; i < schema.inputs.size(); ++i) {
      ASSERT_NE(function.inputs[i], nullptr);
      EXPECT_EQ(function.inputs[i]->name(), (schema.inputs.begin() + i)->name);
    }
    ASSERT_EQ(function.outputs.size(), schema.outputs.size());
    for (size_t i = 0; i < schema.outputs.size(); ++i) {
      EXPECT_EQ(function.outputs[i]->value()->name(), (schema.outputs.begin() + i)->name);
    }

    // Every schema attribute is a parameter: with the schema's default in attribute_proto
    // where the schema has one, in the plain list where it has none.
    std::set<std::string_view> parameters;
    for (std::string_view name : function.attribute) {
      parameters.insert(name);
      const AttributeSpec* spec = schema.attribute(name);
      ASSERT_NE(spec, nullptr) << name << " is not an attribute of the schema";
      EXPECT_FALSE(spec->has_default) << name << " has a default the header leaves out";
    }
    for (const Attribute* with_default : function.attribute_proto) {
      parameters.insert(with_default->nameOrEmpty());
      const AttributeSpec* spec = schema.attribute(with_default->nameOrEmpty());
      ASSERT_NE(spec, nullptr) << with_default->nameOrEmpty();
      EXPECT_EQ(with_default->kind(), spec->kind) << spec->name;
      EXPECT_TRUE(spec->has_default && holdsDefault(*with_default, *spec))
          << spec->name << " = " << attributeDefaultText(*spec);
    }
    EXPECT_EQ(parameters.size(), schema.attributes.size());
  }
  std::printf("%zu fixed function bodies, for %zu operator versions\n", bodies.size(),
              versions.size());
}

// A model whose main graph calls `function` (moved into domain "test.bodies" so that it
// does not stand for the standard operator) with every input and output.
Model wrapperModel(FunctionBody body, const OpSchema& schema) {
  Model model = std::move(body.model);
  GraphEditor edit(model);

  Function& function = *body.function;
  function.domain = std::string_view("test.bodies");
  model.ir_version = 10;
  model.opset_import.assign(edit.arena(), function.opset_import.data(),
                            function.opset_import.size());
  model.setOpsetVersion("test.bodies", 1);
  model.graph = edit.newGraph();
  Graph& graph = *model.graph;
  graph.name = std::string_view("wrapper");
  Node* call = edit.createNode(graph, function.nameOrEmpty(), {}, 0);
  call->domain = std::string_view("test.bodies");
  // Tensors of one dimension and an element type the constraint allows, float where it can
  // be: a main graph declares its inputs' and outputs' types with their ranks (R24).
  auto typeFor = [&](const FormalParameter& formal) {
    uint32_t bits = schema.constraint(formal.type)->allowed.tensor;
    int32_t code = (bits & 2u) != 0 ? 1 : std::countr_zero(bits);
    return edit.tensorType(code, {Dim("d")});
  };
  for (const FormalParameter& formal : schema.inputs) {
    Value* input = edit.addInput(graph, formal.name, typeFor(formal)).value();
    edit.addInput(call, input);
  }
  for (const FormalParameter& formal : schema.outputs) {
    Value* output = edit.addOutputNamed(call, formal.name).value();
    edit.setType(output, typeFor(formal));
    edit.addOutput(graph, output);
  }
  graph.appendNode(call);
  return model;
}

void expectValidWrapper(FunctionBody body, const OpSchema& schema, const std::string& what) {
  Model model = wrapperModel(std::move(body), schema);
  EXPECT_TRUE(verifiedStatus(verifyModel(model))) << what;
  CheckOptions options;
  options.external_data = false;
  Diagnostics found = checkModel(model, options);
  std::string listed;
  for (const Diagnostic& diagnostic : found.all()) listed += diagnostic.toString() + "\n";
  EXPECT_FALSE(found.hasErrors()) << what << "\n" << listed;
}

TEST(FunctionBodies, EveryFixedBodyIsAValidFunctionAtEveryOpsetItStandsFor) {
  size_t checked = 0;
  for (const FixedBody& fixed : allFixedBodies()) {
    // As written, at the opset its header imports.
    Result<Model> parsed = parseFunctionText(fixed.body->text);
    ASSERT_TRUE(parsed) << label(fixed);
    FunctionBody as_written{std::move(parsed).value(), nullptr};
    as_written.function = as_written.model.functions[0];
    expectValidWrapper(std::move(as_written), *fixed.schema, label(fixed) + " as written");
    // As functionBodyFor gives it at each opset it stands for.
    for (int opset = fixed.body->opset; opset <= fixed.last_opset; ++opset) {
      Result<FunctionBody> body = parseFixedFunctionBody(*fixed.schema, opset);
      ASSERT_TRUE(body) << label(fixed) << ": " << body.status().toString();
      EXPECT_LE(importOf(*body->function, fixed.op->domain).value_or(0), opset)
          << "parseFixedFunctionBody keeps the header's imports";
      std::string what = label(fixed) + " at opset " + std::to_string(opset);
      // Retarget as functionBodyFor does, through a node of the operator.
      Model holder;
      Node* node = GraphEditor(holder).arena().make<Node>();
      node->op_type = std::string_view(fixed.op->name);
      Result<FunctionBody> retargeted = functionBodyFor(*fixed.schema, *node, opset);
      ASSERT_TRUE(retargeted) << what << ": " << retargeted.status().toString();
      EXPECT_EQ(importOf(*retargeted->function, fixed.op->domain), opset) << what;
      expectValidWrapper(std::move(retargeted).value(), *fixed.schema, what);
      ++checked;
    }
  }
  std::printf("%zu (body, opset) pairs checked valid\n", checked);
  EXPECT_GT(checked, 100u);
}

TEST(FunctionBodies, BodiesAreChosenByOpset) {
  const OpSchema* softsign1 = findSchema("", "Softsign", 1);
  ASSERT_NE(softsign1, nullptr);
  EXPECT_TRUE(hasFunctionBody(*softsign1));
  EXPECT_FALSE(hasFunctionBodyAt(*softsign1, 17));  // written for opset 18
  EXPECT_TRUE(hasFunctionBodyAt(*softsign1, 18));
  EXPECT_EQ(parseFixedFunctionBody(*softsign1, 17).status().code(), ErrorCode::kNotFound);

  const OpSchema* mvn13 = findSchema("", "MeanVarianceNormalization", 13);
  ASSERT_NE(mvn13, nullptr);
  // From 18 ReduceMean takes axes as an input, and the body changes with it.
  EXPECT_EQ(fixedFunctionBodyAt(*mvn13, 17), mvn13->function_bodies.begin());
  EXPECT_EQ(fixedFunctionBodyAt(*mvn13, 18), mvn13->function_bodies.begin() + 1);
  EXPECT_EQ(fixedFunctionBodyAt(*mvn13, 28), mvn13->function_bodies.begin() + 1);

  const OpSchema* relu6 = findSchema("", "Relu", 6);
  EXPECT_FALSE(hasFunctionBody(*relu6));
  const OpSchema* softmax13 = findSchema("", "Softmax", 13);
  ASSERT_NE(softmax13, nullptr);
  EXPECT_TRUE(hasFunctionBodyAt(*softmax13, 13));
}

}  // namespace
}  // namespace onyx
