// RotaryEmbedding (ai.onnx), versions 23.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>

#include "ops/body_text.h"
#include "ops/lib/real_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// RotaryEmbedding as the spec defines it: X as (batch, sequence, heads, head size) (a 3-D X
// is split into heads, a 4-D one transposed); the first rotary_embedding_dim channels (all by
// default) rotated by the cos and sin caches (gathered at position_ids when given), as two
// halves or, interleaved, as even and odd channels; the rest passed through. The body depends
// on X's rank, so X's type must give it.
Result<std::string> buildRotaryEmbedding23(const FunctionBodyContext& context) {
  const Type* x_type = context.inputType(0);
  if (x_type == nullptr || x_type->shape == nullptr) {
    return body::refuse("the body depends on the rank of X, which is not known");
  }
  size_t rank = x_type->shape->rank();
  if (rank != 3 && rank != 4) return body::refuse("X must have rank 3 or 4");
  bool interleaved = context.intAttr("interleaved").value_or(0) != 0;
  int64_t rotary_dim = context.intAttr("rotary_embedding_dim").value_or(0);
  int64_t heads = context.intAttr("num_heads").value_or(0);

  body::BodyText out(context, "RotaryEmbedding");
  out.ints("zero_1d", {0}).ints("heads", {heads}).ints("minus_one", {-1});
  if (rank == 3) {
    out.add("split_shape = Concat <axis = 0> (zero_1d, zero_1d, heads, minus_one)")
        .add("x_in = Reshape (X, split_shape)");
  } else {
    out.add("x_in = Transpose <perm = [0, 2, 1, 3]> (X)");
  }
  out.add("head_size = Shape <start = 3, end = 4> (x_in)");
  if (rotary_dim > 0) {
    out.ints("rotary_dim", {rotary_dim});
  } else {
    out.add("rotary_dim = Identity (head_size)");
  }
  out.ints("two_1d", {2})
      .add("kept_size = Sub (head_size, rotary_dim)")
      .add("split_sizes = Concat <axis = 0> (rotary_dim, kept_size)")
      .add("x_rotate, x_keep = Split <axis = -1> (x_in, split_sizes)");
  if (context.hasInput(3)) {
    out.add("cos_rows = Gather (cos_cache, position_ids)")
        .add("sin_rows = Gather (sin_cache, position_ids)");
  } else {
    out.add("cos_rows = Identity (cos_cache)").add("sin_rows = Identity (sin_cache)");
  }
  out.add("half_dim = Div (rotary_dim, two_1d)")
      .add("half_dim_int = Cast <to = 7> (half_dim)")
      .add("cos_half = Slice (cos_rows, zero_1d, half_dim_int, two_1d)")
      .add("sin_half = Slice (sin_rows, zero_1d, half_dim_int, two_1d)")
      .add("cos_per_head = Unsqueeze (cos_half, two_1d)")
      .add("sin_per_head = Unsqueeze (sin_half, two_1d)");
  if (!interleaved) {
    out.add("x1, x2 = Split <axis = -1, num_outputs = 2> (x_rotate)");
  } else {
    out.ints("one_1d", {1})
        .ints("last_axis", {3})
        .add("rotary_dim_past = Add (rotary_dim, one_1d)")
        .add("x1 = Slice (x_rotate, zero_1d, rotary_dim, last_axis, two_1d)")
        .add("x2 = Slice (x_rotate, one_1d, rotary_dim_past, last_axis, two_1d)");
  }
  out.add("cos_x1 = Mul (cos_per_head, x1)")
      .add("sin_x2 = Mul (sin_per_head, x2)")
      .add("real = Sub (cos_x1, sin_x2)")
      .add("sin_x1 = Mul (sin_per_head, x1)")
      .add("cos_x2 = Mul (cos_per_head, x2)")
      .add("imaginary = Add (sin_x1, cos_x2)");
  if (!interleaved) {
    out.add("x_rotated = Concat <axis = -1> (real, imaginary)");
  } else {
    out.add("real_pairs = Unsqueeze (real, minus_one)")
        .add("imaginary_pairs = Unsqueeze (imaginary, minus_one)")
        .add("pairs = Concat <axis = -1> (real_pairs, imaginary_pairs)")
        .add("rotate_shape = Shape (x_rotate)")
        .add("x_rotated = Reshape (pairs, rotate_shape)");
  }
  out.add("x_joined = Concat <axis = -1> (x_rotated, x_keep)");
  if (rank == 3) {
    out.add("y_heads = Identity (x_joined)");
  } else {
    out.add("y_heads = Transpose <perm = [0, 2, 1, 3]> (x_joined)");
  }
  out.add("x_shape = Shape (X)").add("Y = Reshape (y_heads, x_shape)");
  return out.finish();
}
// Y has X's shape. X is (batch, heads, sequence, head size) or (batch, sequence, hidden),
// and a 3-D X needs num_heads to be cut into heads; onnx's RotaryEmbedding inference
// refuses the rest (onnx/defs/nn/defs.cc).
void inferRotaryEmbedding(InferenceContext& ctx) {
  if (!inputRankWithin(ctx, 0, 3, 4)) return;
  if (ctx.inputRank(0) == 3 && !ctx.intAttribute("num_heads")) {
    ctx.fail("X is 3-D (batch, sequence, hidden) but num_heads is not given to cut it into heads");
    return;
  }
  inferSameShape(ctx);
}

