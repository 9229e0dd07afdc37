#include "infer/signature_types.h"

#include <bit>
#include <cstring>

#include "onyx/ir/node.h"
#include "onyx/ops/schema_text.h"

namespace onyx::infer {

namespace {

// The type without dimensions: what a type variable carries from an input to an output.
InferredType withoutShape(const InferredType& type) {
  InferredType stripped;
  stripped.kind = type.kind;
  stripped.elem_type = type.elem_type;
  if (type.elem != nullptr) {
    stripped.elem = std::make_shared<const InferredType>(withoutShape(*type.elem));
  }
  return stripped;
}

// The single type a constraint allows, or unknown when it allows several.
InferredType onlyTypeAllowed(const TypeSet& allowed) {
  const uint32_t members[] = {allowed.tensor,
                              allowed.sequence,
                              allowed.optional_tensor,
                              allowed.optional_sequence,
                              allowed.string_map,
                              allowed.int64_map,
                              allowed.string_map_sequence,
                              allowed.int64_map_sequence};
  int populated = -1;
  for (int member = 0; member < 8; ++member) {
    if (members[member] == 0) continue;
    if (populated >= 0 || std::popcount(members[member]) != 1) return {};
    populated = member;
  }
  if (populated < 0) return {};
  int32_t element = std::countr_zero(members[populated]);
  InferredType tensor = InferredType::tensor(element);
  constexpr int32_t kString = 8;
  constexpr int32_t kInt64 = 7;
  switch (populated) {
    case 0: return tensor;
    case 1: return InferredType::sequence(tensor);
    case 2: return InferredType::optional(tensor);
    case 3: return InferredType::optional(InferredType::sequence(tensor));
    case 4: return InferredType::map(kString, tensor);
    case 5: return InferredType::map(kInt64, tensor);
    case 6: return InferredType::sequence(InferredType::map(kString, tensor));
    default: return InferredType::sequence(InferredType::map(kInt64, tensor));
  }
}

}  // namespace

void applySignatureTypes(InferenceContext& ctx) {
  const OpSchema& schema = ctx.schema();
  for (size_t out = 0; out < ctx.outputCount(); ++out) {
    if (!ctx.hasOutput(out)) continue;
    const FormalParameter* formal = schema.outputAt(out);
    if (formal == nullptr) continue;
    if (formal->option == ParameterOption::kVariadic && !formal->homogeneous) continue;
    bool bound = false;
    for (size_t in = 0; in < ctx.inputCount() && !bound; ++in) {
      const FormalParameter* input_formal = schema.inputAt(in);
      if (input_formal == nullptr || std::strcmp(input_formal->type, formal->type) != 0) continue;
      if (input_formal->option == ParameterOption::kVariadic && !input_formal->homogeneous) {
        continue;
      }
      const InferredType* type = ctx.inputType(in);
      if (type == nullptr) continue;
      ctx.setOutputType(out, withoutShape(*type));
      bound = true;
    }
    if (bound) continue;
    if (const TypeConstraint* constraint = schema.constraint(formal->type)) {
      InferredType only = onlyTypeAllowed(constraint->allowed);
      if (only.isKnown()) ctx.setOutputType(out, std::move(only));
    }
  }
}

std::vector<std::string> disallowedInputTypes(const InferenceContext& ctx) {
  std::vector<std::string> found;
  const OpSchema& schema = ctx.schema();
  for (size_t in = 0; in < ctx.inputCount(); ++in) {
    const FormalParameter* formal = schema.inputAt(in);
    const InferredType* type = ctx.inputType(in);
    // Tensors of a known element type only: other kinds are left to the rules.
    if (formal == nullptr || type == nullptr || type->kind != InferredType::Kind::kTensor ||
        type->elem_type <= 0 || type->elem_type >= 32) {
      continue;
    }
    const TypeConstraint* constraint = schema.constraint(formal->type);
    if (constraint == nullptr || ((constraint->allowed.tensor >> type->elem_type) & 1u) != 0) {
      continue;
    }
    TypeSet held;
    held.tensor = 1u << type->elem_type;
    std::string takes = typeSetText(constraint->allowed);
    found.push_back("input " + std::to_string(in) + " (" + formal->name + ") has type " +
                    typeSetNames(held).front() + ", which " + std::string(ctx.node().opType()) +
                    "-" + std::to_string(schema.since_version) + " does not accept: it takes " +
                    (takes.empty() ? std::string("no tensor") : takes));
  }
  return found;
}

}  // namespace onyx::infer
