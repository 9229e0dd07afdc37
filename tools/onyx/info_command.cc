// `onyx info MODEL [--json]`: what a model is, at a glance. `--cost [--dim NAME=VALUE]...`:
// what each node costs instead (onyx/infer/cost.h), per operator type and the costliest
// nodes, with the inputs' named dimensions sized first.
#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "generated_inputs.h"
#include "model_files.h"
#include "onyx/core/element_type.h"
#include "onyx/infer/cost.h"
#include "onyx/infer/infer.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/ir/walk.h"
#include "onyx/serde/model_io.h"

namespace onyx::tool {

namespace {

struct TensorTotals {
  size_t count = 0;
  uint64_t inline_bytes = 0;
  uint64_t external_bytes = 0;
};

uint64_t dataBytes(const Tensor& tensor) {
  switch (tensorStorage(tensor)) {
    case TensorStorage::kRaw: return tensor.raw_data->size();
    case TensorStorage::kComputed: return tensor.rare().computed->size;
    case TensorStorage::kExternal: {
      if (tensor.rare().external_bytes) return tensor.rare().external_bytes->size();
      // Not loaded: the length the model states (info works without the data files).
      auto length = tensor.externalValue("length");
      return length ? std::strtoull(std::string(*length).c_str(), nullptr, 10) : 0;
    }
    case TensorStorage::kStrings: {
      uint64_t total = 0;
      for (std::string_view s : tensor.rare().string_data) total += s.size();
      return total;
    }
    case TensorStorage::kTyped: {
      const ElementTypeInfo* info = elementTypeInfo(tensor.data_type.value_or(0));
      auto count = elementCount(std::span<const int64_t>(tensor.dims.begin(), tensor.dims.size()));
      if (info == nullptr || !count) return 0;
      auto bytes = packedByteSize(info->type, *count);
      return bytes ? *bytes : 0;
    }
    case TensorStorage::kNone: return 0;
  }
  return 0;
}

std::string humanBytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, units[unit]);
}

std::string typeText(const ValueInfo& info) {
  return info.type ? formatType(*info.type) : std::string("?");
}

// Whether inference could tell more about a value than `type` declares: the type is missing,
// or a tensor in it has no element type, no rank or an unknown dimension.
bool declaresLess(const Type* type) {
  if (type == nullptr) return true;
  switch (type->kind) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor:
      if (!type->elem_type || type->shape == nullptr) return true;
      for (const Dimension& dim : type->shape->dims) {
        if (dim.isUnknown()) return true;
      }
      return false;
    case Type::Kind::kSequence:
    case Type::Kind::kOptional: return declaresLess(type->elem);
    case Type::Kind::kMap: return !type->key_type || declaresLess(type->elem);
    case Type::Kind::kOpaque: return false;
    case Type::Kind::kNone: return true;
  }
  return true;
}

std::string valueName(const ValueInfo& info) {
  const Value* value = info.bound();
  return std::string(value ? value->name() : info.name.value_or(""));
}

