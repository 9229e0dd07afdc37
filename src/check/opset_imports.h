// Internal: the operator sets a model or a function imports, read once with their rules
// (R10 well-formed and one entry per domain, R12 published versions of the standard
// domains), then looked up for every node (R11, R97).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onyx/core/diagnostic.h"
#include "onyx/ir/function.h"

namespace onyx::check {

/// "" for both spellings of the default domain ("" and "ai.onnx"), else `domain` itself.
std::string_view canonicalDomain(std::string_view domain);

/// The opset versions published for a standard domain (ai.onnx 1–28, ai.onnx.ml 1–5,
/// ai.onnx.training, ai.onnx.preview and ai.onnx.preview.training 1), or nullopt for a
/// domain onyx does not define.
std::optional<std::pair<int64_t, int64_t>> publishedOpsetVersions(std::string_view domain);

struct OpsetImports {
  struct Entry {
    std::string_view domain;  // canonical
    int64_t version;
  };
  // One per domain: the highest version when a domain repeats. An entry R10 refuses is
  // kept with its version as read (0 when absent): its domain counts as imported.
  std::vector<Entry> entries;

  /// The version imported for `domain` (either spelling of the default domain).
  std::optional<int64_t> versionOf(std::string_view domain) const {
    std::string_view canonical = canonicalDomain(domain);
    for (const Entry& entry : entries) {
      if (entry.domain == canonical) return entry.version;
    }
    return std::nullopt;
  }
};

/// Reads an opset_import list (`path` is where the list is: "opset_import",
/// "functions[0](f).opset_import"), reporting what breaks R10 and R12 into `out`.
OpsetImports readOpsetImports(const ArenaList<OperatorSetId>& list, const std::string& path,
                              Diagnostics& out);

}  // namespace onyx::check
