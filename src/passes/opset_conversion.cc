// Opset conversion: drafts every node across its operator's version steps, then writes the
// drafts through one Patch per graph (see onyx/passes/opset_conversion.h).
#include "onyx/passes/opset_conversion.h"

#include <fmt/format.h>

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/place_path.h"
#include "core/quote.h"
#include "ir/graph_place.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/type.h"
#include "onyx/ir/walk.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/pass.h"
#include "ops/node_draft.h"
#include "passes/inline_internal.h"

namespace onyx {

namespace {

// Where `graph` sits in `model`: `graph`, `functions[1](f)`, `training_info[0].algorithm`,
// or below a node of an enclosing graph.
std::string graphPlace(const Model& model, const Graph& graph) {
  if (const Node* owner = graph.owner(); owner != nullptr && owner->graph() != nullptr) {
    const Graph& outer = *owner->graph();
    size_t index = 0;
    for (const Node* node : outer.nodes()) {
      if (node == owner) break;
      ++index;
    }
    return joinPath(
        joinPath(graphPlace(model, outer), pathSegment("node", index, owner->nameOrEmpty())),
        graphPathInNode(*owner, graph));
  }
  if (&graph == model.graph) return "graph";
  for (size_t i = 0; i < model.functions.size(); ++i) {
    if (model.functions[i]->body == &graph) {
      return pathSegment("functions", i, model.functions[i]->nameOrEmpty());
    }
  }
  for (size_t i = 0; i < model.training_info.size(); ++i) {
    const TrainingInfo& info = *model.training_info[i];
    std::string entry = pathSegment("training_info", i);
    if (info.algorithm == &graph) return joinPath(entry, "algorithm");
    if (info.initialization == &graph) return joinPath(entry, "initialization");
  }
  return "graph";
}

std::string typeLabel(const Type* type) { return type != nullptr ? formatType(*type) : "?"; }

// The types formal `formal` of `schema` allows; null when it has no constraint of its own.
const TypeSet* allowedTypes(const OpSchema& schema, const FormalParameter* formal) {
  if (formal == nullptr) return nullptr;
  const TypeConstraint* constraint = schema.constraint(formal->type);
  return constraint != nullptr ? &constraint->allowed : nullptr;
}

// Whether a value the node's own version `origin` lets through formal `was` is sure to fit
// formal `now` of `schema`: the set of types only grew. Then the converter needs no type
// (and no inference) to know. A node whose types its own version refuses is the checker's
// to report, not the converter's.
bool onlyGrew(const OpSchema& origin, const FormalParameter* was, const OpSchema& schema,
              const FormalParameter* now) {
  const TypeSet* before = allowedTypes(origin, was);
  const TypeSet* after = allowedTypes(schema, now);
  if (after == nullptr) return true;
  return before != nullptr && (*before | *after) == *after;
}

// What the target version's signature says of the draft after a step: the attributes it
// declares, its arity, the types it allows. An empty string when the draft fits. `origin` is
// the version the node had in the model.
std::string misfit(const ops::NodeDraft& draft, const OpSchema& origin, const OpSchema& schema) {
  if (!schema.unchecked_attributes) {
    for (std::string_view name : draft.attributeNames()) {
      if (schema.attribute(name) == nullptr) {
        return fmt::format("attribute {} is not in version {}", quoted(name), schema.since_version);
      }
    }
    for (const AttributeSpec& spec : schema.attributes) {
      if (spec.required && draft.attribute(spec.name) == nullptr) {
        return fmt::format("version {} requires attribute {}", schema.since_version,
                           quoted(spec.name));
      }
    }
  }
  size_t inputs = draft.inputCount();
  while (inputs > 0 && !draft.hasInput(inputs - 1)) --inputs;  // trailing omitted inputs
  if (inputs < schema.minInputs() || inputs > schema.maxInputs()) {
    return fmt::format("{} inputs, which version {} does not take", inputs, schema.since_version);
  }
  if (!schema.allowsOutputCount(draft.outputCount())) {
    return fmt::format("{} outputs, which version {} does not give", draft.outputCount(),
                       schema.since_version);
  }
  auto allowed = [&](const FormalParameter* formal, const Type* type) {
    if (formal == nullptr || type == nullptr) return true;
    const TypeConstraint* constraint = schema.constraint(formal->type);
    return constraint == nullptr || constraint->allowed.allows(*type);
  };
  for (size_t i = 0; i < draft.inputCount(); ++i) {
    bool unmoved = i < draft.node().inputCount() && draft.input(i) == draft.node().input(i);
    if (unmoved && onlyGrew(origin, origin.inputAt(i), schema, schema.inputAt(i))) continue;
    const Type* type = draft.inputType(i);
    if (!allowed(schema.inputAt(i), type)) {
      return fmt::format("input {} is {}, which version {} does not take", i, typeLabel(type),
                         schema.since_version);
    }
  }
  for (size_t i = 0; i < draft.outputCount(); ++i) {
    if (onlyGrew(origin, origin.outputAt(i), schema, schema.outputAt(i))) continue;
    const Type* type = draft.outputType(i);
    if (!allowed(schema.outputAt(i), type)) {
      return fmt::format("output {} is {}, which version {} does not give", i, typeLabel(type),
                         schema.since_version);
    }
  }
  return {};
}

// Takes the draft from `from` to `to`, step by step. An error says why it cannot.
Status crossSteps(ops::NodeDraft& draft, const Operator& op, const OpSchema& from,
                  const OpSchema& to) {
  std::vector<const OpSchema*> versions;
  for (const OpSchema& schema : op.versions) versions.push_back(&schema);
  size_t at = static_cast<size_t>(&from - op.versions.begin());
  size_t end = static_cast<size_t>(&to - op.versions.begin());
  while (at != end) {
    bool up = end > at;
    size_t next = up ? at + 1 : at - 1;
    const OpSchema& here = *versions[at];
    const OpSchema& there = *versions[next];
    const VersionStep& step = up ? there.step : here.step;  // a step lives on its later version
    draft.beginStep(here, there);
    if (!step.reviewed) {
      return draft.refuse("no adapter yet: the step has not been reviewed");
    }
    VersionAdapter adapter = up ? step.up : step.down;
    if (adapter != nullptr) ONYX_RETURN_IF_ERROR(adapter(draft));
    if (std::string why = misfit(draft, from, there); !why.empty()) return draft.refuse(why);
    at = next;
  }
  return Status::ok();
}

struct Target {
  int64_t version;
  const OperatorSetInfo* info;
};

// How many times nodes may be replaced by their function bodies, for bodies that hold
// operators the target lacks in turn (CastLike in a body of a body); the spec's bodies nest
// less deep than this.
constexpr size_t kExpansionRounds = 4;

}  // namespace

Result<ConversionSummary> convertOpset(Model& model, std::span<const OpsetTarget> targets) {
  std::unordered_map<std::string_view, Target> wanted;
  for (const OpsetTarget& target : targets) {
    const OperatorSetInfo* info = findOperatorSet(target.domain);
    std::string_view domain = canonicalDomain(target.domain);
    if (info == nullptr) {
      return Status(
          ErrorCode::kInvalidArgument,
          "opset conversion covers the standard domains, not " + quoted(domainLabel(domain)));
    }
    if (target.version < info->first_version || target.version > info->last_version) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{} has versions {} to {}, not {}", domainLabel(domain),
                                info->first_version, info->last_version, target.version));
    }
    if (!wanted.emplace(domain, Target{target.version, info}).second) {
      return Status(ErrorCode::kInvalidArgument, "two targets for " + quoted(domainLabel(domain)));
    }
  }

  GraphEditor edit(model);
  std::unique_ptr<InferredTypes> inferred;  // made when a node first needs a type
  ops::NodeDraft::TypeOf type_of = [&](const Value& value) -> const Type* {
    if (inferred == nullptr) inferred = std::make_unique<InferredTypes>(model);
    return inferred->typeOf(value);
  };

  // A node that cannot cross but whose operator the spec defines as a function (Gelu,
  // LayerNormalization, CastLike, ...) is replaced by its body, whose nodes then cross on
  // their own. The bodies are inlined beside their calls and journalled, so that a
  // conversion refused in the end takes them back: the model is left as it was.
  std::vector<passes_internal::InlinedCall> expanded;
  std::unordered_set<const Node*> calls;  // the nodes expanded, without outputs until the end
  struct Origin {
    std::string place;   // where the expanded node is, in the model as given
    std::string reason;  // why it could not cross itself
    std::vector<std::string> body_reasons;
  };
  std::vector<Origin> origins;
  std::unordered_map<const Node*, size_t> origin_of;     // a copy from a body -> its origin
  std::unordered_map<const Node*, std::string> no_body;  // a body refused: the full reason

  ConversionSummary summary;
  std::vector<std::string> blocked;
  std::vector<std::unique_ptr<ops::NodeDraft>> drafts;
  for (size_t round = 0;; ++round) {
    summary = ConversionSummary{};
    blocked.clear();
    drafts.clear();
    for (Origin& origin : origins) origin.body_reasons.clear();
    // Nodes that cannot cross but have a function body, with where they are and why.
    std::vector<std::pair<Node*, Origin>> expandable;
    // Graph by graph, so the drafts of one graph are next to each other.
    forEachGraph(model, [&](Graph& graph) {
      GraphScope scope = scopeOf(model, graph);
      size_t index = 0;
      // A body is put before its node, so it may stand in only for a node whose inputs are
      // computed before it (in a graph out of order, or a cycle, the body would read what is
      // computed after it). The graph's order is listed only when a node would be expanded.
      std::unordered_map<const Node*, size_t> order;
      auto readsEarlier = [&](const Node& node) {
        if (order.empty()) {
          for (const Node* member : graph.nodes()) order.emplace(member, order.size());
        }
        for (size_t i = 0; i < node.inputCount(); ++i) {
          const Value* input = node.input(i);
          const Node* producer = input != nullptr ? input->producer() : nullptr;
          if (producer != nullptr && producer->graph() == &graph &&
              order.at(producer) >= order.at(&node)) {
            return false;
          }
        }
        return true;
      };
      for (Node* node : graph.nodes()) {
        if (calls.contains(node)) continue;  // its body stands for it
        size_t position = index++;
        std::string_view domain = canonicalDomain(node->domainOrDefault());
        auto target = wanted.find(domain);
        if (target == wanted.end()) continue;
        std::optional<int64_t> imported = scope.imports.versionOf(domain);
        if (!imported || *imported == target->second.version) continue;
        ++summary.nodes_seen;
        const Operator* op = findOperator(domain, node->opType());
        const OpSchema* from = op != nullptr ? op->at(*imported) : nullptr;
        auto block = [&](std::string_view reason) {  // `reason` may be replaced
          auto copy = origin_of.find(node);
          if (auto body = no_body.find(node); body != no_body.end()) reason = body->second;
          if (round < kExpansionRounds && from != nullptr && !no_body.contains(node) &&
              readsEarlier(*node) && hasFunctionBodyAt(*from, *imported)) {
            expandable.emplace_back(
                node, Origin{joinPath(graphPlace(model, graph),
                                      pathSegment("node", position, node->nameOrEmpty())),
                             std::string(reason),
                             {}});
          } else if (copy != origin_of.end()) {
            origins[copy->second].body_reasons.emplace_back(reason);
          } else {
            blocked.push_back(
                fmt::format("{}: {}",
                            joinPath(graphPlace(model, graph),
                                     pathSegment("node", position, node->nameOrEmpty())),
                            reason));
          }
        };
        if (from == nullptr) {
          block(fmt::format("{} is not an operator of {} {}", quoted(node->opType()),
                            domainLabel(domain), *imported));
          continue;
        }
        const OpSchema* to = op->at(target->second.version);
        if (to == nullptr) {
          block(fmt::format("{} does not exist before opset {}", node->opType(),
                            op->versions.begin()->since_version));
          continue;
        }
        if (to->deprecated) {
          block(fmt::format("{} is withdrawn from opset {} on", node->opType(), to->since_version));
          continue;
        }
        if (from == to) continue;
        auto draft =
            std::make_unique<ops::NodeDraft>(*node, edit, type_of, initializerInputsOf(model));
        if (Status crossed = crossSteps(*draft, *op, *from, *to); !crossed) {
          block(crossed.message());
          continue;
        }
        // Nodes an adapter added after this one (of the default domain, as this node's is)
        // cross the steps left from where it wrote them.
        bool followers_crossed = true;
        for (ops::NodeDraft::Follower& follower : draft->followers()) {
          const Operator* added = findOperator(domain, follower.draft->node().opType());
          const OpSchema* written = added != nullptr ? added->at(follower.opset) : nullptr;
          const OpSchema* wanted_version =
              added != nullptr ? added->at(target->second.version) : nullptr;
          Status crossed =
              written == nullptr || wanted_version == nullptr
                  ? Status(ErrorCode::kUnsupported,
                           fmt::format("{} {} to {}: needs {}, which opset {} lacks",
                                       node->opType(), from->since_version, to->since_version,
                                       follower.draft->node().opType(), target->second.version))
                  : crossSteps(*follower.draft, *added, *written, *wanted_version);
          if (!crossed) {
            block(crossed.message());
            followers_crossed = false;
            break;
          }
        }
        if (!followers_crossed) continue;
        if (!draft->changed()) continue;
        drafts.push_back(std::move(draft));
      }
    });
    if (expandable.empty()) break;
    // Expand, then draft again: the bodies' nodes, and the types inference now finds.
    for (auto& [node, origin] : expandable) {
      Result<passes_internal::InlinedCall> inlined =
          passes_internal::inlineOperatorBody(model, *node, &type_of);
      if (!inlined) {
        // Blocked as before, with why the body could not help, from the next round on.
        no_body.emplace(node, fmt::format("{}; its function body cannot stand in: {}",
                                          origin.reason, inlined.status().message()));
        continue;
      }
      // A node of a body that is itself expanded keeps the origin of the first.
      size_t index = origins.size();
      if (auto outer = origin_of.find(node); outer != origin_of.end()) {
        index = outer->second;
      } else {
        origins.push_back(std::move(origin));
      }
      for (const Node* copy : inlined->copies) origin_of[copy] = index;
      calls.insert(node);
      expanded.push_back(std::move(inlined).value());
    }
    inferred.reset();
  }
  for (const Origin& origin : origins) {
    if (origin.body_reasons.empty()) continue;
    std::string line = fmt::format(
        "{}: {}, and its function body cannot cross either:", origin.place, origin.reason);
    for (const std::string& reason : origin.body_reasons) line += "\n    " + reason;
    blocked.push_back(std::move(line));
  }
  if (!blocked.empty()) {
    for (auto call = expanded.rbegin(); call != expanded.rend(); ++call) call->undo();
    std::string message = fmt::format("cannot convert: {} node{} cannot cross", blocked.size(),
                                      blocked.size() == 1 ? "" : "s");
    for (const std::string& line : blocked) message += "\n  " + line;
    return Status(ErrorCode::kUnsupported, std::move(message));
  }
  // Everything converts: write the drafts, one patch per graph, then the imports; the nodes
  // whose bodies stand for them go last, so that a patch refused (in a graph out of order)
  // can still take the bodies back.
  for (size_t first = 0; first < drafts.size();) {
    Graph* graph = drafts[first]->node().graph();
    Patch patch = edit.patch(*graph);
    bool initializers_allowed = graph == model.graph && model.ir_version.value_or(4) >= 4;
    size_t next = first;
    for (; next < drafts.size() && drafts[next]->node().graph() == graph; ++next) {
      drafts[next]->writeTo(patch, initializers_allowed);
    }
    if (Status applied = patch.apply(); !applied) {
      for (auto call = expanded.rbegin(); call != expanded.rend(); ++call) call->undo();
      return applied;
    }
    first = next;
  }
  for (const passes_internal::InlinedCall& call : expanded) call.finish();
  summary.nodes_expanded = origins.size();
  summary.nodes_changed = drafts.size();
  for (const auto& [domain, target] : wanted) {
    if (model.opsetVersion(domain)) model.setOpsetVersion(domain, target.version);
    for (Function* function : model.functions) {
      if (OpsetImports(function->opset_import).versionOf(domain)) {
        edit.setImportedVersion(function->opset_import, domain, target.version);
      }
    }
  }
  return summary;
}

Result<ConversionSummary> convertOpset(Model& model, int64_t version) {
  OpsetTarget target{"", version};
  return convertOpset(model, std::span<const OpsetTarget>(&target, 1));
}

}  // namespace onyx
