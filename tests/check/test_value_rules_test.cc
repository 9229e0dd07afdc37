// checkTestValue: the rules for onnx-data.proto values (R103–R105), on values decoded from
// bytes built field by field.
#include "onyx/check/test_value_rules.h"

#include <gtest/gtest.h>

#include <string>

#include "check/value_rules_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using check::testing::clean;
using check::testing::describe;
using check::testing::onlyRule;
using check::testing::single;
using testing::ProtoBuilder;

// onnx-data.proto field numbers.
namespace sequence_field {
constexpr uint32_t kElemType = 2;
constexpr uint32_t kTensorValues = 3;
constexpr uint32_t kSequenceValues = 5;
constexpr uint32_t kOptionalValues = 7;
}  // namespace sequence_field
namespace map_field {
constexpr uint32_t kKeyType = 2;
constexpr uint32_t kKeys = 3;
constexpr uint32_t kStringKeys = 4;
constexpr uint32_t kValues = 5;
}  // namespace map_field
namespace optional_field {
constexpr uint32_t kElemType = 2;
constexpr uint32_t kTensorValue = 3;
constexpr uint32_t kSequenceValue = 5;
}  // namespace optional_field

constexpr uint64_t kTensorKind = 1;
constexpr uint64_t kSequenceKind = 3;
constexpr uint64_t kMapKind = 4;
constexpr uint64_t kOptionalKind = 5;

ProtoBuilder floats(std::initializer_list<float> values) {
  return testing::floatTensor("", {static_cast<int64_t>(values.size())}, values);
}

ProtoBuilder int64s(std::initializer_list<uint64_t> values) {
  ProtoBuilder tensor;
  tensor.packedVarints(testing::field::tensor::kDims, {values.size()})
      .varint(testing::field::tensor::kDataType, testing::data_type::kInt64)
      .packedVarints(testing::field::tensor::kInt64Data, values);
  return tensor;
}

ProtoBuilder sequenceOfTensors(std::initializer_list<ProtoBuilder> tensors) {
  ProtoBuilder sequence;
  sequence.varint(sequence_field::kElemType, kTensorKind);
  for (const ProtoBuilder& tensor : tensors)
    sequence.message(sequence_field::kTensorValues, tensor);
  return sequence;
}

Diagnostics check(const ProtoBuilder& bytes, TestValueKind kind, const std::string& path = {}) {
  auto value = parseTestValue(bytes.str(), kind, nullptr);
  EXPECT_TRUE(value) << value.status().toString();
  if (!value) return {};
  return checkTestValue(*value, path);
}

// ---- R103 SequenceProto ------------------------------------------------------------------------

TEST(TestValueRules, R103ValidSequencesAreClean) {
  EXPECT_TRUE(
      clean(check(sequenceOfTensors({floats({1}), floats({2, 3})}), TestValueKind::kSequence)));
  EXPECT_TRUE(clean(check(sequenceOfTensors({}), TestValueKind::kSequence)));  // empty
  ProtoBuilder nested;
  nested.varint(sequence_field::kElemType, kSequenceKind)
      .message(sequence_field::kSequenceValues, sequenceOfTensors({floats({1})}))
      .message(sequence_field::kSequenceValues, sequenceOfTensors({}));
  EXPECT_TRUE(clean(check(nested, TestValueKind::kSequence)));
}

TEST(TestValueRules, R103ASequenceSaysWhatItHolds) {
  ProtoBuilder missing;
  missing.message(sequence_field::kTensorValues, floats({1}));
  Diagnostics diagnostics = check(missing, TestValueKind::kSequence);
  EXPECT_TRUE(onlyRule(diagnostics, "R103"));
  EXPECT_EQ(single(diagnostics).path, "sequence.elem_type");
  ProtoBuilder undefined;
  undefined.varint(sequence_field::kElemType, 0);
  EXPECT_TRUE(onlyRule(check(undefined, TestValueKind::kSequence), "R103"));
  ProtoBuilder unknown;
  unknown.varint(sequence_field::kElemType, 9);
  diagnostics = check(unknown, TestValueKind::kSequence);
  EXPECT_TRUE(onlyRule(diagnostics, "R103"));
  EXPECT_EQ(single(diagnostics).message, "elem_type 9 is not a SequenceProto data type (1 to 5)");
}

TEST(TestValueRules, R103ASequenceHoldsOnlyItsKindAndOneTypeOfIt) {
  ProtoBuilder wrong_list;
  wrong_list.varint(sequence_field::kElemType, kMapKind)
      .message(sequence_field::kTensorValues, floats({1}));
  Diagnostics diagnostics = check(wrong_list, TestValueKind::kSequence);
  EXPECT_TRUE(onlyRule(diagnostics, "R103"));
  EXPECT_EQ(single(diagnostics).message,
            "elem_type is MAP but tensor_values holds 1 element; a sequence holds only the "
            "elements its elem_type names");

  diagnostics =
      check(sequenceOfTensors({floats({1}), int64s({2}), int64s({3})}), TestValueKind::kSequence);
  EXPECT_TRUE(onlyRule(diagnostics, "R103"));
  EXPECT_EQ(single(diagnostics).path, "sequence.tensor_values[1]");
  EXPECT_EQ(single(diagnostics).message,
            "tensor_values[1] is an int64 tensor while tensor_values[0] is a float tensor; the "
            "elements of a sequence have one type (2 elements differ)");
}

