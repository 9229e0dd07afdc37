// Opset conversion: drafts every node across its operator's version steps, then writes the
// drafts through one Patch per graph, applied all or none (see onyx/passes/opset_conversion.h).
#include "onyx/passes/opset_conversion.h"

#include <fmt/format.h>

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/place_path.h"
#include "ir/graph_place.h"
#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph_scope.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/type.h"
#include "onyx/ir/walk.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/registry.h"
#include "onyx/ops/signature_fit.h"
#include "onyx/passes/pass.h"
#include "ops/node_draft.h"
#include "passes/inline_internal.h"

namespace onyx {

namespace {

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

// A draft as the target version's signature sees it: the node as the draft will write it.
class DraftSignatureView final : public SignatureView {
 public:
  explicit DraftSignatureView(const ops::NodeDraft& draft)
      : draft_(draft), attributes_(draft.attributeNames()) {}
  size_t inputCount() const override { return draft_.inputCount(); }
  bool hasInput(size_t i) const override { return draft_.hasInput(i); }
  size_t outputCount() const override { return draft_.outputCount(); }
  bool hasOutput(size_t i) const override {
    // A follower's one output is the one it takes over.
    return draft_.outputCount() != draft_.node().outputCount() ||
           draft_.node().output(i) != nullptr;
  }
  size_t attributeCount() const override { return attributes_.size(); }
  std::string_view attributeName(size_t a) const override { return attributes_[a]; }
  bool hasAttribute(std::string_view name) const override {
    return draft_.attribute(name) != nullptr;
  }

