#include "onyx/ir/function.h"

#include "onyx/ir/editor.h"

#include <string>

#include "ir/graph_builder.h"
#include "ir/scope.h"
#include "onyx/core/quote.h"
#include "onyx/ir/name_table.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/unique_names.h"

namespace onyx {

bool FunctionId::countsOverload(std::optional<int64_t> ir_version) {
  return !ir_version || *ir_version >= 10;
}

FunctionId FunctionId::of(const Function& function, bool overloads) {
  return {canonicalDomain(function.domainOrEmpty()), function.nameOrEmpty(),
          overloads ? function.overloadOrEmpty() : std::string_view()};
}

FunctionId FunctionId::calledBy(const Node& node, bool overloads) {
  return {canonicalDomain(node.domainOrDefault()), node.opType(),
          overloads ? node.rare().overload.value_or(std::string_view()) : std::string_view()};
}

size_t FunctionIdHash::operator()(const FunctionId& id) const {
  uint64_t hash = NameTable::hashName(id.name);
  hash = hash * 31 + NameTable::hashName(id.domain);
  hash = hash * 31 + NameTable::hashName(id.overload);
  return static_cast<size_t>(hash);
}

Function* GraphEditor::newFunction(std::string_view domain, std::string_view name,
                                   std::string_view overload) const {
  Arena& arena = *arena_;
  Function* function = arena.make<Function>();
  function->domain = arena.copy(domain);
  function->name = arena.copy(name);
  if (!overload.empty()) function->overload = arena.copy(overload);
  function->body = arena.make<Graph>();
  return function;
}

Result<Value*> GraphEditor::addInput(Function& function, std::string_view input_name) const {
  Arena& arena = *arena_;
  if (input_name.empty()) {
    function.inputs.push_back(arena, nullptr);
    return static_cast<Value*>(nullptr);
  }
  if (isNameInScope(*function.body, input_name)) {
    return Status(ErrorCode::kInvalidArgument,
                  "the name " + quoted(input_name) + " is already taken in the function.body");
  }
  Value* value = ir_internal::defineValue(arena, *function.body, arena.copy(input_name));
  ir_internal::GraphBuilder::functionInput(value) = true;
  function.inputs.push_back(arena, value);
  return value;
}

Status Function::removeInput(size_t index) {
  if (index >= inputs.size()) {
    return Status(ErrorCode::kInvalidArgument, "no input " + std::to_string(index));
  }
  Value* value = inputs[index];
  if (value != nullptr) {
    if (value->hasUses()) {
      return Status(ErrorCode::kInvalidArgument,
                    "input " + quoted(value->name()) + " still has uses");
    }
    ir_internal::GraphBuilder::functionInput(value) = false;
    ir_internal::removeValue(value);
  }
  inputs.erase(index);
  return Status::ok();
}

void GraphEditor::addOutput(Function& function, Value* value) const {
  Arena& arena = *arena_;
  Use* use = arena.make<Use>();
  use->set(value);
  function.outputs.push_back(arena, use);
}

void Function::removeOutput(size_t index) {
  outputs[index]->set(nullptr);
  outputs.erase(index);
}

}  // namespace onyx
