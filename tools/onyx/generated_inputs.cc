#include "generated_inputs.h"

#include <fmt/format.h>

#include <charconv>
#include <random>
#include <set>
#include <vector>

#include "onyx/core/array_elements.h"
#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"

namespace onyx::tool {

namespace {

Status refusal(std::string message) {
  return Status(ErrorCode::kInvalidArgument, std::move(message));
}

/// The values an integer type draws from: 0 .. count - 1.
uint64_t integerValueCount(const ElementTypeInfo& info) {
  constexpr uint64_t kWideIntegerValues = 10;
  if (info.bitWidth > 8) return kWideIntegerValues;
  return uint64_t{1} << (info.isSigned() ? info.bitWidth - 1 : info.bitWidth);
}

/// The input's dims, its symbolic ones sized from `sizes`.
Result<std::vector<int64_t>> concreteShape(std::string_view name, const Type& type,
                                           const DimSizes& sizes) {
  std::vector<int64_t> shape;
  for (size_t axis = 0; axis < type.shape->rank(); ++axis) {
    const Dimension& dim = type.shape->dims[axis];
    if (dim.isKnown()) {
      shape.push_back(*dim.dim_value);
      continue;
    }
    if (dim.isUnknown()) {
      return refusal(fmt::format(
          "input {} ({}): dimension {} has neither a size nor a name, so no value can be "
          "made up for it; give the input with --input {}=FILE",
          onyx::quoted(name), formatType(type), axis, name));
    }
    auto found = sizes.find(*dim.dim_param);
    if (found == sizes.end()) {
      return refusal(
          fmt::format("input {} ({}): dimension {} is {}; give its size with --dim "
                      "{}=VALUE",
                      onyx::quoted(name), formatType(type), axis, onyx::quoted(*dim.dim_param),
                      *dim.dim_param));
    }
    shape.push_back(found->second);
  }
  return shape;
}

}  // namespace

Status addDimSize(std::string_view binding, DimSizes& sizes) {
  size_t equals = binding.find('=');
  if (equals == std::string_view::npos || equals == 0) {
    return refusal(fmt::format("--dim takes NAME=VALUE, not {}", onyx::quoted(binding)));
  }
  std::string_view name = binding.substr(0, equals);
  std::string_view text = binding.substr(equals + 1);
  int64_t size = -1;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), size);
  if (error != std::errc() || end != text.data() + text.size() || size < 0) {
    return refusal(fmt::format("--dim {}: the size must be a non-negative integer, not {}", name,
                               onyx::quoted(text)));
  }
  if (!sizes.emplace(std::string(name), size).second) {
    return refusal(fmt::format("--dim {} is given twice", name));
  }
  return Status::ok();
}

Status checkDimSizesUsed(const Graph& graph, const DimSizes& sizes) {
  std::set<std::string_view> declared;
  for (const ValueInfo* input : graph.inputs) {
    const Type* type = input->value != nullptr ? input->value->type() : input->type;
    if (type == nullptr || !type->isTensor() || type->shape == nullptr) continue;
    for (const Dimension& dim : type->shape->dims) {
      if (dim.isSymbolic()) declared.insert(*dim.dim_param);
    }
  }
  for (const auto& [name, size] : sizes) {
    if (declared.contains(name)) continue;
    std::string known;
    for (std::string_view other : declared)
      known += (known.empty() ? "" : ", ") + std::string(other);
    return refusal(fmt::format(
        "--dim {}: no graph input has a dimension named {} ({})", name, onyx::quoted(name),
        known.empty() ? "the inputs have no named dimensions" : "the inputs' names: " + known));
  }
  return Status::ok();
}

