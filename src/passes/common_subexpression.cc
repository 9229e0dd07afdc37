// `common-subexpression`: nodes that compute the same thing are merged into the first.
//
// Two nodes are the same computation when they have the same operator (domain, op_type,
// overload), read the same values in the same slots, have the same number of outputs and
// attributes that are equal as values (in any order; floats bit for bit, tensors element by
// element). Left alone: random operators (two draws differ), operators onyx does not know
// (unless PassContext::aggressive: they might have side effects or be random), nodes with
// no outputs, and nodes that hold graphs (If, Loop, Scan: comparing graphs is not done yet).
// The operands of commutative binary operators (OpTraits::kCommutative: Add, Mul, Equal, And,
// Or, Xor, the bitwise ones, Sum and Mean of two) match in either order: Add(a, b) and
// Add(b, a) merge.
//
// One walk per graph in list order, so the readers of a merged node are looked at after it
// and merge in the same walk (their inputs compared as the recorded merges leave them; the
// edits are applied at the run's end, RecordingGraphPass). Candidates are found by a hash of the
// operator, the inputs and the attributes; the hash table is only looked up, never iterated, so the
// result does not depend on pointer values.
#include <cstdint>
#include <cstring>
#include <vector>

#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/standard_passes.h"
#include "passes/pass_helpers.h"
#include "passes/pass_patches.h"

