#include "check/model_rules.h"

#include "check/metadata_rules.h"

namespace onyx::check {

namespace {

// The IR version that published draft readers may already write: accepted with a warning.
constexpr int64_t kDraftIrVersion = 14;

void checkIrVersion(CheckContext& context) {
  const Model& model = context.model;
  Diagnostics& out = context.out;
  int64_t version = model.ir_version.value_or(0);
  context.ir_version = version;
  context.ir = version >= 1 && version <= kLatestIrVersion ? version : kLatestIrVersion;
  if (version == 0) {
    out.error("R6", "ir_version",
              model.ir_version ? "ir_version is 0; it says which IR version the model follows"
                               : "the model has no ir_version; it says which IR version the "
                                 "model follows");
  } else if (version < 0 || version > kDraftIrVersion) {
    out.error("R7", "ir_version",
              "ir_version " + std::to_string(version) + " is not an IR version (onyx knows 1 to " +
                  std::to_string(kLatestIrVersion) + ")");
  } else if (version == kDraftIrVersion) {
    out.warning("R7", "ir_version",
                "IR version 14 is not published yet; the model is checked by the rules of IR "
                "version 13");
  }
}

void checkImports(CheckContext& context) {
  const Model& model = context.model;
  Diagnostics& out = context.out;
  if (context.ir >= 3) {
    context.model_imports = readOpsetImports(model.opset_import, "", out);
    // Only emptiness: a model whose nodes are all in other domains (ai.onnx.ml, training)
    // need not import ai.onnx, and a node of the default domain without its import is R11.
    if (model.opset_import.empty()) {
      out.error("R8", "opset_import",
                "the model imports no operator set; from IR version 3 a model lists the "
                "operator sets its nodes use");
    }
    return;
  }
  if (model.opset_import.empty()) {
    // Before IR 3 there were no imports: every model used ai.onnx version 1.
    OperatorSetId first_opset;
    first_opset.version = 1;
    context.model_imports = OpsetImports(std::span<const OperatorSetId>(&first_opset, 1));
    return;
  }
  out.error("R9", "opset_import",
            "IR version " + std::to_string(context.ir) +
                " has no opset_import (it came with IR version 3); such models use ai.onnx "
                "version 1");
  context.model_imports = readOpsetImports(model.opset_import, "", out);
}

}  // namespace

void checkModelFields(CheckContext& context) {
  checkIrVersion(context);
  checkImports(context);
  auto nothing = [] { return std::string(); };
  checkMetadata(context.model.metadata_props, MetadataOwner::kModel, LazyPath(nothing), context);
  if (context.model.graph == nullptr) {
    context.out.error("R14", "graph", "the model has no graph");
  }
}

}  // namespace onyx::check
