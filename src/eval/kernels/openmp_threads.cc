#include "eval/kernels/openmp_threads.h"

// libgomp's, declared here because clang has no <omp.h> without libomp.
extern "C" {
int omp_get_max_threads(void);
void omp_set_num_threads(int count);
}

namespace onyx::eval_internal {

OpenMpThreads::OpenMpThreads(int threads) : previous_(omp_get_max_threads()) {
  if (threads != previous_) omp_set_num_threads(threads);
}

OpenMpThreads::~OpenMpThreads() {
  if (omp_get_max_threads() != previous_) omp_set_num_threads(previous_);
}

}  // namespace onyx::eval_internal
