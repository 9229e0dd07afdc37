// Opset conversion over the ONNX backend cases: each model converted to every opset from its
// own down to the lowest it reaches and up to the newest, each result checked and run against
// the case's expected outputs, and round trips (down and back up, up and back down) run too.
// Prints how many (model, opset) pairs convert and every refusal grouped by reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/core/element_type.h"
#include "onyx/eval/test_case.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/opset_conversion.h"
#include "onyx/serde/model_io.h"
#include "support/conformance.h"

namespace onyx {
namespace {

// (model, opset) pairs that converted, checked and computed the expected outputs when this
// floor was last raised; conversion must not fall below it.
constexpr size_t kConvertedFloor = 29997;

// The reason of a refusal's first blocking node, without its place: `Relu 14 to 13: input 0
// is int8[2], which version 13 does not take`.
std::string firstReason(const std::string& message) {
  size_t line = message.find("\n  ");
  std::string first = line == std::string::npos ? message : message.substr(line + 3);
  // A node replaced by its function body is refused for what blocks in the body: the
  // reason's first line ends with a colon, the next names that.
  size_t end = first.find('\n');
  if (end != std::string::npos && end > 0 && first[end - 1] == ':') {
    size_t body = first.find_first_not_of(' ', end + 1);
    size_t body_end = first.find('\n', body);
    first = first.substr(0, end) + " " +
            first.substr(body, body_end == std::string::npos ? std::string::npos : body_end - body);
  } else if (end != std::string::npos) {
    first.resize(end);
  }
  if (size_t place = first.find(": "); place != std::string::npos) first = first.substr(place + 2);
  return first;
}

// The tolerance a converted model is held to: the case's own, unless nodes were replaced by
// their function bodies in a model of 16-bit floats, whose body rounds after every operation
// where the operator rounded once: then one unit in the last place of that type.
Tolerance toleranceAfter(const Model& model, size_t nodes_expanded) {
  Tolerance tolerance{0, 0};
  if (nodes_expanded == 0) return tolerance;
  for (const ValueInfo* output : model.graph->outputs) {
    const Value* value = output->bound();
    std::optional<int32_t> type = value != nullptr ? value->elemType() : std::nullopt;
    if (type == static_cast<int32_t>(ElementType::kBfloat16)) {
      tolerance.rtol = std::max(tolerance.rtol, 1.0 / 128);
    }
    if (type == static_cast<int32_t>(ElementType::kFloat16)) {
      tolerance.rtol = std::max(tolerance.rtol, 1.0 / 1024);
    }
  }
  return tolerance;
}

struct Sweep {
  size_t converted = 0;
  size_t round_trips = 0;
  size_t not_run = 0;  // converted and checked, but an operator version has no kernel
  std::map<std::string, size_t> refusals;
  std::vector<std::string> wrong;  // converted, but failing the checker or the outputs

  // Whether the case's model converts from its opset to `target` and stays right; a refusal
  // is counted by reason.
  bool convertsTo(const std::string& dir, int64_t own, int64_t target, bool back) {
    Result<Model> model = loadModel(dir + "/model.onnx");
    if (!model) return false;
    Result<ConversionSummary> done = convertOpset(*model, target);
    size_t expanded = done ? done->nodes_expanded : 0;
    if (done && back) done = convertOpset(*model, own);
    if (!done) {
      refusals[firstReason(done.status().message())]++;
      return false;
    }
    std::string label = fmt(dir, own, target, back);
    Diagnostics found = checkModel(*model);
    if (found.hasErrors()) {
      for (const Diagnostic& diagnostic : found.all()) {
        if (diagnostic.severity != Severity::kError) continue;
        wrong.push_back(label + ": the checker refuses it: " + diagnostic.toString());
        break;
      }
      return false;
    }
    Result<TestCaseResult> run = runTestCase(*model, dir, {}, toleranceAfter(*model, expanded));
    if (!run && run.status().message().find("has no kernel") != std::string::npos) {
      ++not_run;
      return true;
    }
    if (!run || !run->failures.empty()) {
      wrong.push_back(label + ": " + (run ? run->failures.front() : run.status().message()));
      return false;
    }
    (back ? round_trips : converted)++;
    return true;
  }

  static std::string fmt(const std::string& dir, int64_t own, int64_t target, bool back) {
    std::string name = dir.substr(dir.rfind('/') + 1);
    return name + " " + std::to_string(own) + " to " + std::to_string(target) +
           (back ? " and back" : "");
  }
};

TEST(OpsetConversionSweep, BackendModelsConvertCheckAndComputeTheSame) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  const OperatorSetInfo& onnx = *findOperatorSet("");
  Sweep sweep;
  for (const auto& path : cases) {
    std::string dir = path.string();
    Result<Model> model = loadModel(dir + "/model.onnx");
    if (!model) continue;
    std::optional<int64_t> own = model->opsetVersion("");
    if (!own || *own < onnx.first_version || *own > onnx.last_version) continue;
    // Runs the case as it is first: a case the evaluator cannot run says nothing here.
    Result<TestCaseResult> as_is = runTestCase(*model, dir);
    if (!as_is || !as_is->failures.empty()) continue;
    int64_t lowest = *own;
    for (int64_t target = *own - 1; target >= onnx.first_version; --target) {
      if (!sweep.convertsTo(dir, *own, target, false)) break;
      lowest = target;
    }
    int64_t highest = *own;
    for (int64_t target = *own + 1; target <= onnx.last_version; ++target) {
      if (!sweep.convertsTo(dir, *own, target, false)) break;
      highest = target;
    }
    if (lowest != *own) sweep.convertsTo(dir, *own, lowest, true);
    if (highest != *own) sweep.convertsTo(dir, *own, highest, true);
  }
  std::printf(
      "%zu (model, opset) pairs convert, check and compute the expected outputs; %zu "
      "round trips; %zu convert and check but reach a version without a kernel\n",
      sweep.converted, sweep.round_trips, sweep.not_run);
  std::vector<std::pair<size_t, std::string>> by_count;
  size_t refused = 0;
  for (const auto& [reason, count] : sweep.refusals) {
    by_count.emplace_back(count, reason);
    refused += count;
  }
  std::sort(by_count.rbegin(), by_count.rend());
  std::printf("%zu refusals, %zu reasons:\n", refused, by_count.size());
  for (const auto& [count, reason] : by_count) std::printf("  %5zu  %s\n", count, reason.c_str());
  std::printf("%zu converted and wrong:\n", sweep.wrong.size());
  for (const std::string& line : sweep.wrong) std::printf("  %s\n", line.c_str());
  EXPECT_GE(sweep.converted, kConvertedFloor);
  // A conversion that goes through must mean what the model meant.
  EXPECT_TRUE(sweep.wrong.empty());
}

}  // namespace
}  // namespace onyx