TEST(TestValueRules, R103ElementsObeyTheirOwnRules) {
  ProtoBuilder short_tensor;
  short_tensor.packedVarints(testing::field::tensor::kDims, {2})
      .varint(testing::field::tensor::kDataType, testing::data_type::kFloat)
      .bytes(testing::field::tensor::kRawData, std::string(4, '\0'));
  Diagnostics diagnostics = check(sequenceOfTensors({floats({1, 2}), short_tensor}),
                                  TestValueKind::kSequence, "input_0.pb");
  EXPECT_TRUE(onlyRule(diagnostics, "R67"));
  EXPECT_EQ(single(diagnostics).path, "input_0.pb.tensor_values[1].raw_data");
}

// ---- R104 MapProto --------------------------------------------------------------------------

ProtoBuilder int64Map(std::initializer_list<uint64_t> keys, size_t values) {
  ProtoBuilder map;
  map.varint(map_field::kKeyType, testing::data_type::kInt64).packedVarints(map_field::kKeys, keys);
  ProtoBuilder sequence;
  sequence.varint(sequence_field::kElemType, kTensorKind);
  for (size_t i = 0; i < values; ++i) sequence.message(sequence_field::kTensorValues, floats({1}));
  map.message(map_field::kValues, sequence);
  return map;
}

TEST(TestValueRules, R104ValidMapsAreClean) {
  EXPECT_TRUE(clean(check(int64Map({1, 2, 3}, 3), TestValueKind::kMap)));
  ProtoBuilder strings;
  strings.varint(map_field::kKeyType, 8)
      .bytes(map_field::kStringKeys, "a")
      .bytes(map_field::kStringKeys, "b")
      .message(map_field::kValues, sequenceOfTensors({floats({1}), floats({2})}));
  EXPECT_TRUE(clean(check(strings, TestValueKind::kMap)));
  ProtoBuilder empty;
  empty.varint(map_field::kKeyType, 2).message(map_field::kValues, sequenceOfTensors({}));
  EXPECT_TRUE(clean(check(empty, TestValueKind::kMap)));
}

TEST(TestValueRules, R104KeysAreIntegersOrStringsInTheRightField) {
  ProtoBuilder float_keys;
  float_keys.varint(map_field::kKeyType, testing::data_type::kFloat)
      .message(map_field::kValues, sequenceOfTensors({}));
  Diagnostics diagnostics = check(float_keys, TestValueKind::kMap);
  EXPECT_TRUE(onlyRule(diagnostics, "R104"));
  EXPECT_EQ(single(diagnostics).path, "map.key_type");

  ProtoBuilder no_key_type;
  no_key_type.message(map_field::kValues, sequenceOfTensors({}));
  EXPECT_TRUE(onlyRule(check(no_key_type, TestValueKind::kMap), "R104"));

  ProtoBuilder both;
  both.varint(map_field::kKeyType, testing::data_type::kInt64)
      .packedVarints(map_field::kKeys, {1})
      .bytes(map_field::kStringKeys, "a")
      .message(map_field::kValues, sequenceOfTensors({floats({1}), floats({2})}));
  EXPECT_TRUE(onlyRule(check(both, TestValueKind::kMap), "R104"));

  ProtoBuilder strings_in_keys;
  strings_in_keys.varint(map_field::kKeyType, 8)
      .packedVarints(map_field::kKeys, {1})
      .message(map_field::kValues, sequenceOfTensors({floats({1})}));
  EXPECT_TRUE(onlyRule(check(strings_in_keys, TestValueKind::kMap), "R104"));

  ProtoBuilder int8_keys;
  int8_keys.varint(map_field::kKeyType, 3)
      .packedVarints(map_field::kKeys, {1, 300})
      .message(map_field::kValues, sequenceOfTensors({floats({1}), floats({2})}));
  diagnostics = check(int8_keys, TestValueKind::kMap);
  EXPECT_TRUE(onlyRule(diagnostics, "R104"));
  EXPECT_EQ(single(diagnostics).message, "keys[1] is 300, outside the range of int8");

  EXPECT_TRUE(
      onlyRule(check(int64Map({4, 4}, 2), TestValueKind::kMap), "R104", Severity::kWarning));
}

