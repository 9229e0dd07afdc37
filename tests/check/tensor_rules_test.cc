// The tensor rules R61–R69 and R75: each rule rejects a tensor that breaks it, with its own
// rule id, and accepts the tensor just on the valid side of its edge.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "check/value_rules.h"
#include "check/value_rules_testing.h"
#include "onyx/ir/editor.h"
#include "onyx/serde/test_data.h"
#include "support/proto_builder.h"

namespace onyx::check {
namespace {

using namespace onyx::check::testing;

Diagnostics check(const Tensor& tensor, int64_t ir_version = 13) {
  ValueContext context;
  context.ir_version = ir_version;
  Diagnostics out;
  checkTensor(tensor, context, "graph.initializer[0](w)", out);
  return out;
}

class TensorRules : public ::testing::Test {
 protected:
  // A tensor whose raw_data has exactly the bytes its type and dims need.
  Tensor* rawTensor(ElementType type, std::initializer_list<int64_t> dims, size_t bytes) {
    Tensor* tensor = makeTensor(edit.arena(), type, dims);
    setRaw(edit.arena(), *tensor, bytes);
    return tensor;
  }
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
};

// ---- R61 data_type known ----------------------------------------------------------------

TEST_F(TensorRules, R61DataTypeMustBePresentDefinedAndKnown) {
  Tensor* missing = rawTensor(ElementType::kFloat, {2}, 8);
  missing->data_type.reset();
  Diagnostics diagnostics = check(*missing);
  EXPECT_TRUE(onlyRule(diagnostics, "R61"));
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).data_type");

  Tensor* undefined = rawTensor(ElementType::kFloat, {2}, 8);
  undefined->data_type = 0;
  EXPECT_TRUE(onlyRule(check(*undefined), "R61"));

  // onnx lets an unknown code through when the data is in raw_data; onyx does not.
  Tensor* unknown = rawTensor(ElementType::kFloat, {2}, 8);
  unknown->data_type = 99;
  diagnostics = check(*unknown);
  EXPECT_TRUE(onlyRule(diagnostics, "R61"));
  EXPECT_EQ(single(diagnostics).message, "data_type 99 is not a known element type (1 to 26)");

  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kFloat, {2}, 8))));
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kInt2, {4}, 1))));  // the last code, 26
}

// ---- R62 element types by IR version ------------------------------------------------------

TEST_F(TensorRules, R62ElementTypesNeedTheIrVersionThatIntroducedThem) {
  struct Case {
    ElementType type;
    int64_t first_ir;
  };
  for (Case c : {Case{ElementType::kBfloat16, 4}, Case{ElementType::kFloat8E4M3FN, 9},
                 Case{ElementType::kFloat8E5M2FNUZ, 9}, Case{ElementType::kUint4, 10},
                 Case{ElementType::kInt4, 10}, Case{ElementType::kFloat4E2M1, 11},
                 Case{ElementType::kFloat8E8M0, 12}, Case{ElementType::kUint2, 13},
                 Case{ElementType::kInt2, 13}}) {
    const Tensor* tensor = rawTensor(c.type, {8}, *packedByteSize(c.type, 8));
    const std::string name(elementTypeInfo(c.type)->shortName);
    EXPECT_TRUE(onlyRule(check(*tensor, c.first_ir - 1), "R62")) << name;
    EXPECT_TRUE(clean(check(*tensor, c.first_ir))) << name;
  }
  const Tensor* float8 = rawTensor(ElementType::kFloat8E4M3FN, {1}, 1);
  EXPECT_EQ(single(check(*float8, 8)).message,
            "float8e4m3fn tensors need IR version 9 or later; the model has IR version 8");
  EXPECT_TRUE(clean(check(*float8, 0)));  // no IR version: nothing to gate by
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kComplex128, {1}, 16), 1)));
}

// ---- R63 dims ----------------------------------------------------------------------------

TEST_F(TensorRules, R63DimsAreNonNegativeAndTheirProductFits) {
  Tensor* negative = makeTensor(edit.arena(), ElementType::kFloat, {2, -3});
  Diagnostics diagnostics = check(*negative);
  EXPECT_TRUE(onlyRule(diagnostics, "R63"));
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).dims[1]");
  EXPECT_EQ(single(diagnostics).message, "dims[1] is -3; a dimension cannot be negative");

  Tensor* huge =
      makeTensor(edit.arena(), ElementType::kFloat, {int64_t{1} << 32, int64_t{1} << 32});
  EXPECT_TRUE(onlyRule(check(*huge), "R63"));

  // A zero anywhere makes the tensor empty, however large the rest.
  EXPECT_TRUE(clean(check(
      *makeTensor(edit.arena(), ElementType::kFloat, {0, int64_t{1} << 62, int64_t{1} << 62}))));
  // The largest count int64 holds, as int8 with no data: only R64 (no data), not R63.
  EXPECT_TRUE(onlyRule(
      check(*makeTensor(edit.arena(), ElementType::kInt8, {std::numeric_limits<int64_t>::max()})),
      "R64"));
}

