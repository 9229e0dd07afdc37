// onyx/ops/op_schema.h — the signature of one version of an operator (OpSchema), and an
// operator with all its versions (Operator).
//
// Schemas are constant data compiled into libonyx, one file per operator under src/ops
// (docs/ops.md): nothing is built or registered at startup, and all of it is immutable and
// safe to read from any number of threads. Lists are std::initializer_list views of static
// arrays; names are NUL-terminated literals. Look schemas up through onyx/ops/registry.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/attribute_kind.h"
#include "onyx/ir/opset_imports.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct Type;
class InferenceContext;
class KernelContext;
class Status;
struct FunctionBodyContext;
namespace ops {
class NodeDraft;
}

/// The standard domains. A node's domain "" is kOnnxDomain (ir's kDefaultDomainAlias, the
/// spelling the registry keys the default domain by).
inline constexpr const char* kOnnxDomain = kDefaultDomainAlias.data();
inline constexpr const char* kMlDomain = "ai.onnx.ml";
inline constexpr const char* kTrainingDomain = "ai.onnx.training";
inline constexpr const char* kPreviewDomain = "ai.onnx.preview";
inline constexpr const char* kPreviewTrainingDomain = "ai.onnx.preview.training";

/// Facts about what one version of an operator computes, set in its op file beside its
/// signature. The passes and the evaluator read them (onyx/ops/registry.h: traitsOf) and keep
/// no lists of operator names of their own. A set of flags.
enum class OpTraits : uint32_t {
  kNone = 0,
  /// A node with exactly two inputs gives the same bits with the two swapped (IEEE addition
  /// and multiplication commute; so do comparisons for equality and logic). Not Max and Min,
  /// whose choice between +0 and -0, or between two NaNs, may favour one side; not the
  /// versions whose `broadcast` attribute stretches only the second input.
  kCommutative = 1u << 0,
  /// Output element k is a function of input element k of each input alone (inputs
  /// broadcast as numpy does), the same function at every k: computed in any element order
  /// or memory layout, it gives the same result (channels-last kernels rely on it).
  kElementwise = 1u << 1,
  /// The output holds the elements of input 0 in their order; only the shape changes
  /// (Reshape, Squeeze, Unsqueeze, Flatten).
  kShapeOnly = 1u << 2,
  /// Draws random numbers: two nodes on the same inputs need not compute the same thing, and
  /// a run is not repeatable without a seed.
  kNondeterministic = 1u << 3,
  /// Converts between real numbers and quantized integers: it is the format of a quantized
  /// model, so folding it into a constant would undo the quantization (a DequantizeLinear of
  /// int8 weights becomes float weights four times the size).
  kQuantization = 1u << 4,
  /// The output is made of input 0's shape, not its elements (Shape, Size): where types are
  /// known, shape inference knows the output's elements.
  kReadsShape = 1u << 5,
  /// Output 0 is input 0 with some elements replaced, and the kernel, given output memory
  /// that is input 0's own, writes only the replaced elements there (it reads none of input
  /// 0's after writing): an output bound where that input lies is updated in place
  /// (TensorScatter, a decoder's cache of fixed capacity).
  kUpdatesInPlace = 1u << 6,
};