TEST(TestValueRules, R104EachKeyHasOneValue) {
  Diagnostics diagnostics = check(int64Map({1, 2, 3}, 2), TestValueKind::kMap);
  EXPECT_TRUE(onlyRule(diagnostics, "R104"));
  EXPECT_EQ(single(diagnostics).message, "the map has 3 keys but 2 values; each key has one value");

  ProtoBuilder no_values;
  no_values.varint(map_field::kKeyType, testing::data_type::kInt64);
  diagnostics = check(no_values, TestValueKind::kMap);
  EXPECT_TRUE(onlyRule(diagnostics, "R104"));
  EXPECT_EQ(single(diagnostics).path, "map.values");

  ProtoBuilder optional_values;
  ProtoBuilder optionals;
  optionals.varint(sequence_field::kElemType, kOptionalKind)
      .message(sequence_field::kOptionalValues,
               ProtoBuilder().varint(optional_field::kElemType, 0));
  optional_values.varint(map_field::kKeyType, testing::data_type::kInt64)
      .packedVarints(map_field::kKeys, {1})
      .message(map_field::kValues, optionals);
  EXPECT_TRUE(onlyRule(check(optional_values, TestValueKind::kMap), "R104"));
}

// ---- R105 OptionalProto ---------------------------------------------------------------------

TEST(TestValueRules, R105ValidOptionalsAreClean) {
  ProtoBuilder full;
  full.varint(optional_field::kElemType, kTensorKind)
      .message(optional_field::kTensorValue, floats({1}));
  EXPECT_TRUE(clean(check(full, TestValueKind::kOptional)));
  ProtoBuilder empty_of_tensor;
  empty_of_tensor.varint(optional_field::kElemType, kTensorKind);
  EXPECT_TRUE(clean(check(empty_of_tensor, TestValueKind::kOptional)));
  ProtoBuilder undefined_empty;
  undefined_empty.varint(optional_field::kElemType, 0);
  EXPECT_TRUE(clean(check(undefined_empty, TestValueKind::kOptional)));
  ProtoBuilder of_sequence;
  of_sequence.varint(optional_field::kElemType, kSequenceKind)
      .message(optional_field::kSequenceValue, sequenceOfTensors({floats({1})}));
  EXPECT_TRUE(clean(check(of_sequence, TestValueKind::kOptional)));
}

TEST(TestValueRules, R105AnOptionalHoldsWhatItSays) {
  ProtoBuilder mismatch;
  mismatch.varint(optional_field::kElemType, kTensorKind)
      .message(optional_field::kSequenceValue, sequenceOfTensors({}));
  Diagnostics diagnostics = check(mismatch, TestValueKind::kOptional);
  EXPECT_TRUE(onlyRule(diagnostics, "R105"));
  EXPECT_EQ(single(diagnostics).message,
            "elem_type is TENSOR but the optional holds a value in sequence_value");

  ProtoBuilder undefined_full;
  undefined_full.varint(optional_field::kElemType, 0)
      .message(optional_field::kTensorValue, floats({1}));
  EXPECT_TRUE(onlyRule(check(undefined_full, TestValueKind::kOptional), "R105"));

  ProtoBuilder two;
  two.varint(optional_field::kElemType, kTensorKind)
      .message(optional_field::kTensorValue, floats({1}))
      .message(optional_field::kSequenceValue, sequenceOfTensors({}));
  diagnostics = check(two, TestValueKind::kOptional);
  EXPECT_TRUE(onlyRule(diagnostics, "R105"));
  EXPECT_EQ(diagnostics.all().size(), 2u) << describe(diagnostics);  // two values; one mismatched

  ProtoBuilder missing;
  missing.message(optional_field::kTensorValue, floats({1}));
  EXPECT_TRUE(onlyRule(check(missing, TestValueKind::kOptional), "R105"));
  ProtoBuilder unknown;
  unknown.varint(optional_field::kElemType, 6);
  EXPECT_TRUE(onlyRule(check(unknown, TestValueKind::kOptional), "R105"));
}

TEST(TestValueRules, TensorsAndSparseTensorsAtTheTopAreCheckedToo) {
  ProtoBuilder negative;
  negative.varint(testing::field::tensor::kDataType, testing::data_type::kFloat);
  Diagnostics diagnostics = check(negative, TestValueKind::kTensor);
  EXPECT_TRUE(onlyRule(diagnostics, "R64"));  // a scalar with no data
  EXPECT_EQ(single(diagnostics).path, "tensor");
  EXPECT_TRUE(clean(check(floats({1, 2}), TestValueKind::kTensor)));
  ProtoBuilder sparse;
  sparse.message(testing::field::sparse::kValues, floats({1}))
      .message(testing::field::sparse::kIndices, int64s({5}))
      .packedVarints(testing::field::sparse::kDims, {4});
  diagnostics = check(sparse, TestValueKind::kSparseTensor);
  EXPECT_TRUE(onlyRule(diagnostics, "R79"));
  EXPECT_EQ(single(diagnostics).path, "sparse_tensor.indices");
}

}  // namespace
}  // namespace onyx
