#include "support/graph_testing.h"

#include <cstring>

#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/verify.h"
#include "onyx/serde/model_io.h"

namespace onyx::testing {

namespace {

::testing::AssertionResult judged(const Status& status) {
  if (status.isOk()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.toString();
}

}  // namespace

::testing::AssertionResult verified(const Model& model) {
  return judged(verifiedStatus(verifyModel(model)));
}

::testing::AssertionResult verified(const Graph& graph) {
  return judged(verifiedStatus(verifyGraph(graph)));
}

Model parseOwned(const std::string& bytes) {
  auto owned = std::make_shared<const std::string>(bytes);
  auto model = parseModel(*owned, owned);
  EXPECT_TRUE(model) << model.status().toString();
  if (!model) return Model();
  return std::move(model).value();
}

std::string bytesOf(const Model& model) {
  auto bytes = serializeModel(model);
  EXPECT_TRUE(bytes) << bytes.status().toString();
  return bytes ? *bytes : std::string();
}

Model reparse(const Model& model) { return parseOwned(bytesOf(model)); }

Model emptyModel(std::string_view graph_name) {
  Model model;
  model.ir_version = 10;
  model.setOpsetVersion("", 18);
  model.graph = GraphEditor(model).newGraph();
  model.graph->name = GraphEditor(model).arena().copy(graph_name);
  return model;
}

Tensor* floatTensor(Arena& arena, std::string_view name, std::initializer_list<int64_t> dims,
                    std::initializer_list<float> values) {
  Tensor* tensor = arena.make<Tensor>();
  tensor->name = arena.copy(name);
  tensor->data_type = static_cast<int32_t>(ElementType::kFloat);
  for (int64_t d : dims) tensor->dims.values.push_back(arena, d);
  std::string raw(values.size() * 4, '\0');
  std::memcpy(raw.data(), values.begin(), raw.size());
  tensor->raw_data = arena.copy(raw);
  return tensor;
}

std::string opTypes(const Graph& graph) {
  std::string text;
  for (const Node* node : graph.nodes()) {
    if (!text.empty()) text += ' ';
    text += node->opType();
  }
  return text;
}

}  // namespace onyx::testing
