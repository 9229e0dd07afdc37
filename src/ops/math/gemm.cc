// Gemm (ai.onnx), versions 1, 6, 7, 9, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/ir/type.h"
#include "onyx/ops/inference_context.h"
#include "ops/math/matmul_kernels.h"
#include "ops/matrix_multiply.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Y is [M, N] for A [M, K] (or [K, M] with transA) and B [K, N] (or [N, K] with transB); the
// rank is 2 even when neither input's shape is known.
void inferGemm(InferenceContext& ctx) {
  const Dims* a = ctx.inputShape(0);
  const Dims* b = ctx.inputShape(1);
  if (a != nullptr && a->size() != 2) {
    ctx.fail("A has rank " + std::to_string(a->size()) + "; Gemm needs a matrix");
    return;
  }
  if (b != nullptr && b->size() != 2) {
    ctx.fail("B has rank " + std::to_string(b->size()) + "; Gemm needs a matrix");
    return;
  }
  bool trans_a = ctx.intAttribute("transA").value_or(0) != 0;
  bool trans_b = ctx.intAttribute("transB").value_or(0) != 0;
  if (a != nullptr && b != nullptr) {
    DimValue k_a = (*a)[trans_a ? 0 : 1];
    DimValue k_b = (*b)[trans_b ? 1 : 0];
    if (k_a.isKnown() && k_b.isKnown() && k_a.value() != k_b.value()) {
      ctx.fail("inner dimensions differ: " + std::to_string(k_a.value()) + " and " +
               std::to_string(k_b.value()));
      return;
    }
  }
  DimValue m = a != nullptr ? (*a)[trans_a ? 1 : 0] : ctx.dims().fresh();
  DimValue n = b != nullptr ? (*b)[trans_b ? 0 : 1] : ctx.dims().fresh();
  ctx.setOutputShape(0, {m, n});
}

}  // namespace

constexpr TypeSet kTTypes9 = tensor("float16 float double uint32 uint64 int32 int64");
constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}, {"C", "T"}};
constexpr Formals kInputs11 = {{"A", "T"}, {"B", "T"}, optional("C", "T")};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {attr("alpha", 1.0f), attr("beta", 1.0f), attr("broadcast", 0),
                                     attr("transA", 0), attr("transB", 0)};
constexpr Attributes kAttributes7 = {attr("alpha", 1.0f), attr("beta", 1.0f), attr("transA", 0),
                                     attr("transB", 0)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};
constexpr Constraints kConstraints9 = {{"T", kTTypes9}};

