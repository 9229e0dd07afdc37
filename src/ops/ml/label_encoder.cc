// LabelEncoder (ai.onnx.ml), versions 1, 2, 4.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "ops/kernels.h"
#include "ops/ml/ml_shapes.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// Version 1 maps strings to integers and back.
void inferLabelEncoder1(InferenceContext& ctx) {
  int32_t in = ctx.inputElemType(0);
  if (in == kMlString) ctx.setOutputElemType(0, kMlInt64);
  if (in == kMlInt64) ctx.setOutputElemType(0, kMlString);
  if (const Dims* shape = ctx.inputShape(0)) ctx.setOutputShape(0, *shape);
}

// Versions 2 and 4: the output type is that of the values_* attribute that is set. Keys and
// values pair up one to one, and the keys have the input's element type; onnx's LabelEncoder
// inference refuses the rest (onnx/defs/traditionalml/defs.cc).
void inferLabelEncoder(InferenceContext& ctx) {
  std::optional<AttributeEntries> key_entries =
      firstSetAttribute(ctx, {"keys_tensor", "keys_strings", "keys_int64s", "keys_floats"});
  std::optional<AttributeEntries> value_entries =
      firstSetAttribute(ctx, {"values_tensor", "values_strings", "values_int64s", "values_floats"});
  if (key_entries && value_entries && key_entries->count != value_entries->count) {
    ctx.fail(std::string(key_entries->name) + " has " + std::to_string(key_entries->count) +
             " keys, " + std::string(value_entries->name) + " " +
             std::to_string(value_entries->count) + " values; they pair up one to one");
    return;
  }
  if (int32_t in = ctx.inputElemType(0); key_entries && in != 0 && key_entries->elem_type != in) {
    ctx.fail("the keys (" + std::string(key_entries->name) + ") are " +
             std::string(elementTypeName(key_entries->elem_type)) + " but the input is " +
             std::string(elementTypeName(in)) + "; they must have one type");
    return;
  }
  int32_t out = 0;
  if (attributeLength(ctx, "values_strings") > 0) out = kMlString;
  if (attributeLength(ctx, "values_int64s") > 0) out = kMlInt64;
  if (attributeLength(ctx, "values_floats") > 0) out = kMlFloat;
  if (const Tensor* values = ctx.tensorAttribute("values_tensor")) {
    out = values->data_type.value_or(0);
  }
  if (out == 0) {
    ctx.fail("none of the values_* attributes is set");
    return;
  }
  // default_tensor is one value of the values' type, as onnx's LabelEncoder inference
  // requires (onnx/defs/traditionalml/defs.cc).
  if (const Tensor* fallback = ctx.tensorAttribute("default_tensor");
      fallback != nullptr && fallback->data_type.value_or(0) != 0) {
    if (*fallback->data_type != out) {
      ctx.fail("default_tensor is " + std::string(elementTypeName(*fallback->data_type)) +
               " but the values are " + std::string(elementTypeName(out)));
      return;
    }
    if (fallback->dims.size() != 1 || fallback->dims[0] != 1) {
      ctx.fail("default_tensor has " + std::to_string(fallback->dims.size()) +
               " dimensions; it is one value, of shape [1]");
      return;
    }
  }
  ctx.setOutputElemType(0, out);
  if (const Dims* shape = ctx.inputShape(0)) ctx.setOutputShape(0, *shape);
}

// A list attribute of LabelEncoder as an array: keys_*/values_* (strings, int64s, floats)
// or the tensor form; nullopt when none is set, an error in `error` when the tensor is bad.
std::optional<Array> labelList(const KernelContext& ctx, const std::string& prefix,
                               std::string& error) {
  if (const Tensor* tensor = ctx.tensorAttribute(prefix + "_tensor")) {
    Result<Array> array = arrayFromTensor(*tensor);
    if (!array) {
      error = prefix + "_tensor cannot be read";
      return std::nullopt;
    }
    return array->reshaped({static_cast<int64_t>(array->size())});
  }
  if (const Attribute* strings = ctx.attribute(prefix + "_strings");
      strings != nullptr && !strings->rare().strings.empty()) {
    Array array(ElementType::kString, {static_cast<int64_t>(strings->rare().strings.size())});
    size_t i = 0;
    for (std::string_view text : strings->rare().strings) array.strings()[i++] = std::string(text);
    return array;
  }
  if (std::optional<std::vector<int64_t>> ints = ctx.intsAttribute(prefix + "_int64s");
      ints && !ints->empty()) {
    return int64Array(*ints, {static_cast<int64_t>(ints->size())});
  }
  if (std::optional<std::vector<float>> floats = ctx.floatsAttribute(prefix + "_floats");
      floats && !floats->empty()) {
    Array array(ElementType::kFloat, {static_cast<int64_t>(floats->size())});
    std::copy(floats->begin(), floats->end(), array.data<float>());
    return array;
  }
  return std::nullopt;
}