// Rotates the first rotary_embedding_dim channels of each head by the cached angles of its
// position: pairs (x1, x2) are the two halves, or even/odd channels when interleaved.
Status runRotaryEmbedding(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* cos_cache = ctx.inputArray(1);
  const Array* sin_cache = ctx.inputArray(2);
  const Array* positions = ctx.inputArray(3);
  if (x == nullptr || cos_cache == nullptr || sin_cache == nullptr) {
    return ctx.fail("needs X, cos_cache and sin_cache tensors");
  }
  if (x->rank() != 3 && x->rank() != 4) return ctx.fail("X must be 3-D or 4-D");
  const bool four_d = x->rank() == 4;
  const int64_t batch = x->dim(0);
  const int64_t sequence = four_d ? x->dim(2) : x->dim(1);
  int64_t heads = four_d ? x->dim(1) : ctx.intAttribute("num_heads").value_or(0);
  if (heads <= 0) return ctx.fail("a 3-D X needs a positive num_heads");
  if (!four_d && x->dim(2) % heads != 0) {
    return ctx.fail("X's hidden size is not a multiple of num_heads");
  }
  const int64_t head_size = four_d ? x->dim(3) : x->dim(2) / heads;
  int64_t rotary = ctx.intAttribute("rotary_embedding_dim").value_or(0);
  if (rotary == 0) rotary = head_size;
  if (rotary < 0 || rotary > head_size || rotary % 2 != 0) {
    return ctx.fail("rotary_embedding_dim must be even and at most the head size " +
                    std::to_string(head_size));
  }
  const int64_t half = rotary / 2;
  if (cos_cache->shape() != sin_cache->shape() || cos_cache->rank() < 2 ||
      cos_cache->shape().back() != half) {
    return ctx.fail("cos_cache " + shapeText(cos_cache->shape()) + " and sin_cache " +
                    shapeText(sin_cache->shape()) + " must agree and end in " +
                    std::to_string(half));
  }
  std::vector<int64_t> ids;
  if (positions != nullptr) {
    std::optional<std::vector<int64_t>> given = integersOf(*positions);
    if (!given || positions->rank() != 2 || positions->dim(0) != batch ||
        positions->dim(1) != sequence) {
      return ctx.fail("position_ids must be (batch, sequence)");
    }
    if (cos_cache->rank() != 2) return ctx.fail("with position_ids the caches are 2-D");
    for (int64_t id : *given) {
      if (id < 0 || id >= cos_cache->dim(0)) return ctx.fail("a position id is out of range");
    }
    ids = *given;
  } else if (cos_cache->rank() == 3) {
    if (cos_cache->dim(0) != batch || cos_cache->dim(1) != sequence) {
      return ctx.fail("without position_ids the caches are (batch, sequence, dim / 2)");
    }
  } else if (cos_cache->rank() != 2 || cos_cache->dim(0) < sequence) {
    return ctx.fail("without position_ids the caches are (batch, sequence, dim / 2)");
  }
  const bool interleaved = ctx.intAttribute("interleaved").value_or(0) != 0;
  // Rotates rows (b, s) [row_begin, row_end) of batch * sequence in `T` (float, or double for
  // the narrow types), reading the caches' rows of the positions at hand only: a decoder's
  // caches hold every position it may reach.
  auto rotate = [&]<class T>(const T* in, const T* cosines, const T* sines, T* out,
                             size_t row_begin, size_t row_end) {
    for (auto flat = static_cast<int64_t>(row_begin); flat < static_cast<int64_t>(row_end);
         ++flat) {
      const int64_t b = flat / sequence;
      const int64_t s = flat % sequence;
      int64_t row = 0;
      if (positions != nullptr) {
        row = ids[static_cast<size_t>(flat)];
      } else if (cos_cache->rank() == 3) {
        row = flat;
      } else {
        row = s;
      }
      const T* c = cosines + row * half;
      const T* sn = sines + row * half;
      for (int64_t h = 0; h < heads; ++h) {
        size_t base =
            four_d ? static_cast<size_t>(((b * heads + h) * sequence + s) * head_size)
                   : static_cast<size_t>((b * sequence + s) * heads * head_size + h * head_size);
        if (interleaved) {
          for (int64_t i = 0; i < half; ++i) {
            const T x1 = in[base + 2 * i];
            const T x2 = in[base + 2 * i + 1];
            out[base + 2 * i] = c[i] * x1 - sn[i] * x2;
            out[base + 2 * i + 1] = sn[i] * x1 + c[i] * x2;
          }
        } else {
          // The head's two halves as two arrays: no index arithmetic per element.
          const T* x1 = in + base;
          const T* x2 = x1 + half;
          T* y1 = out + base;
          T* y2 = y1 + half;
          for (int64_t i = 0; i < half; ++i) {
            y1[i] = c[i] * x1[i] - sn[i] * x2[i];
            y2[i] = sn[i] * x1[i] + c[i] * x2[i];
          }
        }
      }
    }
  };
  if (x->type() == ElementType::kFloat && cos_cache->type() == ElementType::kFloat &&
      sin_cache->type() == ElementType::kFloat) {
    Result<Array> made = Array::allocate(ElementType::kFloat, x->shape());
    if (!made) return made.status();
    // The channels past rotary_embedding_dim pass through.
    std::copy_n(x->data<float>(), x->size(), made->data<float>());
    // A prompt's rows split over the threads, a few thousand elements a part at least.
    const size_t rows = static_cast<size_t>(batch * sequence);
    const size_t grain =
        std::max<size_t>(1, 4096 / static_cast<size_t>(std::max<int64_t>(1, heads * head_size)));
    parallelFor(ctx, rows, grain, [&](size_t first, size_t last) {
      rotate(x->data<float>(), cos_cache->data<float>(), sin_cache->data<float>(),
             made->data<float>(), first, last);
    });
    ctx.setOutput(0, std::move(*made));
    return Status::ok();
  }
  const std::vector<double> in = realsOf(*x);
  const std::vector<double> cosines = realsOf(*cos_cache);
  const std::vector<double> sines = realsOf(*sin_cache);
  std::vector<double> out = in;
  rotate(in.data(), cosines.data(), sines.data(), out.data(), 0,
         static_cast<size_t>(batch * sequence));
  ctx.setOutput(0, arrayOfReals(out, x->shape(), x->type()));
  return Status::ok();
}

}  // namespace

extern const Operator kRotaryEmbedding;
constexpr Operator kRotaryEmbedding{
    .domain = kOnnxDomain,
    .name = "RotaryEmbedding",
    .versions = {
        {.since_version = 23,
         .inputs =
             {{"X", "T"}, {"cos_cache", "T"}, {"sin_cache", "T"}, optional("position_ids", "M")},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("interleaved", 0), attr("num_heads", kInt),
                        attr("rotary_embedding_dim", 0)},
         .constraints = {{"T", tensor("float float16 bfloat16")}, {"M", tensor("int64")}},
         .build_function_body = buildRotaryEmbedding23,
         .infer = inferRotaryEmbedding,
         .kernel = runRotaryEmbedding},
    }};
static_assert(isWellFormed(kRotaryEmbedding));

}  // namespace onyx::ops::ai_onnx