Result<Array> generateInput(const Value& formal, const DimSizes& sizes, uint64_t seed) {
  std::string_view name = formal.name();
  const Type* type = formal.type();
  if (type == nullptr || type->kind == Type::Kind::kNone) {
    return refusal(fmt::format("input {} declares no type; give it with --input {}=FILE",
                               onyx::quoted(name), name));
  }
  if (!type->isTensor()) {
    return refusal(fmt::format(
        "input {} is a {}, and values are made up only for tensors; give it with --input "
        "{}=FILE",
        onyx::quoted(name), formatType(*type), name));
  }
  const ElementTypeInfo* info = type->elem_type ? elementTypeInfo(*type->elem_type) : nullptr;
  if (info == nullptr) {
    return refusal(fmt::format("input {} declares no element type; give it with --input {}=FILE",
                               onyx::quoted(name), name));
  }
  if (type->shape == nullptr) {
    return refusal(fmt::format("input {} ({}) declares no shape; give it with --input {}=FILE",
                               onyx::quoted(name), formatType(*type), name));
  }
  Result<std::vector<int64_t>> shape = concreteShape(name, *type, sizes);
  if (!shape) return shape.status();
  Result<Array> allocated = Array::allocate(info->type, *shape);
  if (!allocated) {
    return Status(allocated.status().code(),
                  fmt::format("input {}: {}", onyx::quoted(name), allocated.status().message()));
  }
  Array array = std::move(*allocated);
  if (array.isString()) return array;  // strings start empty

  // mt19937_64 and seed_seq are specified to the bit by the standard, so every platform draws
  // the same numbers; the distributions of <random> are not, hence the arithmetic below.
  std::vector<uint32_t> material = {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
  for (char c : name) material.push_back(static_cast<unsigned char>(c));
  std::seed_seq seeds(material.begin(), material.end());
  std::mt19937_64 engine(seeds);
  auto unit = [&engine] { return static_cast<double>(engine() >> 11) * 0x1.0p-53; };

  if (info->isComplex()) {
    // Stored as (real, imaginary) pairs of the part's type.
    size_t parts = 2 * array.size();
    if (info->type == ElementType::kComplex64) {
      for (size_t i = 0; i < parts; ++i) array.data<float>()[i] = static_cast<float>(unit());
    } else {
      for (size_t i = 0; i < parts; ++i) array.data<double>()[i] = unit();
    }
  } else if (info->type == ElementType::kBool) {
    for (size_t i = 0; i < array.size(); ++i) array.data<bool>()[i] = (engine() >> 63) != 0;
  } else if (info->isFloatingPoint()) {
    for (size_t i = 0; i < array.size(); ++i) storeDouble(array, i, unit());
  } else {
    uint64_t count = integerValueCount(*info);
    for (size_t i = 0; i < array.size(); ++i) {
      storeDouble(array, i, static_cast<double>(engine() % count));
    }
  }
  return array;
}

std::string describeGeneratedValues(ElementType type) {
  const ElementTypeInfo& info = *elementTypeInfo(type);
  if (type == ElementType::kString) return "empty strings";
  if (type == ElementType::kBool) return "true or false";
  if (info.isComplex()) return "both parts uniform in [0, 1)";
  if (info.isFloatingPoint()) return "uniform in [0, 1)";
  return fmt::format("integers 0..{}", integerValueCount(info) - 1);
}

void sizeInputs(Model& model, const DimSizes& sizes) {
  GraphEditor edit(model);
  for (const ValueInfo* info : model.graph->inputs) {
    Value* value = info->value;
    const Type* type = value != nullptr ? value->type() : nullptr;
    if (type == nullptr || !type->isTensor() || type->shape == nullptr) continue;
    std::vector<Dim> dims;
    bool changed = false;
    for (const Dimension& dim : type->shape->dims) {
      auto size = dim.isSymbolic() ? sizes.find(*dim.dim_param) : sizes.end();
      if (size != sizes.end()) {
        dims.emplace_back(size->second);
        changed = true;
      } else if (dim.isKnown()) {
        dims.emplace_back(*dim.dim_value);
      } else if (dim.isSymbolic()) {
        dims.emplace_back(*dim.dim_param);
      } else {
        dims.emplace_back();
      }
    }
    if (changed) edit.setType(value, edit.tensorType(type->elem_type.value_or(0), dims));
  }
}

}  // namespace onyx::tool