// The key of element `i` of a numeric array, for lookups: int64 keys exactly, others as
// doubles (NaN keys match NaN inputs).
struct LabelKey {
  bool is_int = false;
  int64_t integer = 0;
  double number = 0;
  bool operator<(const LabelKey& other) const {
    if (is_int != other.is_int) return is_int < other.is_int;
    if (is_int) return integer < other.integer;
    bool nan = std::isnan(number), other_nan = std::isnan(other.number);
    if (nan || other_nan) return !nan && other_nan;
    return number < other.number;
  }
};

LabelKey labelKeyOf(const Array& array, size_t i) {
  LabelKey key;
  if (array.type() == ElementType::kInt64) {
    key.is_int = true;
    key.integer = array.data<int64_t>()[i];
  } else {
    key.number = elementAsDouble(array, i);
  }
  return key;
}

// Maps each element of X through keys -> values, `fallback` (one element) where X holds no
// key.
Status encodeLabels(KernelContext& ctx, const Array& x, const Array& keys, const Array& values,
                    const Array& fallback) {
  if (keys.size() != values.size()) return ctx.fail("keys and values differ in length");
  if (keys.type() != x.type()) return ctx.fail("X's element type is not the keys'");
  Array y(values.type(), x.shape());
  if (x.isString()) {
    std::map<std::string, size_t> index;
    for (size_t k = 0; k < keys.size(); ++k) index.emplace(keys.strings()[k], k);
    for (size_t i = 0; i < x.size(); ++i) {
      auto found = index.find(x.strings()[i]);
      if (found == index.end()) {
        copyElements(fallback, 0, y, i, 1);
      } else {
        copyElements(values, found->second, y, i, 1);
      }
    }
  } else {
    std::map<LabelKey, size_t> index;
    for (size_t k = 0; k < keys.size(); ++k) index.emplace(labelKeyOf(keys, k), k);
    for (size_t i = 0; i < x.size(); ++i) {
      auto found = index.find(labelKeyOf(x, i));
      if (found == index.end()) {
        copyElements(fallback, 0, y, i, 1);
      } else {
        copyElements(values, found->second, y, i, 1);
      }
    }
  }
  ctx.setOutput(0, std::move(y));
  return Status::ok();
}

Status runLabelEncoder(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("X must be a tensor");
  std::string error;
  std::optional<Array> keys = labelList(ctx, "keys", error);
  std::optional<Array> values = labelList(ctx, "values", error);
  if (!error.empty()) return ctx.fail(error);
  if (!keys || !values) return ctx.fail("needs one keys_* and one values_* attribute");
  Array fallback(values->type(), {1});
  if (const Tensor* given = ctx.tensorAttribute("default_tensor");
      given != nullptr && ctx.tensorAttribute("values_tensor") != nullptr) {
    Result<Array> array = arrayFromTensor(*given);
    if (!array || array->size() != 1 || array->type() != values->type()) {
      return ctx.fail("default_tensor must be one element of the values' type");
    }
    fallback = array->reshaped({1});
  } else if (values->isString()) {
    fallback.strings()[0] = std::string(ctx.stringAttribute("default_string").value_or("_Unused"));
  } else if (values->type() == ElementType::kInt64 || values->type() == ElementType::kInt32 ||
             values->type() == ElementType::kInt16) {
    storeDouble(fallback, 0, static_cast<double>(ctx.intAttribute("default_int64").value_or(-1)));
  } else {
    storeDouble(fallback, 0, ctx.floatAttribute("default_float").value_or(-0.0f));
  }
  return encodeLabels(ctx, *x, *keys, *values, fallback);
}

