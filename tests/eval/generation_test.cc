// The greedy loop of a decoder (onyx/eval/generation.h): with its cache handed from run to run
// it chooses what recomputing the whole sequence each time chooses; what is no decoder fails
// naming what it lacks.
#include "onyx/eval/generation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/value.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

// The text syntax takes no dots in names: the cache's (past_k, past_v, present_k, present_v)
// are renamed as exporters write them.
Model withCacheNamesAsExported(Result<Model> model) {
  EXPECT_TRUE(model) << model.status().toString();
  if (!model) return Model();
  GraphEditor edit(*model);
  const std::pair<const char*, const char*> renames[] = {{"past_k", "past_key_values.0.key"},
                                                         {"past_v", "past_key_values.0.value"},
                                                         {"present_k", "present.0.key"},
                                                         {"present_v", "present.0.value"}};
  for (const auto& [from, to] : renames) {
    Status renamed = edit.rename(model->graph->lookup(from), to);
    EXPECT_TRUE(renamed.isOk()) << renamed.toString();
  }
  return std::move(*model);
}

// A one-layer decoder: an embedding, a causal Attention with its cache, a head.
Model tinyDecoder() {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 23]>
    g (int64[batch, seq] input_ids, int64[batch, seq] position_ids,
       float[batch, 1, past, 4] past_k, float[batch, 1, past, 4] past_v)
      => (float[batch, seq, 5] logits, float[batch, 1, total, 4] present_k,
          float[batch, 1, total, 4] present_v)
      <float[5, 4] table = {0.1, -0.2, 0.3, 0.5, -0.4, 0.2, 0.1, -0.3, 0.6, 0.1, -0.5, 0.2, -0.1,
                            0.4, 0.2, -0.6, 0.3, -0.3, 0.1, 0.2},
       float[4, 5] head = {1, -1, 0.5, 0.2, -0.3, -0.5, 0.8, 0.1, -0.9, 0.4, 0.3, 0.2, -0.7, 0.6,
                           -0.1, 0.9, -0.4, 0.2, 0.1, -0.8}> {
      emb = Gather (table, input_ids)
      y, present_k, present_v = Attention <q_num_heads = 1, kv_num_heads = 1, is_causal = 1>
          (emb, emb, emb, , past_k, past_v)
      logits = MatMul (y, head)
    })");
  return withCacheNamesAsExported(std::move(model));
}

// The greedy choices of recomputing the whole sequence from an empty cache at every token.
std::vector<int64_t> withoutTheCache(const Model& model, std::vector<int64_t> sequence,
                                     int64_t steps) {
  std::vector<int64_t> chosen;
  for (int64_t step = 0; step <= steps; ++step) {
    const int64_t length = static_cast<int64_t>(sequence.size());
    std::vector<int64_t> positions(sequence.size());
    for (size_t i = 0; i < positions.size(); ++i) positions[i] = static_cast<int64_t>(i);
    std::vector<NamedValue> inputs = {
        {"input_ids", testing::tensorOf<int64_t>(ElementType::kInt64, {1, length}, sequence)},
        {"position_ids", testing::tensorOf<int64_t>(ElementType::kInt64, {1, length}, positions)},
        {"past_key_values.0.key",
         testing::tensorOf<float>(ElementType::kFloat, {1, 1, 0, 4}, std::vector<float>{})},
        {"past_key_values.0.value",
         testing::tensorOf<float>(ElementType::kFloat, {1, 1, 0, 4}, std::vector<float>{})}};
    Result<std::vector<EvalValue>> out = evaluate(model, inputs);
    EXPECT_TRUE(out) << out.status().toString();
    if (!out) return chosen;
    std::vector<float> logits = testing::valuesOf<float>((*out)[0]);
    size_t best = 0;
    for (size_t i = 1; i < 5; ++i) {
      if (logits[logits.size() - 5 + i] > logits[logits.size() - 5 + best]) best = i;
    }
    chosen.push_back(static_cast<int64_t>(best));
    sequence.push_back(static_cast<int64_t>(best));
  }
  return chosen;
}

TEST(Generation, TheCachedLoopChoosesWhatRecomputingTheSequenceChooses) {
  Model model = tinyDecoder();
  ASSERT_NE(model.graph, nullptr);
  Result<int64_t> vocabulary = decoderVocabulary(model);
  ASSERT_TRUE(vocabulary) << vocabulary.status().toString();
  EXPECT_EQ(*vocabulary, 5);
  for (const std::vector<int64_t>& prompt :
       {std::vector<int64_t>{1, 2, 3}, std::vector<int64_t>{4}, std::vector<int64_t>{0, 4, 4, 1}}) {
    Evaluator evaluator(model);
    int64_t runs_told = 0;
    Result<Generation> generation =
        generate(evaluator, model,
                 {.prompt = prompt, .steps = 6, .progress = [&](int64_t done, int64_t total) {
                    EXPECT_EQ(total, 7);
                    runs_told = done;
                  }});
    ASSERT_TRUE(generation) << generation.status().toString();
    EXPECT_EQ(runs_told, 7);
    EXPECT_EQ(generation->tokens, withoutTheCache(model, prompt, 6));
    // Each step's present is past and new concatenated: 2 caches of (length + 1) x 4 floats.
    int64_t copied = 0;
    const auto prompt_length = static_cast<int64_t>(prompt.size());
    for (int64_t length = prompt_length; length < prompt_length + 6; ++length) {
      copied += 2 * (length + 1) * 4 * static_cast<int64_t>(sizeof(float));
    }
    EXPECT_EQ(generation->steps_cache_bytes_copied, copied);
    EXPECT_EQ(generation->prompt_logits.size(), 5u);
    // The prompt a token or two at a time: its cache grows run by run, the same choices.
    for (int64_t chunk : {1, 2}) {
      Result<Generation> chunked =
          generate(evaluator, model,
                   {.prompt = prompt, .steps = 6, .prompt_chunk = chunk, .warmup_runs = 1});
      ASSERT_TRUE(chunked) << chunked.status().toString();
      EXPECT_EQ(chunked->tokens, generation->tokens) << "chunks of " << chunk;
    }
  }
}

