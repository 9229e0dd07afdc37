// Internal to the evaluator: oneDNN threads itself with OpenMP, whose team size is a setting
// of the calling thread. A guard sets it for one call into oneDNN and gives the caller's
// setting back, so that an application's own OpenMP regions keep theirs.
#pragma once

namespace onyx::eval_internal {

class OpenMpThreads {
 public:
  explicit OpenMpThreads(int threads);
  ~OpenMpThreads();
  OpenMpThreads(const OpenMpThreads&) = delete;
  OpenMpThreads& operator=(const OpenMpThreads&) = delete;

 private:
  int previous_;
};

}  // namespace onyx::eval_internal
