#include "ops/version_adapters.h"

namespace onyx::ops {

Status dropConsumedInputs(NodeDraft& draft) {
  draft.removeAttribute("consumed_inputs");
  return Status::ok();
}

}  // namespace onyx::ops
