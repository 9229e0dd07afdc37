// Scan (ai.onnx), versions 8, 9, 11, 16, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onyx/ir/attribute.h"
#include "onyx/ir/type.h"
#include "ops/controlflow/control_kernels.h"
#include "ops/kernels.h"
#include "ops/lib/subgraph_types.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The node's inputs split into state variables and scan inputs, and the body's outputs
// into states and scan outputs; nullopt (after failing) when the counts do not fit.
struct ScanCounts {
  size_t states;
  size_t scan_inputs;
  size_t scan_outputs;
};

std::optional<ScanCounts> countScan(InferenceContext& ctx, const Graph& body, size_t first) {
  std::optional<int64_t> scan_inputs = ctx.intAttribute("num_scan_inputs");
  size_t given = ctx.inputCount() > first ? ctx.inputCount() - first : 0;
  if (!scan_inputs) return std::nullopt;
  if (*scan_inputs < 1 || static_cast<uint64_t>(*scan_inputs) > given) {
    ctx.fail("num_scan_inputs is " + std::to_string(*scan_inputs) + ", Scan has " +
             std::to_string(given) + " state and scan inputs");
    return std::nullopt;
  }
  ScanCounts counts{given - static_cast<size_t>(*scan_inputs), static_cast<size_t>(*scan_inputs),
                    0};
  if (body.passedInputCount() != given) {
    ctx.fail("the body takes " + std::to_string(body.passedInputCount()) + " inputs, Scan gives " +
             std::to_string(given));
    return std::nullopt;
  }
  if (body.outputs.size() < counts.states) {
    ctx.fail("the body has " + std::to_string(body.outputs.size()) + " outputs, fewer than the " +
             std::to_string(counts.states) + " state variables");
    return std::nullopt;
  }
  counts.scan_outputs = body.outputs.size() - counts.states;
  if (ctx.outputCount() > body.outputs.size()) {
    ctx.fail("Scan has " + std::to_string(ctx.outputCount()) + " outputs, its body " +
             std::to_string(body.outputs.size()));
    return std::nullopt;
  }
  return counts;
}

// The number of iterations: the scan inputs' lengths along their scan axes, which must
// agree; a known length wins over a symbolic one.
std::optional<DimValue> agreeOnLength(InferenceContext& ctx, std::optional<DimValue> length,
                                      DimValue found) {
  if (!length || (length->isSymbolic() && found.isKnown())) return found;
  if (length->isKnown() && found.isKnown() && length->value() != found.value()) {
    ctx.fail("the scan inputs have " + std::to_string(length->value()) + " and " +
             std::to_string(found.value()) + " iterations");
    return std::nullopt;
  }
  return length;
}

// Scan-8: every input and output has a batch axis first; scan inputs iterate over axis 1.
void inferScan8(InferenceContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return;
  std::optional<ScanCounts> counts = countScan(ctx, *body, 1);
  if (!counts) return;
  std::optional<DimValue> batch;
  std::optional<DimValue> length;
  std::vector<InferredType> inputs;
  inputs.reserve(counts->states + counts->scan_inputs);
  for (size_t i = 0; i < counts->states + counts->scan_inputs; ++i) {
    const InferredType* type = ctx.inputType(1 + i);
    if (type == nullptr) {
      inputs.emplace_back();
      continue;
    }
    bool scanned = i >= counts->states;
    if (type->isTensor() && type->has_shape) {
      if (type->dims.size() < (scanned ? 2u : 1u)) {
        ctx.fail("input " + std::to_string(1 + i) + " has rank " +
                 std::to_string(type->dims.size()) + ", without the batch" +
                 (scanned ? " and sequence axes" : " axis"));
        return;
      }
      if (!batch || (batch->isSymbolic() && type->dims[0].isKnown())) batch = type->dims[0];
      if (scanned) {
        length = agreeOnLength(ctx, length, type->dims[1]);
        if (!length) return;
      }
    }
    InferredType slice = withAxisRemoved(*type, 0);
    inputs.push_back(scanned ? withAxisRemoved(slice, 0) : std::move(slice));
  }
  DimValue batch_dim = batch ? *batch : ctx.dims().fresh();
  DimValue length_dim = length ? *length : ctx.dims().fresh();
  std::vector<InferredType> carried;
  std::vector<InferredType> outputs =
      inferLoopBody(ctx, *body, std::move(inputs), 0, 0, counts->states, carried);
  for (size_t i = 0; i < ctx.outputCount(); ++i) {
    if (!ctx.hasOutput(i)) continue;
    const InferredType& slice = i < counts->states ? carried[i] : outputs[i];
    if (!slice.isKnown()) continue;
    InferredType stacked = i < counts->states ? slice : withAxisInserted(slice, 0, length_dim);
    ctx.setOutputType(i, withAxisInserted(stacked, 0, batch_dim));
  }
}

