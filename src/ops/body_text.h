// Internal: the vocabulary function-body builders write their bodies in (docs/ops.md).
//
// A builder (OpSchema::build_function_body) gathers what the node decides (attribute
// values, which optional inputs are there, element types), then writes nodes in the ONNX
// text syntax into a BodyText, which adds the function's header from the schema: its
// imports, the schema's attributes with their defaults, its inputs and outputs.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/ops/function_body.h"

namespace onyx::ops::body {

/// TensorProto.DataType codes the builders name.
inline constexpr int64_t kFloat = 1;
inline constexpr int64_t kInt64 = 7;
inline constexpr int64_t kBool = 9;
inline constexpr int64_t kFloat16 = 10;
inline constexpr int64_t kDouble = 11;
inline constexpr int64_t kBfloat16 = 16;

/// A float as the text syntax reads it back to the same bits: `0.5`, `1e-05`, `-inf`.
std::string floatText(float value);

/// The refusal a builder returns when the node allows no body.
Status refuse(std::string_view why);

/// The element type of input `index`, or a refusal naming the input.
Result<int32_t> requireElementType(const FunctionBodyContext& context, size_t index);

/// An argument of BodyText::addf as the statement shows it: text as it is, an integer in
/// decimal, a floating-point number as fmt's `{}` writes it (the shortest text that reads
/// back the same).
inline std::string_view argumentText(std::string_view text) { return text; }
template <std::integral T>
std::string argumentText(T value) {
  return std::to_string(value);
}
std::string argumentText(float value);
std::string argumentText(double value);

/// `pattern` with each `{}` replaced by the next of `arguments`; `{{` and `}}` are braces
/// that are text.
std::string substituted(std::string_view pattern, std::span<const std::string> arguments);

class BodyText {
 public:
  /// A body for `context`'s schema, named `op_name`, of `domain` ("" for ai.onnx), importing
  /// `domain` at the context's opset.
  BodyText(const FunctionBodyContext& context, std::string_view op_name,
           std::string_view domain = "");

  /// Also imports `domain` at `version`.
  BodyText& import(std::string_view domain, int64_t version);

  /// One or more node statements, as written.
  BodyText& add(std::string_view nodes);
  /// A statement with each `{}` replaced by the next argument (argumentText); braces that
  /// are text are doubled: `{{1.0}}`. Substituted at run time rather than by fmt, whose
  /// header took three seconds of every operator file's compile.
  template <class... Args>
  BodyText& addf(std::string_view pattern, const Args&... args) {
    const std::array<std::string, sizeof...(Args)> arguments{std::string(argumentText(args))...};
    return add(substituted(pattern, arguments));
  }

  /// The function's inputs and outputs, where a variadic parameter expands to several
  /// (by default the schema's formal names).
  BodyText& parameters(std::vector<std::string> inputs, std::vector<std::string> outputs);

  /// `name = Constant <value = int64 {v}> ()`: a scalar (rank 0).
  BodyText& scalarInt(std::string_view name, int64_t value);
  /// `name = Constant <value = int64[n] {...}> ()`: a 1-D tensor.
  BodyText& ints(std::string_view name, std::initializer_list<int64_t> values);
  BodyText& scalarFloat(std::string_view name, float value);
  BodyText& floats(std::string_view name, std::initializer_list<float> values);

  /// The whole function: header, then the nodes.
  std::string finish() const;

 private:
  const FunctionBodyContext& context_;
  std::string op_name_;
  std::string domain_;
  std::string imports_;
  std::string nodes_;
  std::vector<std::string> inputs_;
  std::vector<std::string> outputs_;
};

}  // namespace onyx::ops::body
