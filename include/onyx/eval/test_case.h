// onyx/eval/test_case.h — running an ONNX backend test case and judging its outputs.
//
// A case is a folder with model.onnx and test_data_set_*/input_K.pb, output_K.pb. The
// inputs bind to the graph's inputs that have no initializer, in order; each output is
// compared with the expected one: floating-point elements within atol + rtol * |expected|
// (NaN equal to NaN), everything else exactly.
#pragma once

#include <string>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/value_difference.h"
#include "onyx/ops/eval_value.h"
#include "onyx/serde/test_data.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// Why `actual` differs from `expected` (the first differing index and both values, or the
/// shape or type that differs); empty when they agree.
std::string compareValues(const EvalValue& expected, const EvalValue& actual,
                          const Tolerance& tolerance);

/// A decoded .pb value as the evaluator's value.
Result<EvalValue> evalValueOf(const TestValue& value);

/// The case's data set folders (test_data_set_*), sorted.
std::vector<std::string> testDataSets(const std::string& folder);

/// A data set's input_K.pb files bound to `model`'s graph inputs that have no initializer,
/// in order (a missing file leaves that input out).
Result<std::vector<NamedValue>> loadTestInputs(const Model& model, const std::string& data_set);

struct TestCaseResult {
  /// Empty when every data set passed; else one line per failure (which data set, which
  /// output, why).
  std::vector<std::string> failures;
  size_t data_sets = 0;
};

/// Runs the case in `folder`. A model that cannot be loaded or run is an error Status (the
/// case fails with it); a data set whose outputs differ is a failure line.
Result<TestCaseResult> runTestCase(const std::string& folder, const EvalOptions& options = {});
/// Runs `model` (the case's model, changed: converted, optimised) against the data sets of
/// the case in `folder`.
Result<TestCaseResult> runTestCase(const Model& model, const std::string& folder,
                                   const EvalOptions& options = {});
/// The same, each output compared within the wider of the case's tolerance and `at_least`
/// (a model whose arithmetic was rewritten, rounding in between, in a 16-bit type).
Result<TestCaseResult> runTestCase(const Model& model, const std::string& folder,
                                   const EvalOptions& options, const Tolerance& at_least);

}  // namespace onyx

#pragma GCC visibility pop