// Version 1: strings to their index in classes_strings, or indices back to strings.
Status runLabelEncoder1(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("X must be a tensor");
  std::vector<std::string> classes;
  if (const Attribute* attribute = ctx.attribute("classes_strings"); attribute != nullptr) {
    for (std::string_view text : attribute->rare().strings) classes.emplace_back(text);
  }
  Array names(ElementType::kString, {static_cast<int64_t>(classes.size())});
  names.strings() = classes;
  std::vector<int64_t> positions(classes.size());
  for (size_t k = 0; k < positions.size(); ++k) positions[k] = static_cast<int64_t>(k);
  Array numbers = int64Array(positions, {static_cast<int64_t>(positions.size())});
  if (x->isString()) {
    Array fallback = int64Array({ctx.intAttribute("default_int64").value_or(-1)}, {1});
    return encodeLabels(ctx, *x, names, numbers, fallback);
  }
  Array fallback(ElementType::kString, {1});
  fallback.strings()[0] = std::string(ctx.stringAttribute("default_string").value_or("_Unused"));
  return encodeLabels(ctx, *x, numbers, names, fallback);
}

// Whether `values` holds a value twice.
template <class T>
bool repeats(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return std::adjacent_find(values.begin(), values.end()) != values.end();
}

// Version 4 matches a NaN key to any NaN input (version 2 compared bits) and lets the last of
// repeated keys win (version 2 left it open): a node with either crosses neither way.
Status refuseNanOrRepeatedKeys(NodeDraft& draft) {
  if (const Attribute* keys = draft.attribute("keys_floats")) {
    std::vector<float> floats(keys->floats.begin(), keys->floats.end());
    if (std::any_of(floats.begin(), floats.end(), [](float key) { return std::isnan(key); })) {
      return draft.refuse("a NaN key, which versions 2 and 4 match differently");
    }
    if (repeats(std::move(floats))) return draft.refuse("a repeated key");
  }
  if (const Attribute* keys = draft.attribute("keys_int64s")) {
    if (repeats(std::vector<int64_t>(keys->ints.begin(), keys->ints.end()))) {
      return draft.refuse("a repeated key");
    }
  }
  if (const Attribute* keys = draft.attribute("keys_strings")) {
    const auto& strings = keys->rare().strings;
    if (repeats(std::vector<std::string_view>(strings.begin(), strings.end()))) {
      return draft.refuse("a repeated key");
    }
  }
  return Status::ok();
}

// Version 1 maps strings to their position in classes_strings (or positions back to
// strings); which way is the input's element type.
std::optional<bool> encodesStrings(const NodeDraft& draft) {
  const Type* input = draft.inputType(0);
  if (input != nullptr && input->elem_type) {
    return *input->elem_type == static_cast<int32_t>(ElementType::kString);
  }
  const Type* output = draft.outputType(0);
  if (output != nullptr && output->elem_type) {
    return *output->elem_type != static_cast<int32_t>(ElementType::kString);
  }
  return std::nullopt;
}

// Up to version 2: classes_strings and the positions become keys and values.
Status classesToKeys(NodeDraft& draft) {
  std::optional<bool> strings_in = encodesStrings(draft);
  if (!strings_in) return draft.refuse("the input's element type is unknown");
  std::vector<std::string_view> classes =
      draft.stringsAttr("classes_strings").value_or(std::vector<std::string_view>());
  std::vector<int64_t> positions(classes.size());
  for (size_t k = 0; k < positions.size(); ++k) positions[k] = static_cast<int64_t>(k);
  draft.removeAttribute("classes_strings");
  if (*strings_in) {
    if (repeats(classes))
      return draft.refuse("a repeated class, whose position version 2 leaves open");
    draft.setStringsAttr("keys_strings", classes);
    draft.setIntsAttr("values_int64s", positions);
    draft.removeAttribute("default_string");
  } else {
    draft.setIntsAttr("keys_int64s", positions);
    draft.setStringsAttr("values_strings", classes);
    draft.removeAttribute("default_int64");
  }
  return Status::ok();
}

