// Where checkModel meets the values the value rules judge: each kind of place the walker (and
// the function and training checks) hands a type, tensor, sparse tensor or attribute over,
// with one value broken there, reported once, under the value rule's id, at the value's path.
#include <gtest/gtest.h>

#include "check/value_rules_testing.h"
#include "onyx/check/checker.h"
#include "onyx/ir/editor.h"
#include "support/check_testing.h"

namespace onyx {
namespace {

namespace values = check::testing;
using testing::errorRules;
using testing::listed;
using testing::Rules;
using testing::warningRules;

const Rules kNone;

// A sparse tensor of dense shape [4] with one value (0.0) at `position`; 4 or more is outside
// the shape (R79).
SparseTensor* sparseAt(const GraphEditor& edit, int64_t position, std::string_view name = {}) {
  auto* sparse = edit.arena().make<SparseTensor>();
  sparse->values = values::makeTensor(edit.arena(), ElementType::kFloat, {1}, name);
  edit.rare(sparse->values).float_data = values::words(edit.arena(), 1, 4);
  sparse->indices = values::makeTensor(edit.arena(), ElementType::kInt64, {1});
  edit.rare(sparse->indices).int64_data = values::varints(edit.arena(), {position});
  sparse->dims.values.push_back(edit.arena(), 4);
  return sparse;
}

// A float tensor type [2] whose element type is UNDEFINED (R84).
Type* untypedTensorType(const GraphEditor& edit) {
  auto* type = edit.arena().make<Type>();
  type->kind = Type::Kind::kTensor;
  type->elem_type = 0;
  return type;
}

TEST(ValueRuleSites, GraphInputsValueInfoAndOutputsHaveTheirTypesChecked) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) <float[2] t> { t = Neg(x)  y = Abs(t) })");
  EXPECT_TRUE(checkModel(model).all().empty());
  model.graph->inputs[0]->type->elem_type = 0;
  model.graph->value_info[0]->type->elem_type = 0;
  model.graph->outputs[0]->type->elem_type = 0;
  Diagnostics found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R84", "R84", "R84"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.input[0](x).type.tensor_type.elem_type");
  EXPECT_EQ(found.all()[1].path, "graph.value_info[0](t).type.tensor_type.elem_type");
  EXPECT_EQ(found.all()[2].path, "graph.output[0](y).type.tensor_type.elem_type");
}

TEST(ValueRuleSites, AnEmptyTypeIsAnUnknownTypeExceptOnTheMainGraphsInputsAndOutputs) {
  // PyTorch writes If and Loop bodies whose inputs and outputs have a type that sets no kind.
  // Nested graphs MAY type their inputs and outputs (IR.md "Graphs"), and value_info is
  // optional everywhere: there an empty type is an unknown one. The main graph MUST type its
  // inputs and outputs, so there it is still R83.
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool b, float[2] x) => (float[2] y) <float[2] t> {
  t = Neg(x)
  y = If (b) <then_branch = th () => (float[2] p) <float[2] u> { u = Identity(t)  p = Abs(u) },
              else_branch = el () => (float[2] q) { q = Identity(t) }>
  z = Loop ("", b, x) <body = l (int64 i, bool c, float[2] v) => (bool d, float[2] w) {
    d = Identity(c)
    w = Neg(v)
  }>
})");
  GraphEditor edit(model);

  Node* if_node = model.graph->firstNode()->next();
  Node* loop = if_node->next();
  Graph* then_branch = if_node->graphAttr("then_branch");
  Graph* body = loop->graphAttr("body");
  for (ValueInfo* info : {then_branch->outputs[0], then_branch->value_info[0],
                          if_node->graphAttr("else_branch")->outputs[0], body->inputs[0],
                          body->inputs[2], body->outputs[1], model.graph->value_info[0]}) {
    info->type = edit.arena().make<Type>();
  }
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  EXPECT_EQ(warningRules(found), kNone) << listed(found);

  model.graph->inputs[1]->type = edit.arena().make<Type>();
  model.graph->outputs[0]->type = edit.arena().make<Type>();
  found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R83", "R83"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.input[1](x).type");
  EXPECT_EQ(found.all()[1].path, "graph.output[0](y).type");
}

