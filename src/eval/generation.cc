#include "onyx/eval/generation.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "onyx/core/quote.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/value.h"

namespace onyx {

namespace {

constexpr std::string_view kPastPrefix = "past_key_values.";
constexpr std::string_view kPresentPrefix = "present.";

Status notADecoder(const std::string& why) {
  return Status(ErrorCode::kInvalidArgument,
                why +
                    " (a decoder takes input_ids, optionally position_ids and attention_mask, "
                    "and past_key_values.N.key/.value, and gives logits and present.N.key/"
                    ".value)");
}

// One cache input: its graph input position, its present output's, and its shape before the
// first token: empty, or of a fixed capacity (`in_place`: every dimension past the batch a
// number, the cache a buffer the model writes into, as TensorScatter does).
struct CacheSlot {
  size_t input = 0;
  size_t output = 0;
  ElementType type = ElementType::kFloat;
  std::vector<int64_t> empty_shape;
  bool in_place = false;
};

struct DecoderSignature {
  size_t input_ids = 0;
  std::optional<size_t> position_ids;
  std::optional<size_t> attention_mask;
  size_t logits = 0;
  std::vector<CacheSlot> caches;
  std::vector<std::string> input_names;
};

// The cache's shape before the first token: batch 1, the sequence (a dimension that is not
// a number, past the batch) 0, the numbers as declared; a cache whose dimensions past the
// batch are all numbers has its declared shape (a capacity).
Result<std::vector<int64_t>> emptyCacheShape(const std::string& name, const Type* type) {
  if (type == nullptr || !type->isTensor() || type->shape == nullptr || type->shape->rank() < 2) {
    return notADecoder(quoted(name) + " has no declared shape to start its cache from");
  }
  std::vector<int64_t> shape;
  size_t unnumbered = 0;
  for (size_t axis = 0; axis < type->shape->rank(); ++axis) {
    const Dimension& dim = type->shape->dims[axis];
    if (dim.isKnown()) {
      shape.push_back(*dim.dim_value);
    } else {
      shape.push_back(axis == 0 ? 1 : 0);
      unnumbered += axis == 0 ? 0 : 1;
    }
  }
  if (unnumbered > 1) {
    return notADecoder(quoted(name) + " declares " + std::to_string(unnumbered) +
                       " sequence dimensions past its batch; the loop grows one, or none (a "
                       "cache of fixed capacity)");
  }
  return shape;
}

Result<DecoderSignature> signatureOf(const Model& model) {
  const Graph* graph = model.graph;
  if (graph == nullptr) return notADecoder("the model has no graph");
  DecoderSignature signature;
  std::optional<size_t> input_ids;
  for (size_t i = 0; i < graph->inputs.size(); ++i) {
    const Value* value = graph->inputs[i]->value;
    const std::string name(value != nullptr ? value->name() : std::string_view());
    signature.input_names.push_back(name);
    if (name == "input_ids") {
      input_ids = i;
    } else if (name == "position_ids") {
      signature.position_ids = i;
    } else if (name == "attention_mask") {
      signature.attention_mask = i;
    } else if (name.starts_with(kPastPrefix)) {
      CacheSlot slot;
      slot.input = i;
      const Type* type = graph->inputs[i]->type;
      Result<std::vector<int64_t>> shape = emptyCacheShape(name, type);
      if (!shape) return shape.status();
      slot.empty_shape = std::move(*shape);
      slot.in_place = std::find(slot.empty_shape.begin() + 1, slot.empty_shape.end(), 0) ==
                      slot.empty_shape.end();
      slot.type = static_cast<ElementType>(type->elem_type.value_or(0));
      const std::string present = std::string(kPresentPrefix) + name.substr(kPastPrefix.size());
      bool found = false;
      for (size_t o = 0; o < graph->outputs.size() && !found; ++o) {
        const Value* output = graph->outputs[o]->bound();
        if (output != nullptr && output->name() == present) {
          slot.output = o;
          found = true;
        }
      }
      if (!found) return notADecoder(quoted(name) + " has no output " + quoted(present));
      signature.caches.push_back(std::move(slot));
    } else if (value == nullptr || value->initializer() == nullptr) {
      return notADecoder("the input " + quoted(name) + " is none the loop feeds");
    }
  }
  if (!input_ids) return notADecoder("the model has no input_ids input");
  signature.input_ids = *input_ids;
  bool logits = false;
  for (size_t o = 0; o < graph->outputs.size() && !logits; ++o) {
    const Value* output = graph->outputs[o]->bound();
    if (output != nullptr && output->name() == "logits") {
      signature.logits = o;
      logits = true;
    }
  }
  if (!logits) return notADecoder("the model has no logits output");
  return signature;
}

EvalValue int64Row(const std::vector<int64_t>& values) {
  Array array(ElementType::kInt64, {1, static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), array.data<int64_t>());
  return EvalValue::of(std::move(array));
}

// The first index of the largest logit at the last position of `logits` [1, sequence, V].
Result<int64_t> greedyChoice(const EvalValue& logits, std::vector<float>* row_out) {
  if (!logits.isTensor() || logits.tensor.type() != ElementType::kFloat ||
      logits.tensor.rank() != 3 || logits.tensor.dim(0) != 1 || logits.tensor.dim(1) < 1 ||
      logits.tensor.dim(2) < 1) {
    return notADecoder("logits are not FLOAT [1, sequence, vocabulary]");
  }
  const size_t vocabulary = static_cast<size_t>(logits.tensor.dim(2));
  const float* row =
      logits.tensor.data<float>() + static_cast<size_t>(logits.tensor.dim(1) - 1) * vocabulary;
  if (row_out != nullptr) row_out->assign(row, row + vocabulary);
  size_t best = 0;
  for (size_t i = 1; i < vocabulary; ++i) {
    if (row[i] > row[best]) best = i;
  }
  return static_cast<int64_t>(best);
}

// Each cache input empty: the start of a generation (and of each warm-up run). A cache of
// fixed capacity is a buffer of its own, zeros, that the runs write into (bound below).
std::vector<EvalValue> emptyCaches(const DecoderSignature& signature) {
  std::vector<EvalValue> caches;
  for (const CacheSlot& cache : signature.caches) {
    Array empty(cache.type, cache.empty_shape);
    if (cache.in_place) {
      std::byte* elements = empty.bytes().data();
      empty = Array::over(cache.type, cache.empty_shape, elements,
                          std::make_shared<Array>(std::move(empty)));
    }
    caches.push_back(EvalValue::of(std::move(empty)));
  }
  return caches;
}

// The present outputs of the caches of fixed capacity, bound where their past lies: the run
// writes the new positions into the buffer (TensorScatter in place), and no byte of the cache
// is copied.
std::vector<BoundOutput> boundCaches(const Model& model, const DecoderSignature& signature,
                                     const std::vector<EvalValue>& caches) {
  std::vector<BoundOutput> bound;
  for (size_t c = 0; c < signature.caches.size(); ++c) {
    const CacheSlot& cache = signature.caches[c];
    if (!cache.in_place) continue;
    const Value* present = model.graph->outputs[cache.output]->bound();
    bound.push_back({std::string(present->name()), caches[c].tensor});
  }
  return bound;
}

// The feeds of one run: `tokens` at positions from `position` on, after a cache of
// `position` positions (`caches`, in signature.caches' order, moved in). Inputs with an
// initializer the loop does not feed keep their defaults: left out.
std::vector<NamedValue> feedsOf(const DecoderSignature& signature,
                                const std::vector<int64_t>& tokens, int64_t position,
                                std::vector<EvalValue> caches) {
  std::vector<NamedValue> feeds;
  feeds.push_back({signature.input_names[signature.input_ids], int64Row(tokens)});
  if (signature.position_ids) {
    std::vector<int64_t> positions(tokens.size());
    for (size_t i = 0; i < positions.size(); ++i) positions[i] = position + static_cast<int64_t>(i);
    feeds.push_back({signature.input_names[*signature.position_ids], int64Row(positions)});
  }
  if (signature.attention_mask) {
    feeds.push_back(
        {signature.input_names[*signature.attention_mask],
         int64Row(std::vector<int64_t>(static_cast<size_t>(position) + tokens.size(), 1))});
  }
  for (size_t c = 0; c < signature.caches.size(); ++c) {
    feeds.push_back({signature.input_names[signature.caches[c].input], std::move(caches[c])});
  }
  return feeds;
}

}  // namespace

Result<int64_t> decoderVocabulary(const Model& model) {
  Result<DecoderSignature> signature = signatureOf(model);
  if (!signature) return signature.status();
  const Type* type = model.graph->outputs[signature->logits]->type;
  if (type == nullptr || type->shape == nullptr || type->shape->rank() != 3 ||
      !type->shape->dims[2].isKnown()) {
    return notADecoder("logits declare no vocabulary size (their last dimension)");
  }
  return *type->shape->dims[2].dim_value;
}

Result<Generation> generate(Evaluator& evaluator, const Model& model,
                            const GenerationOptions& options) {
  if (options.prompt.empty()) {
    return Status(ErrorCode::kInvalidArgument, "the prompt has no tokens");
  }
  if (options.steps < 0 || options.warmup_runs < 0 || options.prompt_chunk < 0) {
    return Status(ErrorCode::kInvalidArgument, "a negative count of steps or warm-up runs");
  }
  Result<DecoderSignature> signature = signatureOf(model);
  if (!signature) return signature.status();
  // The warm-up runs take the prompt's first piece (below), as the first timed run does.
  const std::vector<int64_t> first_piece(
      options.prompt.begin(),
      options.prompt.begin() + static_cast<std::ptrdiff_t>(
                                   options.prompt_chunk > 0
                                       ? std::min<size_t>(options.prompt.size(),
                                                          static_cast<size_t>(options.prompt_chunk))
                                       : options.prompt.size()));
  for (int64_t run = 0; run < options.warmup_runs; ++run) {
    std::vector<EvalValue> caches = emptyCaches(*signature);
    const std::vector<BoundOutput> bound = boundCaches(model, *signature, caches);
    Result<std::vector<EvalValue>> outputs =
        evaluator.run(feedsOf(*signature, first_piece, 0, std::move(caches)), bound);
    if (!outputs) return outputs.status();
  }
  Generation generation;
  // The prompt in pieces of prompt_chunk tokens (all at once when 0), then the steps.
  const size_t chunk =
      options.prompt_chunk > 0 ? static_cast<size_t>(options.prompt_chunk) : options.prompt.size();
  const int64_t pieces = static_cast<int64_t>((options.prompt.size() + chunk - 1) / chunk);
  const int64_t total_runs = pieces + options.steps;
  std::vector<int64_t> tokens;
  std::vector<EvalValue> caches = emptyCaches(*signature);
  int64_t position = 0;
  for (int64_t run = 0; run < total_runs; ++run) {
    const bool prompting = run < pieces;
    if (prompting) {
      const size_t first = static_cast<size_t>(run) * chunk;
      const size_t last = std::min(options.prompt.size(), first + chunk);
      tokens.assign(options.prompt.begin() + static_cast<std::ptrdiff_t>(first),
                    options.prompt.begin() + static_cast<std::ptrdiff_t>(last));
    }
    const size_t count = tokens.size();
    const std::vector<BoundOutput> bound = boundCaches(model, *signature, caches);
    std::vector<NamedValue> feeds = feedsOf(*signature, tokens, position, std::move(caches));
    const auto start = std::chrono::steady_clock::now();
    Result<std::vector<EvalValue>> outputs = evaluator.run(feeds, bound);
    const auto took = std::chrono::steady_clock::now() - start;
    if (!outputs) return outputs.status();
    (prompting ? generation.prompt_time : generation.steps_time) +=
        std::chrono::duration_cast<std::chrono::nanoseconds>(took);
    // The present cache becomes the next run's past: handed over, not copied. (The caches
    // are the last feeds.)
    caches.clear();
    const size_t first_cache = feeds.size() - signature->caches.size();
    for (size_t c = 0; c < signature->caches.size(); ++c) {
      EvalValue& present = (*outputs)[signature->caches[c].output];
      const std::span<const std::byte> written = present.tensor.bytes();
      if (!prompting && written.data() != feeds[first_cache + c].value.tensor.bytes().data()) {
        generation.steps_cache_bytes_copied += static_cast<int64_t>(written.size());
      }
      caches.push_back(std::move(present));
    }
    position += static_cast<int64_t>(count);
    if (!prompting || run == pieces - 1) {
      Result<int64_t> token = greedyChoice((*outputs)[signature->logits],
                                           prompting ? &generation.prompt_logits : nullptr);
      if (!token) return token.status();
      generation.tokens.push_back(*token);
      tokens.assign(1, *token);
    }
    if (options.progress) options.progress(run + 1, total_runs);
  }
  return generation;
}

std::vector<int64_t> pseudoRandomPrompt(size_t count, int64_t vocabulary, uint64_t seed) {
  std::vector<int64_t> ids(count);
  uint64_t x = seed;
  for (int64_t& id : ids) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    id = static_cast<int64_t>((x >> 33) % static_cast<uint64_t>(std::max<int64_t>(vocabulary, 1)));
  }
  return ids;
}

}  // namespace onyx
