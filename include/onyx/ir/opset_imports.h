// onyx/ir/opset_imports.h — the operator sets a model or a function imports, and the one
// spelling of the default domain.
//
// The default domain is "" (IR.md); "ai.onnx" is its other spelling. canonicalDomain() maps
// both to "", and every layer compares domains through it.
//
// An OpsetImports is built once from an opset_import list (the model's, or a function's) and
// answers which version a domain is imported at, the same way for the checker, inference, the
// evaluator, function bodies and the passes. One rule for a list that names a domain more
// than once, "" and "ai.onnx" counting as one domain: the LAST entry binds. That is what
// onnxruntime does (it reads the list into a map entry by entry, writing "ai.onnx" as "") and
// what onnx's checker and shape inference do for a repeated spelling; the checker reports
// every repeat (R10), because older readers and other tools disagree.
//
// Thread-safe for reading; built in O(entries²) (lists hold a handful), looked up in
// O(entries).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "onyx/core/arena.h"
#include "onyx/ir/function.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// "ai.onnx", the other spelling of the default domain "".
inline constexpr std::string_view kDefaultDomainAlias = "ai.onnx";

/// "" for both spellings of the default domain ("" and "ai.onnx"), else `domain` itself.
std::string_view canonicalDomain(std::string_view domain);
/// The domain as listings and messages name it: "ai.onnx" for both spellings of the default
/// domain (a bare "" reads as nothing), else `domain` itself.
std::string_view domainLabel(std::string_view domain);

/// Whether `node` is in the default domain ("" or "ai.onnx"). O(1).
bool isDefaultDomain(const Node& node);

/// Whether `node` is the default domain's operator `op_type` as the spec defines it: domain
/// "" or "ai.onnx", no overload (which calls a model-local function), and no attribute that
/// refers to a calling function's attribute (such a node means something only once called).
/// O(attributes).
bool isStandardOperator(const Node& node, std::string_view op_type);

class OpsetImports {
 public:
  struct Entry {
    std::string_view domain;  // canonical: "" for the default domain
    int64_t version;          // of the last entry for the domain; 0 when it has none (R10)
  };

  OpsetImports() = default;
  explicit OpsetImports(std::span<const OperatorSetId> list);
  explicit OpsetImports(const ArenaList<OperatorSetId>& list)
      : OpsetImports(std::span<const OperatorSetId>(list.data(), list.size())) {}

  /// The version `domain` (either spelling of the default domain) is imported at; nullopt
  /// when it is not imported. An entry without a version imports its domain at 0.
  std::optional<int64_t> versionOf(std::string_view domain) const;
  /// One entry per domain, in the order each domain was first imported.
  std::span<const Entry> entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

// Changing an import list: Model::setOpsetVersion, GraphEditor::setImportedVersion.

}  // namespace onyx

#pragma GCC visibility pop