// The axis attribute `name` (one entry per scan input or output; all 0 when absent);
// nullopt (after failing) when its length is not `count`.
std::optional<std::vector<int64_t>> scanAxes(InferenceContext& ctx, std::string_view name,
                                             size_t count) {
  std::optional<std::vector<int64_t>> axes = ctx.intsAttribute(name);
  if (!axes) return std::vector<int64_t>(count, 0);
  if (axes->size() != count) {
    ctx.fail(std::string(name) + " has " + std::to_string(axes->size()) + " entries for " +
             std::to_string(count));
    return std::nullopt;
  }
  return axes;
}

// Scan-9 and later: no batch axis; each scan input iterates over its scan_input_axes entry
// and each scan output stacks along its scan_output_axes entry.
void inferScan(InferenceContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return;
  std::optional<ScanCounts> counts = countScan(ctx, *body, 0);
  if (!counts) return;
  std::optional<std::vector<int64_t>> input_axes =
      scanAxes(ctx, "scan_input_axes", counts->scan_inputs);
  if (!input_axes) return;
  std::optional<std::vector<int64_t>> output_axes =
      scanAxes(ctx, "scan_output_axes", counts->scan_outputs);
  if (!output_axes) return;
  std::optional<DimValue> length;
  std::vector<InferredType> inputs;
  inputs.reserve(counts->states + counts->scan_inputs);
  for (size_t i = 0; i < counts->states + counts->scan_inputs; ++i) {
    const InferredType* type = ctx.inputType(i);
    if (type == nullptr) {
      inputs.emplace_back();
      continue;
    }
    if (i < counts->states || !type->isTensor() || !type->has_shape) {
      inputs.push_back(i < counts->states ? *type : withoutShape(*type));
      continue;
    }
    std::optional<size_t> axis =
        normalizeAxis(ctx, (*input_axes)[i - counts->states], type->dims.size(), "scan_input_axes");
    if (!axis) return;
    length = agreeOnLength(ctx, length, type->dims[*axis]);
    if (!length) return;
    inputs.push_back(withAxisRemoved(*type, *axis));
  }
  DimValue length_dim = length ? *length : ctx.dims().fresh();
  std::vector<InferredType> carried;
  std::vector<InferredType> outputs =
      inferLoopBody(ctx, *body, std::move(inputs), 0, 0, counts->states, carried);
  for (size_t i = 0; i < ctx.outputCount(); ++i) {
    if (!ctx.hasOutput(i)) continue;
    if (i < counts->states) {
      if (carried[i].isKnown()) ctx.setOutputType(i, std::move(carried[i]));
      continue;
    }
    const InferredType& slice = outputs[i];
    if (!slice.isKnown()) continue;
    if (!slice.isTensor() || !slice.has_shape) {
      ctx.setOutputType(i, withoutShape(slice));
      continue;
    }
    std::optional<size_t> axis = normalizeAxis(ctx, (*output_axes)[i - counts->states],
                                               slice.dims.size() + 1, "scan_output_axes");
    if (!axis) return;
    ctx.setOutputType(i, withAxisInserted(slice, *axis, length_dim));
  }
}

// Directions (0 forward, 1 reverse) from an ints attribute, `count` of them (all forward when
// the attribute is absent); nullopt when its length or a value is wrong.
std::optional<std::vector<bool>> directionsOf(KernelContext& ctx, const char* name, size_t count) {
  std::optional<std::vector<int64_t>> given = ctx.intsAttribute(name);
  std::vector<bool> reverse(count, false);
  if (!given) return reverse;
  if (given->size() != count) return std::nullopt;
  for (size_t i = 0; i < count; ++i) {
    if ((*given)[i] != 0 && (*given)[i] != 1) return std::nullopt;
    reverse[i] = (*given)[i] == 1;
  }
  return reverse;
}

