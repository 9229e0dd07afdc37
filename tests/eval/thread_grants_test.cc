// The runs at once of one Evaluator share its threads (eval/engine/executors.h): each is
// granted those no other run holds, at least one, and gives them back at its end.
#include <gtest/gtest.h>

#include <memory>

#include "eval/engine/executors.h"
#include "onyx/text/parser.h"

namespace onyx::eval_internal {
namespace {

TEST(ThreadGrants, ConcurrentRunsShareTheConfiguredThreads) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[2] x) => (float[2] y) { y = Relu (x) })");
  ASSERT_TRUE(model) << model.status().toString();
  EvalOptions options{.threads = 4};
  Executors executors(*model, options);
  // A Lease neither copies nor moves: made in place, from the prvalue lease() gives.
  using Held = std::unique_ptr<Executors::Lease>;
  Held first, second, third;
  first = Held(new Executors::Lease(executors.lease()));
  EXPECT_EQ((*first)->threads(), 4);  // alone: all of them
  second = Held(new Executors::Lease(executors.lease()));
  EXPECT_EQ((*second)->threads(), 1);  // none left: its caller's thread
  first.reset();
  third = Held(new Executors::Lease(executors.lease()));
  EXPECT_EQ((*third)->threads(), 3);  // all but the one the second run holds
  second.reset();
  third.reset();
  Executors::Lease alone = executors.lease();
  EXPECT_EQ(alone->threads(), 4);
}

}  // namespace
}  // namespace onyx::eval_internal
