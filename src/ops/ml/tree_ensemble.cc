// TreeEnsemble (ai.onnx.ml), versions 5.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/element_type.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor_array.h"
#include "ops/kernels.h"
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// [N, n_targets]; without n_targets, one more than the largest leaf_targetids entry.
// What onnx's TreeEnsemble inference refuses (onnx/defs/traditionalml/defs.cc): every
// nodes_* list set has one entry per node (as nodes_splits), leaf_targetids one per leaf
// weight, and the split and leaf values have the input's element type.
bool checkTreeEnsembleAttributes(InferenceContext& ctx) {
  std::optional<AttributeEntries> splits = firstSetAttribute(ctx, {"nodes_splits"});
  std::optional<AttributeEntries> weights = firstSetAttribute(ctx, {"leaf_weights"});
  if (splits) {
    for (std::string_view name : {"nodes_featureids", "nodes_hitrates", "nodes_modes",
                                  "nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs",
                                  "nodes_falseleafs", "nodes_missing_value_tracks_true"}) {
      std::optional<AttributeEntries> list = firstSetAttribute(ctx, {name});
      if (list && list->count != splits->count) {
        ctx.fail(std::string(name) + " has " + std::to_string(list->count) + " entries for the " +
                 std::to_string(splits->count) +
                 " nodes of nodes_splits; each nodes_* attribute has one per node");
        return false;
      }
    }
  }
  if (size_t targets = attributeLength(ctx, "leaf_targetids");
      weights && targets != weights->count) {
    ctx.fail("leaf_targetids has " + std::to_string(targets) + " entries, leaf_weights " +
             std::to_string(weights->count) + "; they pair up one to one");
    return false;
  }
  int32_t in = ctx.inputElemType(0);
  for (const std::optional<AttributeEntries>& values : {splits, weights}) {
    if (values && in != 0 && values->elem_type != in) {
      ctx.fail(std::string(values->name) + " holds " +
               std::string(elementTypeName(values->elem_type)) + " but the input is " +
               std::string(elementTypeName(in)) + "; they must have one type");
      return false;
    }
  }
  return true;
}

void inferTreeEnsemble(InferenceContext& ctx) {
  if (!checkTreeEnsembleAttributes(ctx)) return;
  std::optional<DimValue> batch = batchOf(ctx);
  if (!batch) return;
  std::optional<int64_t> targets = ctx.intAttribute("n_targets");
  if (!targets) {
    const Attribute* leaf_targets = ctx.attribute("leaf_targetids");
    if (leaf_targets != nullptr && !leaf_targets->ints.empty()) {
      int64_t largest = -1;
      for (int64_t id : leaf_targets->ints) largest = std::max(largest, id);
      if (largest >= 0 && largest < INT64_MAX) targets = largest + 1;
    }
  }
  ctx.setOutputShape(
      0, {*batch, targets && *targets > 0 ? DimValue::known(*targets) : ctx.dims().fresh()});
}

// A tensor attribute's elements as doubles; empty when absent, nullopt when unreadable.
std::optional<std::vector<double>> tensorValues(const KernelContext& ctx, const char* name) {
  std::vector<double> values;
  const Tensor* tensor = ctx.tensorAttribute(name);
  if (tensor == nullptr) return values;
  Result<Array> array = arrayFromTensor(*tensor);
  if (!array) return std::nullopt;
  values.resize(array->size());
  for (size_t i = 0; i < values.size(); ++i) values[i] = elementAsDouble(*array, i);
  return values;
}

// The inverse of the standard normal distribution function, by Newton's method on erfc.
double probit(double p) {
  if (!(p > 0)) return -std::numeric_limits<double>::infinity();
  if (!(p < 1)) return std::numeric_limits<double>::infinity();
  double z = 0;
  for (int step = 0; step < 100; ++step) {
    double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
    double density = std::exp(-0.5 * z * z) / std::sqrt(2 * 3.14159265358979323846);
    if (density == 0) break;
    double next = z - (cdf - p) / density;
    if (std::abs(next - z) < 1e-12) {
      z = next;
      break;
    }
    z = next;
  }
  return z;
}

