// onyx/ops/schema_text.h — schemas in words, for tools and messages: type sets and default
// values in ONNX's own notation (an attribute kind's name is onyx/ir/attribute_kind.h's).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "onyx/ops/op_schema.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// The types of `set` in ONNX's notation ("tensor(float16)", "seq(tensor(int64))",
/// "optional(seq(tensor(bool)))", "map(string, float)", "seq(map(int64, float))"), grouped
/// by form and, within a form, by element type code.
std::vector<std::string> typeSetNames(const TypeSet& set);

/// typeSetNames joined for a message: "tensor(float16), tensor(float), tensor(double)", the
/// first `shown` of a longer list followed by "and N more".
std::string typeSetText(const TypeSet& set, size_t shown = 8);

/// An attribute's default in the text syntax's spelling: 1, 0.5, "NOTSET", [0, 2, 3],
/// ["Tanh", "Tanh"]; empty when it has none. Floats are written so that they read back as
/// the same float.
std::string attributeDefaultText(const AttributeSpec& attribute);

/// "single", "optional" or "variadic".
std::string_view parameterOptionName(ParameterOption option);

}  // namespace onyx

#pragma GCC visibility pop