Status runScan(KernelContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return ctx.fail("the required graph attribute body is missing");
  int64_t scan_count = ctx.intAttribute("num_scan_inputs").value_or(0);
  if (scan_count < 1 || static_cast<uint64_t>(scan_count) > ctx.inputCount()) {
    return ctx.fail("num_scan_inputs is " + std::to_string(scan_count) + ", Scan has " +
                    std::to_string(ctx.inputCount()) + " inputs");
  }
  size_t m = static_cast<size_t>(scan_count);
  size_t n = ctx.inputCount() - m;
  std::vector<EvalValue> states;
  for (size_t i = 0; i < n; ++i) {
    const EvalValue* state = ctx.input(i);
    if (state == nullptr) return ctx.fail("state " + std::to_string(i) + " is missing");
    states.push_back(*state);
  }
  std::vector<Array> scans;
  for (size_t j = 0; j < m; ++j) {
    const Array* scan = ctx.inputArray(n + j);
    if (scan == nullptr) return ctx.fail("scan input " + std::to_string(j) + " is not a tensor");
    scans.push_back(*scan);
  }
  std::vector<int64_t> axes_given =
      ctx.intsAttribute("scan_input_axes").value_or(std::vector<int64_t>(m, 0));
  if (axes_given.size() != m) return ctx.fail("scan_input_axes needs one axis per scan input");
  std::vector<size_t> axes;
  for (size_t j = 0; j < m; ++j) {
    std::optional<size_t> axis = kernelAxis(axes_given[j], scans[j].rank());
    if (!axis) return ctx.fail("scan_input_axes[" + std::to_string(j) + "] is out of range");
    axes.push_back(*axis);
  }
  std::optional<std::vector<bool>> input_reverse = directionsOf(ctx, "scan_input_directions", m);
  if (!input_reverse) return ctx.fail("scan_input_directions needs a 0 or 1 per scan input");
  size_t k_count = body->outputs.size() > n ? body->outputs.size() - n : 0;
  std::vector<int64_t> output_axes =
      ctx.intsAttribute("scan_output_axes").value_or(std::vector<int64_t>(k_count, 0));
  if (output_axes.size() != k_count)
    return ctx.fail("scan_output_axes needs one axis per scan output");
  std::optional<std::vector<bool>> output_reverse =
      directionsOf(ctx, "scan_output_directions", k_count);
  if (!output_reverse) return ctx.fail("scan_output_directions needs a 0 or 1 per scan output");
  Result<ScanRun> run = runScanBody(ctx, *body, std::move(states), scans, axes, *input_reverse,
                                    output_axes, *output_reverse);
  if (!run) return run.status();
  for (size_t i = 0; i < n && i < ctx.outputCount(); ++i)
    ctx.setOutput(i, std::move(run->states[i]));
  for (size_t k = 0; k < run->scan_outputs.size() && n + k < ctx.outputCount(); ++k) {
    ctx.setOutput(n + k, std::move(run->scan_outputs[k]));
  }
  return Status::ok();
}