Status runTreeEnsemble(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr || x->rank() < 1 || x->rank() > 2) return ctx.fail("X must be [N, F]");
  size_t rows = x->rank() == 2 ? static_cast<size_t>(x->dim(0)) : 1;
  size_t features = static_cast<size_t>(x->dim(x->rank() - 1));
  auto ints = [&](const char* name) {
    return ctx.intsAttribute(name).value_or(std::vector<int64_t>{});
  };
  std::vector<int64_t> feature_ids = ints("nodes_featureids");
  std::vector<int64_t> true_ids = ints("nodes_truenodeids");
  std::vector<int64_t> false_ids = ints("nodes_falsenodeids");
  std::vector<int64_t> true_leafs = ints("nodes_trueleafs");
  std::vector<int64_t> false_leafs = ints("nodes_falseleafs");
  std::vector<int64_t> missing_true = ints("nodes_missing_value_tracks_true");
  std::vector<int64_t> leaf_targets = ints("leaf_targetids");
  std::vector<int64_t> roots = ints("tree_roots");
  std::optional<std::vector<double>> splits = tensorValues(ctx, "nodes_splits");
  std::optional<std::vector<double>> modes = tensorValues(ctx, "nodes_modes");
  std::optional<std::vector<double>> leaf_weights = tensorValues(ctx, "leaf_weights");
  std::optional<std::vector<double>> members = tensorValues(ctx, "membership_values");
  if (!splits || !modes || !leaf_weights || !members)
    return ctx.fail("a tensor attribute cannot be read");
  size_t nodes = feature_ids.size();
  if (splits->size() != nodes || modes->size() != nodes || true_ids.size() != nodes ||
      false_ids.size() != nodes || true_leafs.size() != nodes || false_leafs.size() != nodes ||
      (!missing_true.empty() && missing_true.size() != nodes)) {
    return ctx.fail("the nodes_* attributes differ in length");
  }
  size_t leaves = leaf_targets.size();
  if (leaf_weights->size() != leaves)
    return ctx.fail("leaf_targetids and leaf_weights differ in length");
  int64_t targets = ctx.intAttribute("n_targets").value_or(0);
  if (!ctx.intAttribute("n_targets")) {
    for (int64_t id : leaf_targets) targets = std::max(targets, id + 1);
  }
  if (targets <= 0 || targets > (int64_t{1} << 24)) {
    return ctx.fail("n_targets is " + std::to_string(targets) + ", not in [1, 2^24]");
  }
  for (int64_t id : leaf_targets) {
    if (id < 0 || id >= targets) return ctx.fail("leaf_targetids holds " + std::to_string(id));
  }
  // Each member node's set, in the order of the member nodes (NaN-separated).
  std::vector<std::vector<double>> sets(nodes);
  size_t next_member = 0;
  for (size_t i = 0; i < nodes; ++i) {
    double mode = (*modes)[i];
    if (mode < 0 || mode > 6 || mode != std::floor(mode))
      return ctx.fail("nodes_modes holds a bad mode");
    if (feature_ids[i] < 0 || static_cast<size_t>(feature_ids[i]) >= features) {
      return ctx.fail("node " + std::to_string(i) + " reads a feature X does not have");
    }
    auto in_range = [&](int64_t id, bool leaf) {
      return id >= 0 && static_cast<size_t>(id) < (leaf ? leaves : nodes);
    };
    if (!in_range(true_ids[i], true_leafs[i] != 0) ||
        !in_range(false_ids[i], false_leafs[i] != 0)) {
      return ctx.fail("node " + std::to_string(i) + " branches out of range");
    }
    if (mode == 6) {
      while (next_member < members->size() && !std::isnan((*members)[next_member])) {
        sets[i].push_back((*members)[next_member++]);
      }
      if (next_member >= members->size()) return ctx.fail("membership_values has too few sets");
      ++next_member;
    }
  }
  for (int64_t root : roots) {
    if (root < 0 || static_cast<size_t>(root) >= nodes)
      return ctx.fail("tree_roots holds a bad node");
  }
  int64_t aggregate = ctx.intAttribute("aggregate_function").value_or(1);
  int64_t post = ctx.intAttribute("post_transform").value_or(0);
  if (aggregate < 0 || aggregate > 3) return ctx.fail("aggregate_function must be 0 to 3");
  if (post < 0 || post > 4) return ctx.fail("post_transform must be 0 to 4");
  double largest = x->type() == ElementType::kDouble    ? std::numeric_limits<double>::max()
                   : x->type() == ElementType::kFloat16 ? 65504.0
                                                        : std::numeric_limits<float>::max();
  Result<Array> made = Array::allocate(x->type(), {static_cast<int64_t>(rows), targets});
  if (!made) return made.status();
  Array y = std::move(*made);
  // Rows are independent: each writes only its own outputs.
  std::atomic<bool> cycle{false};
  parallelFor(ctx, rows, 64, [&](size_t begin, size_t end) {
    std::vector<double> row(features);
    std::vector<double> result(static_cast<size_t>(targets));
    for (size_t n = begin; n < end; ++n) {
      for (size_t f = 0; f < features; ++f) row[f] = elementAsDouble(*x, n * features + f);
      double start = aggregate == 2 ? largest : aggregate == 3 ? -largest : 0.0;
      std::fill(result.begin(), result.end(), start);
      for (int64_t root : roots) {
        size_t at = static_cast<size_t>(root);
        size_t leaf = 0;
        for (size_t steps = 0;; ++steps) {
          if (steps > nodes) {
            cycle = true;
            return;
          }
          double value = row[static_cast<size_t>(feature_ids[at])];
          double split = (*splits)[at];
          bool taken = false;
          switch (static_cast<int>((*modes)[at])) {
            case 0: taken = value <= split; break;
            case 1: taken = value < split; break;
            case 2: taken = value >= split; break;
            case 3: taken = value > split; break;
            case 4: taken = value == split; break;
            case 5: taken = value != split; break;
            default: taken = std::find(sets[at].begin(), sets[at].end(), value) != sets[at].end();
          }
          if (!taken && std::isnan(value) && !missing_true.empty() && missing_true[at] != 0) {
            taken = true;
          }
          int64_t next = taken ? true_ids[at] : false_ids[at];
          bool is_leaf = (taken ? true_leafs[at] : false_leafs[at]) != 0;
          if (is_leaf) {
            leaf = static_cast<size_t>(next);
            break;
          }
          at = static_cast<size_t>(next);
        }
        double weight = (*leaf_weights)[leaf];
        double& slot = result[static_cast<size_t>(leaf_targets[leaf])];
        switch (aggregate) {
          case 0: slot += weight / static_cast<double>(roots.size()); break;
          case 1: slot += weight; break;
          case 2: slot = std::min(slot, weight); break;
          default: slot = std::max(slot, weight);
        }
      }
      if (post == 1 || post == 3) {
        double top = -std::numeric_limits<double>::infinity();
        for (double v : result) {
          if (post == 1 || v != 0) top = std::max(top, v);
        }
        double sum = 0;
        for (double& v : result) {
          if (post == 3 && v == 0) continue;
          v = std::exp(v - top);
          sum += v;
        }
        for (double& v : result) {
          if (sum > 0 && !(post == 3 && v == 0)) v /= sum;
        }
      } else if (post == 2) {
        for (double& v : result) v = 1 / (1 + std::exp(-v));
      } else if (post == 4) {
        for (double& v : result) v = probit(v);
      }
      for (size_t k = 0; k < result.size(); ++k) storeDouble(y, n * result.size() + k, result[k]);
    }
  });
  if (cycle) return ctx.fail("a tree has a cycle");
  ctx.setOutput(0, std::move(y));
  return Status::ok();
}

}  // namespace

extern const Operator kTreeEnsemble;
constexpr Operator kTreeEnsemble{
    .domain = kMlDomain,
    .name = "TreeEnsemble",
    .versions = {
        {.since_version = 5,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("aggregate_function", 1), required("leaf_targetids", kInts),
                        required("leaf_weights", kTensor), attr("membership_values", kTensor),
                        attr("n_targets", kInt), required("nodes_falseleafs", kInts),
                        required("nodes_falsenodeids", kInts), required("nodes_featureids", kInts),
                        attr("nodes_hitrates", kTensor),
                        attr("nodes_missing_value_tracks_true", kInts),
                        required("nodes_modes", kTensor), required("nodes_splits", kTensor),
                        required("nodes_trueleafs", kInts), required("nodes_truenodeids", kInts),
                        attr("post_transform", 0), required("tree_roots", kInts)},
         .constraints = {{"T", tensor("float double float16")}},
         .infer = inferTreeEnsemble,
         .kernel = runTreeEnsemble},
    }};
static_assert(isWellFormed(kTreeEnsemble));

}  // namespace onyx::ops::ai_onnx_ml