// The same decoder with a cache of fixed capacity (16 positions), written in place by
// TensorScatter at the run's first position, and Attention told the valid length (opset 24's
// nonpad_kv_seqlen, the last position + 1), as the loop binds each present to its past.
Model fixedCapacityDecoder() {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 24]>
    g (int64[batch, seq] input_ids, int64[batch, seq] position_ids,
       float[batch, 1, 16, 4] past_k, float[batch, 1, 16, 4] past_v)
      => (float[batch, seq, 5] logits, float[batch, 1, 16, 4] present_k,
          float[batch, 1, 16, 4] present_v)
      <float[5, 4] table = {0.1, -0.2, 0.3, 0.5, -0.4, 0.2, 0.1, -0.3, 0.6, 0.1, -0.5, 0.2, -0.1,
                            0.4, 0.2, -0.6, 0.3, -0.3, 0.1, 0.2},
       float[4, 5] head = {1, -1, 0.5, 0.2, -0.3, -0.5, 0.8, 0.1, -0.9, 0.4, 0.3, 0.2, -0.7, 0.6,
                           -0.1, 0.9, -0.4, 0.2, 0.1, -0.8},
       int64[1] zero = {0}, int64[1] one = {1}, int64[1] last = {-1},
       int64[1] end = {9223372036854775807}> {
      emb = Gather (table, input_ids)
      heads = Unsqueeze (emb, one)
      first = Slice (position_ids, zero, one, one)
      at = Squeeze (first, one)
      final = Slice (position_ids, last, end, one)
      final_at = Squeeze (final, one)
      count = Add (final_at, one)
      present_k = TensorScatter <axis = 2> (past_k, heads, at)
      present_v = TensorScatter <axis = 2> (past_v, heads, at)
      y = Attention <is_causal = 1> (heads, present_k, present_v, , , , count)
      y3 = Squeeze (y, one)
      logits = MatMul (y3, head)
    })");
  return withCacheNamesAsExported(std::move(model));
}

TEST(Generation, ACacheOfFixedCapacityIsWrittenInPlaceToTheSameChoices) {
  Model model = fixedCapacityDecoder();
  ASSERT_NE(model.graph, nullptr);
  Model growing = tinyDecoder();
  ASSERT_NE(growing.graph, nullptr);
  Evaluator evaluator(model);
  for (const std::vector<int64_t>& prompt :
       {std::vector<int64_t>{1, 2, 3}, std::vector<int64_t>{4}, std::vector<int64_t>{0, 4, 4, 1}}) {
    const std::vector<int64_t> expected = withoutTheCache(growing, prompt, 6);
    for (int64_t chunk : {0, 1, 3}) {
      Result<Generation> generation =
          generate(evaluator, model,
                   {.prompt = prompt, .steps = 6, .prompt_chunk = chunk, .warmup_runs = 1});
      ASSERT_TRUE(generation) << generation.status().toString();
      EXPECT_EQ(generation->tokens, expected) << "chunks of " << chunk;
      EXPECT_EQ(generation->steps_cache_bytes_copied, 0) << "chunks of " << chunk;
    }
  }
}

TEST(Generation, WhatIsNoDecoderFailsNamingWhatItLacks) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 23]>
    g (int64[1, seq] tokens) => (float[1, seq, 5] logits) <float[5, 5] table = {
        1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1}> {
      logits = Gather (table, tokens)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  Evaluator evaluator(*model);
  Result<Generation> generation = generate(evaluator, *model, {.prompt = {1}, .steps = 1});
  ASSERT_FALSE(generation);
  EXPECT_NE(generation.status().message().find("'tokens' is none the loop feeds"),
            std::string::npos)
      << generation.status().message();

  Model decoder = tinyDecoder();
  Evaluator cached(decoder);
  Result<Generation> empty = generate(cached, decoder, {.prompt = {}, .steps = 1});
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.status().message().find("no tokens"), std::string::npos);
}

TEST(Generation, APseudoRandomPromptIsTheSharedGenerators) {
  // x1 = 46 * 6364136223846793005 + 1442695040888963407 mod 2^64, id = (x1 >> 33) mod 1000.
  const uint64_t x1 = 46ULL * 6364136223846793005ULL + 1442695040888963407ULL;
  std::vector<int64_t> ids = pseudoRandomPrompt(3, 1000, 46);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[0], static_cast<int64_t>((x1 >> 33) % 1000));
  for (int64_t id : ids) EXPECT_LT(id, 1000);
}

}  // namespace
}  // namespace onyx
