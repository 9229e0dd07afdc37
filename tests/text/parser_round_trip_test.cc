// Hand-written texts through parseText -> serializeModel -> parseModel: what the text parser
// builds is a model like any other, which writes, reads back and writes the same bytes again.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "onyx/ir/walk.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "support/text_samples.h"

namespace onyx {
namespace {

size_t countNodes(const Model& model) {
  size_t count = 0;
  forEachGraph(model, [&](Graph& graph) { count += graph.nodeCount(); });
  return count;
}

size_t countTensors(const Model& model) {
  size_t count = 0;
  forEachTensor(model, [&](Tensor&, TensorRole) { ++count; });
  return count;
}

TEST(TextParserRoundTrip, EverySampleWritesReadsAndWritesTheSameBytes) {
  ASSERT_GE(testing::textSamples().size(), 15u);
  for (const testing::TextSample& sample : testing::textSamples()) {
    SCOPED_TRACE(std::string(sample.name));
    Result<Model> parsed = parseText(sample.text);
    ASSERT_TRUE(parsed) << parsed.status().toString();
    Result<std::string> written = serializeModel(*parsed);
    ASSERT_TRUE(written) << written.status().toString();

    auto bytes = std::make_shared<const std::string>(std::move(*written));
    LoadOptions options;
    options.load_external_data = false;
    Result<Model> decoded = parseModel(*bytes, bytes, options);
    ASSERT_TRUE(decoded) << decoded.status().toString();
    Result<std::string> rewritten = serializeModel(*decoded);
    ASSERT_TRUE(rewritten);
    EXPECT_EQ(*rewritten, *bytes);

    EXPECT_EQ(countNodes(*decoded), countNodes(*parsed));
    EXPECT_EQ(countTensors(*decoded), countTensors(*parsed));
    EXPECT_EQ(decoded->functions.size(), parsed->functions.size());
    EXPECT_GT(bytes->size(), 0u);
  }
}

TEST(TextParserRoundTrip, SamplesHaveWhatTheyClaim) {
  // A few facts per sample, so that a sample that silently lost its point is noticed.
  auto parsed = [](std::string_view name) {
    for (const testing::TextSample& sample : testing::textSamples()) {
      if (sample.name == name) {
        Result<Model> model = parseText(sample.text);
        EXPECT_TRUE(model) << name << ": " << model.status().toString();
        return model ? std::move(model).value() : Model();
      }
    }
    ADD_FAILURE() << "no sample " << name;
    return Model();
  };
  EXPECT_EQ(parsed("every_type").graph->inputs.size(), 26u);
  EXPECT_EQ(parsed("functions").functions.size(), 5u);
  EXPECT_EQ(parsed("initializers").graph->initializers.size(), 18u);
  EXPECT_EQ(parsed("nodes").graph->nodeCount(), 21u);
  Model subgraphs = parsed("subgraphs");
  size_t graphs = 0;
  forEachGraph(subgraphs, [&](Graph&) { ++graphs; });
  EXPECT_EQ(graphs, 6u);
}

TEST(TextParserRoundTrip, LargeGraphParses) {
  // 20,000 nodes in a chain: the parser's buffers and the decoder's batches at scale.
  std::string text =
      "<ir_version: 8, opset_import: [\"\" : 13]>\nchain (float[N] v0) => (float[N] v20000) {\n";
  for (int i = 1; i <= 20000; ++i) {
    std::string prev = "v" + std::to_string(i - 1);
    if (i % 2 == 0) {
      text += "  v" + std::to_string(i) + " = Relu(" + prev + ")\n";
    } else {
      text += "  [n" + std::to_string(i) + "] v" + std::to_string(i) +
              " = LeakyRelu <alpha = 0.1> (" + prev + ")  # a comment\n";
    }
  }
  text += "}\n";
  Result<Model> model = parseText(text);
  ASSERT_TRUE(model) << model.status().toString();
  const Graph& graph = *model->graph;
  EXPECT_EQ(graph.nodeCount(), 20000u);
  EXPECT_EQ(graph.lastNode()->input(0), graph.lastNode()->prev()->output(0));
  EXPECT_EQ(graph.outputs[0]->bound(), graph.lastNode()->output(0));
}

}  // namespace
}  // namespace onyx
