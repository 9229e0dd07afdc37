// Test support: are two decoded models the same model, and if not, where do they first differ?
//
// Models are compared field by field as decoded, not as bytes: the order of fields on the wire,
// packed or unpacked repeated fields, and which TensorProto field holds a tensor's elements
// (raw_data or float_data, ...) do not count. Tensors compare by dims, element type, name and
// their elements as raw_data would hold them; STRING tensors by their strings; external tensors
// by their reference (location, offset, ...), not by the data in the file.
//
// With `ignore_text_losses` the comparison skips exactly what the ONNX text syntax cannot spell
// (what onyx::textLosses() reports), so that a model printed as text and parsed back compares
// equal to the original:
//  - doc strings outside the model and function headers; metadata_props outside the model
//    header; fields onyx does not know; training_info; device configurations; quantization
//    annotations; sparse tensors; tensor segments; type and dimension denotations;
//  - the tensor, graph, type and sparse-tensor lists of attributes (only empty ones are
//    spellable);
//  - the payload of a NaN (any NaN equals any NaN of the same sign);
//  - a value info's empty TypeProto (one that sets no kind), which the text writes as no type;
//  - whether an optional field is absent or set to its default (the parser sets, for
//    instance, every node's domain, and the name of every graph and tensor).
#pragma once

#include <optional>
#include <string>

#include "onyx/ir/model.h"

namespace onyx::testing {

struct ModelDifference {
  std::string path;   // graph.node[3](conv1).attribute[0](pads).ints[1]
  std::string left;   // the first model's value there
  std::string right;  // the second model's
  std::string toString() const { return path + ": " + left + " vs " + right; }
};

struct ModelEqualOptions {
  bool ignore_text_losses = false;
};

/// The first place where `left` and `right` differ, in the order the fields are declared in
/// onnx.proto; nullopt when they are the same model.
std::optional<ModelDifference> firstDifference(const Model& left, const Model& right,
                                               const ModelEqualOptions& options = {});

}  // namespace onyx::testing
