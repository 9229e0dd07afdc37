// The development checks (src/core/development_checks.h) guard misuse of the graph API in
// builds that turn them on (the sanitizer build does): a misuse ends the process, naming the
// check, instead of corrupting the node list.
#include <gtest/gtest.h>

#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

#ifdef ONYX_DEVELOPMENT_CHECKS

// x -> A, x -> B
struct TwoNodes {
  Model model = testing::emptyModel();
  GraphEditor edit{model};
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* a = append("A");
  Node* b = append("B");

  Node* append(std::string_view op_type) {
    Node* node = edit.createNode(g, op_type, {x});
    g.appendNode(node);
    return node;
  }
};

TEST(DevelopmentChecks, InsertingAnAttachedNodeAgainDies) {
  TwoNodes graph;
  // A is already in the list: inserting it again would make a cycle of links.
  EXPECT_DEATH(graph.a->insertBefore(graph.b),
               "development check failed at .*node\\.cc:.*isAttached");
}

TEST(DevelopmentChecks, ReadingAValueFromAnotherGraphDies) {
  TwoNodes graph;
  Model other = testing::emptyModel();
  Value* y = *GraphEditor(other).addInput(*other.graph, "y");
  EXPECT_DEATH(graph.a->setInput(0, y), "a node reads only values visible from its graph");
}

#else

TEST(DevelopmentChecks, OffInThisBuild) {
  GTEST_SKIP() << "this build has no development checks (configure with "
                  "-DONYX_DEVELOPMENT_CHECKS=ON, as scripts/test.sh's sanitizer build does)";
}

#endif

}  // namespace
}  // namespace onyx
