#include "onyx/eval/test_case.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "onyx/core/array_elements.h"
#include "onyx/core/quote.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"

namespace onyx {

namespace {

namespace fs = std::filesystem;

bool isInexact(ElementType type) {
  const ElementTypeInfo* info = elementTypeInfo(type);
  return info != nullptr && info->isFloatingPoint();
}

std::string number(double value) {
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string compareArrays(const Array& expected, const Array& actual, const Tolerance& tolerance) {
  if (expected.type() != actual.type()) {
    return std::string("element type ") + std::string(elementTypeName(actual.type())) +
           ", expected " + std::string(elementTypeName(expected.type()));
  }
  if (expected.shape() != actual.shape()) {
    return "shape " + shapeText(actual.shape()) + ", expected " + shapeText(expected.shape());
  }
  if (expected.isString()) {
    for (size_t i = 0; i < expected.size(); ++i) {
      if (expected.strings()[i] != actual.strings()[i]) {
        return "index " + std::to_string(i) + ": \"" + actual.strings()[i] + "\", expected \"" +
               expected.strings()[i] + "\"";
      }
    }
    return {};
  }
  if (expected.type() == ElementType::kComplex64 || expected.type() == ElementType::kComplex128 ||
      !isInexact(expected.type())) {
    // Integers, booleans and complex numbers: bit for bit (complex parts are compared as
    // their float words).
    if (expected.type() == ElementType::kComplex64 || expected.type() == ElementType::kComplex128) {
      bool single = expected.type() == ElementType::kComplex64;
      size_t parts = expected.size() * 2;
      for (size_t i = 0; i < parts; ++i) {
        double want = single ? expected.data<float>()[i] : expected.data<double>()[i];
        double got = single ? actual.data<float>()[i] : actual.data<double>()[i];
        bool both_nan = std::isnan(want) && std::isnan(got);
        if (!both_nan &&
            std::fabs(got - want) > tolerance.atol + tolerance.rtol * std::fabs(want)) {
          return "index " + std::to_string(i / 2) + (i % 2 ? " (imaginary)" : " (real)") + ": " +
                 number(got) + ", expected " + number(want);
        }
      }
      return {};
    }
    if (std::memcmp(expected.bytes().data(), actual.bytes().data(), expected.bytes().size()) == 0) {
      return {};
    }
    for (size_t i = 0; i < expected.size(); ++i) {
      double want = elementAsDouble(expected, i);
      double got = elementAsDouble(actual, i);
      if (want != got) {
        return "index " + std::to_string(i) + ": " + number(got) + ", expected " + number(want);
      }
    }
    return {};
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    double want = elementAsDouble(expected, i);
    double got = elementAsDouble(actual, i);
    if (std::isnan(want) || std::isnan(got)) {
      if (std::isnan(want) && std::isnan(got)) continue;
    } else if (std::isinf(want) || std::isinf(got)) {
      if (want == got) continue;
    } else if (std::fabs(got - want) <= tolerance.atol + tolerance.rtol * std::fabs(want)) {
      continue;
    }
    return "index " + std::to_string(i) + ": " + number(got) + ", expected " + number(want);
  }
  return {};
}

// Reads data.json's rtol and atol, when the case has one (a flat object of numbers).
Tolerance toleranceOf(const fs::path& folder) {
  Tolerance tolerance;
  std::ifstream in(folder / "data.json");
  if (!in) return tolerance;
  std::stringstream text;
  text << in.rdbuf();
  std::string json = text.str();
  auto read = [&](const char* key, double& out) {
    size_t at = json.find(std::string("\"") + key + "\"");
    if (at == std::string::npos) return;
    at = json.find(':', at);
    if (at == std::string::npos) return;
    out = std::strtod(json.c_str() + at + 1, nullptr);
  };
  read("rtol", tolerance.rtol);
  read("atol", tolerance.atol);
  return tolerance;
}

}  // namespace

std::string compareValues(const EvalValue& expected, const EvalValue& actual,
                          const Tolerance& tolerance) {
  if (expected.kind != actual.kind) return "another kind of value than expected";
  switch (expected.kind) {
    case EvalValue::Kind::kNone: return {};
    case EvalValue::Kind::kTensor: return compareArrays(expected.tensor, actual.tensor, tolerance);
    case EvalValue::Kind::kMap:
      if (std::string keys = compareArrays(expected.keys, actual.keys, tolerance); !keys.empty()) {
        return "keys: " + keys;
      }
      [[fallthrough]];
    case EvalValue::Kind::kSequence:
      if (expected.items.size() != actual.items.size()) {
        return std::to_string(actual.items.size()) + " elements, expected " +
               std::to_string(expected.items.size());
      }
      for (size_t i = 0; i < expected.items.size(); ++i) {
        std::string why = compareValues(expected.items[i], actual.items[i], tolerance);
        if (!why.empty()) return "element " + std::to_string(i) + ": " + why;
      }
      return {};
  }
  return {};
}

Result<EvalValue> evalValueOf(const TestValue& value) {
  switch (value.kind()) {
    case TestValueKind::kTensor: {
      Result<Array> array = arrayFromTensor(*value.tensor());
      if (!array) return array.status();
      return EvalValue::of(std::move(*array));
    }
    case TestValueKind::kSequence: {
      std::vector<EvalValue> items;
      for (const Tensor* tensor : value.sequence()->tensor_values) {
        Result<Array> array = arrayFromTensor(*tensor);
        if (!array) return array.status();
        items.push_back(EvalValue::of(std::move(*array)));
      }
      return EvalValue::sequence(std::move(items));
    }
    case TestValueKind::kOptional: {
      const OptionalValue* optional = value.optional();
      if (optional->tensor_value != nullptr) {
        Result<Array> array = arrayFromTensor(*optional->tensor_value);
        if (!array) return array.status();
        return EvalValue::of(std::move(*array));
      }
      if (optional->sequence_value != nullptr) {
        std::vector<EvalValue> items;
        for (const Tensor* tensor : optional->sequence_value->tensor_values) {
          Result<Array> array = arrayFromTensor(*tensor);
          if (!array) return array.status();
          items.push_back(EvalValue::of(std::move(*array)));
        }
        return EvalValue::sequence(std::move(items));
      }
      return EvalValue{};
    }
    case TestValueKind::kSparseTensor:
    case TestValueKind::kMap: break;
  }
  return Status(ErrorCode::kUnsupported, "sparse tensors and maps as test values");
}

std::vector<std::string> testDataSets(const std::string& folder) {
  std::vector<std::string> data_sets;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(fs::path(folder), error)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      data_sets.push_back(entry.path().string());
    }
  }
  std::sort(data_sets.begin(), data_sets.end());
  return data_sets;
}

