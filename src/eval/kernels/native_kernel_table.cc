#include "eval/kernels/native_kernel_table.h"

#include <dnnl.h>

#include "eval/kernels/image_codecs.h"
#include "eval/kernels/openmp_threads.h"

namespace onyx::eval_internal {

namespace {

void sgemmOnThisThread(bool trans_a, bool trans_b, size_t m, size_t n, size_t k, float alpha,
                       const float* a, size_t lda, const float* b, size_t ldb, float beta, float* c,
                       size_t ldc) {
  // Each of onyx's threads runs oneDNN's sgemm on that thread alone.
  OpenMpThreads one(1);
  dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', static_cast<dnnl_dim_t>(m),
             static_cast<dnnl_dim_t>(n), static_cast<dnnl_dim_t>(k), alpha, a,
             static_cast<dnnl_dim_t>(lda), b, static_cast<dnnl_dim_t>(ldb), beta, c,
             static_cast<dnnl_dim_t>(ldc));
}

constexpr NativeKernels kNativeKernels{
    .multiply_float = sgemmOnThisThread,
    .read_jpeg = ops::image::decodeJpeg,
    .read_png = ops::image::decodePng,
    .read_tiff = ops::image::decodeTiff,
    .read_webp = ops::image::decodeWebp,
    .read_jpeg2000 = ops::image::decodeJpeg2000,
};

}  // namespace

const NativeKernels& nativeKernels() { return kNativeKernels; }

}  // namespace onyx::eval_internal
