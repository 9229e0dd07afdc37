// Dropout (ai.onnx), versions 1, 6, 7, 10, 12, 13, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <optional>

#include "onyx/core/array.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor_array.h"
#include "ops/kernels.h"
#include "ops/lib/generator_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The mask has the data's shape. ratio and training_mode (from version 12) are scalars,
// as onnx's Dropout inference requires (onnx/defs/nn/defs.cc).
void inferDropout(InferenceContext& ctx) {
  if (!inputRankIs(ctx, 1, 0) || !inputRankIs(ctx, 2, 0)) return;
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (ctx.hasOutput(1)) ctx.setOutputShape(1, *input);
  ctx.setOutputShape(0, *input);
}

// Dropout: in inference mode the output is the data and the mask all true; in training mode
// each element is kept with probability 1 - ratio (the mask) and scaled by 1 / (1 - ratio).
// Versions 1 to 10 always infer (versions 1 and 6 name training as is_test = 0, their default,
// but models set it for inference and ONNX's reference runs them as version 7 does); 12 on
// read the ratio and training_mode inputs. Before version 10 the mask has the data's type.
Status runDropout(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  const int version = ctx.schema().since_version;
  double ratio = 0.5;
  bool training = false;
  if (version >= 12) {
    if (const Array* given = ctx.inputArray(1)) {
      if (given->size() != 1) return ctx.fail("ratio must be a scalar");
      ratio = elementAsDouble(*given, 0);
    }
    if (const Array* mode = ctx.inputArray(2)) {
      if (mode->size() != 1 || mode->type() != ElementType::kBool) {
        return ctx.fail("training_mode must be a bool scalar");
      }
      training = mode->data<bool>()[0];
    }
  } else {
    ratio = ctx.floatAttribute("ratio").value_or(0.5f);
  }
  if (training && !(ratio >= 0 && ratio < 1)) {
    return ctx.fail("ratio must be in [0, 1), not " + std::to_string(ratio));
  }
  const ElementType mask_type = version >= 10 ? ElementType::kBool : x->type();
  Array mask(mask_type, x->shape());
  if (!training || ratio == 0) {
    ctx.setOutput(0, *x);
    if (ctx.hasOutput(1)) {
      for (size_t i = 0; i < mask.size(); ++i) storeDouble(mask, i, 1.0);
      ctx.setOutput(1, std::move(mask));
    }
    return Status::ok();
  }
  generator::Random random = generator::Random::forNode(ctx);
  Array wide = widenToFloat(*x);
  Array out(wide.type(), wide.shape());
  const double scale = 1.0 / (1.0 - ratio);
  dispatchFloat(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    T* result = out.data<T>();
    for (size_t i = 0; i < wide.size(); ++i) {
      bool keep = random.uniform() >= ratio;
      result[i] = keep ? static_cast<T>(static_cast<double>(in[i]) * scale) : T{0};
      storeDouble(mask, i, keep ? 1.0 : 0.0);
    }
  });
  ctx.setOutput(0, narrowFromFloat(out, x->type()));
  if (ctx.hasOutput(1)) ctx.setOutput(1, std::move(mask));
  return Status::ok();
}

// Versions 1 and 6 name inference is_test 1; version 7 leaves the mode to the runtime. Versions
// 1 to 10 all run here as inference (see runDropout), so is_test goes, and comes back as 1.
Status dropIsTest(NodeDraft& draft) {
  draft.removeAttribute("is_test");
  return Status::ok();
}

// Version 6 leaves the mask unfilled when it infers.
Status setIsTest(NodeDraft& draft) {
  const Node& node = draft.node();
  if (node.outputCount() > 1 && node.output(1) != nullptr) {
    return draft.refuse("version 6 does not fill the mask output when it infers");
  }
  draft.setIntAttr("is_test", 1);
  return Status::ok();
}

// The mask has the data's type before version 10 and is bool from it on.
Status refuseMask(NodeDraft& draft) {
  const Node& node = draft.node();
  if (node.outputCount() > 1 && node.output(1) != nullptr) {
    return draft.refuse("the mask output is bool from version 10, the data's type before it");
  }
  return Status::ok();
}

// Version 12 reads ratio from an input and trains only when the training_mode input says so;
// without that input it infers, as version 10 does here. A ratio with no value of its own (a
// function's attribute) goes, as inference ignores it.
Status ratioToInput(NodeDraft& draft) {
  if (draft.attribute("ratio") == nullptr) return Status::ok();
  std::optional<float> ratio = draft.floatAttr("ratio");
  draft.removeAttribute("ratio");
  if (ratio) {
    draft.setConstantInput(
        1, draft.editor().tensorFromArray(Array::scalar(ElementType::kFloat, *ratio)));
  }
  return Status::ok();
}