namespace onyx {

namespace {

using passes_internal::Bypass;
using passes_internal::Bypasses;
using passes_internal::isKnownOperator;

void mix(size_t& seed, size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

size_t hashText(std::string_view text) { return std::hash<std::string_view>()(text); }

bool sameTensor(const Tensor* a, const Tensor* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  if (a->data_type != b->data_type || a->dims.size() != b->dims.size() ||
      !std::equal(a->dims.begin(), a->dims.end(), b->dims.begin())) {
    return false;
  }
  Result<Array> x = arrayFromTensor(*a);
  Result<Array> y = arrayFromTensor(*b);
  if (!x || !y) return false;
  if (x->isString()) return y->isString() && x->strings() == y->strings();
  std::span<const std::byte> bx = x->bytes();
  std::span<const std::byte> by = y->bytes();
  return bx.size() == by.size() && std::memcmp(bx.data(), by.data(), bx.size()) == 0;
}

bool sameSparse(const SparseTensor* a, const SparseTensor* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  return std::equal(a->dims.begin(), a->dims.end(), b->dims.begin(), b->dims.end()) &&
         sameTensor(a->values, b->values) && sameTensor(a->indices, b->indices);
}

bool sameFloats(std::span<const float> a, std::span<const float> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Whether two attributes hold the same value. Graphs and types are not compared (such
// attributes make nodes unequal unless they are the same object).
bool sameAttribute(const Attribute& a, const Attribute& b) {
  if (a.nameOrEmpty() != b.nameOrEmpty() || a.kind() != b.kind() ||
      a.isReference() != b.isReference()) {
    return false;
  }
  if (a.isReference()) return a.rare().ref_attr_name == b.rare().ref_attr_name;
  const AttributeRareFields& x = a.rare();
  const AttributeRareFields& y = b.rare();
  switch (a.kind()) {
    case AttributeKind::kFloat: {
      float fa = a.f.value_or(0.0f);
      float fb = b.f.value_or(0.0f);
      return std::memcmp(&fa, &fb, sizeof(float)) == 0;
    }
    case AttributeKind::kInt: return a.i.value_or(0) == b.i.value_or(0);
    case AttributeKind::kString: return a.s.value_or("") == b.s.value_or("");
    case AttributeKind::kTensor: return sameTensor(a.t, b.t);
    case AttributeKind::kFloats:
      return sameFloats(std::span<const float>(a.floats.begin(), a.floats.end()),
                        std::span<const float>(b.floats.begin(), b.floats.end()));
    case AttributeKind::kInts:
      return std::equal(a.ints.begin(), a.ints.end(), b.ints.begin(), b.ints.end());
    case AttributeKind::kStrings:
      return std::equal(x.strings.begin(), x.strings.end(), y.strings.begin(), y.strings.end());
    case AttributeKind::kTensors:
      return std::equal(x.tensors.begin(), x.tensors.end(), y.tensors.begin(), y.tensors.end(),
                        sameTensor);
    case AttributeKind::kSparseTensor: return sameSparse(x.sparse_tensor, y.sparse_tensor);
    case AttributeKind::kSparseTensors:
      return std::equal(x.sparse_tensors.begin(), x.sparse_tensors.end(), y.sparse_tensors.begin(),
                        y.sparse_tensors.end(), sameSparse);
    case AttributeKind::kTypeProto: return x.tp == y.tp;
    case AttributeKind::kTypeProtos:
      return std::equal(x.type_protos.begin(), x.type_protos.end(), y.type_protos.begin(),
                        y.type_protos.end());
    default: return false;
  }
}

const Attribute* attributeNamed(const Node& node, std::string_view name) {
  return node.attribute(name);
}

// Whether `node`, of operator traits `traits`, has two operands that may be swapped bit for
// bit (OpTraits::kCommutative).
bool commutes(const Node& node, OpTraits traits) {
  return node.inputCount() == 2 && hasTraits(traits, OpTraits::kCommutative);
}

// `commutative`: whether the two (of one operator, in one scope) commute. Inputs are compared
// as the recorded merges leave them.
bool sameInputs(const Node& a, const Node& b, bool commutative, const Bypasses& merged) {
  auto in = [&merged](const Node& node, size_t i) { return merged.resolved(node.input(i)); };
  bool in_order = true;
  for (size_t i = 0; i < a.inputCount() && in_order; ++i) in_order = in(a, i) == in(b, i);
  if (in_order) return true;
  return commutative && in(a, 0) == in(b, 1) && in(a, 1) == in(b, 0);
}

bool sameComputation(const Node& a, const Node& b, bool commutative, const Bypasses& merged) {
  if (a.opType() != b.opType() || a.domainOrDefault() != b.domainOrDefault() ||
      a.rare().overload != b.rare().overload || a.inputCount() != b.inputCount() ||
      a.outputCount() != b.outputCount() || a.attributes.size() != b.attributes.size()) {
    return false;
  }
  if (!sameInputs(a, b, commutative, merged)) return false;
  for (size_t i = 0; i < a.outputCount(); ++i) {
    if ((a.output(i) == nullptr) != (b.output(i) == nullptr)) return false;
  }
  for (const Attribute* attribute : a.attributes) {
    const Attribute* other = attributeNamed(b, attribute->nameOrEmpty());
    if (other == nullptr || !sameAttribute(*attribute, *other)) return false;
  }
  return true;
}

// Equal computations hash equally: attributes are mixed in without their order, and by
// their names and kinds only (values are compared on a hit). Inputs are mixed in by address:
// that only spreads the buckets; which node a duplicate merges into does not depend on it,
// since all equal nodes share a bucket, scanned in list order.
size_t hashOf(const Node& node, bool commutative, const Bypasses& merged) {
  auto in = [&](size_t i) { return std::hash<const Value*>()(merged.resolved(node.input(i))); };
  size_t seed = hashText(node.opType());
  mix(seed, hashText(node.domainOrDefault()));
  if (commutative) {
    mix(seed, in(0) + in(1));  // in either order
  } else {
    for (size_t i = 0; i < node.inputCount(); ++i) mix(seed, in(i));
  }
  size_t attributes = 0;
  for (const Attribute* attribute : node.attributes) {
    attributes += hashText(attribute->nameOrEmpty()) ^ static_cast<size_t>(attribute->kind());
  }
  mix(seed, attributes);
  return seed;
}

constexpr size_t kEnd = SIZE_MAX;

// A bucket of kept nodes with one hash: positions of its first and last node.
struct Bucket {
  size_t hash = 0;
  size_t first = kEnd;
  size_t last = kEnd;
};

// Buckets by hash, open addressing over one array sized for every node of the graph (the
// table never grows).
class Buckets {
 public:
  explicit Buckets(size_t nodes) {
    size_t capacity = 16;
    while (capacity < nodes * 2) capacity *= 2;
    slots_.resize(capacity);
  }
  // The bucket of `hash`, empty (first == kEnd) when new.
  Bucket& of(size_t hash) {
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Bucket& slot = slots_[i];
      if (slot.first == kEnd) {
        slot.hash = hash;
        return slot;
      }
      if (slot.hash == hash) return slot;
    }
  }

 private:
  std::vector<Bucket> slots_;
};

class CommonSubexpressionPass final : public passes_internal::RecordingGraphPass {
 public:
  std::string_view name() const override { return "common-subexpression"; }
  std::string_view summary() const override {
    return "merge nodes that compute the same thing from the same inputs";
  }
  Preserves preserves() const override { return Preserves::kNodeOrder | Preserves::kInferredTypes; }

 protected:
  Result<PassResult> recordGraph(Model& model, Graph& graph, const GraphScope& scope,
                                 PassContext& context,
                                 passes_internal::PassPatches& patches) override {
    PassResult result;
    Bypasses merged(patches);
    // The nodes kept so far, each bucket a list through `later` in list order (no allocation
    // per bucket or node): an open-addressing table of hash -> (first, last) positions in
    // `kept`.
    std::vector<Node*> kept;
    std::vector<size_t> later;
    std::vector<Node*> nodes(graph.nodes().begin(), graph.nodes().end());
    Buckets buckets(nodes.size());
    for (Node* node : nodes) {
      // One registry lookup per node answers what CSE asks of its operator.
      OpTraits traits = traitsOf(*node, scope);
      if (!mergeable(*node, traits, context.aggressive, context.callees(model))) continue;
      bool commutative = commutes(*node, traits);
      Bucket& bucket = buckets.of(hashOf(*node, commutative, merged));
      Node* first = nullptr;
      for (size_t at = bucket.first; at != kEnd; at = later[at]) {
        if (sameComputation(*kept[at], *node, commutative, merged)) {
          first = kept[at];
          break;
        }
      }
      if (first != nullptr) {
        result += merge(merged, *node, *first);
        continue;
      }
      kept.push_back(node);
      later.push_back(kEnd);
      size_t position = kept.size() - 1;
      if (bucket.first == kEnd) {
        bucket.first = position;
      } else {
        later[bucket.last] = position;
      }
      bucket.last = position;
    }
    return result;
  }

 private:
  static bool mergeable(const Node& node, OpTraits traits, bool aggressive,
                        const CalleeResolver& callees) {
    if (node.outputCount() == 0 || node.holdsGraphs() ||
        hasTraits(traits, OpTraits::kNondeterministic)) {
      return false;
    }
    return aggressive || isKnownOperator(node, callees);
  }

  // Records the readers of `duplicate`'s outputs pointed at `first`'s and its removal. An
  // output whose name cannot be kept (Bypasses) stays, read as before, and so does the node.
  static PassResult merge(Bypasses& merged, Node& duplicate, Node& first) {
    PassResult result;
    bool moved = false;
    for (size_t i = 0; i < duplicate.outputCount(); ++i) {
      Value* output = duplicate.output(i);
      if (output == nullptr || !output->hasUses() || first.output(i) == nullptr) continue;
      Bypass done = merged.bypass(duplicate, i, *first.output(i));
      if (done == Bypass::kNodeRemoved) {
        result.nodes_removed = 1;
        return result;
      }
      moved = moved || done == Bypass::kDone;
    }
    if (!duplicate.hasUses()) {
      merged.remove(duplicate);
      result.nodes_removed = 1;
    } else if (moved) {
      result.nodes_rewritten = 1;
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> makeCommonSubexpressionPass() {
  return std::make_unique<CommonSubexpressionPass>();
}

}  // namespace onyx
