// fuzz_surgery — extract, merge, set-dims and float16 conversion (their library calls) on every
// model that decodes, with names and dimensions the bytes choose (a hash of them picks values and
// inputs of the main graph, and now and then a name it does not have). Whatever the model, no
// crash. Each call either refuses, with a message and the model writing the bytes it wrote before,
// or leaves a model that was consistent (verifyModel) consistent, and one that serializes. Merging
// a consistent model with itself under two prefixes goes through.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_hash.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/verify.h"
#include "onyx/passes/extract.h"
#include "onyx/passes/float16.h"
#include "onyx/passes/merge.h"
#include "onyx/passes/set_dims.h"
#include "onyx/serde/model_io.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_surgery: %s\n  %s\n", what, detail.c_str());
  __builtin_trap();
}

std::string bytesOf(const Model& model, const char* what) {
  Result<std::string> bytes = serializeModel(model);
  if (!bytes) broken(what, bytes.status().toString());
  return *bytes;
}

// Up to three names: values of the main graph the hash picks, now and then one it has not.
std::vector<std::string> pickedNames(const Graph& graph, uint64_t& hash) {
  std::vector<std::string> names;
  std::vector<const Value*> values;
  for (const Value* value : graph.values()) {
    if (value->graph() == &graph && !value->name().empty()) values.push_back(value);
  }
  size_t count = hash % 4;
  hash /= 4;
  for (size_t i = 0; i < count; ++i) {
    if (values.empty() || hash % 16 == 0) {
      names.emplace_back("not a name of the model");
    } else {
      names.emplace_back(values[(hash / 16) % values.size()]->name());
    }
    hash = hash * 6364136223846793005ull + 1442695040888963407ull;
  }
  return names;
}

void checkExtract(std::string_view data, bool consistent) {
  Result<Model> model = parseModel(data, nullptr);
  if (!model || model->graph == nullptr) return;
  std::string before = bytesOf(*model, "a decoded model does not serialize");
  uint64_t hash = hashOf(data);
  ExtractBoundary boundary;
  if (hash & 1) boundary.inputs = pickedNames(*model->graph, hash);
  if (hash & 2) boundary.outputs = pickedNames(*model->graph, hash);
  Result<ExtractReport> done = extractModel(*model, boundary);
  std::string after = bytesOf(*model, "the extracted model does not serialize");
  if (!done) {
    if (after != before) broken("a refused extract changed the model", done.status().toString());
    if (done.status().message().empty()) broken("a refused extract without a message", "");
    return;
  }
  if (!consistent) return;
  if (Diagnostics links = verifyModel(*model); links.hasErrors()) {
    broken("the extracted part is inconsistent", links.all()[0].toString());
  }
}

void checkMerge(std::string_view data, bool consistent) {
  Result<Model> first = parseModel(data, nullptr);
  if (!first || first->graph == nullptr) return;
  Model second = cloneModel(*first);
  std::string before = bytesOf(*first, "a decoded model does not serialize");
  MergeOptions options;
  options.prefix_a = "fuzz_a/";
  options.prefix_b = "fuzz_b/";
  uint64_t hash = hashOf(data) >> 7;
  if (hash & 1) {
    std::vector<std::string> outputs = pickedNames(*first->graph, hash);
    std::vector<std::string> inputs = pickedNames(*second.graph, hash);
    for (size_t i = 0; i < outputs.size() && i < inputs.size(); ++i) {
      options.connections.emplace_back(outputs[i], inputs[i]);
    }
  }
  Result<MergeReport> done = mergeModels(*first, second, options);
  std::string after = bytesOf(*first, "the merged model does not serialize");
  if (!done) {
    if (after != before) broken("a refused merge changed A", done.status().toString());
    if (done.status().message().empty()) broken("a refused merge without a message", "");
    if (consistent && options.connections.empty() && first->training_info.empty()) {
      broken("a consistent model does not merge with itself under prefixes",
             done.status().toString());
    }
    return;
  }
  if (!consistent) return;
  if (Diagnostics links = verifyModel(*first); links.hasErrors()) {
    broken("the merged model is inconsistent", links.all()[0].toString());
  }
}

void checkSetDims(std::string_view data, bool consistent) {
  Result<Model> model = parseModel(data, nullptr);
  if (!model || model->graph == nullptr || model->graph->inputs.empty()) return;
  std::string before = bytesOf(*model, "a decoded model does not serialize");
  uint64_t hash = hashOf(data) >> 13;
  const ValueInfo* input = model->graph->inputs[hash % model->graph->inputs.size()];
  hash /= 7;
  DimSetting setting;
  setting.input = input->value != nullptr ? std::string(input->value->name()) : "";
  if (setting.input.empty()) setting.symbol = "fuzz_symbol";
  setting.axis = static_cast<int64_t>(hash % 4) - 1;
  if (hash & 8) {
    setting.to_value = static_cast<int64_t>((hash >> 4) % 5);
  } else {
    setting.to_symbol = "fuzz_batch";
  }
  DimSetting settings[] = {setting};
  Result<SetDimsReport> done = setDims(*model, settings);
  std::string after = bytesOf(*model, "the model with new dimensions does not serialize");
  if (!done) {
    if (after != before) broken("a refused set-dims changed the model", done.status().toString());
    if (done.status().message().empty()) broken("a refused set-dims without a message", "");
    return;
  }
  if (!consistent) return;
  if (Diagnostics links = verifyModel(*model); links.hasErrors()) {
    broken("the model with new dimensions is inconsistent", links.all()[0].toString());
  }
}

void checkFloat16(std::string_view data, bool consistent) {
  Result<Model> model = parseModel(data, nullptr);
  if (!model || model->graph == nullptr) return;
  std::string before = bytesOf(*model, "a decoded model does not serialize");
  uint64_t hash = hashOf(data) >> 19;
  Float16Options options;
  options.keep_io_types = (hash & 1) != 0;
  if (hash & 2) options.keep_ops = {"Add", "MatMul", "Relu"};
  Result<Float16Report> done = convertToFloat16(*model, options);
  // Serializing computes the weights converted lazily.
  std::string after = bytesOf(*model, "the float16 model does not serialize");
  if (!done) {
    if (after != before)
      broken("a refused float16 conversion changed the model", done.status().toString());
    if (done.status().message().empty())
      broken("a refused float16 conversion without a message", "");
    return;
  }
  if (!consistent) return;
  if (Diagnostics links = verifyModel(*model); links.hasErrors()) {
    broken("the float16 model is inconsistent", links.all()[0].toString());
  }
}

void run(std::string_view data) {
  Result<Model> model = parseModel(data, nullptr);
  if (!model) return;
  bool consistent = !verifyModel(*model).hasErrors();
  checkExtract(data, consistent);
  checkMerge(data, consistent);
  checkSetDims(data, consistent);
  checkFloat16(data, consistent);
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