// Back to version 10: only a node that infers (training_mode absent or a constant false). A
// constant float ratio becomes the attribute; any other ratio goes, as inference ignores it.
Status ratioToAttribute(NodeDraft& draft) {
  if (draft.hasInput(2)) {
    const Tensor* constant = draft.constantInput(2);
    if (constant == nullptr) return draft.refuse("training_mode is not a constant");
    Result<Array> mode = arrayFromTensor(*constant);
    if (!mode || mode->type() != ElementType::kBool || mode->size() != 1) {
      return draft.refuse("training_mode is not a bool scalar");
    }
    if (mode->data<bool>()[0]) return draft.refuse("training_mode is true");
  }
  if (const Tensor* constant = draft.constantInput(1)) {
    Result<Array> ratio = arrayFromTensor(*constant);
    if (ratio && ratio->size() == 1 && ratio->type() == ElementType::kFloat) {
      draft.setFloatAttr("ratio", ratio->data<float>()[0]);
    } else if (ratio && ratio->size() == 1 && ratio->type() == ElementType::kDouble) {
      draft.setFloatAttr("ratio", static_cast<float>(ratio->data<double>()[0]));
    }
  }
  draft.resizeInputs(1);
  draft.removeAttribute("seed");
  return Status::ok();
}

}  // namespace

constexpr TypeSet kTTypes22 =
    tensor("bfloat16 float16 float double float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz");
constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs12 = {
    {"data", "T"}, optional("ratio", "T1"), optional("training_mode", "T2")};
constexpr Formals kOutputs1 = {{"output", "T"}, optional("mask", "T")};
constexpr Formals kOutputs12 = {{"output", "T"}, optional("mask", "T2")};
constexpr Attributes kAttributes7 = {attr("ratio", 0.5f)};
constexpr Attributes kAttributes12 = {attr("seed", kInt)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kDropout;
constexpr Operator kDropout{
    .domain = kOnnxDomain,
    .name = "Dropout",
    .versions = {
        {.since_version = 1,
         .traits = kNondeterministic,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts), attr("is_test", 0), attr("ratio", 0.5f)},
         .constraints = kConstraints1,
         .infer = inferDropout,
         .kernel = runDropout},
        {.since_version = 6,
         .traits = kNondeterministic,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("is_test", 0), attr("ratio", 0.5f)},
         .constraints = kConstraints1,
         .infer = inferDropout,
         .kernel = runDropout,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 7,
         .traits = kNondeterministic,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints1,
         .infer = inferDropout,
         .kernel = runDropout,
         .step = {.reviewed = true,
                  .change = "is_test removed: the runtime sets the mode",
                  .up = dropIsTest,
                  .down = setIsTest,
                  .down_refuses = "nodes with the mask output"}},
        {.since_version = 10,
         .traits = kNondeterministic,
         .inputs = kInputs1,
         .outputs = {{"output", "T"}, optional("mask", "T1")},
         .attributes = kAttributes7,
         .constraints = {{"T", tensor("float16 float double")}, {"T1", tensor("bool")}},
         .infer = inferDropout,
         .kernel = runDropout,
         .step = {.reviewed = true,
                  .change = "mask became bool (it had the data's type)",
                  .up = refuseMask,
                  .down = refuseMask,
                  .up_refuses = "nodes with the mask output",
                  .down_refuses = "nodes with the mask output"}},
        {.since_version = 12,
         .traits = kNondeterministic,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("float16 float double")},
                         {"T1", tensor("float16 float double")},
                         {"T2", tensor("bool")}},
         .infer = inferDropout,
         .kernel = runDropout,
         .step = {.reviewed = true,
                  .change = "ratio became an input; training_mode input and seed added",
                  .up = ratioToInput,
                  .down = ratioToAttribute,
                  .down_refuses = "training_mode true or not a constant"}},
        {.since_version = 13,
         .traits = kNondeterministic,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"T1", tensor("float16 float double")},
                         {"T2", tensor("bool")}},
         .infer = inferDropout,
         .kernel = runDropout,
         .step = typesOnly("bfloat16 added to T")},
        {.since_version = 22,
         .traits = kNondeterministic,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", kTTypes22}, {"T1", kTTypes22}, {"T2", tensor("bool")}},
         .infer = inferDropout,
         .kernel = runDropout,
         .step = typesOnly("bfloat16 added to T1; float8 types added")},
    }};
static_assert(isWellFormed(kDropout));

}  // namespace onyx::ops::ai_onnx
