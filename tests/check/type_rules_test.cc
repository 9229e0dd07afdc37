// The type rules R83–R90, and R62 for element types in types.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "check/value_rules.h"
#include "check/value_rules_testing.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/type.h"

namespace onyx::check {
namespace {

using namespace onyx::check::testing;

constexpr int32_t kFloat = 1;
constexpr int32_t kInt64 = 7;
constexpr int32_t kString = 8;

class TypeRules : public ::testing::Test {
 protected:
  Diagnostics check(const Type& type, int64_t ir_version = 13) {
    ValueContext context;
    context.ir_version = ir_version;
    Diagnostics out;
    checkType(type, context, "graph.input[0](x).type", out);
    return out;
  }
  Type* tensor() { return edit.tensorType(kFloat, {2, "N"}); }
  Type* opaque(std::string_view name) {
    Type* type = edit.arena().make<Type>();
    type->kind = Type::Kind::kOpaque;
    type->opaque_domain = "com.example";
    if (!name.empty()) type->opaque_name = edit.arena().copy(name);
    return type;
  }

  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
};

TEST_F(TypeRules, ValidTypesAreClean) {
  EXPECT_TRUE(clean(check(*tensor())));
  EXPECT_TRUE(clean(check(*edit.tensorType(kFloat, {}))));                   // a scalar
  EXPECT_TRUE(clean(check(*edit.tensorTypeOfUnknownRank(kString))));         // no shape
  EXPECT_TRUE(clean(check(*edit.tensorType(kFloat, {0, Dim(), "batch"}))));  // 0, ?, symbol
  EXPECT_TRUE(clean(check(*edit.sparseTensorType(kFloat, {10}))));
  EXPECT_TRUE(clean(check(*edit.sequenceType(edit.sequenceType(tensor())))));
  EXPECT_TRUE(clean(check(*edit.mapType(kString, tensor()))));
  EXPECT_TRUE(clean(check(*edit.mapType(kInt64, edit.sequenceType(tensor())))));
  EXPECT_TRUE(clean(check(*edit.optionalType(edit.sequenceType(tensor())))));
  EXPECT_TRUE(clean(check(*opaque("Image"))));
}

TEST_F(TypeRules, R83ATypeHasAKind) {
  Type none;
  Diagnostics diagnostics = check(none);
  EXPECT_TRUE(onlyRule(diagnostics, "R83"));
  EXPECT_EQ(single(diagnostics).path, "graph.input[0](x).type");
  // At any depth.
  diagnostics = check(*edit.sequenceType(edit.arena().make<Type>()));
  EXPECT_TRUE(onlyRule(diagnostics, "R83"));
  EXPECT_EQ(single(diagnostics).path, "graph.input[0](x).type.sequence_type.elem_type");
}

TEST_F(TypeRules, R83AnEmptyTypeIsAnUnknownTypeWhereTypesAreOptional) {
  // A nested graph's inputs and outputs and value_info entries may leave their type out, and
  // an empty TypeProto there says no more than an absent one.
  ValueContext optional;
  optional.ir_version = 13;
  optional.type_is_optional = true;
  Type none;
  Diagnostics out;
  checkType(none, optional, "graph.value_info[0](t).type", out);
  EXPECT_TRUE(clean(out));
  // Only the type itself: a sequence of nothing still says too little.
  checkType(*edit.sequenceType(edit.arena().make<Type>()), optional, "graph.value_info[0](t).type",
            out);
  EXPECT_TRUE(onlyRule(out, "R83"));
  EXPECT_EQ(single(out).path, "graph.value_info[0](t).type.sequence_type.elem_type");
}

TEST_F(TypeRules, R84TensorElementTypesArePresentDefinedAndKnown) {
  Type* missing = tensor();
  missing->elem_type.reset();
  Diagnostics diagnostics = check(*missing);
  EXPECT_TRUE(onlyRule(diagnostics, "R84"));
  EXPECT_EQ(single(diagnostics).path, "graph.input[0](x).type.tensor_type.elem_type");
  EXPECT_TRUE(onlyRule(check(*edit.tensorType(0, {1})), "R84"));
  EXPECT_TRUE(onlyRule(check(*edit.tensorType(27, {1})), "R84"));
  EXPECT_TRUE(onlyRule(check(*edit.sparseTensorType(0, {1})), "R84"));
  EXPECT_TRUE(clean(check(*edit.tensorType(26, {1}))));
  // Inside a map's value type too.
  diagnostics = check(*edit.mapType(kInt64, edit.tensorType(0, {})));
  EXPECT_TRUE(onlyRule(diagnostics, "R84"));
  EXPECT_EQ(single(diagnostics).path,
            "graph.input[0](x).type.map_type.value_type.tensor_type.elem_type");
}

TEST_F(TypeRules, R62ElementTypesInTypesAreGatedByIrVersion) {
  const Type* float8 = edit.tensorType(17, {4});
  EXPECT_TRUE(onlyRule(check(*float8, 8), "R62"));
  EXPECT_TRUE(clean(check(*float8, 9)));
  const Type* int2 = edit.sequenceType(edit.tensorType(26, {4}));
  EXPECT_TRUE(onlyRule(check(*int2, 12), "R62"));
  EXPECT_TRUE(clean(check(*int2, 13)));
}

TEST_F(TypeRules, R85SequenceAndOptionalElementsArePresentAtEveryLevel) {
  Diagnostics diagnostics = check(*edit.sequenceType(nullptr));
  EXPECT_TRUE(onlyRule(diagnostics, "R85"));
  EXPECT_EQ(single(diagnostics).message,
            "sequence_type has no elem_type; the element type must be given at every level");
  diagnostics = check(*edit.sequenceType(edit.optionalType(nullptr)));
  EXPECT_TRUE(onlyRule(diagnostics, "R85"));
  EXPECT_EQ(single(diagnostics).path,
            "graph.input[0](x).type.sequence_type.elem_type.optional_type");
  EXPECT_TRUE(onlyRule(check(*edit.optionalType(nullptr)), "R85"));
}

TEST_F(TypeRules, R86MapKeysAreIntegersOrStringsAndValuesAreGiven) {
  Diagnostics diagnostics = check(*edit.mapType(kFloat, tensor()));
  EXPECT_TRUE(onlyRule(diagnostics, "R86"));
  EXPECT_EQ(single(diagnostics).message,
            "key_type is float; map keys are integers (int8 to int64, uint8 to uint64) or strings");
  for (int32_t bad : {0, 9, 10, 14, 16, 21, 99}) {  // UNDEFINED, bool, float16, complex, ...
    EXPECT_TRUE(onlyRule(check(*edit.mapType(bad, tensor())), "R86")) << bad;
  }
  for (int32_t good : {2, 3, 4, 5, 6, 7, 8, 12, 13}) {
    EXPECT_TRUE(clean(check(*edit.mapType(good, tensor())))) << good;
  }
  Type* no_key = edit.mapType(kInt64, tensor());
  no_key->key_type.reset();
  EXPECT_TRUE(onlyRule(check(*no_key), "R86"));
  EXPECT_TRUE(onlyRule(check(*edit.mapType(kInt64, nullptr)), "R86"));
}

TEST_F(TypeRules, R87OptionalWrapsAValueType) {
  Diagnostics diagnostics = check(*edit.optionalType(edit.optionalType(tensor())));
  EXPECT_TRUE(onlyRule(diagnostics, "R87"));
  EXPECT_EQ(single(diagnostics).message,
            "optional_type wraps optional_type; an optional holds a tensor, sparse tensor, "
            "sequence or map");
  EXPECT_TRUE(onlyRule(check(*edit.optionalType(opaque("Image"))), "R87"));
  EXPECT_TRUE(clean(check(*edit.optionalType(tensor()))));
  EXPECT_TRUE(clean(check(*edit.optionalType(edit.sparseTensorType(kFloat, {3})))));
  EXPECT_TRUE(clean(check(*edit.optionalType(edit.mapType(kInt64, tensor())))));
}

TEST_F(TypeRules, R88OpaqueTypesShouldBeNamed) {
  Diagnostics diagnostics = check(*opaque(""));
  EXPECT_TRUE(onlyRule(diagnostics, "R88", Severity::kWarning));
  EXPECT_EQ(single(diagnostics).path, "graph.input[0](x).type.opaque_type.name");
}

TEST_F(TypeRules, R89StaticDimsAreNonNegative) {
  Diagnostics diagnostics = check(*edit.tensorType(kFloat, {3, -1}));
  EXPECT_TRUE(onlyRule(diagnostics, "R89"));
  EXPECT_EQ(single(diagnostics).path, "graph.input[0](x).type.tensor_type.shape.dim[1]");
  EXPECT_TRUE(onlyRule(check(*edit.sparseTensorType(kFloat, {-5})), "R89"));
  EXPECT_TRUE(clean(check(*edit.tensorType(kFloat, {0}))));
}

TEST_F(TypeRules, R90TypeKindsAreGatedByIrVersion) {
  // Each kind is a member of TypeProto's oneof that older readers do not know: a warning, as
  // for every field newer than the model (the spec dates the kinds without forbidding them).
  const Type* optional = edit.optionalType(tensor());
  Diagnostics diagnostics = check(*optional, 7);
  EXPECT_TRUE(onlyRule(diagnostics, "R90", Severity::kWarning));
  EXPECT_EQ(single(diagnostics).message,
            "optional types are part of ONNX from IR version 8; the model has IR version 7");
  EXPECT_TRUE(clean(check(*optional, 8)));
  const Type* sparse = edit.sparseTensorType(kFloat, {3});
  EXPECT_TRUE(onlyRule(check(*sparse, 7), "R90", Severity::kWarning));
  EXPECT_TRUE(clean(check(*sparse, 8)));
  // Sequences and maps predate IR 6 in ONNX-ML models.
  const Type* sequence = edit.sequenceType(tensor());
  EXPECT_TRUE(onlyRule(check(*sequence, 5), "R90", Severity::kWarning));
  EXPECT_TRUE(clean(check(*sequence, 6)));
  EXPECT_TRUE(onlyRule(check(*edit.mapType(kInt64, tensor()), 3), "R90", Severity::kWarning));
  EXPECT_TRUE(clean(check(*optional, 0)));  // no IR version: nothing to gate by
}

TEST_F(TypeRules, ADeepTypeIsCheckedWithoutRunningOutOfStack) {
  Type* type = tensor();
  for (int i = 0; i < 5000; ++i) type = edit.sequenceType(type);
  Diagnostics diagnostics = check(*type);
  EXPECT_TRUE(onlyRule(diagnostics, "R4"));
}

}  // namespace
}  // namespace onyx::check