Result<std::vector<NamedValue>> loadTestInputs(const Model& model, const std::string& data_set) {
  std::vector<NamedValue> inputs;
  if (model.graph == nullptr) return inputs;
  size_t k = 0;
  for (const ValueInfo* input : model.graph->inputs) {
    if (input->value == nullptr || input->value->initializer() != nullptr) continue;
    fs::path file = fs::path(data_set) / ("input_" + std::to_string(k++) + ".pb");
    if (!fs::exists(file)) continue;  // an optional input the case leaves out
    Result<TestValue> read = loadTestValue(file.string(), testValueKindOf(input->type));
    if (!read) return read.status();
    Result<EvalValue> value = evalValueOf(*read);
    if (!value) return value.status();
    inputs.push_back({std::string(input->value->name()), std::move(*value)});
  }
  return inputs;
}

Result<TestCaseResult> runTestCase(const std::string& folder_text, const EvalOptions& options) {
  Result<Model> model = loadModel((fs::path(folder_text) / "model.onnx").string());
  if (!model) return model.status();
  return runTestCase(*model, folder_text, options);
}

Result<TestCaseResult> runTestCase(const Model& model, const std::string& folder_text,
                                   const EvalOptions& options) {
  return runTestCase(model, folder_text, options, Tolerance{0, 0});
}

Result<TestCaseResult> runTestCase(const Model& model, const std::string& folder_text,
                                   const EvalOptions& options, const Tolerance& at_least) {
  fs::path folder(folder_text);
  const Graph& graph = *model.graph;
  Tolerance tolerance = toleranceOf(folder);
  tolerance.rtol = std::max(tolerance.rtol, at_least.rtol);
  tolerance.atol = std::max(tolerance.atol, at_least.atol);
  TestCaseResult result;
  for (const std::string& data_set_text : testDataSets(folder_text)) {
    fs::path data_set(data_set_text);
    ++result.data_sets;
    Result<std::vector<NamedValue>> inputs = loadTestInputs(model, data_set_text);
    if (!inputs) return inputs.status();
    Result<std::vector<EvalValue>> outputs = evaluate(model, *inputs, options);
    if (!outputs) return outputs.status();
    for (size_t k = 0; k < graph.outputs.size() && k < outputs->size(); ++k) {
      fs::path file = data_set / ("output_" + std::to_string(k) + ".pb");
      if (!fs::exists(file)) continue;
      Result<TestValue> read =
          loadTestValue(file.string(), testValueKindOf(graph.outputs[k]->type));
      if (!read) return read.status();
      Result<EvalValue> expected = evalValueOf(*read);
      if (!expected) return expected.status();
      std::string why = compareValues(*expected, (*outputs)[k], tolerance);
      if (!why.empty()) {
        const Value* bound = graph.outputs[k]->bound();
        result.failures.push_back(data_set.filename().string() + " output " +
                                  (bound != nullptr ? quoted(bound->name()) : std::to_string(k)) +
                                  ": " + why);
      }
    }
  }
  return result;
}

}  // namespace onyx
