// `onyx generate MODEL [--prompt-tokens N | --prompt IDS] [--new-tokens M] [--prompt-chunk C]
// [--warmup K] [--threads T] [--seed S] [--max-isa TIER] [--no-fusions] [--int8-activations]
// [--logits FILE]
// [--json]`: runs a decoder LLM's greedy loop (onyx/eval/generation.h): the prompt once (C
// tokens a run with --prompt-chunk), then M runs of one token each, the cache handed from
// run to run. Token ids in and out (no tokenizer): the prompt is N pseudo-random ids (the
// generator bench/llm_bench_ort.js shares, seeded with S) or the ids given. Prints the ids,
// the prompt's and the steps' tokens per second and the peak resident memory; --logits writes
// the prompt's last logits. Exit 0 when it ran, 1 when the model is no decoder of that form
// or a run fails, 2 when a file cannot be read or written or on bad usage.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "model_files.h"
#include "onyx/core/cpu_tier.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/generation.h"
#include "progress.h"

namespace onyx::tool {

namespace {

struct GenerateArguments {
  std::string path;
  int64_t prompt_tokens = 128;
  std::vector<int64_t> prompt;
  int64_t new_tokens = 32;
  int64_t warmup = 0;
  int64_t prompt_chunk = 0;
  int threads = 0;
  uint64_t seed = 46;
  bool no_fusions = false;
  bool int8_activations = false;
  bool json = false;
  std::string max_isa;
  std::string logits;  // where to write the prompt's last logits
};

// The process's peak resident memory in MiB (VmHWM), or -1 where /proc does not say.
double peakResidentMiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      double kib = -1;
      fields >> kib;
      return kib / 1024.0;
    }
  }
  return -1;
}

double seconds(std::chrono::nanoseconds time) {
  return std::chrono::duration<double>(time).count();
}

int generateTokens(const GenerateArguments& arguments) {
  if (!arguments.max_isa.empty()) setenv("ONYX_MAX_ISA", arguments.max_isa.c_str(), 1);
  Result<CpuTier> tier = cappedCpuTier();
  if (!tier) {
    fmt::print(stderr, "onyx: {}\n", tier.status().message());
    return kExitUnreadable;
  }
  const auto load_start = std::chrono::steady_clock::now();
  Result<Model> loaded = readModel(arguments.path, true);
  if (!loaded) {
    fmt::print(stderr, "onyx: cannot read {}: {}\n", arguments.path, loaded.status().toString());
    return kExitUnreadable;
  }
  const Model& model = *loaded;
  Result<int64_t> vocabulary = decoderVocabulary(model);
  if (!vocabulary) {
    fmt::print(stderr, "onyx: {}: {}\n", arguments.path, vocabulary.status().message());
    return kExitInvalid;
  }
  GenerationOptions options;
  options.prompt = !arguments.prompt.empty()
                       ? arguments.prompt
                       : pseudoRandomPrompt(static_cast<size_t>(arguments.prompt_tokens),
                                            *vocabulary, arguments.seed);
  options.steps = arguments.new_tokens;
  options.warmup_runs = arguments.warmup;
  options.prompt_chunk = arguments.prompt_chunk;
  EvalOptions eval;
  eval.threads = arguments.threads;
  eval.fusions = !arguments.no_fusions;
  eval.int8_activations = arguments.int8_activations;
  Evaluator evaluator(model, eval);
  const double load_seconds = seconds(std::chrono::steady_clock::now() - load_start);
  Result<Generation> generation = Status::ok();
  {
    ProgressBar progress("generating", ProgressUnit::kItems);
    options.progress = [&progress](int64_t done, int64_t total) {
      progress.update(static_cast<uint64_t>(done), static_cast<uint64_t>(total));
    };
    generation = generate(evaluator, model, options);
  }
  if (!generation) {
    fmt::print(stderr, "onyx: {}\n", generation.status().toString());
    return kExitInvalid;
  }
  if (!arguments.logits.empty()) {
    std::ofstream out(arguments.logits, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(generation->prompt_logits.data()),
              static_cast<std::streamsize>(generation->prompt_logits.size() * sizeof(float)));
    if (!out.good()) {
      fmt::print(stderr, "onyx: cannot write {}\n", arguments.logits);
      return kExitUnreadable;
    }
  }
  const double prompt_seconds = seconds(generation->prompt_time);
  const double steps_seconds = seconds(generation->steps_time);
  const double prompt_rate = static_cast<double>(options.prompt.size()) / prompt_seconds;
  const double step_rate =
      options.steps > 0 ? static_cast<double>(options.steps) / steps_seconds : 0.0;
  const double peak = peakResidentMiB();
  if (arguments.json) {
    nlohmann::ordered_json report;
    report["model"] = arguments.path;
    report["cpu_tier"] = std::string(cpuTierName(*tier));
    report["threads"] = arguments.threads;
    report["load_seconds"] = load_seconds;
    report["prompt_tokens"] = options.prompt.size();
    report["prompt_seconds"] = prompt_seconds;
    report["prompt_tokens_per_second"] = prompt_rate;
    report["steps"] = options.steps;
    report["steps_seconds"] = steps_seconds;
    report["steps_tokens_per_second"] = step_rate;
    report["steps_cache_bytes_copied"] = generation->steps_cache_bytes_copied;
    report["tokens"] = generation->tokens;
    report["peak_resident_mib"] = peak;
    fmt::print("{}\n", report.dump());
    return kExitOk;
  }
  fmt::print("tokens: {}\n", fmt::join(generation->tokens, " "));
  fmt::print("prompt: {} tokens in {:.3f} s, {:.1f} tokens/s\n", options.prompt.size(),
             prompt_seconds, prompt_rate);
  if (options.steps > 0) {
    fmt::print(
        "steps:  {} tokens in {:.3f} s, {:.1f} tokens/s ({:.2f} ms a token); cache "
        "copied {:.2f} MiB a step\n",
        options.steps, steps_seconds, step_rate,
        1e3 * steps_seconds / static_cast<double>(options.steps),
        static_cast<double>(generation->steps_cache_bytes_copied) /
            static_cast<double>(options.steps) / (1024.0 * 1024.0));
  }
  fmt::print("load: {:.3f} s; peak resident memory {:.1f} MiB; CPU tier {}\n", load_seconds, peak,
             cpuTierName(*tier));
  return kExitOk;
}

}  // namespace