// ---- R64 one data field ----------------------------------------------------------------

TEST_F(TensorRules, R64EmptyTensorsHoldNoDataAndOthersExactlyOneField) {
  EXPECT_TRUE(clean(check(*makeTensor(edit.arena(), ElementType::kFloat, {0, 3}))));
  EXPECT_TRUE(clean(check(*makeTensor(edit.arena(), ElementType::kString, {0}))));
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kFloat, {}, 4))));  // a scalar

  Tensor* empty_with_data = rawTensor(ElementType::kFloat, {0, 3}, 4);
  Diagnostics diagnostics = check(*empty_with_data);
  EXPECT_TRUE(onlyRule(diagnostics, "R64"));
  EXPECT_EQ(single(diagnostics).message,
            "the tensor has no elements (dims [0, 3]) but holds data in raw_data");

  diagnostics = check(*makeTensor(edit.arena(), ElementType::kFloat, {2, 3}));
  EXPECT_TRUE(onlyRule(diagnostics, "R64"));
  EXPECT_EQ(single(diagnostics).message, "no data field holds the 6 elements of dims [2, 3]");

  Tensor* two_fields = rawTensor(ElementType::kFloat, {1}, 4);
  edit.rare(two_fields).float_data = words(edit.arena(), 1, 4);
  diagnostics = check(*two_fields);
  EXPECT_TRUE(onlyRule(diagnostics, "R64"));
  EXPECT_EQ(single(diagnostics).message,
            "the elements are in 2 fields (float_data and raw_data); a tensor keeps them in "
            "exactly one");

  // An empty raw_data next to the typed field carries nothing: one field in use.
  Tensor* empty_raw = makeTensor(edit.arena(), ElementType::kFloat, {1});
  edit.rare(empty_raw).float_data = words(edit.arena(), 1, 4);
  empty_raw->raw_data = std::string_view();
  EXPECT_TRUE(clean(check(*empty_raw)));
}

// ---- R65 the field fits the type ------------------------------------------------------------

TEST_F(TensorRules, R65TheTypedFieldIsTheOneTheTypeUses) {
  Tensor* int64_in_int32 = makeTensor(edit.arena(), ElementType::kInt64, {2});
  edit.rare(int64_in_int32).int32_data = varints(edit.arena(), {1, 2});
  Diagnostics diagnostics = check(*int64_in_int32);
  EXPECT_TRUE(onlyRule(diagnostics, "R65"));
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).int32_data");
  EXPECT_EQ(single(diagnostics).message,
            "an int64 tensor keeps its elements in int64_data or raw_data, not in int32_data");

  Tensor* string_in_float = makeTensor(edit.arena(), ElementType::kString, {1});
  edit.rare(string_in_float).float_data = words(edit.arena(), 1, 4);
  EXPECT_TRUE(onlyRule(check(*string_in_float), "R65"));

  Tensor* uint32_in_int32 = makeTensor(edit.arena(), ElementType::kUint32, {1});
  edit.rare(uint32_in_int32).int32_data = varints(edit.arena(), {1});
  EXPECT_TRUE(onlyRule(check(*uint32_in_int32), "R65"));

  // The fields onnx.proto assigns: UINT16 in int32_data, UINT32 in uint64_data, COMPLEX64 in
  // float_data, FLOAT16 as bit patterns in int32_data, BOOL in int32_data.
  Tensor* uint16 = makeTensor(edit.arena(), ElementType::kUint16, {2});
  edit.rare(uint16).int32_data = varints(edit.arena(), {1, 65535});
  EXPECT_TRUE(clean(check(*uint16)));
  Tensor* uint32 = makeTensor(edit.arena(), ElementType::kUint32, {1});
  edit.rare(uint32).uint64_data = varints(edit.arena(), {4000000000});
  EXPECT_TRUE(clean(check(*uint32)));
  Tensor* complex = makeTensor(edit.arena(), ElementType::kComplex64, {2});
  edit.rare(complex).float_data = words(edit.arena(), 4, 4);
  EXPECT_TRUE(clean(check(*complex)));
  Tensor* half = makeTensor(edit.arena(), ElementType::kFloat16, {1});
  edit.rare(half).int32_data = varints(edit.arena(), {0x3C00});
  EXPECT_TRUE(clean(check(*half)));
  Tensor* flags = makeTensor(edit.arena(), ElementType::kBool, {2});
  edit.rare(flags).int32_data = varints(edit.arena(), {0, 1});
  EXPECT_TRUE(clean(check(*flags)));
}