namespace {

// Y = alpha * A' @ B' + beta * C, with A' = A or its transpose (transA), B' likewise, C
// broadcast to [M, N] (exactly [M, N] in versions 1 and 6 unless `broadcast`). Integer
// products wrap; alpha and beta scale in double, as the reference does.
Status runGemm(KernelContext& ctx) {
  const Array* a = ctx.inputArray(0);
  const Array* b = ctx.inputArray(1);
  const Array* c = ctx.inputArray(2);
  if (a == nullptr || b == nullptr || a->rank() != 2 || b->rank() != 2) {
    return ctx.fail("A and B must be matrices");
  }
  if (a->type() != b->type() || (c != nullptr && c->type() != a->type())) {
    return ctx.fail("inputs of different element types");
  }
  bool trans_a = ctx.intAttribute("transA").value_or(0) != 0;
  bool trans_b = ctx.intAttribute("transB").value_or(0) != 0;
  double alpha = ctx.floatAttribute("alpha").value_or(1.0f);
  double beta = ctx.floatAttribute("beta").value_or(1.0f);
  size_t m = static_cast<size_t>(a->dim(trans_a ? 1 : 0));
  size_t k = static_cast<size_t>(a->dim(trans_a ? 0 : 1));
  size_t kb = static_cast<size_t>(b->dim(trans_b ? 1 : 0));
  size_t n = static_cast<size_t>(b->dim(trans_b ? 0 : 1));
  if (k != kb) return ctx.fail("inner dimensions of A and B differ");
  std::vector<int64_t> shape = {static_cast<int64_t>(m), static_cast<int64_t>(n)};
  std::vector<size_t> ic;
  if (c != nullptr) {
    if (c->rank() > 2) return ctx.fail("C must have rank 2 or less");
    bool exact = c->shape() == shape;
    // Versions 1 and 6 have `broadcast` (default 0); later versions always broadcast.
    if (!exact && ctx.intAttribute("broadcast").value_or(1) == 0) {
      return ctx.fail("C must have shape [M, N] without broadcast");
    }
    std::optional<std::vector<int64_t>> joint = broadcastShape(c->shape(), shape);
    if (!joint || *joint != shape) return ctx.fail("C does not broadcast to [M, N]");
    if (!exact) ic = broadcastIndices(c->shape(), shape);
  }
  Array wa = widenToFloat(*a);
  Array wb = widenToFloat(*b);
  Array wc = c != nullptr ? widenToFloat(*c) : Array();
  Result<Array> made = Array::allocate(wa.type(), shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  if (wa.type() == ElementType::kFloat) {
    float* result = out.data<float>();
    multiplyFloat(ctx, trans_a, trans_b, m, n, k, static_cast<float>(alpha), wa.data<float>(),
                  trans_a ? m : k, wb.data<float>(), trans_b ? k : n, 0.0f, result, n);
    if (c != nullptr && beta != 0.0) {
      const float* bias = wc.data<float>();
      float scale = static_cast<float>(beta);
      for (size_t i = 0; i < m * n; ++i) {
        float add = bias[ic.empty() ? i : ic[i]];
        result[i] += beta == 1.0 ? add : scale * add;
      }
    }
    ctx.setOutput(0, narrowFromFloat(out, a->type()));
    return Status::ok();
  }
  bool ok = dispatchMatmul(wa.type(), [&]<class T>() {
    const T* x = wa.data<T>();
    const T* y = wb.data<T>();
    const T* z = c != nullptr ? wc.data<T>() : nullptr;
    T* result = out.data<T>();
    size_t a_row = trans_a ? 1 : k, a_col = trans_a ? m : 1;
    size_t b_row = trans_b ? 1 : n, b_col = trans_b ? k : 1;
    size_t grain = std::max<size_t>(1, 32768 / std::max<size_t>(1, k * n));
    parallelFor(ctx, m, grain, [&](size_t begin, size_t end) {
      matmulRows(x, a_row, a_col, y, b_row, b_col, result, k, n, begin, end);
      for (size_t i = begin * n; i < end * n; ++i) {
        if constexpr (std::is_floating_point_v<T>) {
          T value = alpha == 1.0 ? result[i] : static_cast<T>(alpha * result[i]);
          if (z != nullptr && beta != 0.0) {
            T bias = z[ic.empty() ? i : ic[i]];
            value = static_cast<T>(value + (beta == 1.0 ? bias : static_cast<T>(beta * bias)));
          }
          result[i] = value;
        } else {
          double value = alpha * static_cast<double>(result[i]);
          if (z != nullptr && beta != 0.0) {
            value += beta * static_cast<double>(z[ic.empty() ? i : ic[i]]);
          }
          result[i] = integerFromDouble<T>(value);
        }
      }
    });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(a->type())));
  ctx.setOutput(0, narrowFromFloat(out, a->type()));
  return Status::ok();
}

// Up to version 7, which stretches C over [M, N] numpy-style whenever C needs it. The legacy
// `broadcast` allowed that stretching (runGemm and onnx's own converter read it as numpy's
// unidirectional broadcast), so it simply goes.
Status dropBroadcast(NodeDraft& draft) {
  draft.removeAttribute("broadcast");
  return Status::ok();
}

// Down to version 6: `broadcast` is set unless C is known to be [M, N] already (a valid
// version 7 node has a C that broadcasts to [M, N]).
Status setBroadcast(NodeDraft& draft) {
  std::optional<std::vector<Extent>> a = draft.inputShape(0);
  std::optional<std::vector<Extent>> b = draft.inputShape(1);
  std::optional<std::vector<Extent>> c = draft.inputShape(2);
  if (a && b && c && a->size() == 2 && b->size() == 2 && c->size() == 2) {
    const Extent& m = (*a)[draft.intAttr("transA").value_or(0) != 0 ? 1 : 0];
    const Extent& n = (*b)[draft.intAttr("transB").value_or(0) != 0 ? 0 : 1];
    if (sameExtent((*c)[0], m) && sameExtent((*c)[1], n)) return Status::ok();
  }
  draft.setIntAttr("broadcast", 1);
  return Status::ok();
}

// Down to version 9, where C is required: a missing C becomes the scalar 0 that version 11
// computes with in its place.
Status zeroForMissingC(NodeDraft& draft) {
  if (draft.hasInput(2)) return Status::ok();
  const Type* type = draft.inputType(0);
  if (type == nullptr || !type->elem_type) {
    return draft.refuse("C is missing and A's element type, which C takes, is unknown");
  }
  Array zero(static_cast<ElementType>(*type->elem_type), {});
  storeDouble(zero, 0, 0.0);
  draft.setConstantInput(2, draft.editor().tensorFromArray(zero));
  return Status::ok();
}

}  // namespace

extern const Operator kGemm;
constexpr Operator kGemm{
    .domain = kOnnxDomain,
    .name = "Gemm",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferGemm,
         .kernel = runGemm},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferGemm,
         .kernel = runGemm,
         .step = typesOnly("no change a node shows (C lost its in-place note)")},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints1,
         .infer = inferGemm,
         .kernel = runGemm,
         .step = {.reviewed = true,
                  .change = "broadcast removed: C broadcasts numpy-style",
                  .up = dropBroadcast,
                  .down = setBroadcast}},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints9,
         .infer = inferGemm,
         .kernel = runGemm,
         .step = typesOnly("uint32, uint64, int32 and int64 added")},
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints9,
         .infer = inferGemm,
         .kernel = runGemm,
         .step = {.reviewed = true,
                  .change = "C became optional",
                  .down = zeroForMissingC,
                  .down_refuses = "C missing and A's element type unknown"}},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64 bfloat16")}},
         .infer = inferGemm,
         .kernel = runGemm,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGemm));

}  // namespace onyx::ops::ai_onnx