// Scan-8: every state and scan input has a leading batch axis; each batch entry scans on
// its own (axis 1 of the scan inputs), and the results are stacked again along axis 0.
Status runScan8(KernelContext& ctx) {
  const Graph* body = ctx.graphAttribute("body");
  if (body == nullptr) return ctx.fail("the required graph attribute body is missing");
  int64_t scan_count = ctx.intAttribute("num_scan_inputs").value_or(0);
  size_t given = ctx.inputCount() > 0 ? ctx.inputCount() - 1 : 0;
  if (scan_count < 1 || static_cast<uint64_t>(scan_count) > given) {
    return ctx.fail("num_scan_inputs is " + std::to_string(scan_count) + ", Scan has " +
                    std::to_string(given) + " state and scan inputs");
  }
  size_t m = static_cast<size_t>(scan_count);
  size_t n = given - m;
  std::vector<Array> inputs;
  for (size_t i = 0; i < given; ++i) {
    const Array* input = ctx.inputArray(1 + i);
    if (input == nullptr || input->rank() < (i < n ? 1u : 2u)) {
      return ctx.fail("input " + std::to_string(1 + i) + " lacks its batch (and sequence) axes");
    }
    inputs.push_back(*input);
  }
  int64_t batch = inputs[0].dim(0);
  for (const Array& input : inputs) {
    if (input.dim(0) != batch) return ctx.fail("the inputs differ in batch size");
  }
  int64_t length = inputs[n].dim(1);
  std::vector<int64_t> lengths(static_cast<size_t>(batch), length);
  if (const Array* lens = ctx.inputArray(0)) {
    std::optional<std::vector<int64_t>> values = integersOf(*lens);
    if (!values || values->size() != static_cast<size_t>(batch)) {
      return ctx.fail("sequence_lens needs one length per batch entry");
    }
    for (size_t b = 0; b < values->size(); ++b) {
      if ((*values)[b] < 0 || (*values)[b] > length) {
        return ctx.fail("sequence_lens[" + std::to_string(b) + "] is outside [0, " +
                        std::to_string(length) + "]");
      }
      lengths[b] = (*values)[b];
    }
  }
  std::optional<std::vector<bool>> reverse = directionsOf(ctx, "directions", m);
  if (!reverse) return ctx.fail("directions needs a 0 or 1 per scan input");
  auto entry = [](const Array& array, int64_t b) {
    Array slice = sliceAlongAxis(array, 0, b, 1);
    std::vector<int64_t> shape(slice.shape().begin() + 1, slice.shape().end());
    return slice.reshaped(std::move(shape));
  };
  size_t k_count = body->outputs.size() > n ? body->outputs.size() - n : 0;
  std::vector<std::vector<Array>> results(n + k_count);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<EvalValue> states;
    for (size_t i = 0; i < n; ++i) states.push_back(EvalValue::of(entry(inputs[i], b)));
    std::vector<Array> scans;
    // A shorter sequence scans its first sequence_lens[b] slices only.
    int64_t used = lengths[static_cast<size_t>(b)];
    for (size_t j = 0; j < m; ++j) {
      Array scan = entry(inputs[n + j], b);
      scans.push_back(used == length ? scan : sliceAlongAxis(scan, 0, 0, used));
    }
    Result<ScanRun> run =
        runScanBody(ctx, *body, std::move(states), scans, std::vector<size_t>(m, 0), *reverse,
                    std::vector<int64_t>(k_count, 0), std::vector<bool>(k_count));
    if (!run) return run.status();
    for (size_t i = 0; i < n; ++i) {
      if (!run->states[i].isTensor()) return ctx.fail("a state is not a tensor");
      results[i].push_back(run->states[i].tensor);
    }
    for (size_t k = 0; k < k_count; ++k) {
      Array& scanned = run->scan_outputs[k];
      if (scanned.rank() >= 1 && scanned.dim(0) < length) {
        // Slices past a shorter sequence's end are zeros.
        std::vector<int64_t> shape = scanned.shape();
        shape[0] = length;
        Array padded(scanned.type(), shape);
        std::fill(padded.bytes().begin(), padded.bytes().end(), std::byte{0});
        copyElements(scanned, 0, padded, 0, scanned.size());
        scanned = std::move(padded);
      }
      results[n + k].push_back(std::move(scanned));
    }
  }
  for (size_t i = 0; i < results.size() && i < ctx.outputCount(); ++i) {
    if (results[i].empty()) {
      ctx.setOutput(i, emptyScanOutput(*body, i, 0));
      continue;
    }
    std::string error;
    std::optional<Array> stacked = stackAlongAxis(results[i], 0, error);
    if (!stacked) return ctx.fail("output " + std::to_string(i) + ": " + error);
    ctx.setOutput(i, std::move(*stacked));
  }
  return Status::ok();
}

// Version 8 runs the body once per entry of a batch axis (0), scanning axis 1 and taking
// sequence_lens; version 9 has no batch axis, so the states and scan values the body sees
// differ in rank between the two, and only other nodes could reshape them.
Status batchedScanUp(NodeDraft& draft) {
  return draft.refuse("version 8 scans each batch entry; version 9 has no batch axis");
}
Status batchedScanDown(NodeDraft& draft) {
  return draft.refuse("version 8 scans each batch entry; its body would see other ranks");
}

