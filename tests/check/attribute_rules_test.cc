// The attribute rules R50 and R55–R59, and the walk into the values an attribute holds.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "check/value_rules.h"
#include "check/value_rules_testing.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/function.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/serde/model_io.h"
#include "support/proto_builder.h"

namespace onyx::check {
namespace {

using namespace onyx::check::testing;

int32_t kindCode(AttributeKind kind) { return static_cast<int32_t>(kind); }

class AttributeRules : public ::testing::Test {
 protected:
  Attribute* attribute(std::string_view name, AttributeKind kind) {
    auto* result = edit.arena().make<Attribute>();
    if (!name.empty()) result->name = edit.arena().copy(name);
    result->type = kindCode(kind);
    return result;
  }
  AttributeRareFields& lists(Attribute& a) { return edit.rare(&a); }
  Diagnostics check(const Attribute& a, int64_t ir_version = 10, bool in_function = false) {
    ValueContext context;
    context.ir_version = ir_version;
    context.in_function_body = in_function;
    Diagnostics out;
    checkAttribute(a, context, "graph.node[2](c).attribute(value)", out);
    return out;
  }

  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
};

TEST_F(AttributeRules, ValidAttributesAreClean) {
  Attribute* alpha = attribute("alpha", AttributeKind::kFloat);
  alpha->f = 0.5f;
  EXPECT_TRUE(clean(check(*alpha)));
  // Empty lists are legal values of list kinds (onnx 1.12 wrongly refuses them).
  EXPECT_TRUE(clean(check(*attribute("pads", AttributeKind::kInts))));
  EXPECT_TRUE(clean(check(*attribute("names", AttributeKind::kStrings))));
  EXPECT_TRUE(clean(check(*attribute("bodies", AttributeKind::kGraphs))));
  // A scalar with no value: a proto3 writer drops a default 0.
  EXPECT_TRUE(clean(check(*attribute("axis", AttributeKind::kInt))));
  Attribute* value = attribute("value", AttributeKind::kTensor);
  value->t = makeTensor(edit.arena(), ElementType::kFloat, {1});
  setRaw(edit.arena(), *value->t, 4);
  EXPECT_TRUE(clean(check(*value)));
  Attribute* graph = attribute("body", AttributeKind::kGraph);
  graph->g = edit.newGraph();
  EXPECT_TRUE(clean(check(*graph)));
}

TEST_F(AttributeRules, R55AttributesAreNamed) {
  Attribute* unnamed = attribute("", AttributeKind::kInt);
  unnamed->i = 1;
  Diagnostics diagnostics = check(*unnamed);
  EXPECT_TRUE(onlyRule(diagnostics, "R55"));
  EXPECT_EQ(single(diagnostics).path, "graph.node[2](c).attribute(value).name");
  unnamed->name = "";
  EXPECT_TRUE(onlyRule(check(*unnamed), "R55"));
}

TEST_F(AttributeRules, R56TheTypeIsPresentFromIrTwoAndKnown) {
  Attribute* untyped = attribute("axis", AttributeKind::kInt);
  untyped->type.reset();
  untyped->i = 1;
  Diagnostics diagnostics = check(*untyped, 3);
  EXPECT_TRUE(onlyRule(diagnostics, "R56"));
  EXPECT_EQ(single(diagnostics).message,
            "the attribute has no type; it is required from IR version 2 (the model has 3)");
  EXPECT_TRUE(clean(check(*untyped, 1)));  // IR 1 files did not write it

  Attribute* unknown = attribute("axis", AttributeKind::kInt);
  unknown->type = 15;
  EXPECT_TRUE(onlyRule(check(*unknown), "R56"));
}

TEST_F(AttributeRules, R56AnUndeclaredTypeSetAsideByTheDecoderIsFound) {
  using namespace onyx::testing;
  ProtoBuilder attribute;
  attribute.bytes(field::attribute::kName, "axis")
      .varint(field::attribute::kI, 1)
      .varint(field::attribute::kType, 99);
  ProtoBuilder node = nodeProto({"x"}, {"y"}, "n", "Flatten");
  node.message(field::node::kAttribute, attribute);
  ProtoBuilder graph;
  graph.bytes(field::graph::kName, "g").message(field::graph::kNode, node);
  std::string bytes = modelWithGraph(graph).str();  // outlives the model's views
  auto model = parseModel(bytes, nullptr);
  ASSERT_TRUE(model) << model.status().toString();
  const Attribute& decoded = *model->graph->firstNode()->attributes[0];
  EXPECT_FALSE(decoded.type.has_value());  // kept among the unknown fields, as protobuf does
  Diagnostics diagnostics = check(decoded);
  EXPECT_TRUE(onlyRule(diagnostics, "R56"));
  EXPECT_EQ(single(diagnostics).message, "type 99 is not an attribute type (0 to 14)");
}

TEST_F(AttributeRules, R56KindsNewerThanTheModelAreWarnedAbout) {
  Attribute* sparse = attribute("value", AttributeKind::kSparseTensors);
  EXPECT_TRUE(onlyRule(check(*sparse, 5), "R56", Severity::kWarning));
  EXPECT_TRUE(clean(check(*sparse, 6)));
  Attribute* types = attribute("types", AttributeKind::kTypeProtos);
  EXPECT_TRUE(onlyRule(check(*types, 7), "R56", Severity::kWarning));
  EXPECT_TRUE(clean(check(*types, 8)));
}

TEST_F(AttributeRules, R57AtMostOneValueField) {
  Attribute* two = attribute("alpha", AttributeKind::kFloat);
  two->f = 1.0f;
  two->i = 2;
  Diagnostics diagnostics = check(*two);
  EXPECT_TRUE(onlyRule(diagnostics, "R57"));
  EXPECT_EQ(single(diagnostics).message,
            "the attribute holds 2 values (in f and i); it may hold only one");
  Attribute* three = attribute("pads", AttributeKind::kInts);
  three->ints.values.push_back(edit.arena(), 1);
  three->floats.values.push_back(edit.arena(), 1.0f);
  lists(*three).strings.push_back(edit.arena(), "x");
  EXPECT_TRUE(onlyRule(check(*three), "R57"));
}

TEST_F(AttributeRules, R58TheValueIsInTheFieldTheTypeNames) {
  Attribute* mismatch = attribute("pads", AttributeKind::kInts);
  mismatch->f = 1.0f;
  Diagnostics diagnostics = check(*mismatch);
  EXPECT_TRUE(onlyRule(diagnostics, "R58"));
  EXPECT_EQ(single(diagnostics).path, "graph.node[2](c).attribute(value).f");
  EXPECT_EQ(single(diagnostics).message,
            "the type is INTS but the value is in f; INTS values go in ints");
  Attribute* undefined = attribute("axis", AttributeKind::kUndefined);
  undefined->i = 1;
  EXPECT_TRUE(onlyRule(check(*undefined), "R58"));
  Attribute* sparse = attribute("value", AttributeKind::kTensor);
  edit.rare(sparse).sparse_tensor = edit.arena().make<SparseTensor>();
  diagnostics = check(*sparse);
  ASSERT_FALSE(diagnostics.all().empty());
  EXPECT_EQ(diagnostics.all()[0].rule, "R58");  // then the empty sparse tensor's own problems
  EXPECT_EQ(diagnostics.all()[0].path, "graph.node[2](c).attribute(value).sparse_tensor");
}

TEST_F(AttributeRules, R59ReferencesOnlyInFunctionBodiesAndWithoutAValue) {
  Attribute* reference = attribute("alpha", AttributeKind::kFloat);
  edit.rare(reference).ref_attr_name = "scale";
  EXPECT_TRUE(clean(check(*reference, 10, /*in_function=*/true)));
  Diagnostics diagnostics = check(*reference, 10, /*in_function=*/false);
  EXPECT_TRUE(onlyRule(diagnostics, "R59"));
  EXPECT_EQ(single(diagnostics).path, "graph.node[2](c).attribute(value).ref_attr_name");
  EXPECT_EQ(single(diagnostics).message,
            "the attribute refers to 'scale', an attribute of a calling function, but it is "
            "not inside a function body");

  reference->f = 2.0f;
  EXPECT_TRUE(onlyRule(check(*reference, 10, true), "R59"));
  reference->f.reset();
  edit.rare(reference).ref_attr_name = "";
  EXPECT_TRUE(onlyRule(check(*reference, 10, true), "R59"));
}

TEST_F(AttributeRules, R59AReferenceNamesAnAttributeTheFunctionDeclares) {
  Function* function = edit.newFunction("local", "Scale");
  function->attribute.push_back(edit.arena(), "scale");
  Attribute* alpha_default = attribute("alpha", AttributeKind::kFloat);
  alpha_default->f = 1.0f;
  function->attribute_proto.push_back(edit.arena(), alpha_default);
  auto checkIn = [&](const Attribute& a) {
    ValueContext context;
    context.ir_version = 10;
    context.in_function_body = true;
    context.function = function;
    Diagnostics out;
    checkAttribute(a, context, "functions[0](Scale).node[0](mul).attribute(value)", out);
    return out;
  };
  Attribute* reference = attribute("value", AttributeKind::kFloat);
  edit.rare(reference).ref_attr_name = "scale";
  EXPECT_TRUE(clean(checkIn(*reference)));
  edit.rare(reference).ref_attr_name = "alpha";
  EXPECT_TRUE(clean(checkIn(*reference)));
  reference->type = kindCode(AttributeKind::kInt);
  Diagnostics diagnostics = checkIn(*reference);
  EXPECT_TRUE(onlyRule(diagnostics, "R59"));
  EXPECT_EQ(single(diagnostics).message,
            "the attribute refers to 'alpha', a FLOAT attribute of function 'Scale', but has "
            "type INT");
  edit.rare(reference).ref_attr_name = "gamma";
  diagnostics = checkIn(*reference);
  EXPECT_TRUE(onlyRule(diagnostics, "R59"));
  EXPECT_EQ(single(diagnostics).message,
            "the attribute refers to 'gamma', which function 'Scale' does not declare");
}

TEST_F(AttributeRules, R50StructuredAttributesCarryTheirValue) {
  for (AttributeKind kind : {AttributeKind::kTensor, AttributeKind::kGraph,
                             AttributeKind::kSparseTensor, AttributeKind::kTypeProto}) {
    Diagnostics diagnostics = check(*attribute("value", kind));
    EXPECT_TRUE(onlyRule(diagnostics, "R50")) << kindCode(kind);
  }
  EXPECT_EQ(single(check(*attribute("value", AttributeKind::kTensor))).message,
            "a TENSOR attribute must hold its value in t, which is missing");
  // A reference in a function body takes its value from the caller.
  Attribute* reference = attribute("value", AttributeKind::kTensor);
  edit.rare(reference).ref_attr_name = "weights";
  EXPECT_TRUE(clean(check(*reference, 10, true)));
  // List kinds may be empty.
  EXPECT_TRUE(clean(check(*attribute("value", AttributeKind::kTensors))));
}

TEST_F(AttributeRules, NestedTensorsSparseTensorsAndTypesAreCheckedWithTheirPaths) {
  Attribute* value = attribute("value", AttributeKind::kTensor);
  value->t = makeTensor(edit.arena(), ElementType::kFloat, {2, 3});
  setRaw(edit.arena(), *value->t, 10);
  Diagnostics diagnostics = check(*value);
  EXPECT_TRUE(onlyRule(diagnostics, "R67"));
  EXPECT_EQ(single(diagnostics).path, "graph.node[2](c).attribute(value).t.raw_data");

  Attribute* tensors = attribute("values", AttributeKind::kTensors);
  Tensor* good = makeTensor(edit.arena(), ElementType::kInt64, {1}, "a");
  setRaw(edit.arena(), *good, 8);
  lists(*tensors).tensors.push_back(edit.arena(), good);
  lists(*tensors).tensors.push_back(edit.arena(),
                                    makeTensor(edit.arena(), ElementType::kInt64, {-1}, "b"));
  diagnostics = check(*tensors);
  EXPECT_TRUE(onlyRule(diagnostics, "R63"));
  EXPECT_EQ(single(diagnostics).path, "graph.node[2](c).attribute(value).tensors[1](b).dims[0]");

  Attribute* sparse = attribute("value", AttributeKind::kSparseTensor);
  edit.rare(sparse).sparse_tensor = edit.arena().make<SparseTensor>();
  diagnostics = check(*sparse);
  EXPECT_TRUE(diagnostics.has("R76"));
  EXPECT_TRUE(diagnostics.has("R77"));
  EXPECT_EQ(diagnostics.all()[0].path, "graph.node[2](c).attribute(value).sparse_tensor.values");

  Attribute* types = attribute("types", AttributeKind::kTypeProtos);
  lists(*types).type_protos.push_back(edit.arena(), edit.tensorType(1, {1}));
  lists(*types).type_protos.push_back(edit.arena(), edit.arena().make<Type>());
  diagnostics = check(*types);
  EXPECT_TRUE(onlyRule(diagnostics, "R83"));
  EXPECT_EQ(single(diagnostics).path, "graph.node[2](c).attribute(value).type_protos[1]");

  Attribute* tp = attribute("type", AttributeKind::kTypeProto);
  edit.rare(tp).tp = edit.sequenceType(nullptr);
  EXPECT_TRUE(onlyRule(check(*tp), "R85"));

  // Element types in nested tensors are gated by the model's IR version too.
  Attribute* float8 = attribute("value", AttributeKind::kTensor);
  float8->t = makeTensor(edit.arena(), ElementType::kFloat8E5M2, {1});
  setRaw(edit.arena(), *float8->t, 1);
  EXPECT_TRUE(onlyRule(check(*float8, 8), "R62"));
}

}  // namespace
}  // namespace onyx::check