int runInfo(const std::string& path, bool json) {
  // A summary needs no tensor data, so a model whose data files are missing still shows.
  auto loaded = readModel(path, false);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", path, loaded.status().toString());
    return kExitUnreadable;
  }
  Model& model = *loaded;
  // Outputs are shown as inference finds them; what the file itself declares is kept
  // beside, so that an inferred type is marked as such. Inference runs only when an output
  // is declared with less than it could find: on a large graph it is most of the command's
  // time, and a summary need not repeat a complete declaration.
  std::vector<std::string> declared_outputs;
  if (model.graph) {
    bool incomplete = false;
    for (const ValueInfo* info : model.graph->outputs) {
      declared_outputs.push_back(typeText(*info));
      incomplete = incomplete || declaresLess(info->type);
    }
    if (incomplete) (void)inferModel(model);
  }
  auto outputTypeText = [&](size_t index) {
    std::string inferred = typeText(*model.graph->outputs[index]);
    return inferred == declared_outputs[index] ? inferred : inferred + " (inferred)";
  };
  std::map<std::string, size_t> op_counts;
  size_t node_count = 0;
  forEachGraph(model, [&](Graph& graph) {
    for (const Node* node = graph.firstNode(); node; node = node->next()) {
      std::string key(node->opType());
      if (!isDefaultDomain(*node)) {
        key = std::string(node->domainOrDefault()) + "::" + key;
      }
      ++op_counts[key];
      ++node_count;
    }
  });
  TensorTotals totals;
  forEachTensor(model, [&](Tensor& tensor, TensorRole role) {
    if (role != TensorRole::kInitializer) return;
    ++totals.count;
    (tensor.isExternal() ? totals.external_bytes : totals.inline_bytes) += dataBytes(tensor);
  });

  if (json) {
    nlohmann::ordered_json out;
    out["path"] = path;
    if (model.ir_version) out["ir_version"] = *model.ir_version;
    nlohmann::ordered_json opsets = nlohmann::ordered_json::array();
    for (const OperatorSetId& opset : model.opset_import) {
      opsets.push_back({{"domain", domainLabel(opset.domain.value_or(""))},
                        {"version", opset.version.value_or(0)}});
    }
    out["opset_import"] = opsets;
    out["producer_name"] = std::string(model.producer_name.value_or(""));
    out["producer_version"] = std::string(model.producer_version.value_or(""));
    auto values = [](const ArenaList<ValueInfo*>& list) {
      nlohmann::ordered_json array = nlohmann::ordered_json::array();
      for (const ValueInfo* info : list) {
        array.push_back({{"name", valueName(*info)}, {"type", typeText(*info)}});
      }
      return array;
    };
    if (model.graph) {
      out["graph"] = std::string(model.graph->name.value_or(""));
      out["inputs"] = values(model.graph->inputs);
      nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
      for (size_t i = 0; i < model.graph->outputs.size(); ++i) {
        const ValueInfo& info = *model.graph->outputs[i];
        outputs.push_back({{"name", valueName(info)},
                           {"type", declared_outputs[i]},
                           {"inferred_type", typeText(info)}});
      }
      out["outputs"] = outputs;
    }
    out["node_count"] = node_count;
    out["ops"] = op_counts;
    out["initializers"] = {{"count", totals.count},
                           {"inline_bytes", totals.inline_bytes},
                           {"external_bytes", totals.external_bytes}};
    out["functions"] = model.functions.size();
    out["training_info"] = model.training_info.size();
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }

  fmt::print("model:        {}\n", path);
  fmt::print("ir_version:   {}\n",
             model.ir_version ? std::to_string(*model.ir_version) : std::string("(none)"));
  std::string opsets;
  for (const OperatorSetId& opset : model.opset_import) {
    if (!opsets.empty()) opsets += ", ";
    opsets +=
        fmt::format("{} {}", domainLabel(opset.domain.value_or("")), opset.version.value_or(0));
  }
  fmt::print("opset_import: {}\n", opsets.empty() ? "(none)" : opsets);
  if (model.producer_name || model.producer_version) {
    fmt::print("producer:     {} {}\n", model.producer_name.value_or(""),
               model.producer_version.value_or(""));
  }
  if (model.graph) {
    fmt::print("graph:        {}\n", model.graph->name.value_or(""));
    fmt::print("inputs:\n");
    for (const ValueInfo* info : model.graph->inputs) {
      fmt::print("  {}: {}\n", valueName(*info), typeText(*info));
    }
    fmt::print("outputs:\n");
    for (size_t i = 0; i < model.graph->outputs.size(); ++i) {
      fmt::print("  {}: {}\n", valueName(*model.graph->outputs[i]), outputTypeText(i));
    }
  }
  fmt::print("nodes:        {}\n", node_count);
  std::vector<std::pair<std::string, size_t>> sorted(op_counts.begin(), op_counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [op, count] : sorted) fmt::print("  {:<24} {}\n", op, count);
  fmt::print("initializers: {} ({} inline, {} external)\n", totals.count,
             humanBytes(totals.inline_bytes), humanBytes(totals.external_bytes));
  if (!model.functions.empty()) fmt::print("functions:    {}\n", model.functions.size());
  if (!model.training_info.empty()) {
    fmt::print("training_info: {}\n", model.training_info.size());
  }
  return kExitOk;
}