// Down to version 9, which does not count scan axes from the back: a negative axis becomes
// axis + rank of the scan input (or scan output) it applies to, which must be known.
Status scanAxesFromFront(NodeDraft& draft) {
  for (bool inputs : {true, false}) {
    const char* name = inputs ? "scan_input_axes" : "scan_output_axes";
    const Attribute* attribute = draft.attribute(name);
    if (attribute == nullptr) continue;
    std::optional<std::vector<int64_t>> axes = draft.intsAttr(name);
    if (!axes || attribute->isReference()) {
      return draft.refuse(std::string(name) + " has no value of its own");
    }
    if (std::none_of(axes->begin(), axes->end(), [](int64_t axis) { return axis < 0; })) continue;
    // The states come first, among the inputs and among the outputs alike.
    std::optional<int64_t> scan_inputs = draft.intAttr("num_scan_inputs");
    auto given = static_cast<int64_t>(draft.inputCount());
    if (!scan_inputs || *scan_inputs < 0 || *scan_inputs > given) {
      return draft.refuse("num_scan_inputs does not fit the inputs");
    }
    auto states = static_cast<size_t>(given - *scan_inputs);
    for (size_t k = 0; k < axes->size(); ++k) {
      if ((*axes)[k] >= 0) continue;
      const Type* type = inputs ? draft.inputType(states + k) : draft.outputType(states + k);
      if (type == nullptr || type->shape == nullptr) {
        return draft.refuse(std::string(name) + " has a negative axis of a value of unknown rank");
      }
      (*axes)[k] += static_cast<int64_t>(type->shape->rank());
    }
    draft.setIntsAttr(name, *axes);
  }
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs9 = {heterogeneous("initial_state_and_scan_inputs", "V", 1)};
constexpr Formals kOutputs8 = {heterogeneous("final_state_and_scan_outputs", "V", 1)};
constexpr Attributes kAttributes9 = {
    required("body", kGraph),        required("num_scan_inputs", kInt),
    attr("scan_input_axes", kInts),  attr("scan_input_directions", kInts),
    attr("scan_output_axes", kInts), attr("scan_output_directions", kInts)};
constexpr Constraints kConstraints9 = {{"V", tensor(kIr3Types)}};

extern const Operator kScan;
constexpr Operator kScan{
    .domain = kOnnxDomain,
    .name = "Scan",
    .versions = {
        {.since_version = 8,
         .inputs = {optional("sequence_lens", "I"),
                    heterogeneous("initial_state_and_scan_inputs", "V", 1)},
         .outputs = kOutputs8,
         .attributes = {required("body", kGraph), attr("directions", kInts),
                        required("num_scan_inputs", kInt)},
         .constraints = {{"I", tensor("int64")}, {"V", tensor(kIr3Types)}},
         .infer = inferScan8,
         .kernel = runScan8},
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs8,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferScan,
         .kernel = runScan,
         .step = {.reviewed = true,
                  .change = "batch axis and sequence_lens removed; directions renamed "
                            "scan_input_directions; scan axes and output directions added",
                  .up = batchedScanUp,
                  .down = batchedScanDown,
                  .up_refuses = "every node (the body sees other ranks)",
                  .down_refuses = "every node (the body sees other ranks)"}},
        {.since_version = 11,
         .inputs = kInputs9,
         .outputs = kOutputs8,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferScan,
         .kernel = runScan,
         .step = {.reviewed = true,
                  .change = "negative scan axes allowed",
                  .down = scanAxesFromFront,
                  .down_refuses = "a negative scan axis of a value of unknown rank"}},
        {.since_version = 16,
         .inputs = kInputs9,
         .outputs = kOutputs8,
         .attributes = kAttributes9,
         .constraints = {{"V", tensor(kIr4Types)}},
         .infer = inferScan,
         .kernel = runScan,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 19,
         .inputs = kInputs9,
         .outputs = kOutputs8,
         .attributes = kAttributes9,
         .constraints = {{"V", tensor(kIr9Types)}},
         .infer = inferScan,
         .kernel = runScan,
         .step = typesOnly("float8 types added")},
        {.since_version = 21,
         .inputs = kInputs9,
         .outputs = kOutputs8,
         .attributes = kAttributes9,
         .constraints = {{"V", tensor(kIr10Types)}},
         .infer = inferScan,
         .kernel = runScan,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .inputs = kInputs9,
         .outputs = kOutputs8,
         .attributes = kAttributes9,
         .constraints = {{"V", tensor(kIr11Types)}},
         .infer = inferScan,
         .kernel = runScan,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .inputs = kInputs9,
         .outputs = kOutputs8,
         .attributes = kAttributes9,
         .constraints = {{"V", tensor(kIr12Types)}},
         .infer = inferScan,
         .kernel = runScan,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .inputs = kInputs9,
         .outputs = kOutputs8,
         .attributes = kAttributes9,
         .constraints = {{"V", tensor(kIr13Types)}},
         .infer = inferScan,
         .kernel = runScan,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kScan));

}  // namespace onyx::ops::ai_onnx
