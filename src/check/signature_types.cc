// R51: the declared types of a node's inputs and outputs fit its operator's type constraints,
// and every type variable stands for one type across the parameters that share it. Only what
// is declared is checked (graph inputs and outputs, value_info, initializers); a value of
// unknown type fits anything.
#include <vector>

#include "check/signature_rules.h"
#include "check/value_text.h"
#include "onyx/ir/type.h"
#include "onyx/ops/schema_text.h"

namespace onyx::check {

namespace {

// A type in ONNX's notation, without shapes: tensor(float), seq(tensor(int64)),
// map(string, float), optional(seq(tensor(bool))).
void appendTypeText(std::string& text, const Type* type, int depth) {
  if (type == nullptr || type->kind == Type::Kind::kNone) {
    text += '?';
    return;
  }
  if (depth > 8) {
    text += "...";
    return;
  }
  auto element = [&](const std::optional<int32_t>& code) {
    if (code) {
      text += elementTypeLabel(*code);
    } else {
      text += '?';
    }
  };
  switch (type->kind) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor:
      text += type->kind == Type::Kind::kTensor ? "tensor(" : "sparse_tensor(";
      element(type->elem_type);
      text += ')';
      return;
    case Type::Kind::kSequence:
    case Type::Kind::kOptional:
      text += type->kind == Type::Kind::kSequence ? "seq(" : "optional(";
      appendTypeText(text, type->elem, depth + 1);
      text += ')';
      return;
    case Type::Kind::kMap:
      text += "map(";
      element(type->key_type);
      text += ", ";
      if (type->elem != nullptr && type->elem->kind == Type::Kind::kTensor) {
        element(type->elem->elem_type);  // ONNX writes map values by their element type
      } else {
        appendTypeText(text, type->elem, depth + 1);
      }
      text += ')';
      return;
    case Type::Kind::kOpaque: text += "opaque"; return;
    case Type::Kind::kNone: return;
  }
}

std::string typeText(const Type& type) {
  std::string text;
  appendTypeText(text, &type, 0);
  return text;
}

// Whether two declared types are known to differ (shapes aside); what either leaves unknown
// agrees with anything.
bool knownToDiffer(const Type* a, const Type* b, int depth) {
  if (a == nullptr || b == nullptr || depth > 64) return false;
  if (a->kind == Type::Kind::kNone || b->kind == Type::Kind::kNone) return false;
  if (a->kind != b->kind) return true;
  auto differ = [](const std::optional<int32_t>& x, const std::optional<int32_t>& y) {
    return x && y && *x != *y;
  };
  switch (a->kind) {
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor: return differ(a->elem_type, b->elem_type);
    case Type::Kind::kMap:
      if (differ(a->key_type, b->key_type)) return true;
      return knownToDiffer(a->elem, b->elem, depth + 1);
    case Type::Kind::kSequence:
    case Type::Kind::kOptional: return knownToDiffer(a->elem, b->elem, depth + 1);
    default: return false;
  }
}

// Whether R51 can judge `type`: every part of it is set and known. A part that is not — no
// kind, an element type 0 or of an unknown code, a sequence without its element, a map
// without its key, an unnamed opaque type — is a fault of the type itself, which the type
// rules report (R83–R88); R51 stays silent rather than report it a second time.
bool judgeable(const Type& type, int depth) {
  if (depth > 64) return false;
  auto known = [](const std::optional<int32_t>& code) {
    return !code || elementTypeInfo(*code) != nullptr;  // absent: unknown, which fits anything
  };
  switch (type.kind) {
    case Type::Kind::kNone: return false;
    case Type::Kind::kTensor:
    case Type::Kind::kSparseTensor: return known(type.elem_type);
    case Type::Kind::kSequence:
    case Type::Kind::kOptional: return type.elem != nullptr && judgeable(*type.elem, depth + 1);
    case Type::Kind::kMap:
      return type.key_type && elementTypeInfo(*type.key_type) != nullptr && type.elem != nullptr &&
             judgeable(*type.elem, depth + 1);
    case Type::Kind::kOpaque: return !type.opaque_name.value_or(std::string_view()).empty();
  }
  return false;
}

// What a value is declared to be: its Type, or for an initializer without a declaration the
// tensor its data is (kind and element type alone: building a Type per argument would cost
// more than the whole rule).
struct Declared {
  const Type* type = nullptr;
  Type::Kind kind = Type::Kind::kNone;  // when `type` is null
  std::optional<int32_t> elem;          // when `type` is null

