// The image formats ImageDecoder reads through their reference libraries: JPEG
// (libjpeg-turbo), PNG (libpng), TIFF (libtiff), WebP (libwebp) and JPEG 2000 (OpenJPEG),
// each with its default decoding options, as Pillow uses them.
//
// libjpeg and libpng report errors by calling a handler that must not return; ours longjmp
// back to a setjmp in a function whose locals are all trivial, so that no destructor is ever
// skipped: everything with a destructor lives in a state struct owned by the caller.
#include <algorithm>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

// jpeglib.h needs <cstdio> (above) first.
#include <jerror.h>
#include <jpeglib.h>
// OpenJPEG installs its header in a versioned folder that pkg-config adds to the include
// path; a compile without that flag finds Debian's 2.5 one by name.
#if __has_include(<openjpeg.h>)
#include <openjpeg.h>
#else
#include <openjpeg-2.5/openjpeg.h>
#endif
#include <png.h>
#include <tiffio.h>
#include <webp/decode.h>

#include "eval/kernels/image_codecs.h"

namespace onyx::ops::image {
namespace {

// ---- JPEG ---------------------------------------------------------------------------------

struct JpegErrors {
  jpeg_error_mgr manager;  // first: libjpeg hands back a pointer to it
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jpegFail(j_common_ptr info) {
  auto* errors = reinterpret_cast<JpegErrors*>(info->err);
  (*info->err->format_message)(info, errors->message);
  std::longjmp(errors->jump, 1);
}

// libjpeg only counts its warnings about corrupt data and goes on, as Pillow lets it; but
// a stream that ends before the image does is an error (Pillow: "image file is truncated").
void jpegMessage(j_common_ptr info, int level) {
  if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) jpegFail(info);
}

void jpegSilence(j_common_ptr) {}

struct JpegState {
  jpeg_decompress_struct info{};
  JpegErrors errors{};
  bool created = false;
  std::optional<Pixels> pixels;
  std::vector<uint8_t> cmyk_row;
  std::string error;
};

// Pillow's CMYK to RGB: each channel is (255 - K) less its ink scaled by (255 - K) / 255.
inline uint8_t inkToRgb(uint32_t ink, uint32_t not_black) {
  uint32_t product = ink * not_black + 128;
  return static_cast<uint8_t>(not_black - (((product >> 8) + product) >> 8));
}

bool readJpeg(JpegState& s, Bytes b) {
  if (setjmp(s.errors.jump) != 0) {
    s.error = std::string("the JPEG is damaged: ") + s.errors.message;
    return false;
  }
  jpeg_create_decompress(&s.info);
  s.created = true;
  jpeg_mem_src(&s.info, b.data(), static_cast<unsigned long>(b.size()));
  jpeg_read_header(&s.info, TRUE);
  bool gray = s.info.jpeg_color_space == JCS_GRAYSCALE;
  bool cmyk = s.info.jpeg_color_space == JCS_CMYK || s.info.jpeg_color_space == JCS_YCCK;
  s.info.out_color_space = gray ? JCS_GRAYSCALE : cmyk ? JCS_CMYK : JCS_RGB;
  jpeg_calc_output_dimensions(&s.info);
  size_t channels = gray ? 1 : 3;
  s.pixels = allocatePixels(s.info.output_width, s.info.output_height, channels, s.error);
  if (!s.pixels) return false;
  if (cmyk) s.cmyk_row.resize(size_t{s.info.output_width} * 4);
  jpeg_start_decompress(&s.info);
  if (s.info.output_components != static_cast<int>(cmyk ? 4 : channels)) {
    s.error = "the JPEG decodes to an unexpected number of components";
    return false;
  }
  size_t width = s.info.output_width;
  uint8_t* out = s.pixels->data.data<uint8_t>();
  while (s.info.output_scanline < s.info.output_height) {
    size_t y = s.info.output_scanline;
    JSAMPROW row = cmyk ? s.cmyk_row.data() : out + y * width * channels;
    if (jpeg_read_scanlines(&s.info, &row, 1) != 1) {
      s.error = "the JPEG's image data is truncated";
      return false;
    }
    if (cmyk) {
      // Adobe's CMYK JPEGs store inverted inks (Pillow reads them as "CMYK;I").
      uint32_t flip = s.info.saw_Adobe_marker ? 255 : 0;
      uint8_t* rgb = out + y * width * 3;
      for (size_t x = 0; x < width; ++x) {
        const uint8_t* ink = s.cmyk_row.data() + 4 * x;
        uint32_t not_black = 255 - (ink[3] ^ flip);
        for (size_t c = 0; c < 3; ++c) rgb[3 * x + c] = inkToRgb(ink[c] ^ flip, not_black);
      }
    }
  }
  return true;
}

// ---- PNG ----------------------------------------------------------------------------------

struct PngState {
  png_structp png = nullptr;
  png_infop info = nullptr;
  Bytes in;
  size_t at = 0;
  std::optional<Pixels> pixels;
  std::vector<png_bytep> rows;
  std::string error;
};

[[noreturn]] void pngFail(png_structp png, png_const_charp message) {
  auto* s = static_cast<PngState*>(png_get_error_ptr(png));
  s->error = std::string("the PNG is damaged: ") + message;
  png_longjmp(png, 1);
}

void pngWarn(png_structp, png_const_charp) {}

void pngRead(png_structp png, png_bytep data, size_t length) {
  auto* s = static_cast<PngState*>(png_get_io_ptr(png));
  if (s->in.size() - s->at < length) png_error(png, "the stream is truncated");
  std::memcpy(data, s->in.data() + s->at, length);
  s->at += length;
}

bool readPng(PngState& s) {
  if (setjmp(png_jmpbuf(s.png)) != 0) return false;
  png_set_read_fn(s.png, &s, pngRead);
  png_set_user_limits(s.png, static_cast<png_uint_32>(std::min<uint64_t>(kMaxPixels, 0x7fffffff)),
                      static_cast<png_uint_32>(std::min<uint64_t>(kMaxPixels, 0x7fffffff)));
  png_read_info(s.png, s.info);
  png_uint_32 width = 0, height = 0;
  int depth = 0, color = 0;
  png_get_IHDR(s.png, s.info, &width, &height, &depth, &color, nullptr, nullptr, nullptr);
  // 8-bit samples, palettes looked up, alpha dropped, gray kept as one channel.
  if (depth == 16) png_set_strip_16(s.png);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(s.png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(s.png);
  if ((color & PNG_COLOR_MASK_ALPHA) != 0) png_set_strip_alpha(s.png);
  png_set_interlace_handling(s.png);
  png_read_update_info(s.png, s.info);
  size_t channels = png_get_channels(s.png, s.info);
  if ((channels != 1 && channels != 3) ||
      png_get_rowbytes(s.png, s.info) != size_t{width} * channels) {
    s.error = "the PNG decodes to an unexpected pixel layout";
    return false;
  }
  s.pixels = allocatePixels(width, height, channels, s.error);
  if (!s.pixels) return false;
  uint8_t* out = s.pixels->data.data<uint8_t>();
  s.rows.resize(height);
  for (size_t y = 0; y < height; ++y) s.rows[y] = out + y * width * channels;
  png_read_image(s.png, s.rows.data());
  return true;
}

// ---- TIFF ---------------------------------------------------------------------------------

struct MemorySource {
  Bytes in;
  uint64_t at = 0;
};

tmsize_t tiffRead(thandle_t handle, void* buffer, tmsize_t size) {
  auto* source = static_cast<MemorySource*>(handle);
  if (size <= 0 || source->at >= source->in.size()) return 0;
  size_t count = std::min<uint64_t>(static_cast<uint64_t>(size), source->in.size() - source->at);
  std::memcpy(buffer, source->in.data() + source->at, count);
  source->at += count;
  return static_cast<tmsize_t>(count);
}

tmsize_t tiffWrite(thandle_t, void*, tmsize_t) { return -1; }

toff_t tiffSeek(thandle_t handle, toff_t offset, int whence) {
  auto* source = static_cast<MemorySource*>(handle);
  uint64_t base = whence == SEEK_CUR ? source->at : whence == SEEK_END ? source->in.size() : 0;
  uint64_t target = base + offset;  // wraps for a negative offset given as toff_t
  if (target > source->in.size()) return static_cast<toff_t>(-1);
  source->at = target;
  return target;
}

int tiffClose(thandle_t) { return 0; }

toff_t tiffSize(thandle_t handle) { return static_cast<MemorySource*>(handle)->in.size(); }

int tiffMap(thandle_t, void**, toff_t*) { return 0; }

void tiffUnmap(thandle_t, void*, toff_t) {}

int tiffError(TIFF*, void* user, const char*, const char* format, va_list args) {
  auto* error = static_cast<std::string*>(user);
  if (error->empty()) {
    char text[512];
    std::vsnprintf(text, sizeof text, format, args);
    *error = text;
  }
  return 1;
}

int tiffWarning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

// ---- JPEG 2000 ----------------------------------------------------------------------------

OPJ_SIZE_T j2kRead(void* buffer, OPJ_SIZE_T size, void* user) {
  auto* source = static_cast<MemorySource*>(user);
  if (source->at >= source->in.size()) return static_cast<OPJ_SIZE_T>(-1);
  size_t count = std::min<uint64_t>(size, source->in.size() - source->at);
  std::memcpy(buffer, source->in.data() + source->at, count);
  source->at += count;
  return count;
}

OPJ_OFF_T j2kSkip(OPJ_OFF_T count, void* user) {
  auto* source = static_cast<MemorySource*>(user);
  int64_t target = static_cast<int64_t>(source->at) + count;
  target = std::clamp<int64_t>(target, 0, static_cast<int64_t>(source->in.size()));
  OPJ_OFF_T skipped = target - static_cast<int64_t>(source->at);
  source->at = static_cast<uint64_t>(target);
  return skipped;
}

OPJ_BOOL j2kSeek(OPJ_OFF_T position, void* user) {
  auto* source = static_cast<MemorySource*>(user);
  if (position < 0 || static_cast<uint64_t>(position) > source->in.size()) return OPJ_FALSE;
  source->at = static_cast<uint64_t>(position);
  return OPJ_TRUE;
}

void j2kError(const char* message, void* user) {
  auto* error = static_cast<std::string*>(user);
  if (error->empty()) {
    *error = message;
    while (!error->empty() && error->back() == '\n') error->pop_back();
  }
}

void j2kQuiet(const char*, void*) {}

struct J2kState {
  opj_stream_t* stream = nullptr;
  opj_codec_t* codec = nullptr;
  opj_image_t* image = nullptr;
  ~J2kState() {
    if (image != nullptr) opj_image_destroy(image);
    if (codec != nullptr) opj_destroy_codec(codec);
    if (stream != nullptr) opj_stream_destroy(stream);
  }
};

}  // namespace

std::optional<Pixels> decodeJpeg(Bytes b, std::string& error) {
  JpegState s;
  s.info.err = jpeg_std_error(&s.errors.manager);
  s.errors.manager.error_exit = jpegFail;
  s.errors.manager.emit_message = jpegMessage;
  s.errors.manager.output_message = jpegSilence;
  bool ok = readJpeg(s, b);
  if (s.created) jpeg_destroy_decompress(&s.info);
  if (!ok) {
    error = s.error;
    return std::nullopt;
  }
  return std::move(s.pixels);
}

std::optional<Pixels> decodePng(Bytes b, std::string& error) {
  PngState s;
  s.in = b;
  s.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, pngFail, pngWarn);
  if (s.png != nullptr) s.info = png_create_info_struct(s.png);
  bool ok = s.info != nullptr && readPng(s);
  if (s.png != nullptr)
    png_destroy_read_struct(&s.png, s.info != nullptr ? &s.info : nullptr, nullptr);
  if (!ok) {
    error = s.error.empty() ? "libpng could not start" : s.error;
    return std::nullopt;
  }
  return std::move(s.pixels);
}

std::optional<Pixels> decodeTiff(Bytes b, std::string& error) {
  MemorySource source{b, 0};
  std::string message;
  TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
  TIFFOpenOptionsSetMaxSingleMemAlloc(options, static_cast<tmsize_t>(kMaxPixels * 4));
  TIFFOpenOptionsSetErrorHandlerExtR(options, tiffError, &message);
  TIFFOpenOptionsSetWarningHandlerExtR(options, tiffWarning, nullptr);
  TIFF* tiff = TIFFClientOpenExt("image", "rm", &source, tiffRead, tiffWrite, tiffSeek, tiffClose,
                                 tiffSize, tiffMap, tiffUnmap, options);
  TIFFOpenOptionsFree(options);
  auto fail = [&](std::string what) -> std::optional<Pixels> {
    if (tiff != nullptr) TIFFClose(tiff);
    error = "the TIFF is damaged or not read: " + what;
    if (!message.empty() && message != what) error += " (" + message + ")";
    return std::nullopt;
  };
  if (tiff == nullptr) return fail("its header is unreadable");
  uint32_t width = 0, height = 0;
  TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
  char reason[1024] = {0};
  if (TIFFRGBAImageOK(tiff, reason) == 0) return fail(reason);
  std::optional<Pixels> pixels = allocatePixels(width, height, 3, error);
  if (!pixels) return fail(error);
  Result<Array> raster = Array::allocate(
      ElementType::kUint32, {static_cast<int64_t>(height), static_cast<int64_t>(width)});
  if (!raster) return fail(raster.status().message());
  uint32_t* rgba = raster->data<uint32_t>();
  if (TIFFReadRGBAImageOriented(tiff, width, height, rgba, ORIENTATION_TOPLEFT, 1) == 0) {
    return fail("its image data is unreadable");
  }
  TIFFClose(tiff);
  uint8_t* out = pixels->data.data<uint8_t>();
  size_t count = size_t{width} * height;
  for (size_t i = 0; i < count; ++i) {
    out[3 * i] = static_cast<uint8_t>(TIFFGetR(rgba[i]));
    out[3 * i + 1] = static_cast<uint8_t>(TIFFGetG(rgba[i]));
    out[3 * i + 2] = static_cast<uint8_t>(TIFFGetB(rgba[i]));
  }
  return pixels;
}

std::optional<Pixels> decodeWebp(Bytes b, std::string& error) {
  WebPDecoderConfig config;
  if (WebPInitDecoderConfig(&config) == 0) {
    error = "libwebp is not the version onyx was built with";
    return std::nullopt;
  }
  auto describe = [](VP8StatusCode status) -> std::string {
    switch (status) {
      case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
      case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
      case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
      case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
      case VP8_STATUS_SUSPENDED: return "suspended";
      case VP8_STATUS_USER_ABORT: return "aborted";
      case VP8_STATUS_NOT_ENOUGH_DATA: return "the stream is truncated";
      default: return "status " + std::to_string(static_cast<int>(status));
    }
  };
  VP8StatusCode status = WebPGetFeatures(b.data(), b.size(), &config.input);
  if (status != VP8_STATUS_OK) {
    error = "the WebP is damaged: " + describe(status);
    return std::nullopt;
  }
  if (config.input.has_animation != 0) {
    error = "animated WebP images are not read";
    return std::nullopt;
  }
  if (config.input.width <= 0 || config.input.height <= 0) {
    error = "the WebP's size is not sane";
    return std::nullopt;
  }
  std::optional<Pixels> pixels =
      allocatePixels(static_cast<uint64_t>(config.input.width),
                     static_cast<uint64_t>(config.input.height), 3, error);
  if (!pixels) return std::nullopt;
  config.output.colorspace = MODE_RGB;
  config.output.is_external_memory = 1;
  config.output.u.RGBA.rgba = pixels->data.data<uint8_t>();
  config.output.u.RGBA.stride = config.input.width * 3;
  config.output.u.RGBA.size = pixels->data.size();
  status = WebPDecode(b.data(), b.size(), &config);
  WebPFreeDecBuffer(&config.output);
  if (status != VP8_STATUS_OK) {
    error = "the WebP is damaged: " + describe(status);
    return std::nullopt;
  }
  return pixels;
}

std::optional<Pixels> decodeJpeg2000(Bytes b, std::string& error) {
  MemorySource source{b, 0};
  std::string message;
  auto fail = [&](const std::string& what) -> std::optional<Pixels> {
    error = "the JPEG 2000 image is damaged or not read: " + what;
    if (!message.empty()) error += " (" + message + ")";
    return std::nullopt;
  };
  J2kState s;
  bool boxed = b.size() >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0x0c;
  s.stream = opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_TRUE);
  s.codec = opj_create_decompress(boxed ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K);
  if (s.stream == nullptr || s.codec == nullptr) return fail("OpenJPEG could not start");
  opj_stream_set_read_function(s.stream, j2kRead);
  opj_stream_set_skip_function(s.stream, j2kSkip);
  opj_stream_set_seek_function(s.stream, j2kSeek);
  opj_stream_set_user_data(s.stream, &source, nullptr);
  opj_stream_set_user_data_length(s.stream, b.size());
  opj_set_error_handler(s.codec, j2kError, &message);
  opj_set_warning_handler(s.codec, j2kQuiet, nullptr);
  opj_set_info_handler(s.codec, j2kQuiet, nullptr);
  opj_dparameters_t parameters;
  opj_set_default_decoder_parameters(&parameters);
  if (opj_setup_decoder(s.codec, &parameters) == OPJ_FALSE) return fail("bad parameters");
  if (opj_read_header(s.stream, s.codec, &s.image) == OPJ_FALSE || s.image == nullptr) {
    return fail("its header is unreadable");
  }
  const opj_image_t& header = *s.image;
  if (header.x1 <= header.x0 || header.y1 <= header.y0 || header.numcomps == 0) {
    return fail("it has no pixels");
  }
  uint64_t width = header.x1 - header.x0, height = header.y1 - header.y0;
  if (!sizeIsSane(width, height)) return fail("its size is not sane");
  if (header.color_space == OPJ_CLRSPC_SYCC || header.color_space == OPJ_CLRSPC_EYCC ||
      header.color_space == OPJ_CLRSPC_CMYK) {
    return fail("only gray and RGB images are read");
  }
  if (opj_decode(s.codec, s.stream, s.image) == OPJ_FALSE ||
      opj_end_decompress(s.codec, s.stream) == OPJ_FALSE) {
    return fail("its image data is unreadable");
  }
  const opj_image_t& image = *s.image;
  size_t channels = image.numcomps >= 3 ? 3 : 1;
  for (size_t c = 0; c < channels; ++c) {
    const opj_image_comp_t& comp = image.comps[c];
    if (comp.data == nullptr || comp.w == 0 || comp.h == 0 || comp.dx == 0 || comp.dy == 0 ||
        comp.prec == 0 || comp.prec > 31) {
      return fail("a component is missing");
    }
  }
  std::optional<Pixels> pixels = allocatePixels(width, height, channels, error);
  if (!pixels) return std::nullopt;
  uint8_t* out = pixels->data.data<uint8_t>();
  for (size_t c = 0; c < channels; ++c) {
    const opj_image_comp_t& comp = image.comps[c];
    // Samples are brought to 8 bits by shifting, as Pillow does: signed ones first offset
    // by half their range.
    int64_t offset = comp.sgnd != 0 ? int64_t{1} << (comp.prec - 1) : 0;
    int shift = static_cast<int>(comp.prec) - 8;
    for (size_t y = 0; y < height; ++y) {
      int64_t row = static_cast<int64_t>((image.y0 + y) / comp.dy) - comp.y0;
      row = std::clamp<int64_t>(row, 0, int64_t{comp.h} - 1);
      const OPJ_INT32* samples = comp.data + static_cast<size_t>(row) * comp.w;
      uint8_t* line = out + y * width * channels + c;
      for (size_t x = 0; x < width; ++x) {
        int64_t column = static_cast<int64_t>((image.x0 + x) / comp.dx) - comp.x0;
        column = std::clamp<int64_t>(column, 0, int64_t{comp.w} - 1);
        int64_t v = samples[column] + offset;
        v = shift >= 0 ? v >> shift : v << -shift;
        line[x * channels] = static_cast<uint8_t>(std::clamp<int64_t>(v, 0, 255));
      }
    }
  }
  return pixels;
}

}  // namespace onyx::ops::image
