#include "ops/shape_rules.h"

#include <string>

#include "onyx/ir/node.h"

namespace onyx::ops {

std::optional<size_t> normalizeAxis(InferenceContext& ctx, int64_t axis, size_t rank,
                                    std::string_view what) {
  int64_t signed_rank = static_cast<int64_t>(rank);
  if (axis < -signed_rank || axis >= signed_rank) {
    ctx.fail(std::string(what) + " " + std::to_string(axis) + " is outside [" +
             std::to_string(-signed_rank) + ", " + std::to_string(signed_rank) +
             ") for an input of rank " + std::to_string(rank));
    return std::nullopt;
  }
  return static_cast<size_t>(axis < 0 ? axis + signed_rank : axis);
}

bool inputRankWithin(InferenceContext& ctx, size_t i, size_t least, size_t most) {
  std::optional<size_t> rank = ctx.hasInput(i) ? ctx.inputRank(i) : std::nullopt;
  if (!rank || (*rank >= least && *rank <= most)) return true;
  std::string wanted;
  if (least == most) {
    wanted = least == 0   ? "a scalar"
             : least == 1 ? "a vector (rank 1)"
                          : "rank " + std::to_string(least);
  } else if (most == kAnyRank) {
    wanted = "rank " + std::to_string(least) + " or more";
  } else {
    wanted = "rank " + std::to_string(least) + (most == least + 1 ? " or " : " to ") +
             std::to_string(most);
  }
  const FormalParameter* formal = ctx.schema().inputAt(i);
  std::string name = formal != nullptr ? formal->name : "input " + std::to_string(i);
  ctx.fail(name + " has rank " + std::to_string(*rank) + "; " + std::string(ctx.node().opType()) +
           " needs " + wanted);
  return false;
}

std::optional<Dims> broadcastShapes(InferenceContext& ctx, std::span<const Dims* const> shapes) {
  size_t rank = 0;
  for (const Dims* shape : shapes) rank = std::max(rank, shape->size());
  Dims result(rank, DimValue::known(1));
  for (size_t from_right = 1; from_right <= rank; ++from_right) {
    std::optional<DimValue> known;     // a number other than 1
    std::optional<DimValue> symbolic;  // the one symbol seen, while there is one
    bool several_symbols = false;
    for (const Dims* shape : shapes) {
      if (shape->size() < from_right) continue;
      DimValue dim = (*shape)[shape->size() - from_right];
      if (dim.is(1)) continue;
      if (dim.isKnown()) {
        if (known && !(*known == dim)) {
          ctx.fail("cannot broadcast dimension " + std::to_string(known->value()) + " with " +
                   std::to_string(dim.value()) + " (axis " + std::to_string(rank - from_right) +
                   " of the result)");
          return std::nullopt;
        }
        known = dim;
      } else if (!symbolic) {
        symbolic = dim;
      } else if (!(*symbolic == dim)) {
        several_symbols = true;
      }
    }
    DimValue& out = result[rank - from_right];
    if (known) {
      out = *known;
    } else if (several_symbols) {
      out = ctx.dims().fresh();
    } else if (symbolic) {
      out = *symbolic;
    }
  }
  return result;
}

DimValue productOf(InferenceContext& ctx, std::span<const DimValue> dims) {
  DimValue product = DimValue::known(1);
  for (DimValue dim : dims) product = ctx.dims().multiply(product, dim);
  return product;
}

void inferSameShape(InferenceContext& ctx) {
  if (const Dims* shape = ctx.inputShape(0)) ctx.setOutputShape(0, *shape);
}

void inferBroadcast(InferenceContext& ctx) {
  std::vector<const Dims*> shapes;
  for (size_t i = 0; i < ctx.inputCount(); ++i) {
    if (!ctx.hasInput(i)) continue;
    const Dims* shape = ctx.inputShape(i);
    if (shape == nullptr) return;
    shapes.push_back(shape);
  }
  if (shapes.empty()) return;
  if (std::optional<Dims> result = broadcastShapes(ctx, shapes)) {
    ctx.setOutputShape(0, std::move(*result));
  }
}

void inferBroadcastArithmetic(InferenceContext& ctx, Arithmetic op) {
  inferBroadcast(ctx);
  const Dims* left = ctx.inputData(0);
  const Dims* right = ctx.inputData(1);
  if (left == nullptr || right == nullptr || left->empty() || right->empty()) return;
  if (left->size() != right->size() && left->size() != 1 && right->size() != 1) return;
  size_t count = std::max(left->size(), right->size());
  Dims result;
  result.reserve(count);
  SymbolicDims& dims = ctx.dims();
  for (size_t i = 0; i < count; ++i) {
    DimValue a = (*left)[left->size() == 1 ? 0 : i];
    DimValue b = (*right)[right->size() == 1 ? 0 : i];
    switch (op) {
      case Arithmetic::kAdd: result.push_back(dims.add(a, b)); break;
      case Arithmetic::kSubtract: result.push_back(dims.subtract(a, b)); break;
      case Arithmetic::kMultiply: result.push_back(dims.multiply(a, b)); break;
      case Arithmetic::kDivide:
        // Integer Div truncates toward zero; only exact quotients are certain for symbols.
        if (a.isKnown() && b.isKnown() && !b.is(0)) {
          if (b.is(-1) && a.value() == INT64_MIN) return;
          result.push_back(DimValue::known(a.value() / b.value()));
        } else if (std::optional<DimValue> exact = dims.divideExact(a, b)) {
          result.push_back(*exact);
        } else {
          return;
        }
        break;
    }
  }
  ctx.setOutputData(0, std::move(result));
}

void inferMatMulShape(InferenceContext& ctx, size_t a, size_t b) {
  const Dims* left = ctx.inputShape(a);
  const Dims* right = ctx.inputShape(b);
  if (left == nullptr || right == nullptr) return;
  if (left->empty() || right->empty()) {
    ctx.fail("matrix multiplication needs inputs of rank 1 or more");
    return;
  }
  Dims lhs = *left;
  Dims rhs = *right;
  bool drop_rows = lhs.size() == 1;
  bool drop_columns = rhs.size() == 1;
  if (drop_rows) lhs.insert(lhs.begin(), DimValue::known(1));
  if (drop_columns) rhs.push_back(DimValue::known(1));
  DimValue k_left = lhs.back();
  DimValue k_right = rhs[rhs.size() - 2];
  if (k_left.isKnown() && k_right.isKnown() && k_left.value() != k_right.value()) {
    ctx.fail("inner dimensions differ: " + std::to_string(k_left.value()) + " and " +
             std::to_string(k_right.value()));
    return;
  }
  Dims left_batch(lhs.begin(), lhs.end() - 2);
  Dims right_batch(rhs.begin(), rhs.end() - 2);
  const Dims* batches[] = {&left_batch, &right_batch};
  std::optional<Dims> out = broadcastShapes(ctx, batches);
  if (!out) return;
  if (!drop_rows) out->push_back(lhs[lhs.size() - 2]);
  if (!drop_columns) out->push_back(rhs.back());
  ctx.setOutputShape(0, std::move(*out));
}

}  // namespace onyx::ops
