// onyx/eval/generation.h — the greedy loop of a decoder LLM: token ids in, token ids out.
//
// The decoder is the form optimum and onnxruntime's model builder export (and
// bench/make_llm_models.py writes): inputs `input_ids` (int64 [batch, sequence]), optionally
// `position_ids` (int64 [batch, sequence]) and `attention_mask` (int64 [batch, past +
// sequence]), and the cache as `past_key_values.N.key` / `.value`; outputs `logits` ([batch,
// sequence, vocabulary]) and the cache after the run as `present.N.key` / `.value`. The loop
// runs the prompt once from an empty cache, then one token a run, each run's present cache
// handed to the next as its past without a copy, each token the first index of the largest
// logit of the last position (greedy). No tokenizer: ids in and out.
//
// A cache whose dimensions past the batch are all numbers has a fixed capacity: the model
// writes each run's positions into it (TensorScatter at the first position, opset 24) and
// tells Attention how many are valid (nonpad_kv_seqlen), both from position_ids. The loop
// starts it as zeros and binds each present output to its past's buffer (BoundOutput), so
// that no byte of the cache is copied from run to run.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/model.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct GenerationOptions {
  /// The prompt's token ids (batch 1); at least one.
  std::vector<int64_t> prompt;
  /// Runs of one token after the prompt's run.
  int64_t steps = 0;
  /// The prompt in runs of this many tokens (0: one run): the prompt's logits, and its
  /// activations, then take a run of that many positions, not of the whole prompt (a 512-token
  /// prompt's logits over a 32000-word vocabulary are 64 MiB).
  int64_t prompt_chunk = 0;
  /// Untimed runs of the prompt from an empty cache first: the first run of an Evaluator
  /// also compiles its plan and prepares its weights, which a rate should not count.
  int64_t warmup_runs = 0;
  /// Told after each run, with the runs done and the runs in all (the prompt's and the steps).
  std::function<void(int64_t done, int64_t total)> progress = nullptr;
};

struct Generation {
  /// The prompt run's choice, then each step's: 1 + steps ids.
  std::vector<int64_t> tokens;
  std::chrono::nanoseconds prompt_time{0};  // the prompt's runs
  std::chrono::nanoseconds steps_time{0};   // the steps' runs together
  /// The prompt's logits at its last position (the vocabulary's floats), for comparing
  /// runtimes.
  std::vector<float> prompt_logits;
  /// Bytes of cache the steps' runs gave in new memory: a present output that is not its
  /// past's buffer is the whole cache written anew (past and present concatenated, as
  /// Attention's past/present inputs and outputs do), where a cache of fixed capacity is
  /// written in place (0).
  int64_t steps_cache_bytes_copied = 0;
};

/// The vocabulary size of a decoder of the form above (the last dimension of `logits`), or
/// an error naming what the model lacks.
Result<int64_t> decoderVocabulary(const Model& model);

/// Runs the greedy loop on `evaluator` (made from `model`). Fails naming the input or output
/// when the model is not a decoder of the form above (an input the loop cannot feed, a cache
/// input without its present output, logits that are not FLOAT), or when a run fails.
Result<Generation> generate(Evaluator& evaluator, const Model& model,
                            const GenerationOptions& options);

/// `count` token ids below `vocabulary` from a 64-bit linear congruential generator seeded
/// with `seed` (x = x * 6364136223846793005 + 1442695040888963407 mod 2^64, id = (x >> 33)
/// mod vocabulary): a prompt that bench/llm_bench_ort.js makes alike for onnxruntime.
std::vector<int64_t> pseudoRandomPrompt(size_t count, int64_t vocabulary, uint64_t seed);

}  // namespace onyx

#pragma GCC visibility pop
