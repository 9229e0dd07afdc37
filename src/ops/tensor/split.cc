// Split (ai.onnx), versions 1, 2, 11, 13, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs2 = {{"input", "T"}};
constexpr Formals kInputs13 = {{"input", "T"}, optional("split", "tensor(int64)")};
constexpr Formals kOutputs2 = {variadic("outputs", "T", 1)};
constexpr Attributes kAttributes2 = {attr("axis", 0), attr("split", kInts)};
constexpr Constraints kConstraints2 = {{"T", tensor(kIr3Types)}};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kSplit;
constexpr Operator kSplit{.domain = kOnnxDomain,
                          .name = "Split",
                          .versions = {
                              {.since_version = 1,
                               .inputs = {{"input", "T"}, optional("split", "T")},
                               .outputs = {variadic("outputs...", "T", 1)},
                               .attributes = {attr("axis", kInt), attr("split", kInts)},
                               .constraints = {{"T", tensor("float16 float double")}}},
                              {.since_version = 2,
                               .inputs = kInputs2,
                               .outputs = kOutputs2,
                               .attributes = kAttributes2,
                               .constraints = kConstraints2},
                              {.since_version = 11,
                               .inputs = kInputs2,
                               .outputs = kOutputs2,
                               .attributes = kAttributes2,
                               .constraints = kConstraints2},
                              {.since_version = 13,
                               .inputs = kInputs13,
                               .outputs = kOutputs2,
                               .attributes = {attr("axis", 0)},
                               .constraints = kConstraints13},
                              {.since_version = 18,
                               .inputs = kInputs13,
                               .outputs = kOutputs2,
                               .attributes = {attr("axis", 0), attr("num_outputs", kInt)},
                               .constraints = kConstraints13},
                          }};
static_assert(isWellFormed(kSplit));

}  // namespace onyx::ops::ai_onnx
