// Gemm (ai.onnx), versions 1, 6, 7, 9, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Y is [M, N] for A [M, K] (or [K, M] with transA) and B [K, N] (or [N, K] with transB); the
// rank is 2 even when neither input's shape is known.
void inferGemm(InferenceContext& ctx) {
  const Dims* a = ctx.inputShape(0);
  const Dims* b = ctx.inputShape(1);
  if (a != nullptr && a->size() != 2) {
    ctx.fail("A has rank " + std::to_string(a->size()) + "; Gemm needs a matrix");
    return;
  }
  if (b != nullptr && b->size() != 2) {
    ctx.fail("B has rank " + std::to_string(b->size()) + "; Gemm needs a matrix");
    return;
  }
  bool trans_a = ctx.intAttribute("transA").value_or(0) != 0;
  bool trans_b = ctx.intAttribute("transB").value_or(0) != 0;
  if (a != nullptr && b != nullptr) {
    DimValue k_a = (*a)[trans_a ? 0 : 1];
    DimValue k_b = (*b)[trans_b ? 1 : 0];
    if (k_a.isKnown() && k_b.isKnown() && k_a.value() != k_b.value()) {
      ctx.fail("inner dimensions differ: " + std::to_string(k_a.value()) + " and " +
               std::to_string(k_b.value()));
      return;
    }
  }
  DimValue m = a != nullptr ? (*a)[trans_a ? 1 : 0] : ctx.dims().fresh();
  DimValue n = b != nullptr ? (*b)[trans_b ? 0 : 1] : ctx.dims().fresh();
  ctx.setOutputShape(0, {m, n});
}

}  // namespace

constexpr TypeSet kTTypes9 = tensor("float16 float double uint32 uint64 int32 int64");
constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}, {"C", "T"}};
constexpr Formals kInputs11 = {{"A", "T"}, {"B", "T"}, optional("C", "T")};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {attr("alpha", 1.0f), attr("beta", 1.0f), attr("broadcast", 0),
                                     attr("transA", 0), attr("transB", 0)};
constexpr Attributes kAttributes7 = {attr("alpha", 1.0f), attr("beta", 1.0f), attr("transA", 0),
                                     attr("transB", 0)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};
constexpr Constraints kConstraints9 = {{"T", kTTypes9}};

extern const Operator kGemm;
constexpr Operator kGemm{
    .domain = kOnnxDomain,
    .name = "Gemm",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferGemm},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferGemm},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints1,
         .infer = inferGemm},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints9,
         .infer = inferGemm},
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints9,
         .infer = inferGemm},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64 bfloat16")}},
         .infer = inferGemm},
    }};
static_assert(isWellFormed(kGemm));

}  // namespace onyx::ops::ai_onnx
