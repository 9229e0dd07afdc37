#include "onyx/text/parser.h"
#include "onyx/ir/editor.h"

#include <memory>
#include <utility>

#include "serde/decoder.h"
#include "serde/external_data.h"
#include "text/transcoder.h"

namespace onyx {

namespace {

using text::Transcoder;
using text::WireBuffer;

Status checkOptions(const TextParseOptions& options) {
  // Both the parser and the decoder recurse once per level: the upper bound keeps a deep
  // text within a thread's stack.
  if (options.max_depth < 1 || options.max_depth > 200) {
    return Status(ErrorCode::kInvalidArgument,
                  "TextParseOptions::max_depth must be between 1 and 200");
  }
  return Status::ok();
}

LoadOptions decoderOptions(const TextParseOptions& options) {
  LoadOptions load;
  // The text's limit is the one that speaks: a level of graph nesting is three messages on
  // the wire (graph, node, attribute) and a level of types two, plus the few around them.
  load.max_depth = 3 * options.max_depth + 16;
  load.load_external_data = !options.folder.empty();
  return load;
}

// The transcoder wrote bytes the decoder refuses: a bug in onyx, not in the text.
Status decoderDisagrees(Status status) {
  return Status(ErrorCode::kInternal,
                "the text parser wrote a model its decoder refuses: " + status.toString());
}

/// Transcodes `text` with `write` (a Transcoder entry point that writes a ModelProto), then
/// decodes the bytes, which the model keeps alive.
Result<Model> transcodeModel(std::string_view text, const TextParseOptions& options,
                             bool (Transcoder::*write)(WireBuffer&)) {
  ONYX_RETURN_IF_ERROR(checkOptions(options));
  auto bytes = std::make_shared<std::string>();
  {
    Transcoder transcoder(text, options);
    WireBuffer out;
    // The wire form of a text is about as long as the text: one allocation, not a dozen.
    out.bytes().reserve(text.size() + 64);
    if (!(transcoder.*write)(out)) return transcoder.takeStatus();
    *bytes = std::move(out.bytes());
  }
  LoadOptions load = decoderOptions(options);
  Model model;
  model.setFolder(options.folder);
  std::string_view view = *bytes;
  model.keepAlive(std::move(bytes));
  serde::Decoder decoder(GraphEditor(model).arena(), load, view.data());
  if (!decoder.decodeModel(view, model)) return decoderDisagrees(decoder.takeStatus());
  if (load.load_external_data && !decoder.externalTensors().empty()) {
    ONYX_RETURN_IF_ERROR(serde::resolveExternalData(model, decoder.externalTensors()));
  }
  return model;
}

}  // namespace

Result<Model> parseText(std::string_view text, const TextParseOptions& options) {
  return transcodeModel(text, options, &Transcoder::model);
}

Result<Model> parseGraphText(std::string_view text, const TextParseOptions& options) {
  return transcodeModel(text, options, &Transcoder::graphModel);
}

Result<Model> parseNodesText(std::string_view text, const TextParseOptions& options) {
  return transcodeModel(text, options, &Transcoder::nodesModel);
}

Result<Model> parseFunctionText(std::string_view text, const TextParseOptions& options) {
  return transcodeModel(text, options, &Transcoder::functionModel);
}

Result<Model> parseFunctionsText(std::string_view text, const TextParseOptions& options) {
  return transcodeModel(text, options, &Transcoder::functionsModel);
}

Result<Type*> parseTypeText(std::string_view text, Model& owner, const TextParseOptions& options) {
  ONYX_RETURN_IF_ERROR(checkOptions(options));
  auto bytes = std::make_shared<std::string>();
  {
    Transcoder transcoder(text, options);
    WireBuffer out;
    if (!transcoder.type(out)) return transcoder.takeStatus();
    *bytes = std::move(out.bytes());
  }
  std::string_view view = *bytes;
  owner.keepAlive(std::move(bytes));
  LoadOptions load = decoderOptions(options);
  serde::Decoder decoder(GraphEditor(owner).arena(), load, view.data());
  Type* type = GraphEditor(owner).arena().make<Type>();
  if (!decoder.decodeType(view, *type)) return decoderDisagrees(decoder.takeStatus());
  return type;
}

}  // namespace onyx
