// GatherND (ai.onnx), versions 11, 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// out = indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:].
void inferGatherND(InferenceContext& ctx) {
  const Dims* data = ctx.inputShape(0);
  const Dims* indices = ctx.inputShape(1);
  if (data == nullptr || indices == nullptr) return;
  int64_t batch_dims = ctx.intAttribute("batch_dims").value_or(0);
  if (data->empty() || indices->empty()) {
    ctx.fail("GatherND needs data and indices of rank 1 or more");
    return;
  }
  auto data_rank = static_cast<int64_t>(data->size());
  auto indices_rank = static_cast<int64_t>(indices->size());
  if (batch_dims < 0 || batch_dims >= std::min(data_rank, indices_rank)) {
    ctx.fail("GatherND's batch_dims " + std::to_string(batch_dims) +
             " must be below the ranks of data (" + std::to_string(data_rank) + ") and indices (" +
             std::to_string(indices_rank) + ")");
    return;
  }
  DimValue last = indices->back();
  if (!last.isKnown()) return;
  if (last.value() < 1 || last.value() > data_rank - batch_dims) {
    ctx.fail("GatherND's indices have " + std::to_string(last.value()) +
             " coordinates per index but data of rank " + std::to_string(data_rank) + " has " +
             std::to_string(data_rank - batch_dims) + " past batch_dims");
    return;
  }
  Dims out(indices->begin(), indices->end() - 1);
  out.insert(out.end(), data->begin() + batch_dims + last.value(), data->end());
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "tensor(int64)"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes12 = {attr("batch_dims", 0)};
constexpr Constraints kConstraints11 = {{"T", tensor(kIr3Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kGatherND;
constexpr Operator kGatherND{
    .domain = kOnnxDomain,
    .name = "GatherND",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = kConstraints11,
         .infer = inferGatherND},
        {.since_version = 12,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes12,
         .constraints = kConstraints11,
         .infer = inferGatherND},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferGatherND},
    }};
static_assert(isWellFormed(kGatherND));

}  // namespace onyx::ops::ai_onnx
