#include "eval/kernels/packed_linear_layer.h"

#include <dnnl.hpp>

#include <atomic>
#include <unordered_map>

#include "eval/kernels/onednn_primitive_cache.h"
#include "eval/kernels/onednn_support.h"
#include "eval/kernels/openmp_threads.h"
#include "eval/kernels/panel_linear_layer.h"
#include "eval/kernels/shared_preparation.h"
#include "ops/kernels.h"

namespace onyx::eval_internal {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

struct PrimitiveKey {
  int64_t inner = 0, columns = 0;
  bool operator==(const PrimitiveKey&) const = default;
};

struct NothingBound {};

memory::desc floatMatrix(int64_t rows, int64_t columns, Tag tag = Tag::ab) {
  return memory::desc({rows, columns}, memory::data_type::f32, tag);
}

}  // namespace

struct PackedLinearLayer::Cache : OneDnnPrimitiveCache<PrimitiveKey, dnnl::matmul, NothingBound> {};

PackedLinearLayer::PackedLinearLayer() = default;
PackedLinearLayer::~PackedLinearLayer() = default;

bool PackedLinearLayer::runPanels(const KernelContext& ctx, const Array& a, const Array& b,
                                  const Array& bias, Array& out, bool transposed_b) {
  const int64_t inner = b.dim(transposed_b ? 1 : 0), columns = b.dim(transposed_b ? 0 : 1);
  const size_t rows = inner == 0 ? 0 : a.size() / static_cast<size_t>(inner);
  if (columns < kPanelColumns) return false;
  if (rows == 0) return true;
  if (panels_ == nullptr || panels_source_ != b.bytes().data()) {
    panels_ = sharedPreparation<panel_linear::Panels>(
        {&b}, transposed_b ? "linear f32 panels of B transposed" : "linear f32 panels",
        [&] { return panel_linear::packPanels(b, transposed_b); });
    panels_source_ = b.bytes().data();
    if (panels_ == nullptr) return false;
  }
  const panel_linear::Panels& panels = *panels_;
  const float* from = a.data<float>();
  const float* bias_row = bias.data<float>();
  float* to = out.data<float>();
  const size_t block = static_cast<size_t>(kBlockRows);
  ops::parallelFor(ctx, (rows + block - 1) / block, 1, [&](size_t begin, size_t end) {
    for (size_t index = begin; index < end; ++index) {
      const size_t row = index * block;
      panel_linear::multiplyAddBias(from + row * static_cast<size_t>(inner),
                                    std::min(block, rows - row), panels, bias_row,
                                    to + row * static_cast<size_t>(columns));
    }
  });
  return true;
}

namespace {

// The AVX2 tier (which implies AVX2 and FMA), in a build that has the panel kernel.
bool onPanels(const KernelContext& ctx) {
  return ctx.cpuTier() == CpuTier::kAvx2 && panel_linear::kBuilt;
}

}  // namespace

bool PackedLinearLayer::takesHalfWeights(const KernelContext& ctx, const Array& b,
                                         bool transposed_b) {
  return onPanels(ctx) && b.type() == ElementType::kFloat16 && b.rank() == 2 &&
         b.dim(transposed_b ? 0 : 1) >= kPanelColumns;
}

bool PackedLinearLayer::run(const KernelContext& ctx, const Array& a, const Array& b,
                            const Array& bias, Array& out, bool transposed_b) {
  if (onPanels(ctx)) {
    return runPanels(ctx, a, b, bias, out, transposed_b);
  }
  if (b.type() != ElementType::kFloat) return false;
  const int64_t inner = b.dim(transposed_b ? 1 : 0), columns = b.dim(transposed_b ? 0 : 1);
  const int64_t rows = inner == 0 ? 0 : static_cast<int64_t>(a.size()) / inner;
  if (columns < kWideColumns || rows == 0 || rows % kBlockRows != 0) return false;
  try {
    // Made for one thread, as each block runs (oneDNN fixes a primitive's threads when it
    // makes it).
    OpenMpThreads made_for(1);
    if (cache_ == nullptr) cache_ = std::make_unique<Cache>();
    Cache& cache = *cache_;
    const memory::desc a_block = floatMatrix(kBlockRows, inner);
    const memory::desc y_block = floatMatrix(kBlockRows, columns);
    const memory::desc bias_row = floatMatrix(1, columns);
    Cache::Entry* entry = cache.find(
        PrimitiveKey{inner, columns},
        [&](const dnnl::engine& engine) {
          return dnnl::matmul::primitive_desc(
              dnnl::matmul::desc(a_block, floatMatrix(inner, columns, Tag::any), bias_row, y_block),
              keptPrimitiveAttributes(), engine);
        },
        [](Cache::Entry&) {});
    if (entry == nullptr) return false;
    auto pack = [&]() -> std::optional<OneDnnWeights> {
      // (inner, columns) as b holds it: rows after rows, or columns after columns (transB).
      memory plain(floatMatrix(inner, columns, transposed_b ? Tag::ba : Tag::ab), cache.engine(),
                   handleOf(b));
      memory packed(entry->description.weights_desc(), cache.engine());
      dnnl::reorder(plain, packed).execute(cache.stream(), plain, packed);
      cache.stream().wait();
      return OneDnnWeights{std::move(packed), {}};
    };
    if (entry->needsWeights(b.bytes().data(), true) &&
        !entry->prepareWeights(b, true, transposed_b ? "linear f32 of B transposed" : "linear f32",
                               pack)) {
      return false;
    }
    const dnnl::engine& engine = cache.engine();
    const dnnl::matmul& primitive = entry->primitive;
    const memory weights = entry->weights->memory;
    const memory bias_memory(bias_row, engine, handleOf(bias));
    const memory::desc scratch = entry->description.scratchpad_desc();
    const float* from = a.data<float>();
    float* to = out.data<float>();
    std::atomic<bool> failed = false;
    // Each block on one thread: its own stream and scratch (streams are not thread-safe; the
    // primitive is, given scratch of its own per call).
    ops::parallelFor(ctx, static_cast<size_t>(rows / kBlockRows), 1, [&](size_t begin, size_t end) {
      try {
        OpenMpThreads one(1);
        dnnl::stream stream(engine);
        std::unordered_map<int, memory> arguments = {{DNNL_ARG_WEIGHTS, weights},
                                                     {DNNL_ARG_BIAS, bias_memory}};
        if (scratch.get_size() > 0) arguments.emplace(DNNL_ARG_SCRATCHPAD, memory(scratch, engine));
        for (size_t block = begin; block < end; ++block) {
          const size_t row = block * static_cast<size_t>(kBlockRows);
          arguments.insert_or_assign(
              DNNL_ARG_SRC,
              memory(a_block, engine, const_cast<float*>(from) + row * static_cast<size_t>(inner)));
          arguments.insert_or_assign(
              DNNL_ARG_DST, memory(y_block, engine, to + row * static_cast<size_t>(columns)));
          primitive.execute(stream, arguments);
        }
        stream.wait();
      } catch (const dnnl::error&) {
        failed = true;
      }
    });
    return !failed;
  } catch (const dnnl::error&) {
    if (cache_ != nullptr) cache_->forget();
    return false;
  }
}

}  // namespace onyx::eval_internal
