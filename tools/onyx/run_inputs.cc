#include "run_inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

#include "commands.h"
#include "generated_inputs.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/mapped_file.h"
#include "onyx/core/quote.h"
#include "onyx/eval/test_case.h"
#include "onyx/ir/editor.h"
#include "onyx/serde/npy.h"
#include "onyx/serde/test_data.h"

namespace onyx::tool {

Status keepValues(Model& model, const std::vector<std::string>& names, bool all) {
  GraphEditor edit(model);
  Graph& graph = *model.graph;
  std::set<const Value*> outputs;
  for (const ValueInfo* info : graph.outputs) outputs.insert(info->bound());
  auto keep = [&](Value* value) {
    if (value != nullptr && !value->name().empty() && outputs.insert(value).second) {
      edit.addOutput(graph, value);
    }
  };
  for (const std::string& name : names) {
    Value* value = graph.lookup(name);
    if (value == nullptr) {
      return Status(ErrorCode::kInvalidArgument,
                    "--keep " + name + ": the main graph has no value named " + onyx::quoted(name));
    }
    keep(value);
  }
  if (all) {
    for (Node* node = graph.firstNode(); node != nullptr; node = node->next()) {
      for (size_t o = 0; o < node->outputCount(); ++o) keep(node->output(o));
    }
  }
  return Status::ok();
}

Result<EvalValue> readInput(const Graph& graph, const std::string& name, const std::string& path) {
  const Value* formal = graph.lookup(name);
  if (formal == nullptr || formal->graphInput() == nullptr) {
    return Status(ErrorCode::kInvalidArgument,
                  "the graph has no input named " + onyx::quoted(name));
  }
  if (path.ends_with(".npy")) {
    Result<std::shared_ptr<const MappedFile>> file = MappedFile::open(path);
    if (!file) return file.status();
    Result<Array> array = parseNpy((*file)->bytes());
    if (!array) return array.status();
    return EvalValue::of(std::move(*array));
  }
  Result<TestValue> value = loadTestValue(path, testValueKindOf(formal->type()));
  if (!value) return value.status();
  return evalValueOf(*value);
}

Result<std::vector<NamedValue>> gatherInputs(const InputArguments& arguments, const Graph& graph,
                                             int& exit_status) {
  std::vector<NamedValue> inputs;
  for (const std::string& binding : arguments.inputs) {
    size_t equals = binding.find('=');
    if (equals == std::string::npos || equals == 0) {
      exit_status = kExitUnreadable;
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("--input takes NAME=FILE, not {}", onyx::quoted(binding)));
    }
    std::string name = binding.substr(0, equals);
    std::string path = binding.substr(equals + 1);
    Result<EvalValue> value = readInput(graph, name, path);
    if (!value) {
      exit_status =
          value.status().code() == ErrorCode::kInvalidArgument ? kExitInvalid : kExitUnreadable;
      return Status(value.status().code(), fmt::format("input {} from {}: {}", onyx::quoted(name),
                                                       path, value.status().toString()));
    }
    inputs.push_back({name, std::move(*value)});
  }
  DimSizes sizes;
  for (const std::string& binding : arguments.dims) {
    Status added = addDimSize(binding, sizes);
    if (!added.isOk()) {
      exit_status = kExitUnreadable;
      return added;
    }
  }
  if (Status used = checkDimSizesUsed(graph, sizes); !used.isOk()) {
    exit_status = kExitUnreadable;
    return used;
  }
  for (const ValueInfo* declared : graph.inputs) {
    const Value* formal = declared->value;
    if (formal == nullptr || formal->initializer() != nullptr) continue;
    bool given = std::any_of(inputs.begin(), inputs.end(), [formal](const NamedValue& input) {
      return input.name == formal->name();
    });
    if (given) continue;
    Result<Array> made = generateInput(*formal, sizes, arguments.seed);
    if (!made) {
      exit_status =
          made.status().code() == ErrorCode::kInvalidArgument ? kExitInvalid : kExitUnreadable;
      return made.status();
    }
    std::string shape;
    for (int64_t dim : made->shape()) shape += fmt::format("{}{}", shape.empty() ? "" : ",", dim);
    fmt::print(stderr, "generated input {}: {}[{}], {} (seed {})\n", formal->name(),
               elementTypeInfo(made->type())->shortName, shape,
               describeGeneratedValues(made->type()), arguments.seed);
    inputs.push_back({std::string(formal->name()), EvalValue::of(std::move(*made))});
  }
  return inputs;
}

}  // namespace onyx::tool