// ---- R66 typed fields hold exactly the elements --------------------------------------------

TEST_F(TensorRules, R66TypedFieldsHoldExactlyTheElements) {
  Tensor* short_int8 = makeTensor(edit.arena(), ElementType::kInt8, {2, 3});
  edit.rare(short_int8).int32_data = varints(edit.arena(), {1, 2, 3, 4, 5});
  Diagnostics diagnostics = check(*short_int8);
  EXPECT_TRUE(onlyRule(diagnostics, "R66"));
  EXPECT_EQ(single(diagnostics).message,
            "int32_data has 5 entries; an int8 tensor of dims [2, 3] needs 6");

  // Too many is as wrong as too few (onnx only rejects too few).
  Tensor* long_float = makeTensor(edit.arena(), ElementType::kFloat, {2});
  edit.rare(long_float).float_data = words(edit.arena(), 3, 4);
  EXPECT_TRUE(onlyRule(check(*long_float), "R66"));

  // 4-bit types: one packed byte per int32 entry, so 3 elements take 2 entries.
  Tensor* int4 = makeTensor(edit.arena(), ElementType::kInt4, {3});
  edit.rare(int4).int32_data = varints(edit.arena(), {0x21, 0x03});
  EXPECT_TRUE(clean(check(*int4)));
  edit.rare(int4).int32_data = varints(edit.arena(), {0x21});
  diagnostics = check(*int4);
  EXPECT_TRUE(onlyRule(diagnostics, "R66"));
  EXPECT_EQ(single(diagnostics).message,
            "int32_data has 1 entry; an int4 tensor of dims [3] needs 2 (two elements packed in "
            "each entry)");
  edit.rare(int4).int32_data = varints(edit.arena(), {1, 2, 3});
  EXPECT_TRUE(onlyRule(check(*int4), "R66"));

  // 2-bit types: four elements per entry.
  Tensor* uint2 = makeTensor(edit.arena(), ElementType::kUint2, {5});
  edit.rare(uint2).int32_data = varints(edit.arena(), {0xFF, 0x01});
  EXPECT_TRUE(clean(check(*uint2)));
  edit.rare(uint2).int32_data = varints(edit.arena(), {0xFF});
  EXPECT_TRUE(onlyRule(check(*uint2), "R66"));

  // Complex types: real and imaginary parts.
  Tensor* complex = makeTensor(edit.arena(), ElementType::kComplex128, {2});
  edit.rare(complex).double_data = words(edit.arena(), 4, 8);
  EXPECT_TRUE(clean(check(*complex)));
  edit.rare(complex).double_data = words(edit.arena(), 2, 8);
  EXPECT_TRUE(onlyRule(check(*complex), "R66"));

  Tensor* strings = makeTensor(edit.arena(), ElementType::kString, {2});
  for (std::string_view s : {"a", "b", "c"})
    edit.rare(strings).string_data.push_back(edit.arena(), s);
  EXPECT_TRUE(onlyRule(check(*strings), "R66"));
  edit.rare(strings).string_data.truncate(2);
  EXPECT_TRUE(clean(check(*strings)));
}

// ---- R67 raw_data size -------------------------------------------------------------------

TEST_F(TensorRules, R67RawDataHasExactlyTheBytes) {
  Diagnostics diagnostics = check(*rawTensor(ElementType::kFloat, {2, 3}, 10));
  EXPECT_TRUE(onlyRule(diagnostics, "R67"));
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).raw_data");
  EXPECT_EQ(single(diagnostics).message,
            "raw_data has 10 bytes; a float tensor of dims [2, 3] needs 24");
  EXPECT_TRUE(onlyRule(check(*rawTensor(ElementType::kFloat, {2, 3}, 25)), "R67"));
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kFloat, {2, 3}, 24))));

  // Sub-byte types round up to whole bytes.
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kInt4, {3}, 2))));
  EXPECT_TRUE(onlyRule(check(*rawTensor(ElementType::kInt4, {3}, 1)), "R67"));
  EXPECT_TRUE(onlyRule(check(*rawTensor(ElementType::kInt4, {3}, 3)), "R67"));
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kInt2, {5}, 2))));
  EXPECT_TRUE(onlyRule(check(*rawTensor(ElementType::kInt2, {5}, 1)), "R67"));
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kFloat4E2M1, {1}, 1))));
  // One byte per bool, two floats per complex64.
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kBool, {3}, 3))));
  EXPECT_TRUE(clean(check(*rawTensor(ElementType::kComplex64, {1}, 8))));
  EXPECT_TRUE(onlyRule(check(*rawTensor(ElementType::kComplex64, {1}, 4)), "R67"));
}