  static Declared of(const Value& value) {
    if (const Type* type = value.type()) {
      if (!judgeable(*type, 0)) return {};
      return {type, Type::Kind::kNone, std::nullopt};
    }
    std::optional<int32_t> elem = value.elemType();
    if (!elem || elementTypeInfo(*elem) == nullptr) return {};  // R61 reports the tensor
    return {nullptr,
            value.sparseInitializer() != nullptr ? Type::Kind::kSparseTensor : Type::Kind::kTensor,
            elem};
  }
  bool known() const { return type != nullptr || kind != Type::Kind::kNone; }
  Type::Kind topKind() const { return type != nullptr ? type->kind : kind; }
  std::optional<int32_t> topElem() const { return type != nullptr ? type->elem_type : elem; }

  bool fits(const TypeSet& allowed) const {
    if (type != nullptr) return allowed.allows(*type);
    if (kind != Type::Kind::kTensor) return false;  // no operator takes sparse tensors
    return *elem > 0 && *elem < 32 && ((allowed.tensor >> *elem) & 1u) != 0;
  }
  bool knownToDiffer(const Declared& other) const {
    if (type != nullptr && other.type != nullptr) return check::knownToDiffer(type, other.type, 0);
    if (topKind() == Type::Kind::kNone || other.topKind() == Type::Kind::kNone) return false;
    if (topKind() != other.topKind()) return true;
    std::optional<int32_t> mine = topElem();
    std::optional<int32_t> theirs = other.topElem();
    return mine && theirs && *mine != *theirs;
  }
  std::string text() const {
    if (type != nullptr) return typeText(*type);
    return std::string(kind == Type::Kind::kSparseTensor ? "sparse_tensor(" : "tensor(") +
           elementTypeLabel(*elem) + ")";
  }
};

// The constraint a formal parameter names. Op files spell the name with the same literal,
// which the compiler merges, so a pointer compare finds it first almost always.
const TypeConstraint* constraintOf(const OpSchema& schema, const FormalParameter& formal) {
  for (const TypeConstraint& constraint : schema.constraints) {
    if (constraint.name == formal.type) return &constraint;
  }
  return schema.constraint(formal.type);
}

// A type variable and the argument first bound to it. Trivial, so that the bindings of a
// node cost nothing to set up.
struct Binding {
  const TypeConstraint* constraint;
  Declared declared;
  bool is_output;
  size_t position;
  const char* formal;
};

class TypeCheck {
 public:
  explicit TypeCheck(const SignatureSite& site) : site_(site) {}

  void argument(const Value* value, size_t position, bool is_output) {
    if (value == nullptr) return;  // left out
    const OpSchema& schema = site_.schema;
    const FormalParameter* formal =
        is_output ? schema.outputAt(position) : schema.inputAt(position);
    if (formal == nullptr) return;  // R43, R44
    Declared declared = Declared::of(*value);
    if (!declared.known()) return;
    const TypeConstraint* constraint = constraintOf(schema, *formal);
    if (constraint == nullptr) return;
    if (!declared.fits(constraint->allowed)) {
      bool literal = std::string_view(constraint->name).find('(') != std::string_view::npos;
      site_.out.error("R51", place(is_output, position),
                      what(is_output, position, formal->name) + " has type " + declared.text() +
                          ", which " + site_.label() + " does not accept there: " +
                          (literal ? std::string("it takes ") + constraint->name
                                   : std::string("it takes type ") + constraint->name +
                                         ", one of " + typeSetText(constraint->allowed)));
      return;
    }
    if (!formal->homogeneous) return;  // each argument of its own type
    for (size_t i = 0; i < bound_count_; ++i) {
      const Binding& binding = bindings_[i];
      if (binding.constraint != constraint) continue;
      if (binding.declared.knownToDiffer(declared)) {
        site_.out.error("R51", place(is_output, position),
                        what(is_output, position, formal->name) + " has type " + declared.text() +
                            ", but " + what(binding.is_output, binding.position, binding.formal) +
                            " has type " + binding.declared.text() + "; " + site_.label() +
                            " gives both type " + constraint->name +
                            ", which stands for one type in a node");
      }
      return;
    }
    if (bound_count_ < kMaxBindings) {
      bindings_[bound_count_++] = {constraint, declared, is_output, position, formal->name};
    }
  }

 private:
  std::string place(bool is_output, size_t position) const {
    return is_output ? site_.outputPath(position) : site_.inputPath(position);
  }
  static std::string what(bool is_output, size_t position, const char* formal) {
    return std::string(is_output ? "output " : "input ") + std::to_string(position) + " (" +
           formal + ")";
  }

  // Schemas have a few type variables; past this many, later ones are not bound.
  static constexpr size_t kMaxBindings = 8;
  const SignatureSite& site_;
  Binding bindings_[kMaxBindings];
  size_t bound_count_ = 0;
};

}  // namespace

void checkTypeConstraints(const SignatureSite& site) {
  const Node& node = site.node;
  TypeCheck check(site);
  for (size_t i = 0; i < node.inputCount(); ++i) check.argument(node.input(i), i, false);
  for (size_t i = 0; i < node.outputCount(); ++i) check.argument(node.output(i), i, true);
}

}  // namespace onyx::check
