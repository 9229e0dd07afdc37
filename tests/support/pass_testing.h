// Test support for passes: run passes on a model written in the text syntax and check what
// every pass must keep.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "onyx/eval/test_case.h"
#include "onyx/passes/optimize.h"

namespace onyx::testing {

struct Optimized {
  Model model;
  PassResult changes;
};

/// Parses `text`, runs `passes` to a fixed point and checks that the model stays consistent
/// (verifyModel), passes the checker, gives the same outputs on `inputs` (bit for bit, every
/// node run alone; within `tolerance` for passes that change arithmetic, such as fusions),
/// and that running the passes again changes nothing. Failures fail the test.
Optimized optimizeChecked(std::string_view text, const std::vector<std::string>& passes,
                          const std::vector<NamedValue>& inputs, bool aggressive = false,
                          Tolerance tolerance = {0, 0});

/// Runs the pass `pass` once on the model of `text` (which has at least two graphs with
/// something for the pass to do) with PassContext::fail_after_graphs set to each count from 1
/// until the pass stops failing: every failed run must leave the model's bytes as they were
/// (the pass's edits are all or nothing across the graphs). Then the pass must change them,
/// so that the test shows the edits it refused to make half-way. Failures fail the test.
void expectAllOrNothing(std::string_view text, std::string_view pass);

}  // namespace onyx::testing
