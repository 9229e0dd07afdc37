// Det (ai.onnx), versions 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/math/linalg_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The determinants of the trailing square matrices: X [*, M, M] gives Y [*].
void inferDet(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  size_t rank = in->size();
  if (rank < 2) {
    ctx.fail("X has rank " + std::to_string(rank) + "; Det needs square matrices (rank 2 or more)");
    return;
  }
  DimValue rows = (*in)[rank - 2];
  DimValue columns = (*in)[rank - 1];
  if (rows.isKnown() && columns.isKnown() && rows.value() != columns.value()) {
    ctx.fail("the matrices are " + std::to_string(rows.value()) + "x" +
             std::to_string(columns.value()) + ", not square");
    return;
  }
  ctx.setOutputShape(0, Dims(in->begin(), in->end() - 2));
}

}  // namespace

constexpr Formals kInputs11 = {{"X", "T"}};
constexpr Formals kOutputs11 = {{"Y", "T"}};

namespace {

Status runDet(KernelContext& ctx) { return runDetKernel(ctx); }

}  // namespace

extern const Operator kDet;
constexpr Operator kDet{.domain = kOnnxDomain,
                        .name = "Det",
                        .versions = {
                            {.since_version = 11,
                             .inputs = kInputs11,
                             .outputs = kOutputs11,
                             .constraints = {{"T", tensor("float16 float double")}},
                             .infer = inferDet,
                             .kernel = runDet},
                            {.since_version = 22,
                             .inputs = kInputs11,
                             .outputs = kOutputs11,
                             .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                             .infer = inferDet,
                             .kernel = runDet,
                             .step = typesOnly("bfloat16 added")},
                        }};
static_assert(isWellFormed(kDet));

}  // namespace onyx::ops::ai_onnx
