#include "check/training_rules.h"

#include "check/metadata_rules.h"
#include "onyx/core/quote.h"

namespace onyx::check {

namespace {

NameSet outputNames(const Graph* graph) {
  NameSet names;
  if (graph == nullptr) return names;
  for (const ValueInfo* info : graph->outputs) {
    if (const Value* value = info->bound()) {
      names.insert(value->name());
    } else if (info->name) {
      names.insert(*info->name);
    }
  }
  return names;
}

bool namesInitializer(const Graph* graph, std::string_view name) {
  if (graph == nullptr) return false;
  const Value* value = graph->names().find(name);
  return value != nullptr && value->isInitializer();
}

}  // namespace

void checkTraining(CheckContext& context, Walker& walker) {
  const Model& model = context.model;
  if (model.training_info.empty()) return;
  Diagnostics& out = context.out;
  auto list_path = [] { return std::string("training_info"); };
  context.fieldSince("R16", 7, LazyPath(list_path), "ModelProto.training_info");

  NameSet main_outputs = outputNames(model.graph);
  NameSet updated;  // state variables some update_binding assigns, over all entries
  for (size_t i = 0; i < model.training_info.size(); ++i) {
    const TrainingInfo* info = model.training_info[i];
    if (info == nullptr) continue;
    std::string prefix;
    appendSegment(prefix, "training_info", i);
    RootScope scope;
    scope.imports = &context.model_imports;

    if (info->initialization != nullptr) {
      GraphPlace place;
      place.root = prefix + ".initialization";
      walker.walk(*info->initialization, place, GraphRole::kInitialization, scope);
      if (!info->initialization->inputs.empty()) {
        out.error("R20", place.root,
                  "the initialization graph has " +
                      std::to_string(info->initialization->inputs.size()) +
                      " inputs; it takes none (it computes the initial state from nothing)");
      }
    } else if (!info->initialization_binding.empty()) {
      out.error("R20", prefix,
                "initialization_binding assigns state variables but there is no initialization "
                "graph to compute them");
    }
    if (info->algorithm != nullptr) {
      GraphPlace place;
      place.root = prefix + ".algorithm";
      RootScope algorithm_scope = scope;
      algorithm_scope.preceding = model.graph;
      walker.walk(*info->algorithm, place, GraphRole::kAlgorithm, algorithm_scope);
    }

    NameSet initialization_outputs = outputNames(info->initialization);
    NameSet algorithm_outputs = outputNames(info->algorithm);
    auto bindings = [&](const ArenaList<StringStringEntry>& list, const char* field, bool update) {
      NameSet keys;
      for (size_t k = 0; k < list.size(); ++k) {
        std::string_view key = list[k].key.value_or(std::string_view());
        std::string_view value = list[k].value.value_or(std::string_view());
        auto path = [&] {
          std::string text = prefix;
          appendSegment(text, field, k, key);
          return text;
        };
        if (key.empty()) {
          out.error("R17", path(), "the binding has no key; a key names the state variable");
        } else {
          if (!keys.insert(key)) {
            out.error("R19", path(),
                      quoted(key) + " is bound twice in " + field +
                          "; each state variable is assigned once");
          } else if (update && !updated.insert(key)) {
            out.error("R19", path(),
                      quoted(key) +
                          " is already bound by the update_binding of another "
                          "training_info entry; each state variable is updated by one");
          }
          if (!namesInitializer(model.graph, key) && !namesInitializer(info->algorithm, key)) {
            out.error("R17", path(),
                      quoted(key) +
                          " is no initializer of the main graph or of this entry's "
                          "algorithm graph; only initializers are state variables");
          }
        }
        if (value.empty()) {
          out.error("R18", path(), "the binding has no value; a value names a graph output");
        } else if (!update && !initialization_outputs.contains(value)) {
          out.error("R18", path(),
                    quoted(value) +
                        " is not an output of the initialization graph, which "
                        "computes what initialization_binding assigns");
        } else if (update && !algorithm_outputs.contains(value) && !main_outputs.contains(value)) {
          out.error("R18", path(),
                    quoted(value) +
                        " is not an output of the algorithm graph (or of the main "
                        "graph), which computes what update_binding assigns");
        }
      }
    };
    bindings(info->initialization_binding, "initialization_binding", false);
    bindings(info->update_binding, "update_binding", true);
  }
}

}  // namespace onyx::check
