// The inputs of a model of bench/make_eval_models.py as onyx values, for the benchmarks that
// run those models (onyx_bench_eval, onyx_bench_serve). They are NAME.input.json and
// NAME.input.bin beside NAME.onnx: each graph input's name, element type and dimensions, and
// its elements, raw little-endian, one after another; bench/feeds.js gives onnxruntime-node
// the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "onyx/core/array.h"
#include "onyx/core/status.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/type.h"
#include "onyx/ops/eval_value.h"

namespace onyx_bench {

/// The inputs written beside `model_path` (NAME.onnx), in the order the manifest lists them.
inline onyx::Result<std::vector<onyx::NamedValue>> readModelInputs(const std::string& model_path) {
  auto fail = [](std::string message) {
    return onyx::Status(onyx::ErrorCode::kInvalidArgument, std::move(message));
  };
  if (!model_path.ends_with(".onnx")) return fail(model_path + " does not end in .onnx");
  std::string base = model_path.substr(0, model_path.size() - 5);
  std::string manifest_path = base + ".input.json";
  std::string elements_path = base + ".input.bin";
  std::ifstream elements_file(elements_path, std::ios::binary);
  std::ifstream manifest_file(manifest_path);
  if (!elements_file || !manifest_file) {
    return fail("cannot read " + manifest_path + " or " + elements_path +
                " (bench/make_eval_models.py writes them)");
  }
  std::vector<char> elements{std::istreambuf_iterator<char>(elements_file),
                             std::istreambuf_iterator<char>()};
  nlohmann::json manifest =
      nlohmann::json::parse(manifest_file, nullptr, /*allow_exceptions=*/false);
  if (manifest.is_discarded() || !manifest.contains("inputs")) {
    return fail(manifest_path + " is not a benchmark input manifest");
  }
  std::vector<onyx::NamedValue> inputs;
  for (const nlohmann::json& entry : manifest["inputs"]) {
    std::string name = entry.value("name", "");
    std::string type = entry.value("type", "");
    if (type != "float32" && type != "int64") {
      return fail(manifest_path + ": input '" + name + "' of type " + type);
    }
    onyx::ElementType element =
        type == "float32" ? onyx::ElementType::kFloat : onyx::ElementType::kInt64;
    onyx::Array array(element, entry.value("dims", std::vector<int64_t>{}));
    size_t offset = entry.value("offset", size_t{0});
    if (array.bytes().size() != entry.value("bytes", size_t{0}) ||
        offset + array.bytes().size() > elements.size()) {
      return fail(manifest_path + ": input '" + name +
                  "' does not fit its dims or the elements file");
    }
    std::memcpy(array.bytes().data(), elements.data() + offset, array.bytes().size());
    inputs.push_back({name, onyx::EvalValue::of(std::move(array))});
  }
  return inputs;
}

}  // namespace onyx_bench
