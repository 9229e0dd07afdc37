// Internal: what the kernels of Loop and Scan share: running a body over slices and stacking
// its scan outputs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "ops/kernels.h"
#include "ops/lib/sequence_kernels.h"

namespace onyx::ops {

/// A scan output of a loop that ran no iterations: empty (0 slices stacked along `axis`), of
/// the body output's declared element type (FLOAT when undeclared) and shape (unknown
/// dimensions as 0).
inline Array emptyScanOutput(const Graph& body, size_t output, size_t axis = 0) {
  ElementType type = ElementType::kFloat;
  std::vector<int64_t> shape;
  if (output < body.outputs.size() && body.outputs[output] != nullptr &&
      body.outputs[output]->value != nullptr) {
    const Type* declared = body.outputs[output]->value->type();
    if (declared != nullptr && declared->isTensor()) {
      if (std::optional<int32_t> elem = declared->elem_type) {
        if (elementTypeInfo(*elem) != nullptr) type = static_cast<ElementType>(*elem);
      }
      if (declared->shape != nullptr) {
        for (const Dimension& dim : declared->shape->dims) {
          shape.push_back(dim.dim_value.value_or(0));
        }
      }
    }
  }
  shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(std::min(axis, shape.size())), 0);
  Result<Array> made = Array::allocate(type, shape, uint64_t{1} << 32);
  if (!made) return Array(type, {0});
  return std::move(*made);
}

/// What a Scan body run over slices gives: the final states and the scan outputs stacked.
struct ScanRun {
  std::vector<EvalValue> states;
  std::vector<Array> scan_outputs;
};

/// Runs `body` over the slices of `scan_inputs` along `input_axes` (each already in range,
/// all of one length), reversed where `input_reverse`; stacks each scan output along
/// `output_axes[k]` (possibly negative: counted from the stacked rank), reversed where
/// `output_reverse`. Checks the body's input and output counts.
inline Result<ScanRun> runScanBody(KernelContext& ctx, const Graph& body,
                                   std::vector<EvalValue> states,
                                   const std::vector<Array>& scan_inputs,
                                   const std::vector<size_t>& input_axes,
                                   const std::vector<bool>& input_reverse,
                                   const std::vector<int64_t>& output_axes,
                                   const std::vector<bool>& output_reverse) {
  size_t state_count = states.size();
  if (body.passedInputCount() != state_count + scan_inputs.size()) {
    return ctx.fail("the body takes " + std::to_string(body.passedInputCount()) +
                    " inputs, Scan gives " + std::to_string(state_count + scan_inputs.size()));
  }
  if (body.outputs.size() < state_count)
    return ctx.fail("the body gives fewer outputs than states");
  size_t scan_output_count = body.outputs.size() - state_count;
  int64_t length = scan_inputs.empty() ? 0 : scan_inputs[0].dim(input_axes[0]);
  for (size_t j = 0; j < scan_inputs.size(); ++j) {
    if (scan_inputs[j].dim(input_axes[j]) != length) {
      return ctx.fail("scan input " + std::to_string(j) + " has " +
                      std::to_string(scan_inputs[j].dim(input_axes[j])) + " slices, scan input 0 " +
                      std::to_string(length));
    }
  }
  if (length > ctx.maxIterations()) {
    return ctx.fail("the scan runs " + std::to_string(length) +
                    " iterations, past the evaluator's bound");
  }
  std::vector<std::vector<Array>> slices(scan_output_count);
  for (int64_t t = 0; t < length; ++t) {
    std::vector<EvalValue> arguments;
    arguments.reserve(body.inputs.size());
    for (EvalValue& state : states) arguments.push_back(std::move(state));
    for (size_t j = 0; j < scan_inputs.size(); ++j) {
      int64_t at = input_reverse[j] ? length - 1 - t : t;
      Array slice = sliceAlongAxis(scan_inputs[j], input_axes[j], at, 1);
      std::vector<int64_t> shape = slice.shape();
      shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(input_axes[j]));
      arguments.push_back(EvalValue::of(slice.reshaped(std::move(shape))));
    }
    Result<std::vector<EvalValue>> outputs = ctx.runSubgraph(body, std::move(arguments));
    if (!outputs) return outputs.status();
    if (outputs->size() != state_count + scan_output_count) {
      return ctx.fail("the body gave " + std::to_string(outputs->size()) + " outputs");
    }
    states.assign(
        std::make_move_iterator(outputs->begin()),
        std::make_move_iterator(outputs->begin() + static_cast<std::ptrdiff_t>(state_count)));
    for (size_t k = 0; k < scan_output_count; ++k) {
      const EvalValue& slice = (*outputs)[state_count + k];
      if (!slice.isTensor()) return ctx.fail("scan output " + std::to_string(k) + " is no tensor");
      slices[k].push_back(slice.tensor);
    }
  }
  ScanRun run;
  run.states = std::move(states);
  for (size_t k = 0; k < scan_output_count; ++k) {
    int64_t wanted = k < output_axes.size() ? output_axes[k] : 0;
    if (slices[k].empty()) {
      run.scan_outputs.push_back(
          emptyScanOutput(body, state_count + k, wanted >= 0 ? static_cast<size_t>(wanted) : 0));
      continue;
    }
    std::optional<size_t> axis = kernelAxis(wanted, slices[k][0].rank() + 1);
    if (!axis) {
      return ctx.fail("scan_output_axes[" + std::to_string(k) + "] is " + std::to_string(wanted) +
                      ", out of range");
    }
    if (k < output_reverse.size() && output_reverse[k]) {
      std::reverse(slices[k].begin(), slices[k].end());
    }
    std::string error;
    std::optional<Array> stacked = stackAlongAxis(slices[k], *axis, error);
    if (!stacked) return ctx.fail("scan output " + std::to_string(k) + ": " + error);
    run.scan_outputs.push_back(std::move(*stacked));
  }
  return run;
}

}  // namespace onyx::ops
