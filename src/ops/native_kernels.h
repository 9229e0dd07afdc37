// Internal: the kernels whose fast code lives in libraries the core library does not link
// (oneDNN's sgemm, the image codecs). The evaluator, which links them, hands this table to the
// kernels it runs through KernelHost::nativeKernels (src/eval/kernels/native_kernel_table.cc fills
// it); a kernel run by any other host gets none and uses its portable code, or says what is
// missing. So reading, checking and inferring a model never pull oneDNN, OpenMP or libjpeg in.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "ops/image/image_formats.h"

namespace onyx {

struct NativeKernels {
  /// C = alpha * op(A) * op(B) + beta * C on the calling thread alone (the arguments of
  /// ops::multiplyFloatOnThisThread, with k > 0).
  void (*multiply_float)(bool trans_a, bool trans_b, size_t m, size_t n, size_t k, float alpha,
                         const float* a, size_t lda, const float* b, size_t ldb, float beta,
                         float* c, size_t ldc);
  /// The image formats read through their reference libraries.
  using ImageReader = std::optional<ops::image::Pixels> (*)(ops::image::Bytes bytes,
                                                            std::string& error);
  ImageReader read_jpeg;
  ImageReader read_png;
  ImageReader read_tiff;
  ImageReader read_webp;
  ImageReader read_jpeg2000;
};

}  // namespace onyx