TEST(ValueRuleSites, AnOpaqueTypeInsideAGraphInputIsTheTypeRulesWarning) {
  // R24 wants the name of an input's own opaque type; one nested in it is R88's, a warning.
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 14]>
g (seq(float[2]) s) => (seq(float[2]) y) { y = Identity(s) })");
  auto* opaque = GraphEditor(model).arena().make<Type>();
  opaque->kind = Type::Kind::kOpaque;
  model.graph->inputs[0]->type->elem = opaque;
  Diagnostics found = checkModel(model);
  EXPECT_EQ(errorRules(found), kNone) << listed(found);
  ASSERT_EQ(warningRules(found), (Rules{"R88"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.input[0](s).type.sequence_type.elem_type.opaque_type.name");
}

TEST(ValueRuleSites, InitializersAndSparseInitializersAreCheckedAsInitializers) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) <float[2] c = {3, 4}> { y = Add(x, c) })");
  GraphEditor edit(model);

  model.graph->sparse_initializers.push_back(edit.arena(), sparseAt(edit, 7, "s"));
  model.graph->initializers[0]->data_type = 0;
  Diagnostics found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R61", "R79"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.initializer[0](c).data_type");
  EXPECT_EQ(found.all()[1].path, "graph.sparse_initializer[0](s).indices");

  // As an initializer, a sparse tensor needs the name its values carry (R82).
  model.graph->sparse_initializers[0] = sparseAt(edit, 1);
  model.graph->initializers[0]->data_type = 1;
  found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R82"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "graph.sparse_initializer[0].values");
}

TEST(ValueRuleSites, NodeAttributesAndTheValuesTheyHoldAreCheckedOnce) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13, "test" : 1]>
g (float[2] x) => (float[2] y) {
  [c] k = Constant <value = float[2] {1, 2}> ()
  [n] y = test.Op <alpha = 0.5> (x, k)
})");
  {
    // The custom operator is warned about once (R41); the values themselves are clean.
    Diagnostics clean = checkModel(model);
    EXPECT_EQ(errorRules(clean), kNone) << listed(clean);
    EXPECT_EQ(warningRules(clean), (Rules{"R41"})) << listed(clean);
  }
  GraphEditor edit(model);

  Node* constant = model.graph->firstNode();
  Node* op = constant->next();
  constant->tensorAttr("value")->data_type = 0;
  op->attribute("alpha")->type = 99;
  Tensor* tensors[] = {values::makeTensor(edit.arena(), ElementType::kFloat, {0}, "a"),
                       values::makeTensor(edit.arena(), ElementType::kFloat, {-1}, "b")};
  edit.setTensorsAttr(op, "tensors", tensors);
  edit.setSparseTensorAttr(op, "sparse", sparseAt(edit, 4));
  Type* types[] = {untypedTensorType(edit)};
  edit.setTypeAttr(op, "tp", untypedTensorType(edit));
  edit.setTypesAttr(op, "tps", types);
  Diagnostics found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R61", "R56", "R63", "R79", "R84", "R84"})) << listed(found);
  const std::string node = "graph.node[1](n).attribute";
  EXPECT_EQ(found.all()[0].path, "graph.node[0](c).attribute[0](value).t.data_type");
  EXPECT_EQ(found.all()[1].path, node + "[0](alpha).type");
  EXPECT_EQ(found.all()[2].path, node + "[1](tensors).tensors[1](b).dims[0]");
  EXPECT_EQ(found.all()[3].path, node + "[2](sparse).sparse_tensor.indices");
  EXPECT_EQ(found.all()[4].path, node + "[3](tp).tp.tensor_type.elem_type");
  EXPECT_EQ(found.all()[5].path, node + "[4](tps).type_protos[0].tensor_type.elem_type");
}

