// Internal: the rules of the operator sets a model or a function imports (R10 well-formed
// and one entry per domain, R12 published versions of the standard domains), checked once
// per list; the imports are then looked up for every node (R11, R97) through
// onyx/ir/opset_imports.h, as every other layer looks them up.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onyx/core/diagnostic.h"
#include "onyx/ir/function.h"
#include "onyx/ir/opset_imports.h"

namespace onyx::check {

/// The opset versions published for a standard domain (ai.onnx 1–28, ai.onnx.ml 1–5,
/// ai.onnx.training, ai.onnx.preview and ai.onnx.preview.training 1), or nullopt for a
/// domain onyx does not define.
std::optional<std::pair<int64_t, int64_t>> publishedOpsetVersions(std::string_view domain);

/// A domain as diagnostics name it: "the default domain (ai.onnx)", or "domain 'com.x'".
std::string domainName(std::string_view domain);

/// Reads an opset_import list (`path` is where the list is: "opset_import",
/// "functions[0](f).opset_import"), reporting what breaks R10 and R12 into `out`: the imports
/// as every layer reads them (onyx/ir/opset_imports.h, whose rule binds a repeated domain to
/// its last entry). An entry R10 refuses still imports its domain (at its version as read, 0
/// when absent), so that its nodes are not reported again as using a domain nobody imports.
OpsetImports readOpsetImports(const ArenaList<OperatorSetId>& list, const std::string& path,
                              Diagnostics& out);

}  // namespace onyx::check
