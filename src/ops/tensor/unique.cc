// Unique (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The count of unique elements (or slices along `axis`) is one unknown shared by Y, indices
// and counts; inverse_indices has one entry per input element (or slice).
void inferUnique(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  DimValue unique = ctx.dims().fresh();
  for (size_t i : {size_t{1}, size_t{3}}) {
    if (ctx.hasOutput(i)) ctx.setOutputShape(i, {unique});
  }
  if (in == nullptr) return;
  if (std::optional<int64_t> axis_attribute = ctx.intAttribute("axis")) {
    if (in->empty()) {
      ctx.fail("Unique with an axis needs an input of rank 1 or more");
      return;
    }
    std::optional<size_t> axis = normalizeAxis(ctx, *axis_attribute, in->size());
    if (!axis) return;
    Dims out = *in;
    out[*axis] = unique;
    ctx.setOutputShape(0, std::move(out));
    if (ctx.hasOutput(2)) ctx.setOutputShape(2, {(*in)[*axis]});
  } else {
    ctx.setOutputShape(0, {unique});
    if (ctx.hasOutput(2)) ctx.setOutputShape(2, {productOf(ctx, *in)});
  }
}

}  // namespace

extern const Operator kUnique;
namespace {
// Three-way comparison of two elements; NaN after every number and equal to NaN, as numpy's
// unique orders and merges them.
template <class T>
int compareElements(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool a_nan = a != a;
    bool b_nan = b != b;
    if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  }
  if (a < b) return -1;
  if (b < a) return 1;
  return 0;
}

// Sorts the items of `keys` (count items of `length` elements each, contiguous) and groups
// equal ones: `order` is the stable sorted order; `group` gives each item's group (in sorted
// order of groups).
template <class T>
void groupItems(const T* keys, size_t count, size_t length, std::vector<size_t>& order,
                std::vector<size_t>& group) {
  auto compare = [&](size_t a, size_t b) {
    for (size_t e = 0; e < length; ++e) {
      int c = compareElements(keys[a * length + e], keys[b * length + e]);
      if (c != 0) return c;
    }
    return 0;
  };
  order.resize(count);
  for (size_t i = 0; i < count; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return compare(a, b) < 0; });
  group.assign(count, 0);
  size_t id = 0;
  for (size_t j = 0; j < count; ++j) {
    if (j > 0 && compare(order[j - 1], order[j]) != 0) ++id;
    group[order[j]] = id;
  }
}

Status runUnique(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  std::optional<int64_t> axis_attribute = ctx.intAttribute("axis");
  bool sorted = ctx.intAttribute("sorted").value_or(1) != 0;
  // The input as items along `axis` (each the slice at one index): outer x count x inner.
  Array source = axis_attribute ? *data : data->reshaped({static_cast<int64_t>(data->size())});
  if (source.rank() == 0) return ctx.fail("an axis needs an input of rank 1 or more");
  std::optional<size_t> axis = kernelAxis(axis_attribute.value_or(0), source.rank());
  if (!axis) return ctx.fail("axis is out of range for rank " + std::to_string(source.rank()));
  int64_t count = source.dim(*axis);
  int64_t outer = elementProduct(source.shape(), 0, *axis);
  int64_t inner = elementProduct(source.shape(), *axis + 1);
  size_t n = static_cast<size_t>(count);
  size_t length = static_cast<size_t>(outer * inner);
  // Keys: the items contiguous, narrow floats widened.
  Array keys = isNarrowFloat(source.type()) ? widenToFloat(source) : source;
  if (*axis != 0 && outer > 1) {
    Array items(keys.type(), {count, outer, inner});
    copyOut(ctx, {count, outer, inner}, keys, StridedView{0, {inner, count * inner, 1}}, items);
    keys = std::move(items);
  }
  std::vector<size_t> order;
  std::vector<size_t> group;
  bool ok = dispatchNative(keys.type(),
                           [&]<class T>() { groupItems(keys.data<T>(), n, length, order, group); });
  if (!ok && keys.isString()) {
    ok = true;
    groupItems(keys.strings().data(), n, length, order, group);
  }
  if (!ok) return noKernelFor(ctx, data->type());
  size_t groups = n == 0 ? 0 : group[order.back()] + 1;
  // Per group: first occurrence and count, in sorted order.
  std::vector<int64_t> first(groups, -1);
  std::vector<int64_t> counts(groups, 0);
  for (size_t i = 0; i < n; ++i) {
    if (first[group[i]] < 0) first[group[i]] = static_cast<int64_t>(i);
    ++counts[group[i]];
  }
  // Output position of each group: sorted, or by first occurrence.
  std::vector<size_t> position(groups);
  for (size_t g = 0; g < groups; ++g) position[g] = g;
  if (!sorted) {
    std::vector<size_t> by_first(groups);
    for (size_t g = 0; g < groups; ++g) by_first[g] = g;
    std::sort(by_first.begin(), by_first.end(),
              [&](size_t a, size_t b) { return first[a] < first[b]; });
    for (size_t p = 0; p < groups; ++p) position[by_first[p]] = p;
  }
  std::vector<int64_t> out_first(groups);
  std::vector<int64_t> out_counts(groups);
  for (size_t g = 0; g < groups; ++g) {
    out_first[position[g]] = first[g];
    out_counts[position[g]] = counts[g];
  }
  std::vector<int64_t> inverse(n);
  for (size_t i = 0; i < n; ++i) inverse[i] = static_cast<int64_t>(position[group[i]]);
  int64_t unique = static_cast<int64_t>(groups);
  std::vector<int64_t> shape = source.shape();
  shape[*axis] = unique;
  Array y(data->type(), shape);
  size_t block = static_cast<size_t>(inner);
  dispatchStorage(data->type(), [&]<class T>() {
    const T* from = elementsOf<T>(source);
    T* to = elementsOf<T>(y);
    for (size_t o = 0; o < static_cast<size_t>(outer); ++o) {
      for (size_t p = 0; p < groups; ++p) {
        size_t item = static_cast<size_t>(out_first[p]);
        std::copy_n(from + (o * n + item) * block, block, to + (o * groups + p) * block);
      }
    }
  });
  ctx.setOutput(0, std::move(y));
  ctx.setOutput(1, int64Array(out_first, {unique}));
  ctx.setOutput(2, int64Array(inverse, {count}));
  ctx.setOutput(3, int64Array(out_counts, {unique}));
  return Status::ok();
}

}  // namespace

constexpr Operator kUnique{
    .domain = kOnnxDomain,
    .name = "Unique",
    .versions = {
        {.since_version = 11,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T"},
                     optional("indices", "tensor(int64)"),
                     optional("inverse_indices", "tensor(int64)"),
                     optional("counts", "tensor(int64)")},
         .attributes = {attr("axis", kInt), attr("sorted", 1)},
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferUnique,
         .kernel = runUnique},
    }};
static_assert(isWellFormed(kUnique));

}  // namespace onyx::ops::ai_onnx