void addGenerateCommand(CLI::App& app, int& exit_code) {
  auto* command = app.add_subcommand(
      "generate", "Run a decoder LLM's greedy loop on token ids: tokens per second, peak memory");
  auto arguments = std::make_shared<GenerateArguments>();
  command->add_option("MODEL", arguments->path, kModelFileHelp)->required();
  auto* count = command
                    ->add_option("--prompt-tokens", arguments->prompt_tokens,
                                 "a prompt of this many pseudo-random token ids (default 128)")
                    ->check(CLI::PositiveNumber);
  command
      ->add_option("--prompt", arguments->prompt,
                   "the prompt's token ids, separated by commas or spaces")
      ->delimiter(',')
      ->excludes(count);
  command
      ->add_option("--new-tokens", arguments->new_tokens,
                   "runs of one token after the prompt's (default 32); the prompt's run chooses "
                   "the first token, so one more id comes out")
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--prompt-chunk", arguments->prompt_chunk,
                   "run the prompt this many tokens at a time (0: at once): its logits and "
                   "activations then take that many positions' memory")
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--warmup", arguments->warmup,
                   "untimed runs of the prompt first (the first run also compiles the plan)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--threads", arguments->threads, "threads kernels may use (0: all)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--seed", arguments->seed, "the seed of the pseudo-random prompt (46)");
  command->add_flag("--no-fusions", arguments->no_fusions, "run every node alone");
  command->add_flag("--int8-activations", arguments->int8_activations, kInt8ActivationsHelp);
  command
      ->add_option("--max-isa", arguments->max_isa,
                   "the highest CPU tier kernels may use (as ONYX_MAX_ISA)")
      ->check(CLI::IsMember({"baseline", "avx2", "avx512", "avx512_vnni", "amx"}));
  command->add_option("--logits", arguments->logits,
                      "write the prompt's logits at its last position there (raw float32)");
  command->add_flag("--json", arguments->json, "print one JSON object instead");
  command->callback([&exit_code, arguments] { exit_code = generateTokens(*arguments); });
}

}  // namespace onyx::tool
