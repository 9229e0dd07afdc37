// BitShift (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kBitShift;
constexpr Operator kBitShift{.domain = kOnnxDomain,
                             .name = "BitShift",
                             .versions = {
                                 {.since_version = 11,
                                  .inputs = {{"X", "T"}, {"Y", "T"}},
                                  .outputs = {{"Z", "T"}},
                                  .attributes = {required("direction", kString)},
                                  .constraints = {{"T", tensor("uint8 uint16 uint32 uint64")}},
                                  .infer = inferBroadcast},
                             }};
static_assert(isWellFormed(kBitShift));

}  // namespace onyx::ops::ai_onnx