// ---- R68 STRING not in raw_data --------------------------------------------------------------

TEST_F(TensorRules, R68StringsAreNeverInRawData) {
  Diagnostics diagnostics = check(*rawTensor(ElementType::kString, {1}, 4));
  EXPECT_TRUE(onlyRule(diagnostics, "R68"));
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).raw_data");
  Tensor* strings = makeTensor(edit.arena(), ElementType::kString, {1});
  edit.rare(strings).string_data.push_back(edit.arena(), "text");
  EXPECT_TRUE(clean(check(*strings)));
}

// ---- R69 data_location ---------------------------------------------------------------------

TEST_F(TensorRules, R69DataLocationIsDefaultOrExternal) {
  Tensor* odd = rawTensor(ElementType::kFloat, {1}, 4);
  odd->data_location = 5;
  Diagnostics diagnostics = check(*odd);
  EXPECT_TRUE(onlyRule(diagnostics, "R69"));
  EXPECT_EQ(single(diagnostics).message,
            "data_location is 5; it must be DEFAULT (0) or EXTERNAL (1)");

  Tensor* explicit_default = rawTensor(ElementType::kFloat, {1}, 4);
  explicit_default->data_location = 0;
  EXPECT_TRUE(clean(check(*explicit_default)));
}

TEST_F(TensorRules, R69AnUndeclaredDataLocationSetAsideByTheDecoderIsFound) {
  // The decoder keeps data_location 7 among the unknown fields, as protobuf does, which
  // leaves the tensor looking DEFAULT; the rule reads it back from there.
  using namespace onyx::testing;
  ProtoBuilder tensor;
  tensor.varint(field::tensor::kDims, 1)
      .varint(field::tensor::kDataType, data_type::kFloat)
      .bytes(field::tensor::kRawData, std::string(4, '\0'))
      .varint(field::tensor::kDataLocation, 7);
  auto value = parseTestValue(tensor.str(), TestValueKind::kTensor, nullptr);
  ASSERT_TRUE(value) << value.status().toString();
  EXPECT_FALSE(value->tensor()->isExternal());
  Diagnostics diagnostics = check(*value->tensor());
  EXPECT_TRUE(onlyRule(diagnostics, "R69"));
  EXPECT_EQ(single(diagnostics).path, "graph.initializer[0](w).data_location");
}

// ---- R75 segment -----------------------------------------------------------------------

TEST_F(TensorRules, R75SegmentIsASaneRange) {
  // A warning: onnx.proto leaves a segment's bounds unsaid, and no reader uses them.
  Tensor* tensor = rawTensor(ElementType::kFloat, {4}, 16);
  TensorSegment segment;
  edit.rare(tensor).segment = &segment;
  segment.begin = 3;
  segment.end = 2;
  Diagnostics diagnostics = check(*tensor);
  EXPECT_TRUE(onlyRule(diagnostics, "R75", Severity::kWarning));
  EXPECT_EQ(single(diagnostics).message, "segment is [3, 2]; it needs 0 <= begin <= end");
  segment.begin = -1;
  segment.end = 2;
  EXPECT_TRUE(onlyRule(check(*tensor), "R75", Severity::kWarning));
  segment.begin = 2;
  segment.end = 2;
  EXPECT_TRUE(clean(check(*tensor)));
  segment.begin.reset();  // absent reads as 0
  EXPECT_TRUE(clean(check(*tensor)));
}

TEST_F(TensorRules, EveryProblemIsReportedNotOnlyTheFirst) {
  Tensor* tensor = makeTensor(edit.arena(), ElementType::kFloat, {-1, -2});
  tensor->data_type = 0;
  tensor->data_location = 9;
  Diagnostics diagnostics = check(*tensor);
  EXPECT_EQ(diagnostics.errorCount(), 4u) << describe(diagnostics);  // R61, 2 x R63, R69
  EXPECT_TRUE(diagnostics.has("R61"));
  EXPECT_TRUE(diagnostics.has("R63"));
  EXPECT_TRUE(diagnostics.has("R69"));
}

}  // namespace
}  // namespace onyx::check
