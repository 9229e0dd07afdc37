#include "support/pass_testing.h"

#include "onyx/check/checker.h"
#include "onyx/eval/node_evaluator.h"
#include "onyx/eval/test_case.h"
#include "onyx/ir/verify.h"
#include "onyx/passes/pass_manager.h"
#include "support/check_testing.h"
#include "support/graph_testing.h"

namespace onyx::testing {

namespace {

std::vector<EvalValue> outputsOf(const Model& model, const std::vector<NamedValue>& inputs) {
  EvalOptions options;
  options.fusions = false;  // each node's own kernel: the same bits before and after
  Result<std::vector<EvalValue>> outputs = evaluate(model, inputs, options);
  EXPECT_TRUE(outputs) << outputs.status().toString();
  return outputs ? std::move(*outputs) : std::vector<EvalValue>();
}

}  // namespace

Optimized optimizeChecked(std::string_view text, const std::vector<std::string>& passes,
                          const std::vector<NamedValue>& inputs, bool aggressive,
                          Tolerance tolerance) {
  Optimized result{parseOrFail(text), {}};
  Model& model = result.model;
  std::vector<EvalValue> before = outputsOf(model, inputs);
  OptimizeOptions options;
  KernelNodeEvaluator evaluator;  // constant folding runs the kernels the runs below use
  options.node_evaluator = &evaluator;
  options.passes = passes;
  options.aggressive = aggressive;
  options.manager.verify = true;
  Result<OptimizeReport> report = optimize(model, options);
  EXPECT_TRUE(report) << report.status().toString();
  if (!report) return result;
  result.changes = report->total();
  EXPECT_FALSE(report->reached_cap);
  EXPECT_TRUE(verified(model));
  CheckOptions check;
  check.external_data = false;
  Diagnostics found = checkModel(model, check);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
  std::vector<EvalValue> after = outputsOf(model, inputs);
  EXPECT_EQ(before.size(), after.size());
  for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
    EXPECT_EQ(compareValues(before[i], after[i], tolerance), "") << "output " << i;
  }
  std::string bytes = bytesOf(model);
  // Written and read, the model holds only what its bytes say: a fact a pass left in memory
  // alone (a type not bound to its value) would let a run on the file change it further.
  Model reread = parseOwned(bytes);
  Result<OptimizeReport> from_file = optimize(reread, options);
  EXPECT_TRUE(from_file && !from_file->total().changed())
      << "a run on the written model changed it";
  EXPECT_EQ(bytesOf(reread), bytes);
  Result<OptimizeReport> again = optimize(model, options);
  EXPECT_TRUE(again && !again->total().changed()) << "a second run changed the model";
  EXPECT_EQ(bytesOf(model), bytes);
  return result;
}

void expectAllOrNothing(std::string_view text, std::string_view pass) {
  Model model = parseOrFail(text);
  const std::string before = bytesOf(model);
  KernelNodeEvaluator evaluator;
  size_t failures = 0;
  for (size_t graphs = 1;; ++graphs) {
    Result<std::unique_ptr<Pass>> made = makePass(pass);
    ASSERT_TRUE(made) << made.status().toString();
    PassContext context;
    context.node_evaluator = &evaluator;
    context.fail_after_graphs = graphs;
    Result<PassResult> ran = (*made)->run(model, context);
    if (ran) break;
    ++failures;
    EXPECT_EQ(bytesOf(model), before) << pass << " failing after " << graphs << " graphs";
    ASSERT_LT(graphs, 64u) << pass << " never stops failing";
  }
  EXPECT_GE(failures, 2u) << pass << ": the model should give it edits in two graphs at least";
  EXPECT_NE(bytesOf(model), before) << pass << " changed nothing once it could";
  EXPECT_TRUE(verified(model)) << pass;
}

}  // namespace onyx::testing
