// Gradient (ai.onnx.preview.training), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ir/attribute.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/value.h"
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"
#include "ops/type_conversion.h"

namespace onyx::ops::ai_onnx_preview_training {
using namespace dsl;

namespace {

// Output i is the gradient with respect to the value named xs[i]: of its type. The engine
// does not expose the inferred types of values by name, so the declared type (or the
// initializer's) is what is used.
void inferGradient(InferenceContext& ctx) {
  const Attribute* xs = ctx.attribute("xs");
  const Graph* graph = ctx.node().graph();
  if (xs == nullptr || graph == nullptr) return;
  const ArenaList<std::string_view>& names = xs->rare().strings;
  if (ctx.outputCount() != names.size()) {
    ctx.fail("Gradient has " + std::to_string(ctx.outputCount()) + " outputs for " +
             std::to_string(names.size()) + " names in xs");
    return;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (!ctx.hasOutput(i)) continue;
    const Value* x = graph->lookup(names[i]);
    if (x == nullptr) continue;
    InferredType type;
    if (const Type* declared = x->type()) type = ops::fromDeclared(*declared, ctx.dims());
    if (!type.isKnown() && x->initializer() != nullptr) type = ops::typeOfTensor(*x->initializer());
    if (type.isTensor()) ctx.setOutputType(i, std::move(type));
  }
}

}  // namespace

extern const Operator kGradient;
constexpr Operator kGradient{
    .domain = kPreviewTrainingDomain,
    .name = "Gradient",
    .versions = {
        {.since_version = 1,
         .inputs = {heterogeneous("Inputs", "T1", 1)},
         .outputs = {heterogeneous("Outputs", "T2", 1)},
         .attributes = {required("xs", kStrings), required("y", kString), attr("zs", kStrings)},
         .constraints = {{"T1", tensor(kIr3Types)}, {"T2", tensor("float16 float double")}},
         .infer = inferGradient},
    }};
static_assert(isWellFormed(kGradient));

}  // namespace onyx::ops::ai_onnx_preview_training
