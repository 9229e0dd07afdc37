// AffineGrid (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/lib/real_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

// AffineGrid as the spec defines it: the normalised coordinates of every output position (pixel
// centres, or corners with align_corners), as homogeneous rows multiplied by theta. A 2-D
// theta (N x 2 x 3) is widened to the 3-D form (N x 3 x 4) with a depth of one, and the depth
// dropped again at the end.
constexpr const char* kBody20 = R"ONNX(
<domain: "", opset_import: ["" : 20]>
AffineGrid <align_corners: int = 0> (theta, size) => (grid) {
  one = Constant <value_int: int = 1> ()
  two = Constant <value_int: int = 2> ()
  zero = Constant <value_int: int = 0> ()
  four = Constant <value_int: int = 4> ()
  one_1d = Constant <value_ints: ints = [1]> ()
  zero_1d = Constant <value_ints: ints = [0]> ()
  minus_one = Constant <value_int: int = -1> ()
  minus_one_t = CastLike (minus_one, theta)
  zero_t = CastLike (zero, theta)
  one_t = CastLike (one, theta)
  two_t = CastLike (two, theta)
  align = Constant <value_int: int = @align_corners> ()
  centres = Equal (align, zero)
  rank = Size (size)
  is_2d = Equal (rank, four)
  N, C, D, H, W = If (is_2d) <
    then_branch = split_nchw () => (n_2d, c_2d, d_2d, h_2d, w_2d) {
      n_2d, c_2d, h_2d, w_2d = Split <num_outputs: int = 4> (size)
      d_2d = Identity (one_1d)
    },
    else_branch = split_ncdhw () => (n_3d, c_3d, d_3d, h_3d, w_3d) {
      n_3d, c_3d, d_3d, h_3d, w_3d = Split <num_outputs: int = 5> (size)
    }
  >
  size_ncdhw = Concat <axis = 0> (N, C, D, H, W)
  theta_3d = If (is_2d) <
    then_branch = widen_theta () => (theta_wide) {
      picks = Constant <value_ints: ints = [0, 1, 2, 0, 1, 2]> ()
      shape_2x3 = Constant <value_ints: ints = [2, 3]> ()
      picks_2x3 = Reshape (picks, shape_2x3)
      shape_nx2x3 = Concat <axis = 0> (N, shape_2x3)
      picks_nx2x3 = Expand (picks_2x3, shape_nx2x3)
      theta_nx2x3 = GatherElements <axis = 2> (theta, picks_nx2x3)
      row_1, row_2 = Split <axis: int = 1, num_outputs: int = 2> (theta_nx2x3)
      row_1_flat = Squeeze (row_1)
      row_2_flat = Squeeze (row_2)
      r11, r12, t1 = Split <axis: int = 1, num_outputs: int = 3> (row_1_flat)
      r21, r22, t2 = Split <axis: int = 1, num_outputs: int = 3> (row_2_flat)
      column_shape = Shape (r21)
      zero_column_raw = ConstantOfShape (column_shape)
      zero_column = CastLike (zero_column_raw, theta)
      one_column = Add (zero_column, one_t)
      wide_1 = Concat <axis = 1> (r11, r12, zero_column, t1)
      wide_2 = Concat <axis = 1> (r21, r22, zero_column, t2)
      wide_3 = Concat <axis = 1> (zero_column, zero_column, one_column, zero_column)
      wide_1_rows = Unsqueeze (wide_1, one_1d)
      wide_2_rows = Unsqueeze (wide_2, one_1d)
      wide_3_rows = Unsqueeze (wide_3, one_1d)
      theta_wide = Concat <axis = 1> (wide_1_rows, wide_2_rows, wide_3_rows)
    },
    else_branch = keep_theta () => (theta_kept) {
      theta_kept = Identity (theta)
    }
  >
  two_1d = Constant <value_ints = [2]> ()
  three_1d = Constant <value_ints = [3]> ()
  five_1d = Constant <value_ints = [5]> ()
  dhw = Slice (size_ncdhw, two_1d, five_1d)
  zeros_dhw_raw = ConstantOfShape (dhw)
  zeros_dhw = CastLike (zeros_dhw_raw, theta)
  ones_dhw = Add (zeros_dhw, one_t)
  d_t = CastLike (D, zero_t)
  h_t = CastLike (H, zero_t)
  w_t = CastLike (W, zero_t)
  start_d, step_d, start_h, step_h, start_w, step_w = If (centres) <
    then_branch = pixel_centres () => (start_d_c, step_d_c, start_h_c, step_h_c, start_w_c, step_w_c) {
      step_d_c = Div (two_t, d_t)
      step_h_c = Div (two_t, h_t)
      step_w_c = Div (two_t, w_t)
      half_step_d = Div (step_d_c, two_t)
      start_d_c = Add (minus_one_t, half_step_d)
      half_step_h = Div (step_h_c, two_t)
      start_h_c = Add (minus_one_t, half_step_h)
      half_step_w = Div (step_w_c, two_t)
      start_w_c = Add (minus_one_t, half_step_w)
    },
    else_branch = pixel_corners () => (start_d_k, step_d_k, start_h_k, step_h_k, start_w_k, step_w_k) {
      d_less_one = Sub (d_t, one_t)
      h_less_one = Sub (h_t, one_t)
      w_less_one = Sub (w_t, one_t)
      one_deep = Equal (D, one)
      step_d_k = If (one_deep) <
        then_branch = flat () => (step_d_flat) {
          step_d_flat = Identity (zero_t)
        },
        else_branch = deep () => (step_d_deep) {
          step_d_deep = Div (two_t, d_less_one)
        }
      >
      step_h_k = Div (two_t, h_less_one)
      step_w_k = Div (two_t, w_less_one)
      start_d_k = Identity (minus_one_t)
      start_h_k = Identity (minus_one_t)
      start_w_k = Identity (minus_one_t)
    }
  >
  w_index = Range (zero, W, one)
  w_index_t = CastLike (w_index, step_w)
  w_offsets = Mul (w_index_t, step_w)
  w_line = Add (start_w, w_offsets)
  h_index = Range (zero, H, one)
  h_index_t = CastLike (h_index, step_h)
  h_offsets = Mul (h_index_t, step_h)
  h_line = Add (start_h, h_offsets)
  d_index = Range (zero, D, one)
  d_index_t = CastLike (d_index, step_d)
  d_offsets = Mul (d_index_t, step_d)
  d_line = Add (start_d, d_offsets)
  zeros_hwd = Transpose <perm = [1, 2, 0]> (zeros_dhw)
  d_hwd = Add (zeros_hwd, d_line)
  d_grid = Transpose <perm = [2, 0, 1]> (d_hwd)
  zeros_dwh = Transpose <perm = [0, 2, 1]> (zeros_dhw)
  h_dwh = Add (zeros_dwh, h_line)
  h_grid = Transpose <perm = [0, 2, 1]> (h_dwh)
  w_grid = Add (w_line, zeros_dhw)
  w_last = Unsqueeze (w_grid, minus_one)
  h_last = Unsqueeze (h_grid, minus_one)
  d_last = Unsqueeze (d_grid, minus_one)
  ones_last = Unsqueeze (ones_dhw, minus_one)
  base = Concat <axis = -1> (w_last, h_last, d_last, ones_last)
  rows_of_4 = Constant <value_ints: ints = [-1, 4]> ()
  base_rows = Reshape (base, rows_of_4)
  base_columns_raw = Transpose (base_rows)
  base_columns = CastLike (base_columns_raw, theta_3d)
  mapped = MatMul (theta_3d, base_columns)
  mapped_rows = Transpose <perm = [0, 2, 1]> (mapped)
  grid_shape = Concat <axis = -1> (N, D, H, W, three_1d)
  grid_3d_raw = Reshape (mapped_rows, grid_shape)
  grid_3d = CastLike (grid_3d_raw, theta_3d)
  grid = If (is_2d) <
    then_branch = drop_depth () => (grid_2d) {
      grid_nhw3 = Squeeze (grid_3d, one_1d)
      grid_2d = Slice (grid_nhw3, zero_1d, two_1d, three_1d)
    },
    else_branch = keep_depth () => (grid_kept) {
      grid_kept = Identity (grid_3d)
    }
  >
}
)ONNX";
namespace {

// size [N, C, H, W] gives a grid [N, H, W, 2]; size [N, C, D, H, W] gives [N, D, H, W, 3].
void inferAffineGrid(InferenceContext& ctx) {
  const Dims* size = ctx.inputData(1);
  size_t count = 0;
  if (size != nullptr) {
    count = size->size();
  } else if (const Dims* shape = ctx.inputShape(1);
             shape != nullptr && shape->size() == 1 && shape->front().isKnown()) {
    count = static_cast<size_t>(std::max<int64_t>(0, shape->front().value()));
  } else {
    return;
  }
  if (count != 4 && count != 5) {
    ctx.fail("AffineGrid's size has " + std::to_string(count) + " elements; it needs 4 or 5");
    return;
  }
  Dims out;
  out.reserve(count);
  const Dims* theta = ctx.inputShape(0);
  DimValue batch = size != nullptr ? (*size)[0] : ctx.dims().fresh();
  if (size == nullptr && theta != nullptr && !theta->empty()) batch = (*theta)[0];
  out.push_back(batch);
  for (size_t i = 2; i < count; ++i)
    out.push_back(size != nullptr ? (*size)[i] : ctx.dims().fresh());
  out.push_back(DimValue::known(static_cast<int64_t>(count) - 2));
  ctx.setOutputShape(0, std::move(out));
}

// The normalized coordinate of position i of n along an axis: -1 .. 1 through the corner
// pixels' centres with align_corners, else through the pixels' outer edges.
double affineBase(int64_t i, int64_t n, bool align) {
  if (align)
    return n == 1 ? -1.0 : -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
  return -1.0 + (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(n);
}

// Each batch's theta (2 x 3, or 3 x 4) applied to the base grid's homogeneous coordinates
// (x, y[, z], 1), x along the last axis.
Status runAffineGrid(KernelContext& ctx) {
  const Array* theta = ctx.inputArray(0);
  const Array* size_in = ctx.inputArray(1);
  if (theta == nullptr || size_in == nullptr) return ctx.fail("needs theta and size tensors");
  std::optional<std::vector<int64_t>> size = integersOf(*size_in);
  if (!size || (size->size() != 4 && size->size() != 5)) {
    return ctx.fail("size must hold 4 or 5 values");
  }
  const size_t k = size->size() - 2;
  const int64_t batch = (*size)[0];
  if (theta->rank() != 3 || theta->dim(0) != batch || theta->dim(1) != static_cast<int64_t>(k) ||
      theta->dim(2) != static_cast<int64_t>(k + 1)) {
    return ctx.fail("theta " + shapeText(theta->shape()) + " must be (N, " + std::to_string(k) +
                    ", " + std::to_string(k + 1) + ") for size " + shapeText(*size));
  }
  std::vector<int64_t> spatial(size->begin() + 2, size->end());
  for (int64_t dim : spatial) {
    if (dim < 0) return ctx.fail("size must not be negative");
  }
  std::vector<int64_t> out_shape = {batch};
  out_shape.insert(out_shape.end(), spatial.begin(), spatial.end());
  out_shape.push_back(static_cast<int64_t>(k));
  Result<Array> made = Array::allocate(ElementType::kDouble, out_shape);
  if (!made) return made.status();
  const bool align = ctx.intAttribute("align_corners").value_or(0) != 0;
  const std::vector<double> t = realsOf(*theta);
  const size_t points = productOf(spatial, 0, spatial.size());
  std::vector<double> out(static_cast<size_t>(batch) * points * k);
  std::vector<size_t> strides = stridesOf(spatial);
  std::vector<double> homogeneous(k + 1, 1.0);
  for (int64_t n = 0; n < batch; ++n) {
    const double* matrix = t.data() + static_cast<size_t>(n) * k * (k + 1);
    for (size_t p = 0; p < points; ++p) {
      // (x, y, z): the last spatial axis first.
      for (size_t d = 0; d < k; ++d) {
        size_t axis = k - 1 - d;
        int64_t i = static_cast<int64_t>(p / strides[axis]) % spatial[axis];
        homogeneous[d] = affineBase(i, spatial[axis], align);
      }
      double* to = out.data() + (static_cast<size_t>(n) * points + p) * k;
      for (size_t r = 0; r < k; ++r) {
        double sum = 0;
        for (size_t c = 0; c <= k; ++c) sum += matrix[r * (k + 1) + c] * homogeneous[c];
        to[r] = sum;
      }
    }
  }
  ctx.setOutput(0, arrayOfReals(out, out_shape, theta->type()));
  return Status::ok();
}

}  // namespace

extern const Operator kAffineGrid;
constexpr Operator kAffineGrid{
    .domain = kOnnxDomain,
    .name = "AffineGrid",
    .versions = {
        {.since_version = 20,
         .inputs = {{"theta", "T1"}, {"size", "T2"}},
         .outputs = {{"grid", "T1"}},
         .attributes = {attr("align_corners", 0)},
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}},
         .function_bodies = {{20, kBody20}},
         .infer = inferAffineGrid,
         .kernel = runAffineGrid},
    }};
static_assert(isWellFormed(kAffineGrid));

}  // namespace onyx::ops::ai_onnx
