// Internal: the image formats ImageDecoder reads through their reference libraries, which
// the evaluator links and the core library does not. Kernels reach them through
// NativeKernels (ops/native_kernels.h).
#pragma once

#include <optional>
#include <string>

#include "ops/image/image_formats.h"

namespace onyx::ops::image {

std::optional<Pixels> decodeJpeg(Bytes b, std::string& error);
std::optional<Pixels> decodePng(Bytes b, std::string& error);
std::optional<Pixels> decodeTiff(Bytes b, std::string& error);
std::optional<Pixels> decodeWebp(Bytes b, std::string& error);
std::optional<Pixels> decodeJpeg2000(Bytes b, std::string& error);

}  // namespace onyx::ops::image