int runCost(const std::string& path, const std::vector<std::string>& dim_bindings, bool json) {
  auto loaded = readModel(path, false);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", path, loaded.status().toString());
    return kExitUnreadable;
  }
  Model& model = *loaded;
  if (model.graph == nullptr) {
    fmt::print(stderr, "onyx: {} has no graph to cost\n", path);
    return kExitInvalid;
  }
  DimSizes sizes;
  for (const std::string& binding : dim_bindings) {
    Status added = addDimSize(binding, sizes);
    if (added.isOk()) added = checkDimSizesUsed(*model.graph, sizes);
    if (!added.isOk()) {
      fmt::print(stderr, "onyx: {}\n", added.message());
      return kExitUnreadable;
    }
  }
  sizeInputs(model, sizes);
  (void)inferModel(model);
  const ModelCost cost = modelCost(model);
  struct Totals {
    size_t nodes = 0;
    uint64_t flops = 0, parameter_bytes = 0, activation_bytes = 0;
  };
  std::map<std::string, Totals> by_op;
  for (const NodeCost& node : cost.nodes) {
    Totals& totals = by_op[std::string(node.node->opType())];
    ++totals.nodes;
    totals.flops += node.flops.value_or(0);
    totals.parameter_bytes += node.parameter_bytes;
    totals.activation_bytes += node.activation_bytes.value_or(0);
  }
  auto nodeName = [](const Node& node) {
    return node.name ? std::string(*node.name) : std::string(node.opType());
  };
  if (json) {
    nlohmann::ordered_json out;
    out["path"] = path;
    out["flops"] = cost.flops;
    out["parameter_bytes"] = cost.parameter_bytes;
    out["activation_bytes"] = cost.activation_bytes;
    out["uncounted_nodes"] = cost.uncounted;
    nlohmann::ordered_json ops = nlohmann::ordered_json::object();
    for (const auto& [op, totals] : by_op) {
      ops[op] = {{"nodes", totals.nodes},
                 {"flops", totals.flops},
                 {"parameter_bytes", totals.parameter_bytes},
                 {"activation_bytes", totals.activation_bytes}};
    }
    out["ops"] = ops;
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (const NodeCost& node : cost.nodes) {
      nlohmann::ordered_json entry = {{"name", nodeName(*node.node)},
                                      {"op_type", std::string(node.node->opType())}};
      entry["flops"] = node.flops ? nlohmann::ordered_json(*node.flops) : nullptr;
      entry["parameter_bytes"] = node.parameter_bytes;
      entry["activation_bytes"] =
          node.activation_bytes ? nlohmann::ordered_json(*node.activation_bytes) : nullptr;
      nodes.push_back(entry);
    }
    out["nodes"] = nodes;
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }
  fmt::print("model: {}\n", path);
  fmt::print("total: {} FLOPs ({:.3f} G), parameters {}, activations {}\n", cost.flops,
             static_cast<double>(cost.flops) / 1e9, humanBytes(cost.parameter_bytes),
             humanBytes(cost.activation_bytes));
  if (cost.uncounted > 0) {
    fmt::print(
        "{} nodes have shapes inference left unknown: not counted (size the inputs' "
        "named dimensions with --dim NAME=VALUE)\n",
        cost.uncounted);
  }
  std::vector<std::pair<std::string, Totals>> sorted(by_op.begin(), by_op.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.flops > b.second.flops; });
  fmt::print("{:<24} {:>6} {:>16} {:>7} {:>12} {:>12}\n", "op type", "nodes", "FLOPs", "%",
             "parameters", "activations");
  for (const auto& [op, totals] : sorted) {
    const double share =
        cost.flops > 0 ? 100.0 * static_cast<double>(totals.flops) / static_cast<double>(cost.flops)
                       : 0.0;
    fmt::print("{:<24} {:>6} {:>16} {:>6.1f}% {:>12} {:>12}\n", op, totals.nodes, totals.flops,
               share, humanBytes(totals.parameter_bytes), humanBytes(totals.activation_bytes));
  }
  std::vector<const NodeCost*> costliest;
  for (const NodeCost& node : cost.nodes) costliest.push_back(&node);
  std::stable_sort(costliest.begin(), costliest.end(), [](const NodeCost* a, const NodeCost* b) {
    return a->flops.value_or(0) > b->flops.value_or(0);
  });
  costliest.resize(std::min<size_t>(costliest.size(), 10));
  fmt::print("costliest nodes:\n");
  for (const NodeCost* node : costliest) {
    fmt::print("  {:>16} FLOPs  {:<20} {}\n",
               node->flops ? std::to_string(*node->flops) : std::string("?"), node->node->opType(),
               nodeName(*node->node));
  }
  return kExitOk;
}

}  // namespace

void addInfoCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand("info", "Summarise a model: versions, inputs, outputs, ops");
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto cost = std::make_shared<bool>(false);
  auto dims = std::make_shared<std::vector<std::string>>();
  command->add_option("MODEL", *path, kModelFileHelp)->required();
  command->add_flag("--json", *json, "print JSON");
  command->add_flag("--cost", *cost,
                    "what each node costs: FLOPs, parameter and activation bytes, per operator "
                    "type and the costliest nodes");
  command->add_option("--dim", *dims,
                      "with --cost: the size of an input's named dimension, NAME=VALUE");
  command->callback([&exit_code, path, json, cost, dims] {
    exit_code = *cost ? runCost(*path, *dims, *json) : runInfo(*path, *json);
  });
}

}  // namespace onyx::tool