constexpr OpTraits operator|(OpTraits a, OpTraits b) {
  return static_cast<OpTraits>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
/// Whether `set` has every flag of `traits`.
constexpr bool hasTraits(OpTraits set, OpTraits traits) {
  return (static_cast<uint32_t>(set) & static_cast<uint32_t>(traits)) ==
         static_cast<uint32_t>(traits);
}

/// The names of the flags in `traits`, in flag order, as `onyx ops` prints them (one name a
/// flag of OpTraits, listed in op_schema.cc).
std::vector<std::string_view> traitNames(OpTraits traits);

/// How many actual arguments a formal parameter takes.
enum class ParameterOption : uint8_t {
  kSingle,    // exactly one, named
  kOptional,  // one, possibly "" (left out); trailing ones may be omitted
  kVariadic,  // min_count or more; only the last formal parameter
};

struct FormalParameter {
  const char* name = "";
  /// The name of an entry in OpSchema::constraints: a type variable ("T") or, where the
  /// parameter has one fixed type, that type's text ("tensor(int64)").
  const char* type = "";
  ParameterOption option = ParameterOption::kSingle;
  uint8_t min_count = 1;    // kVariadic: the fewest arguments
  bool homogeneous = true;  // kVariadic: all arguments have one type
};

/// A set of types. Each member is a set of element types, bit e standing for the
/// TensorProto.DataType code e (1 << 1 is float, 1 << 7 is int64). The value type of a map
/// is a tensor of the element type; ONNX's maps use string and int64 keys only.
struct TypeSet {
  uint32_t tensor = 0;               // tensor(e)
  uint32_t sequence = 0;             // seq(tensor(e))
  uint32_t optional_tensor = 0;      // optional(tensor(e))
  uint32_t optional_sequence = 0;    // optional(seq(tensor(e)))
  uint32_t string_map = 0;           // map(string, e)
  uint32_t int64_map = 0;            // map(int64, e)
  uint32_t string_map_sequence = 0;  // seq(map(string, e))
  uint32_t int64_map_sequence = 0;   // seq(map(int64, e))

  constexpr TypeSet operator|(const TypeSet& other) const {
    return {tensor | other.tensor,
            sequence | other.sequence,
            optional_tensor | other.optional_tensor,
            optional_sequence | other.optional_sequence,
            string_map | other.string_map,
            int64_map | other.int64_map,
            string_map_sequence | other.string_map_sequence,
            int64_map_sequence | other.int64_map_sequence};
  }
  constexpr bool operator==(const TypeSet& other) const = default;
  constexpr bool empty() const { return *this == TypeSet{}; }

  /// Whether a value of `type` may bind to this set. What `type` leaves unknown (no element
  /// type, no sequence element) is taken as fitting: only a type known to be outside the set
  /// gives false. O(nesting depth).
  bool allows(const Type& type) const;
};

struct TypeConstraint {
  const char* name = "";  // "T", or a literal type's text (see FormalParameter::type)
  TypeSet allowed;
};

struct AttributeSpec {
  const char* name = "";
  AttributeKind kind = AttributeKind::kUndefined;
  bool required = false;
  /// The value an absent attribute has. Without one, an absent optional attribute means
  /// what the operator's definition says (often "infer it from the inputs").
  bool has_default = false;
  int64_t default_int = 0;                                  // kInt
  float default_float = 0;                                  // kFloat
  const char* default_string = "";                          // kString
  std::initializer_list<int64_t> default_ints = {};         // kInts
  std::initializer_list<const char*> default_strings = {};  // kStrings
};

/// A function body in the ONNX text syntax: a whole function, its header importing the opsets
/// the body is written against and declaring the schema's attributes with their defaults, e.g.
/// `<domain: "", opset_import: ["" : 18]> Softsign (input) => (output) { ... }`. Attribute
/// references are written `@name`.
struct FunctionBodyText {
  /// The version of the operator's domain from which this body stands for the operator, up
  /// to the next body's (or to the end of the schema's versions). The header imports the
  /// domain at the version the body is written against: this one or an earlier one whose
  /// operators it uses mean the same here (Selu 22 keeps Selu 6's body, written for 18).
  int opset = 0;
  const char* text = "";
};

/// Builds the body for one node, when it depends on the node (its attributes, which inputs
/// and outputs it has, its input element types): the text of a whole function, as in
/// FunctionBodyText, or an error saying why the node allows none (an input type it needs is
/// unknown, an attribute value it cannot express). Schemas are constant data, so this is a
/// plain function pointer; FunctionBodyContext is in onyx/ops/function_body.h.
using FunctionBodyBuilder = Result<std::string> (*)(const FunctionBodyContext& context);

/// Moves a node across one version step of its operator (onyx/passes/opset_conversion.h):
/// rewrites the draft (src/ops/node_draft.h) into what the other version means by it, or
/// returns why it cannot.
using VersionAdapter = Status (*)(ops::NodeDraft& draft);

/// What changed from an operator's previous version to this one, and how a node crosses the
/// step in each direction. Written in the op file beside the version; a step nobody has
/// reviewed is refused by the converter (the table in docs/opset-conversion.md lists them).
struct VersionStep {
  /// Someone compared the two versions and wrote down `change`.
  bool reviewed = false;
  /// What changed, in a few words ("bfloat16 added", "axes became an input").
  const char* change = "";
  /// previous → this and this → previous; null: the node stays as it is, and the converter
  /// checks it against the target version's signature (attributes, arity, types).
  VersionAdapter up = nullptr;
  VersionAdapter down = nullptr;
  /// When an adapter refuses some nodes: which, in a few words (for the table).
  const char* up_refuses = "";
  const char* down_refuses = "";
};

/// One version of an operator: it applies to opset versions from since_version up to the
/// next version's since_version.
struct OpSchema {
  int since_version = 0;
  /// What this version computes, beyond its signature (OpTraits).
  OpTraits traits = OpTraits::kNone;
  /// The operator is withdrawn from this version on; the signature is the last one it had.
  bool deprecated = false;
  std::initializer_list<FormalParameter> inputs = {};
  std::initializer_list<FormalParameter> outputs = {};
  std::initializer_list<AttributeSpec> attributes = {};  // sorted by name
  std::initializer_list<TypeConstraint> constraints = {};
  /// When not empty, the only output counts a node may have, a rule beside the bounds
  /// (BatchNormalization gives 1 output, or all of them: 1 or 3).
  std::initializer_list<uint8_t> output_counts = {};
  /// The node may carry attributes the schema does not declare (LayerNormalization 17, as
  /// onnx defines it): the checker does not report unknown ones.
  bool unchecked_attributes = false;
  /// Where the spec defines the operator as a function: fixed bodies (ascending opset, none
  /// below since_version), or a builder that applies from since_version on. At most one of
  /// the two. onyx/ops/function_body.h gives a node's body.
  std::initializer_list<FunctionBodyText> function_bodies = {};
  FunctionBodyBuilder build_function_body = nullptr;
  /// The type and shape inference rule (onyx/ops/inference_context.h); null when the
  /// version has none of its own (the engine still applies what the signature implies).
  void (*infer)(InferenceContext&) = nullptr;
  /// The reference kernel (onyx/ops/kernel_context.h); null when onyx cannot run it yet.
  Status (*kernel)(KernelContext&) = nullptr;
  /// How a node crosses from the previous version to this one and back (unused on a first
  /// version).
  VersionStep step = {};

  static constexpr size_t kUnbounded = static_cast<size_t>(-1);

  /// The number of actual inputs a node may have (trailing optional inputs may be left out;
  /// a variadic one takes min_count or more). maxInputs() is kUnbounded after a variadic.
  constexpr size_t minInputs() const { return minCount(inputs); }
  constexpr size_t maxInputs() const { return maxCount(inputs); }
  constexpr size_t minOutputs() const { return minCount(outputs); }
  constexpr size_t maxOutputs() const { return maxCount(outputs); }
  /// Whether a node may have `count` outputs: within the bounds and, where the schema lists
  /// output_counts, one of them.
  constexpr bool allowsOutputCount(size_t count) const {
    if (count < minOutputs() || count > maxOutputs()) return false;
    if (output_counts.size() == 0) return true;
    for (uint8_t allowed : output_counts) {
      if (allowed == count) return true;
    }
    return false;
  }

  /// The formal parameter the actual input at `position` binds to (the last, variadic one
  /// takes every position from its own on); null past the end.
  constexpr const FormalParameter* inputAt(size_t position) const {
    return formalAt(inputs, position);
  }
  constexpr const FormalParameter* outputAt(size_t position) const {
    return formalAt(outputs, position);
  }

  /// The attribute named `name`, or null. A binary search.
  const AttributeSpec* attribute(std::string_view name) const;
  /// The constraint named `name` (a formal parameter's `type`), or null.
  const TypeConstraint* constraint(std::string_view name) const;

 private:
  static constexpr size_t minCount(std::initializer_list<FormalParameter> formals) {
    size_t count = 0;
    size_t low = 0;
    for (const FormalParameter& formal : formals) {
      if (formal.option == ParameterOption::kVariadic) return count + formal.min_count;
      ++count;
      if (formal.option == ParameterOption::kSingle) low = count;
    }
    return low;
  }
  static constexpr size_t maxCount(std::initializer_list<FormalParameter> formals) {
    for (const FormalParameter& formal : formals) {
      if (formal.option == ParameterOption::kVariadic) return kUnbounded;
    }
    return formals.size();
  }
  static constexpr const FormalParameter* formalAt(std::initializer_list<FormalParameter> formals,
                                                   size_t position) {
    if (formals.size() == 0) return nullptr;
    if (position < formals.size()) return formals.begin() + position;
    const FormalParameter* last = formals.end() - 1;
    return last->option == ParameterOption::kVariadic ? last : nullptr;
  }
};

/// An operator of a domain with all its versions.
struct Operator {
  const char* domain = "";  // kOnnxDomain, kMlDomain, ...
  const char* name = "";
  std::initializer_list<OpSchema> versions = {};  // ascending since_version

  /// The version a node binds to when its domain is imported at `opset_version`: the one with
  /// the highest since_version not above it; null when the operator is younger than that.
  /// A deprecated version is returned like any other (the caller decides what to do).
  constexpr const OpSchema* at(int64_t opset_version) const {
    const OpSchema* found = nullptr;
    for (const OpSchema& schema : versions) {
      if (schema.since_version > opset_version) break;
      found = &schema;
    }
    return found;
  }
};

}  // namespace onyx

#pragma GCC visibility pop
