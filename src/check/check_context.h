// Internal: what the parts of one checkModel run share — the model, the options, where
// diagnostics go, the IR version the rules follow, the model's imports and its functions
// (indexed by onyx/ops/callee.h, as every layer finds them), and what the signature rules
// remember from node to node.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "check/node_signature.h"
#include "check/opset_imports.h"
#include "check/place.h"
#include "check/value_rules.h"
#include "onyx/check/checker.h"
#include "onyx/ops/callee.h"

namespace onyx::check {

struct CheckContext {
  CheckContext(const Model& checked, const CheckOptions& chosen, Diagnostics& sink)
      : model(checked), options(chosen), out(sink), functions(checked) {}

  const Model& model;
  const CheckOptions& options;
  Diagnostics& out;
  int64_t ir_version = 0;         // as read; 0 when absent
  int64_t ir = kLatestIrVersion;  // what IR-gated rules follow: ir_version when it is one
                                  // onyx knows, else the latest (R6/R7 report the rest)
  OpsetImports model_imports;
  CalleeResolver functions;  // the model-local function a node names
  SignatureMemo signatures;

  /// The context of a value inside the body of `function` (null: outside any function body).
  ValueContext valueContext(const Function* function, bool is_initializer) const {
    ValueContext values;
    values.model = &model;
    values.ir_version = ir_version;
    values.in_function_body = function != nullptr;
    values.function = function;
    values.is_initializer = is_initializer;
    values.open_external_files = options.external_data;
    return values;
  }

  /// A warning under `rule` when the model's IR version predates `since`, the version that
  /// added `what` (a field): readers of the older version do not know it is there.
  void fieldSince(std::string_view rule, int64_t since, const LazyPath& path,
                  std::string_view what) const {
    if (ir >= since) return;
    out.warning(rule, path(),
                std::string(what) + " exists from IR version " + std::to_string(since) +
                    "; this model has IR version " + std::to_string(ir) +
                    ", whose readers ignore it");
  }
};

/// Runs a value rule (value_rules.h) and formats the path only when the rule reports
/// something: first with an empty path into a scratch list, then — rarely — again with the
/// real path. A walk of a large graph must not format a path per attribute or type.
template <class Rule, class MakePath>
void runValueRule(Diagnostics& out, const Rule& rule, const MakePath& make_path) {
  static const std::string kNoPath;
  Diagnostics probe;
  rule(kNoPath, probe);
  if (probe.all().empty()) return;
  rule(make_path(), out);
}

}  // namespace onyx::check
