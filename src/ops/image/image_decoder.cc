// ImageDecoder (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "onyx/ops/inference_context.h"
#include "ops/image/image_formats.h"
#include "ops/kernels.h"
#include "ops/native_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (height, width, channels): the size is in the encoded bytes; RGB and BGR have 3 channels,
// Grayscale 1. The encoded stream is a vector of bytes, as onnx's ImageDecoder inference
// requires (onnx/defs/image/defs.cc).
void inferImageDecoder(InferenceContext& ctx) {
  if (!inputRankIs(ctx, 0, 1)) return;
  std::string_view format = ctx.stringAttribute("pixel_format").value_or("RGB");
  DimValue channels = format == "Grayscale"                  ? DimValue::known(1)
                      : (format == "RGB" || format == "BGR") ? DimValue::known(3)
                                                             : ctx.dims().fresh();
  ctx.setOutputShape(0, {ctx.dims().fresh(), ctx.dims().fresh(), channels});
}

Status runImageDecoder(KernelContext& ctx) {
  const Array* encoded = ctx.inputArray(0);
  if (encoded == nullptr || encoded->type() != ElementType::kUint8 || encoded->rank() != 1) {
    return ctx.fail("encoded_stream must be a 1-D uint8 tensor");
  }
  std::string format(ctx.stringAttribute("pixel_format").value_or("RGB"));
  if (format != "RGB" && format != "BGR" && format != "Grayscale") {
    return ctx.fail("pixel_format " + format + " is not RGB, BGR or Grayscale");
  }
  image::Bytes bytes(encoded->data<uint8_t>(), encoded->size());
  auto starts = [&](std::string_view magic) {
    return bytes.size() >= magic.size() &&
           std::equal(magic.begin(), magic.end(), bytes.begin(),
                      [](char a, uint8_t b) { return static_cast<uint8_t>(a) == b; });
  };
  std::string error;
  std::optional<image::Pixels> pixels;
  const NativeKernels* native = ctx.nativeKernels();
  // A format read through its library, when the host has the library.
  auto viaLibrary = [&](NativeKernels::ImageReader NativeKernels::*reader, const char* name) {
    if (native == nullptr) {
      error = std::string("decoding ") + name + " needs the evaluator's image codecs";
      return;
    }
    pixels = (native->*reader)(bytes, error);
  };
  if (starts("BM")) {
    pixels = image::decodeBmp(bytes, error);
  } else if (starts("P5") || starts("P6")) {
    pixels = image::decodePnm(bytes, error);
  } else if (starts(std::string_view("II*\0", 4)) || starts(std::string_view("MM\0*", 4)) ||
             starts(std::string_view("II+\0", 4)) || starts(std::string_view("MM\0+", 4))) {
    viaLibrary(&NativeKernels::read_tiff, "TIFF");
  } else if (starts("\x89PNG\r\n\x1a\n")) {
    viaLibrary(&NativeKernels::read_png, "PNG");
  } else if (starts("\xff\xd8")) {
    viaLibrary(&NativeKernels::read_jpeg, "JPEG");
  } else if (starts("RIFF") && bytes.size() >= 12 &&
             std::string_view(reinterpret_cast<const char*>(bytes.data()) + 8, 4) == "WEBP") {
    viaLibrary(&NativeKernels::read_webp, "WebP");
  } else if (starts(std::string_view("\0\0\0\x0cjP  \r\n\x87\n", 12)) ||
             starts("\xff\x4f\xff\x51")) {
    viaLibrary(&NativeKernels::read_jpeg2000, "JPEG 2000");
  } else {
    error =
        "the stream is in no image format onyx reads (BMP, PNM, TIFF, PNG, JPEG, WebP, JPEG "
        "2000)";
  }
  if (!pixels) return ctx.fail(error);
  bool gray = format == "Grayscale";
  size_t channels = gray ? 1 : 3;
  if (pixels->channels == channels && format != "BGR") {
    ctx.setOutput(0, std::move(pixels->data));
    return Status::ok();
  }
  size_t count = pixels->height * pixels->width;
  Array out(ElementType::kUint8, {static_cast<int64_t>(pixels->height),
                                  static_cast<int64_t>(pixels->width), gray ? 1 : 3});
  uint8_t* y = out.data<uint8_t>();
  const uint8_t* in = pixels->data.data<uint8_t>();
  for (size_t i = 0; i < count; ++i) {
    if (pixels->channels == 1) {
      for (size_t c = 0; c < channels; ++c) y[i * channels + c] = in[i];
    } else if (gray) {
      // ITU-R 601-2 luma, rounded as Pillow's convert("L") does.
      uint32_t r = in[3 * i], g = in[3 * i + 1], b = in[3 * i + 2];
      y[i] = static_cast<uint8_t>((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16);
    } else {
      bool swap = format == "BGR";
      y[3 * i] = in[3 * i + (swap ? 2 : 0)];
      y[3 * i + 1] = in[3 * i + 1];
      y[3 * i + 2] = in[3 * i + (swap ? 0 : 2)];
    }
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

extern const Operator kImageDecoder;
constexpr Operator kImageDecoder{
    .domain = kOnnxDomain,
    .name = "ImageDecoder",
    .versions = {
        {.since_version = 20,
         .inputs = {{"encoded_stream", "T1"}},
         .outputs = {{"image", "T2"}},
         .attributes = {attr("pixel_format", "RGB")},
         .constraints = {{"T1", tensor("uint8")}, {"T2", tensor("uint8")}},
         .infer = inferImageDecoder,
         .kernel = runImageDecoder},
    }};
static_assert(isWellFormed(kImageDecoder));

}  // namespace onyx::ops::ai_onnx
