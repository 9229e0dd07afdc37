// onyx/ops/registry.h — finding the signature a node binds to.
//
// The registry is the standard operator sets compiled into libonyx as constant data: ai.onnx
// 1–28, ai.onnx.ml 1–5, ai.onnx.training 1 (which has no operators), ai.onnx.preview 1 and
// ai.onnx.preview.training 1. Nothing is initialised at startup and nothing changes at run
// time, so every function here is safe from any thread. A lookup is a hash of the op name
// and a few compares, then a scan of the operator's versions (at most ten).
//
// A node binds to the version with the highest since_version not above the version its
// domain is imported at (Operator::at). The domains "" and "ai.onnx" are the same
// (onyx/ir/opset_imports.h); the registry spells the default domain "ai.onnx"
// (OperatorSetInfo::domain, Operator::domain).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "onyx/ir/graph_scope.h"
#include "onyx/ops/op_schema.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// A standard domain and the versions of it that exist.
struct OperatorSetInfo {
  const char* domain;
  int first_version;
  int last_version;          // the highest version onyx has signatures for
  int last_release_version;  // the highest in a released ONNX; above it, versions may change
};

/// The five standard domains, ai.onnx first.
std::span<const OperatorSetInfo> standardOperatorSets();
/// The standard domain named `domain` ("" is ai.onnx), or null for any other domain.
const OperatorSetInfo* findOperatorSet(std::string_view domain);

/// The operator `op_type` of a standard domain with all its versions, or null.
const Operator* findOperator(std::string_view domain, std::string_view op_type);
/// The schema a node (`domain`, `op_type`) binds to when its domain is imported at
/// `opset_version`; null when the operator is unknown or younger than that version. A
/// deprecated schema is returned (OpSchema::deprecated says so).
const OpSchema* findSchema(std::string_view domain, std::string_view op_type,
                           int64_t opset_version);

/// The traits (OpTraits) of the version a node (`domain`, `op_type`) binds to at
/// `opset_version`; none for an operator onyx does not know or that is younger than that.
OpTraits traitsOf(std::string_view domain, std::string_view op_type, int64_t opset_version);
/// The traits of what `node` computes, where `scope` governs its graph (onyx/ir/graph_scope.h):
/// its standard operator's at the version imported there; none for a call of a model-local
/// function (a node with an overload) or an operator onyx does not know.
OpTraits traitsOf(const Node& node, const GraphScope& scope);

/// Every operator of every standard domain, by domain (in standardOperatorSets() order), then
/// by name.
std::span<const Operator* const> allOperators();

struct ResolvedOperator {
  const Operator* op;
  const OpSchema* schema;  // the version in force
};
/// The operators of `domain` that exist at `opset_version`, by name, with the version each
/// binds to (deprecated ones included).
std::vector<ResolvedOperator> operatorsAt(std::string_view domain, int64_t opset_version);

}  // namespace onyx

#pragma GCC visibility pop