// Down to version 1: the keys (string to int64) or the values (int64 to string) must be
// strings whose numbers are the positions 0 to n-1, each once, which classes_strings lists.
Status keysToClasses(NodeDraft& draft) {
  for (std::string_view name : {"keys_floats", "values_floats", "default_float"}) {
    if (draft.attribute(name) != nullptr)
      return draft.refuse("float keys or values, which version 1 lacks");
  }
  std::optional<std::vector<std::string_view>> keys = draft.stringsAttr("keys_strings");
  std::optional<std::vector<std::string_view>> values = draft.stringsAttr("values_strings");
  std::optional<std::vector<int64_t>> numbers =
      keys ? draft.intsAttr("values_int64s") : draft.intsAttr("keys_int64s");
  const std::optional<std::vector<std::string_view>>& names = keys ? keys : values;
  if (!names || !numbers || names->size() != numbers->size() || (keys && values)) {
    return draft.refuse("not a mapping between strings and int64 of one kind each");
  }
  std::vector<std::string_view> classes(names->size());
  std::vector<bool> placed(names->size(), false);
  for (size_t k = 0; k < names->size(); ++k) {
    int64_t at = (*numbers)[k];
    if (at < 0 || static_cast<size_t>(at) >= classes.size() || placed[static_cast<size_t>(at)]) {
      return draft.refuse("int64 keys or values other than the positions 0 to n-1, each once");
    }
    placed[static_cast<size_t>(at)] = true;
    classes[static_cast<size_t>(at)] = (*names)[k];
  }
  if (keys && repeats(*keys)) return draft.refuse("a repeated key");
  for (std::string_view name : {"keys_strings", "values_strings", "keys_int64s", "values_int64s"}) {
    draft.removeAttribute(name);
  }
  draft.setStringsAttr("classes_strings", classes);
  return Status::ok();
}

}  // namespace

constexpr TypeSet kT1Types4 = tensor("string int64 float int32 int16 double");
constexpr Formals kInputs1 = {{"X", "T1"}};
constexpr Formals kOutputs1 = {{"Y", "T2"}};

extern const Operator kLabelEncoder;
constexpr Operator kLabelEncoder{
    .domain = kMlDomain,
    .name = "LabelEncoder",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("classes_strings", kStrings), attr("default_int64", -1),
                        attr("default_string", "_Unused")},
         .constraints = {{"T1", tensor("string int64")}, {"T2", tensor("string int64")}},
         .infer = inferLabelEncoder1,
         .kernel = runLabelEncoder1},
        {.since_version = 2,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("default_float", -0.0f), attr("default_int64", -1),
                        attr("default_string", "_Unused"), attr("keys_floats", kFloats),
                        attr("keys_int64s", kInts), attr("keys_strings", kStrings),
                        attr("values_floats", kFloats), attr("values_int64s", kInts),
                        attr("values_strings", kStrings)},
         .constraints = {{"T1", tensor("string int64 float")},
                         {"T2", tensor("string int64 float")}},
         .infer = inferLabelEncoder,
         .kernel = runLabelEncoder,
         .step = {.reviewed = true,
                  .change = "classes_strings became keys_* and values_* of any of string, int64 "
                            "and float",
                  .up = classesToKeys,
                  .down = keysToClasses,
                  .up_refuses = "an unknown input type; repeated classes",
                  .down_refuses = "float keys or values; numbers other than the positions 0 "
                                  "to n-1"}},
        {.since_version = 4,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("default_float", -0.0f), attr("default_int64", -1),
                        attr("default_string", "_Unused"), attr("default_tensor", kTensor),
                        attr("keys_floats", kFloats), attr("keys_int64s", kInts),
                        attr("keys_strings", kStrings), attr("keys_tensor", kTensor),
                        attr("values_floats", kFloats), attr("values_int64s", kInts),
                        attr("values_strings", kStrings), attr("values_tensor", kTensor)},
         .constraints = {{"T1", kT1Types4}, {"T2", kT1Types4}},
         .infer = inferLabelEncoder,
         .kernel = runLabelEncoder,
         .step = {.reviewed = true,
                  .change = "keys_tensor, values_tensor, default_tensor and int16, int32, double "
                            "added; NaN keys match any NaN; the last repeated key wins",
                  .up = refuseNanOrRepeatedKeys,
                  .down = refuseNanOrRepeatedKeys,
                  .up_refuses = "NaN or repeated keys",
                  .down_refuses = "NaN or repeated keys"}},
    }};
static_assert(isWellFormed(kLabelEncoder));

}  // namespace onyx::ops::ai_onnx_ml
