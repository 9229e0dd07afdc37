// Transpose (ai.onnx), versions 1, 13, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// perm defaults to reversing the axes.
void inferTranspose(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  size_t rank = in->size();
  Dims out;
  out.reserve(rank);
  if (std::optional<std::vector<int64_t>> perm = ctx.intsAttribute("perm")) {
    if (perm->size() != rank) {
      ctx.fail("Transpose's perm has " + std::to_string(perm->size()) +
               " entries for an input of rank " + std::to_string(rank));
      return;
    }
    std::vector<bool> seen(rank, false);
    for (int64_t axis : *perm) {
      std::optional<size_t> normalized = normalizeAxis(ctx, axis, rank, "perm entry");
      if (!normalized) return;
      if (seen[*normalized]) {
        ctx.fail("Transpose's perm repeats axis " + std::to_string(*normalized));
        return;
      }
      seen[*normalized] = true;
      out.push_back((*in)[*normalized]);
    }
  } else {
    out.assign(in->rbegin(), in->rend());
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"transposed", "T"}};
constexpr Attributes kAttributes1 = {attr("perm", kInts)};

extern const Operator kTranspose;
constexpr Operator kTranspose{.domain = kOnnxDomain,
                              .name = "Transpose",
                              .versions = {
                                  {.since_version = 1,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr3Types)}},
                                   .infer = inferTranspose},
                                  {.since_version = 13,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr4Types)}},
                                   .infer = inferTranspose},
                                  {.since_version = 21,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr10Types)}},
                                   .infer = inferTranspose},
                                  {.since_version = 23,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr11Types)}},
                                   .infer = inferTranspose},
                                  {.since_version = 24,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr12Types)}},
                                   .infer = inferTranspose},
                                  {.since_version = 25,
                                   .inputs = kInputs1,
                                   .outputs = kOutputs1,
                                   .attributes = kAttributes1,
                                   .constraints = {{"T", tensor(kIr13Types)}},
                                   .infer = inferTranspose},
                              }};
static_assert(isWellFormed(kTranspose));

}  // namespace onyx::ops::ai_onnx