 private:
  const ops::NodeDraft& draft_;
  std::vector<std::string_view> attributes_;
};

// What the target version's signature says of the draft after a step: the attributes it
// declares, its arity, the types it allows. An empty string when the draft fits. `origin` is
// the version the node had in the model.
std::string misfit(const ops::NodeDraft& draft, const OpSchema& origin, const OpSchema& schema) {
  DraftSignatureView view(draft);
  std::vector<Misfit> misfits = misfitsOf(schema, view);
  if (!misfits.empty()) {
    const Misfit& first = misfits.front();
    switch (first.kind) {
      case Misfit::Kind::kUndeclaredAttribute:
        return fmt::format("attribute {} is not in version {}",
                           quoted(view.attributeName(first.index)), schema.since_version);
      case Misfit::Kind::kMissingAttribute:
        return fmt::format("version {} requires attribute {}", schema.since_version,
                           quoted(first.spec->name));
      case Misfit::Kind::kInputCount:
        return fmt::format("{} inputs, which version {} does not take", draft.inputCount(),
                           schema.since_version);
      case Misfit::Kind::kOutputCount:
        return fmt::format("{} outputs, which version {} does not give", draft.outputCount(),
                           schema.since_version);
      case Misfit::Kind::kOmittedInput:
        return fmt::format("input {} is left out, which version {} requires", first.index,
                           schema.since_version);
      case Misfit::Kind::kOmittedOutput:
        return fmt::format("output {} is left out, which version {} always gives", first.index,
                           schema.since_version);
    }
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
using Targets = std::unordered_map<std::string_view, Target>;

// How many times nodes may be replaced by their function bodies, for bodies that hold
// operators the target lacks in turn (CastLike in a body of a body); the spec's bodies nest
// less deep than this.
constexpr size_t kExpansionRounds = 4;

// Each target's domain known, its version in range, one target a domain.
Result<Targets> validateTargets(std::span<const OpsetTarget> targets) {
  Targets wanted;
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
  return wanted;
}

// One conversion of a model: drafts every node, in rounds while nodes that cannot cross are
// replaced by their function bodies, then either says every node that cannot cross (the
// bodies taken back) or writes the drafts and the imports.
//
// A node that cannot cross but whose operator the spec defines as a function (Gelu,
// LayerNormalization, CastLike, ...) is replaced by its body, whose nodes then cross on their
// own. The bodies are inlined beside their calls and kept (InlinedCall), so that a conversion
// refused in the end takes them back: the model is left as it was.
class OpsetConverter {
 public:
  OpsetConverter(Model& model, Targets wanted)
      : model_(model), edit_(model), wanted_(std::move(wanted)) {
    type_of_ = [this](const Value& value) -> const Type* {
      if (inferred_ == nullptr) inferred_ = std::make_unique<InferredTypes>(model_);
      return inferred_->typeOf(value);
    };
  }

  Result<ConversionSummary> run() {
    for (size_t round = 0;; ++round) {
      draftModel(round);
      if (expandable_.empty()) break;
      expandBodies(round);
      inferred_.reset();  // the bodies' nodes have types inference now finds
    }
    if (Status blocked = describeBlocked(); !blocked) {
      undoBodies();
      return blocked;
    }
    ONYX_RETURN_IF_ERROR(commit());
    return summary_;
  }

 private:
  // Where a body stands in for a node, and why the node could not cross itself.
  struct Origin {
    std::string place;  // in the model as given
    std::string reason;
    std::vector<std::string> body_reasons;  // why nodes of its body cannot cross either
  };

  // One round: every node of every graph drafted, graph by graph (so that the drafts of one
  // graph are next to each other), those that cannot cross listed.
  void draftModel(size_t round) {
    summary_ = ConversionSummary{};
    blocked_.clear();
    drafts_.clear();
    expandable_.clear();
    for (Origin& origin : origins_) origin.body_reasons.clear();
    forEachGraph(model_, [&](Graph& graph) { draftGraph(graph, round); });
  }

  void draftGraph(Graph& graph, size_t round) {
    GraphScope scope = scopeOf(model_, graph);
    order_.clear();
    size_t index = 0;
    for (Node* node : graph.nodes()) {
      if (calls_.contains(node)) continue;  // its body stands for it
      size_t position = index++;
      std::string_view domain = canonicalDomain(node->domainOrDefault());
      auto target = wanted_.find(domain);
      if (target == wanted_.end()) continue;
      std::optional<int64_t> imported = scope.imports.versionOf(domain);
      if (!imported || *imported == target->second.version) continue;
      ++summary_.nodes_seen;
      NodeAt at{node, &graph, position, domain, *imported, round};
      if (std::optional<std::string> refused = draftNode(at, target->second.version)) {
        block(at, *refused);
      }
    }
  }

  // A node to draft, where it is.
  struct NodeAt {
    Node* node;
    Graph* graph;
    size_t position;  // among the graph's nodes, as given
    std::string_view domain;
    int64_t imported;  // its domain's version in its scope
    size_t round;
  };

  // Drafts `at` to `version`, keeping the draft when it changes the node; why it cannot
  // cross otherwise.
  std::optional<std::string> draftNode(const NodeAt& at, int64_t version) {
    const Node& node = *at.node;
    const Operator* op = findOperator(at.domain, node.opType());
    const OpSchema* from = op != nullptr ? op->at(at.imported) : nullptr;
    if (from == nullptr) {
      return fmt::format("{} is not an operator of {} {}", quoted(node.opType()),
                         domainLabel(at.domain), at.imported);
    }
    const OpSchema* to = op->at(version);
    if (to == nullptr) {
      return fmt::format("{} does not exist before opset {}", node.opType(),
                         op->versions.begin()->since_version);
    }
    if (to->deprecated) {
      return fmt::format("{} is withdrawn from opset {} on", node.opType(), to->since_version);
    }
    if (from == to) return std::nullopt;
    auto draft =
        std::make_unique<ops::NodeDraft>(*at.node, edit_, type_of_, initializerInputsOf(model_));
    if (Status crossed = crossSteps(*draft, *op, *from, *to); !crossed) return crossed.message();
    // Nodes an adapter added after this one (of the default domain, as this node's is) cross
    // the steps left from where it wrote them.
    for (ops::NodeDraft::Follower& follower : draft->followers()) {
      const Operator* added = findOperator(at.domain, follower.draft->node().opType());
      const OpSchema* written = added != nullptr ? added->at(follower.opset) : nullptr;
      const OpSchema* wanted = added != nullptr ? added->at(version) : nullptr;
      if (written == nullptr || wanted == nullptr) {
        return fmt::format("{} {} to {}: needs {}, which opset {} lacks", node.opType(),
                           from->since_version, to->since_version, follower.draft->node().opType(),
                           version);
      }
      if (Status crossed = crossSteps(*follower.draft, *added, *written, *wanted); !crossed) {
        return crossed.message();
      }
    }
    if (draft->changed()) drafts_.push_back(std::move(draft));
    return std::nullopt;
  }

  // `at` cannot cross, for `reason`: its body is to stand in for it (the next round drafts
  // the body's nodes), or it is listed, as a node of the model or of the body that stands
  // for one.
  void block(const NodeAt& at, std::string_view reason) {
    const Node* node = at.node;
    if (auto body = no_body_.find(node); body != no_body_.end()) reason = body->second;
    const Operator* op = findOperator(at.domain, node->opType());
    const OpSchema* from = op != nullptr ? op->at(at.imported) : nullptr;
    if (at.round < kExpansionRounds && from != nullptr && !no_body_.contains(node) &&
        readsEarlier(*node, *at.graph) && hasFunctionBodyAt(*from, at.imported)) {
      expandable_.emplace_back(at.node, Origin{nodePlace(at), std::string(reason), {}});
    } else if (auto copy = origin_of_.find(node); copy != origin_of_.end()) {
      origins_[copy->second].body_reasons.emplace_back(reason);
    } else {
      blocked_.push_back(fmt::format("{}: {}", nodePlace(at), reason));
    }
  }

  std::string nodePlace(const NodeAt& at) const {
    return joinPath(placeOf(model_, *at.graph),
                    pathSegment("node", at.position, at.node->nameOrEmpty()));
  }

  // Whether every input of `node` is computed before it. A body is put before its node, so
  // it may stand in only for such a node (in a graph out of order, or a cycle, the body would
  // read what is computed after it). The graph's order is listed when first asked.
  bool readsEarlier(const Node& node, const Graph& graph) {
    if (order_.empty()) {
      for (const Node* member : graph.nodes()) order_.emplace(member, order_.size());
    }
    for (size_t i = 0; i < node.inputCount(); ++i) {
      const Value* input = node.input(i);
      const Node* producer = input != nullptr ? input->producer() : nullptr;
      if (producer != nullptr && producer->graph() == &graph &&
          order_.at(producer) >= order_.at(&node)) {
        return false;
      }
    }
    return true;
  }

  // The expandable nodes replaced by their bodies, in one batch; a body that cannot stand in
  // leaves its node blocked, with why, from the next round on.
  void expandBodies(size_t round) {
    passes_internal::CallInliner inliner(model_);
    std::vector<std::pair<Node*, Origin>> recorded;
    for (auto& [node, origin] : expandable_) {
      if (Status added = inliner.add(*node, false, true, &type_of_); !added) {
        no_body_.emplace(node, fmt::format("{}; its function body cannot stand in: {}",
                                           origin.reason, added.message()));
        continue;
      }
      recorded.emplace_back(node, std::move(origin));
    }
    Result<std::vector<passes_internal::InlinedCall>> inlined = inliner.apply(round);
    if (!inlined) {
      for (auto& [node, origin] : recorded) {
        no_body_.emplace(node, fmt::format("{}; its function body cannot stand in: {}",
                                           origin.reason, inlined.status().message()));
      }
      return;
    }
    for (size_t i = 0; i < recorded.size(); ++i) {
      auto& [node, origin] = recorded[i];
      // A node of a body that is itself expanded keeps the origin of the first.
      size_t index = origins_.size();
      if (auto outer = origin_of_.find(node); outer != origin_of_.end()) {
        index = outer->second;
      } else {
        origins_.push_back(std::move(origin));
      }
      for (const Node* copy : (*inlined)[i].copies) origin_of_[copy] = index;
      calls_.insert(node);
      expanded_.push_back(std::move((*inlined)[i]));
    }
  }

  // Every node that cannot cross, in one error; ok when none.
  Status describeBlocked() {
    for (const Origin& origin : origins_) {
      if (origin.body_reasons.empty()) continue;
      std::string line = fmt::format(
          "{}: {}, and its function body cannot cross either:", origin.place, origin.reason);
      for (const std::string& reason : origin.body_reasons) line += "\n    " + reason;
      blocked_.push_back(std::move(line));
    }
    if (blocked_.empty()) return Status::ok();
    std::string message = fmt::format("cannot convert: {} node{} cannot cross", blocked_.size(),
                                      blocked_.size() == 1 ? "" : "s");
    for (const std::string& line : blocked_) message += "\n  " + line;
    return Status(ErrorCode::kUnsupported, std::move(message));
  }

  void undoBodies() { passes_internal::undoInlined(model_, expanded_); }

  // Everything converts: the drafts written into one patch per graph, all applied or none
  // (applyAll); then the nodes whose bodies stand for them go, and the imports change. A
  // refused patch (in a graph out of order) leaves every graph as it was, the bodies taken
  // back.
  Status commit() {
    std::vector<std::unique_ptr<Patch>> patches;
    for (const std::unique_ptr<ops::NodeDraft>& draft : drafts_) {
      Graph* graph = draft->node().graph();
      if (patches.empty() || &patches.back()->graph() != graph) {
        patches.push_back(std::make_unique<Patch>(model_, *graph));
      }
      bool initializers_allowed = graph == model_.graph && model_.ir_version.value_or(4) >= 4;
      draft->writeTo(*patches.back(), initializers_allowed);
    }
    std::vector<Patch*> all;
    for (const std::unique_ptr<Patch>& patch : patches) all.push_back(patch.get());
    if (Status applied = applyAll(all); !applied) {
      undoBodies();
      return applied;
    }
    passes_internal::finishInlined(model_, expanded_);
    summary_.nodes_expanded = origins_.size();
    summary_.nodes_changed = drafts_.size();
    for (const auto& [domain, target] : wanted_) {
      if (model_.opsetVersion(domain)) model_.setOpsetVersion(domain, target.version);
      for (Function* function : model_.functions) {
        if (OpsetImports(function->opset_import).versionOf(domain)) {
          edit_.setImportedVersion(function->opset_import, domain, target.version);
        }
      }
    }
    return Status::ok();
  }

  Model& model_;
  GraphEditor edit_;
  Targets wanted_;
  std::unique_ptr<InferredTypes> inferred_;  // made when a node first needs a type
  ValueTypeOf type_of_;

  std::vector<passes_internal::InlinedCall> expanded_;
  std::unordered_set<const Node*> calls_;  // the nodes expanded, without outputs until the end
  std::vector<Origin> origins_;
  std::unordered_map<const Node*, size_t> origin_of_;     // a copy from a body -> its origin
  std::unordered_map<const Node*, std::string> no_body_;  // a body refused: the full reason

  // This round's.
  ConversionSummary summary_;
  std::vector<std::string> blocked_;
  std::vector<std::unique_ptr<ops::NodeDraft>> drafts_;
  std::vector<std::pair<Node*, Origin>> expandable_;
  std::unordered_map<const Node*, size_t> order_;  // the drafted graph's, for readsEarlier
};

}  // namespace

Result<ConversionSummary> convertOpset(Model& model, std::span<const OpsetTarget> targets) {
  Result<Targets> wanted = validateTargets(targets);
  if (!wanted) return wanted.status();
  return OpsetConverter(model, std::move(wanted).value()).run();
}

Result<ConversionSummary> convertOpset(Model& model, int64_t version) {
  OpsetTarget target{"", version};
  return convertOpset(model, std::span<const OpsetTarget>(&target, 1));
}

}  // namespace onyx