TEST(ValueRuleSites, ValuesInNestedGraphsHaveTheNestedPath) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 16]>
g (bool b) => (float[2] y) {
  y = If (b) <then_branch = t () => (float[2] p) <float[2] w = {1, 2}> { p = Identity(w) },
              else_branch = e () => (float[2] q) { q = Constant <value = float[2] {3, 4}> () }>
})");
  EXPECT_TRUE(checkModel(model).all().empty());
  Node* node = model.graph->firstNode();
  node->graphAttr("then_branch")->initializers[0]->data_type = 0;
  node->graphAttr("else_branch")->firstNode()->tensorAttr("value")->data_type = 0;
  Diagnostics found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R61", "R61"})) << listed(found);
  EXPECT_EQ(found.all()[0].path,
            "graph.node[0].attribute[0](then_branch).g.initializer[0](w).data_type");
  EXPECT_EQ(found.all()[1].path,
            "graph.node[0].attribute[1](else_branch).g.node[0].attribute[0](value).t.data_type");
}

// A model calling lib.F, whose body uses attribute references.
const char* kWithFunction = R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
g (float[2] x, bool b) => (float[2] y) { y = lib.F <alpha = 2.0> (x, b) }
<domain: "lib", opset_import: ["" : 18]>
F <alpha, value: tensor = float[1] {2.0}> (a, c) => (r) <float[2] t> {
  s = Constant <value_float: float = @alpha> ()
  t = Mul(a, s)
  r = If (c) <then_branch = th () => (float[2] p) {
                p = Constant <value: tensor = @value> () },
              else_branch = el () => (float[2] q) { q = Identity(t) }>
})";

TEST(ValueRuleSites, ReferencesInFunctionBodiesAreCheckedAgainstTheirFunction) {
  Model model = testing::parseOrFail(kWithFunction);
  Diagnostics found = checkModel(model);
  EXPECT_TRUE(found.all().empty()) << listed(found);
  Graph& body = *model.functions[0]->body;
  GraphEditor(model).rare(body.firstNode()->attributes[0]).ref_attr_name = "beta";
  Attribute* inner =
      body.firstNode()->next()->next()->graphAttr("then_branch")->firstNode()->attributes[0];
  GraphEditor(model).rare(inner).ref_attr_name = "gamma";
  found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R59", "R59"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "functions[0](F).node[0].attribute[0](value_float).ref_attr_name");
  EXPECT_EQ(found.all()[0].message,
            "the attribute refers to 'beta', which function 'F' does not declare");
  EXPECT_EQ(found.all()[1].path,
            "functions[0](F).node[2].attribute[0](then_branch).g.node[0].attribute[0](value)."
            "ref_attr_name");
}

TEST(ValueRuleSites, FunctionValueInfoAndAttributeDefaultsHaveTheirValuesChecked) {
  Model model = testing::parseOrFail(kWithFunction);
  Function& function = *model.functions[0];
  function.body->value_info[0]->type->elem_type = 0;
  function.attribute_proto[0]->t->data_type = 0;
  Diagnostics found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R61", "R84"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "functions[0](F).attribute_proto[0](value).t.data_type");
  EXPECT_EQ(found.all()[1].path, "functions[0](F).value_info[0](t).type.tensor_type.elem_type");

  // An empty type there declares nothing, as in a graph's value_info.
  function.body->value_info[0]->type = GraphEditor(model).arena().make<Type>();
  function.attribute_proto[0]->t->data_type = 1;
  found = checkModel(model);
  EXPECT_TRUE(found.all().empty()) << listed(found);
}

TEST(ValueRuleSites, TrainingGraphsHaveTheirValuesChecked) {
  Model model = testing::parseOrFail(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) { y = Neg(x) })");
  GraphEditor edit(model);

  TrainingInfo& info = model.addTrainingInfo();
  info.algorithm->name = "algo";
  Tensor* step = values::makeTensor(edit.arena(), ElementType::kFloat, {1}, "step");
  values::setRaw(edit.arena(), *step, 3);
  ASSERT_TRUE(edit.addInitializer(*info.algorithm, step));
  Diagnostics found = checkModel(model);
  ASSERT_EQ(errorRules(found), (Rules{"R67"})) << listed(found);
  EXPECT_EQ(found.all()[0].path, "training_info[0].algorithm.initializer[0](step).raw_data");
}

}  // namespace
}  // namespace onyx
