// Choosing, building and parsing the function body of an operator for one node.
#include "onyx/ops/function_body.h"

#include <string>

#include "onyx/ir/editor.h"
#include "onyx/ir/type.h"
#include "onyx/ops/registry.h"
#include "onyx/text/parser.h"

namespace onyx {

// ---------------------------------------------------------------------------------------
// FunctionBodyContext

const Attribute* FunctionBodyContext::attribute(std::string_view name) const {
  const Attribute* found = node.attribute(name);
  return found != nullptr && !found->isReference() ? found : nullptr;
}

std::optional<int64_t> FunctionBodyContext::intAttr(std::string_view name) const {
  return node.intAttr(name);
}

std::optional<float> FunctionBodyContext::floatAttr(std::string_view name) const {
  return node.floatAttr(name);
}

OptString FunctionBodyContext::stringAttr(std::string_view name) const {
  return node.stringAttr(name);
}

bool FunctionBodyContext::hasInput(size_t index) const {
  return index < node.inputCount() && node.input(index) != nullptr;
}

bool FunctionBodyContext::hasOutput(size_t index) const {
  return index < node.outputCount() && node.output(index) != nullptr;
}

std::optional<int32_t> FunctionBodyContext::inputElementType(size_t index) const {
  if (!hasInput(index)) return std::nullopt;
  if (std::optional<int32_t> declared = node.input(index)->elemType()) return declared;
  const Type* known = inputType(index);
  return known != nullptr && known->kind == Type::Kind::kTensor ? known->elem_type : std::nullopt;
}

const Type* FunctionBodyContext::inputType(size_t index) const {
  if (!hasInput(index)) return nullptr;
  // The caller's answer holds the declared type where it knows no more.
  if (type_of != nullptr && *type_of) return (*type_of)(*node.input(index));
  return node.input(index)->type();
}

// ---------------------------------------------------------------------------------------
// Choosing and parsing

namespace {

// The body's import of `domain` becomes `version`: the version the node's domain is imported
// at, which the body stands for.
void importAt(Model& holder, Function& function, std::string_view domain, int64_t version) {
  GraphEditor(holder).setImportedVersion(function.opset_import, domain, version);
}

Status bodyBug(std::string_view what, const Status& status) {
  return Status(ErrorCode::kInternal,
                std::string(what) + " does not parse (a bug in onyx): " + status.toString());
}

// A body whose parameters do not line up with its schema cannot be bound to a node.
Status matchesSchema(const OpSchema& schema, const Function& function) {
  // A variadic parameter stands for as many as the node has (SequenceMap's body has one
  // input per sequence it maps over).
  auto fits = [](size_t count, size_t low, size_t high, size_t formals) {
    return high == OpSchema::kUnbounded ? count >= low : count == formals;
  };
  if (!fits(function.inputs.size(), schema.minInputs(), schema.maxInputs(), schema.inputs.size()) ||
      !fits(function.outputs.size(), schema.minOutputs(), schema.maxOutputs(),
            schema.outputs.size())) {
    return Status(ErrorCode::kInternal,
                  "the body of " + std::string(function.nameOrEmpty()) + " has " +
                      std::to_string(function.inputs.size()) + " inputs and " +
                      std::to_string(function.outputs.size()) + " outputs; its schema declares " +
                      std::to_string(schema.inputs.size()) + " and " +
                      std::to_string(schema.outputs.size()) + " (a bug in onyx)");
  }
  return Status::ok();
}

Result<FunctionBody> parseBody(std::string_view text, std::string_view what) {
  Result<Model> parsed = parseFunctionText(text);
  if (!parsed) return bodyBug(what, parsed.status());
  FunctionBody body{std::move(parsed).value(), nullptr};
  body.function = body.model.functions[0];
  return body;
}

}  // namespace

bool hasFunctionBody(const OpSchema& schema) {
  return schema.build_function_body != nullptr || schema.function_bodies.size() != 0;
}

bool hasFunctionBodyAt(const OpSchema& schema, int64_t opset) {
  return (schema.build_function_body != nullptr && opset >= schema.since_version) ||
         fixedFunctionBodyAt(schema, opset) != nullptr;
}

const FunctionBodyText* fixedFunctionBodyAt(const OpSchema& schema, int64_t opset) {
  const FunctionBodyText* found = nullptr;
  for (const FunctionBodyText& body : schema.function_bodies) {
    if (body.opset <= opset) found = &body;
  }
  return found;
}

Result<FunctionBody> parseFixedFunctionBody(const OpSchema& schema, int64_t opset) {
  const FunctionBodyText* text = fixedFunctionBodyAt(schema, opset);
  if (text == nullptr) {
    std::string message =
        "the operator has no fixed function body at opset " + std::to_string(opset);
    if (schema.function_bodies.size() != 0) {
      message +=
          " (its first is for opset " + std::to_string(schema.function_bodies.begin()->opset) + ")";
    }
    return Status(ErrorCode::kNotFound, message);
  }
  Result<FunctionBody> body = parseBody(text->text, "a fixed function body");
  if (!body) return body;
  ONYX_RETURN_IF_ERROR(matchesSchema(schema, *body->function));
  return body;
}

Result<FunctionBody> functionBodyFor(const OpSchema& schema, const Node& node, int64_t opset,
                                     const OpsetImports& imports, const ValueTypeOf* type_of) {
  std::string_view domain = node.domainOrDefault();
  if (schema.build_function_body != nullptr) {
    if (opset < schema.since_version) {
      return Status(ErrorCode::kInvalidArgument, "opset " + std::to_string(opset) +
                                                     " is below the schema's version " +
                                                     std::to_string(schema.since_version));
    }
    FunctionBodyContext context{schema, node, opset, imports, type_of};
    Result<std::string> text = schema.build_function_body(context);
    if (!text) return text.status();
    Result<FunctionBody> body = parseBody(*text, "a built function body");
    if (!body) {
      Status failed = body.status();
      return Status(failed.code(), failed.message() + "\n" + *text);
    }
    ONYX_RETURN_IF_ERROR(matchesSchema(schema, *body->function));
    importAt(body->model, *body->function, domain, opset);
    return body;
  }
  Result<FunctionBody> body = parseFixedFunctionBody(schema, opset);
  if (!body) return body;
  importAt(body->model, *body->function, domain, opset);
  return body;
}

}  // namespace onyx
