// onyx_bench_serve — one Evaluator serving several callers at once (issue 45): each caller
// thread runs the model again and again on the same Evaluator, every run at one intra-op
// thread, until a fixed number of runs is done between them. Its anchor, onnxruntime-node on
// one InferenceSession under the same load, is serve_bench_ort.js; bench/serve_bench.sh
// runs both and prints them side by side.
//
//   onyx_bench_serve MODEL.onnx [--callers=1,2,4,8] [--runs=N]
//   onyx_bench_serve MODEL.onnx --soak=N     (issue 45's soak: see soak() below)
//
// The inputs are those of onyx_bench_eval (bench_inputs.h). Each caller has its own copy, as
// each request of a server would.
//
// The Evaluator runs at most as many runs at once as the machine has cores (runs_at_once's
// default); past that, runs queue for its runner threads (docs/eval.md, "Threads").
//
// Per caller count C: C threads each make one untimed run together (an Evaluator makes an
// executor the first time a run is in flight beside the others, which a server pays once), then
// wait for each other and take runs from one shared count until N have started. Throughput
// is N over the wall-clock time from the start to the last run's end; latency is each run's
// own wall-clock time, p50 and p99 by nearest rank. Cores busy is the process's CPU time
// over the same wall-clock time: it shows whether the runs really ran side by side.
//
// Before any of that, a lone run (no other in flight) gives the reference outputs; every
// run after it, warm-up runs included, must give them bit for bit. A run whose outputs
// differ is counted and the first few differences are printed: a row with any is a failure.
//
// Prints per caller count
//   "SERVE|onyx|<model>|<callers>|<runs>|<runs/s>|<p50 ms>|<p99 ms>|<cores busy>|<mismatches>"
// and "MISMATCH|onyx|<model>|<callers>|..." for the first differences; serve_bench.sh reads
// them.
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_inputs.h"
#include "onyx/eval/evaluator.h"
#include "onyx/serde/model_io.h"
#include "process_status.h"

namespace {

using Clock = std::chrono::steady_clock;

// More differences than this in one row are counted but not printed: one is enough to debug.
constexpr int kMismatchesPrinted = 5;

[[noreturn]] void die(const std::string& message) {
  std::cerr << "onyx_bench_serve: " << message << "\n";
  std::exit(1);
}

double millisecondsBetween(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double, std::milli>(end - start).count();
}

// User and system time of every thread of the process so far.
double processCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& time) {
    return double(time.tv_sec) + double(time.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The value at `fraction` of the sorted `values` by nearest rank (serve_bench_ort.js takes
// the same).
double percentile(const std::vector<double>& sorted, double fraction) {
  size_t rank = size_t(std::ceil(fraction * double(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

std::vector<int> parseCallerCounts(const std::string& text) {
  std::vector<int> counts;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    int count = std::atoi(item.c_str());
    if (count < 1) die("--callers takes counts of 1 or more, such as 1,2,4,8");
    counts.push_back(count);
  }
  if (counts.empty()) die("--callers is empty");
  return counts;
}

// Where `outputs` differ from the lone run's `reference` ("" when bit-identical): the first
// output that differs, and in a tensor its first differing element.
std::string difference(const std::vector<onyx::EvalValue>& reference,
                       const std::vector<onyx::EvalValue>& outputs) {
  if (outputs.size() != reference.size()) {
    return std::to_string(outputs.size()) + " outputs, the lone run " +
           std::to_string(reference.size());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const onyx::Array& expected = reference[i].tensor;
    const onyx::Array& got = outputs[i].tensor;
    std::string where = "output " + std::to_string(i);
    if (!reference[i].isTensor() || !outputs[i].isTensor() || got.type() != expected.type() ||
        got.shape() != expected.shape()) {
      return where + ": another kind, type or shape than the lone run's";
    }
    std::span<const std::byte> want = expected.bytes();
    std::span<const std::byte> have = got.bytes();
    if (std::memcmp(want.data(), have.data(), want.size()) == 0) continue;
    size_t byte =
        size_t(std::mismatch(want.begin(), want.end(), have.begin()).first - want.begin());
    size_t element_bytes = want.size() / std::max<size_t>(expected.size(), 1);
    std::string text = where + ", element " + std::to_string(byte / element_bytes);
    if (got.type() == onyx::ElementType::kFloat) {
      size_t element = byte / sizeof(float);
      // Nine significant digits tell any two floats apart.
      char values[64];
      std::snprintf(values, sizeof values, ": %.9g, the lone run %.9g",
                    double(got.data<float>()[element]), double(expected.data<float>()[element]));
      text += values;
    }
    return text;
  }
  return "";
}

struct Row {
  std::vector<double> latencies_ms;
  double seconds = 0;
  double cpu_seconds = 0;
  int mismatches = 0;
};

// `callers` threads on `evaluator`, `runs` timed runs between them (see the file's comment).
Row serve(onyx::Evaluator& evaluator, const std::vector<onyx::NamedValue>& inputs,
          const std::vector<onyx::EvalValue>& reference, int callers, int runs,
          const std::string& label) {
  std::atomic<int> runs_started = 0;
  std::atomic<int> mismatches = 0;
  std::mutex report_mutex;
  std::vector<std::vector<double>> latencies(static_cast<size_t>(callers));
  // The callers and this thread, which starts the clock once every caller's warm-up is done.
  std::barrier start_line(callers + 1);

  auto check = [&](const std::vector<onyx::EvalValue>& outputs, int run) {
    std::string where = difference(reference, outputs);
    if (where.empty()) return;
    if (mismatches.fetch_add(1) < kMismatchesPrinted) {
      std::lock_guard<std::mutex> lock(report_mutex);
      std::string which = run < 0 ? "warm-up run" : "run " + std::to_string(run);
      std::printf("MISMATCH|onyx|%s|%d|%s|%s\n", label.c_str(), callers, which.c_str(),
                  where.c_str());
    }
  };
  auto caller = [&](size_t index) {
    std::vector<onyx::NamedValue> own_inputs;
    for (const onyx::NamedValue& input : inputs) {
      own_inputs.push_back({input.name, onyx::EvalValue::of(input.value.tensor.clone())});
    }
    auto runOnce = [&] {
      onyx::Result<std::vector<onyx::EvalValue>> outputs = evaluator.run(own_inputs);
      if (!outputs) die("a run failed: " + outputs.status().toString());
      return std::move(*outputs);
    };
    check(runOnce(), -1);
    start_line.arrive_and_wait();
    std::vector<double>& own_latencies = latencies[index];
    for (int run = runs_started.fetch_add(1); run < runs; run = runs_started.fetch_add(1)) {
      Clock::time_point start = Clock::now();
      std::vector<onyx::EvalValue> outputs = runOnce();
      // Freeing the outputs and comparing them are left out of the latency, as onnxruntime's
      // side leaves freeing to the garbage collector; both stay in the throughput.
      own_latencies.push_back(millisecondsBetween(start, Clock::now()));
      check(outputs, run);
    }
  };

  std::vector<std::thread> threads;
  for (int i = 0; i < callers; ++i) threads.emplace_back(caller, size_t(i));
  start_line.arrive_and_wait();
  Clock::time_point start = Clock::now();
  double cpu_start = processCpuSeconds();
  for (std::thread& thread : threads) thread.join();
  Row row;
  row.seconds = millisecondsBetween(start, Clock::now()) / 1000;
  row.cpu_seconds = processCpuSeconds() - cpu_start;
  row.mismatches = mismatches.load();
  for (const std::vector<double>& own : latencies) {
    row.latencies_ms.insert(row.latencies_ms.end(), own.begin(), own.end());
  }
  std::sort(row.latencies_ms.begin(), row.latencies_ms.end());
  return row;
}

}  // namespace

// --soak: `runs` runs of the one Evaluator by up to kSoakCallers threads, each of which now
// and then pauses, so that the runs in flight vary from 1 to kSoakCallers. A run is plain
// (80%), or has a deadline 0-2 ms away (7%), or a token another thread cancels 0-2 ms after
// the run starts (7%), or a 64 KiB memory limit (6%). A plain run must give the lone run's
// outputs bit for bit; a bounded one those, or its bound's error (kDeadlineExceeded,
// kCancelled, kLimitExceeded). Anything else is unexpected. The resident set is read after
// the first quarter of the runs (warm: the executors made, the allocator's arenas grown) and
// at the end; the progress line shows it every 1000 runs. Prints
//   "SOAK|<model>|<runs>|<plain ok>|<deadline>|<cancelled>|<limit>|<bounded ok>|<unexpected>|
//    <warm RSS KiB>|<end RSS KiB>|<growth %>"
constexpr int kSoakCallers = 8;

void soak(onyx::Evaluator& evaluator, const std::vector<onyx::NamedValue>& inputs,
          const std::vector<onyx::EvalValue>& reference, int runs, const std::string& name) {
  enum Outcome { kPlainOk, kDeadline, kCancelled, kLimit, kBoundedOk, kUnexpected, kOutcomes };
  std::atomic<int> counts[kOutcomes] = {};
  std::atomic<int> started = 0;
  std::atomic<long> warm_kib = 0;
  std::mutex print;
  auto caller = [&](int seed) {
    std::mt19937 random(static_cast<uint32_t>(seed));
    std::uniform_int_distribution<int> percent(0, 99);
    std::uniform_int_distribution<int> microseconds(0, 2000);
    std::vector<onyx::NamedValue> own = inputs;
    for (int run = started++; run < runs; run = started++) {
      if (run == runs / 4) warm_kib = onyx_bench::processStatusKib("VmRSS");
      if (percent(random) < 5) {
        std::this_thread::sleep_for(std::chrono::microseconds(microseconds(random) * 5));
      }
      const int kind = percent(random);
      onyx::RunOptions limits;
      onyx::RunCancellation cancellation;
      std::thread canceller;
      if (kind >= 80 && kind < 87) {
        limits.deadline = Clock::now() + std::chrono::microseconds(microseconds(random));
      } else if (kind >= 87 && kind < 94) {
        limits.cancellation = &cancellation;
        int delay = microseconds(random);
        canceller = std::thread([&cancellation, delay] {
          std::this_thread::sleep_for(std::chrono::microseconds(delay));
          cancellation.cancel();
        });
      } else if (kind >= 94) {
        limits.memory_limit = size_t{64} << 10;
      }
      onyx::Result<std::vector<onyx::EvalValue>> outputs = evaluator.run(own, limits);
      if (canceller.joinable()) canceller.join();
      const bool bounded = kind >= 80;
      Outcome outcome = kUnexpected;
      std::string why;
      if (outputs) {
        why = difference(reference, *outputs);
        if (why.empty()) outcome = bounded ? kBoundedOk : kPlainOk;
      } else {
        onyx::ErrorCode code = outputs.status().code();
        why = outputs.status().toString();
        if (kind >= 80 && kind < 87 && code == onyx::ErrorCode::kDeadlineExceeded) {
          outcome = kDeadline;
        } else if (kind >= 87 && kind < 94 && code == onyx::ErrorCode::kCancelled) {
          outcome = kCancelled;
        } else if (kind >= 94 && code == onyx::ErrorCode::kLimitExceeded) {
          outcome = kLimit;
        }
      }
      if (outcome == kUnexpected && counts[kUnexpected] < kMismatchesPrinted) {
        std::lock_guard<std::mutex> lock(print);
        std::printf("UNEXPECTED|onyx|%s|run %d (kind %d): %s\n", name.c_str(), run, kind,
                    why.c_str());
      }
      ++counts[outcome];
      if (run % 1000 == 999) {
        std::lock_guard<std::mutex> lock(print);
        std::fprintf(stderr, "\rsoak: %d of %d runs, RSS %ld KiB", run + 1, runs,
                     onyx_bench::processStatusKib("VmRSS"));
      }
    }
  };
  std::vector<std::thread> callers;
  for (int i = 0; i < kSoakCallers; ++i) callers.emplace_back(caller, i + 1);
  for (std::thread& thread : callers) thread.join();
  std::fprintf(stderr, "\n");
  const long end_kib = onyx_bench::processStatusKib("VmRSS");
  std::printf("SOAK|%s|%d|%d|%d|%d|%d|%d|%d|%ld|%ld|%.2f\n", name.c_str(), runs,
              counts[kPlainOk].load(), counts[kDeadline].load(), counts[kCancelled].load(),
              counts[kLimit].load(), counts[kBoundedOk].load(), counts[kUnexpected].load(),
              warm_kib.load(), end_kib, 100.0 * double(end_kib - warm_kib) / double(warm_kib));
}

int main(int argc, char** argv) {
  std::string path;
  std::vector<int> caller_counts = {1, 2, 4, 8};
  int runs = 100;
  int soak_runs = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.starts_with("--callers=")) {
      caller_counts = parseCallerCounts(arg.substr(10));
    } else if (arg.starts_with("--runs=")) {
      runs = std::max(1, std::atoi(arg.c_str() + 7));
    } else if (arg.starts_with("--soak=")) {
      soak_runs = std::max(10, std::atoi(arg.c_str() + 7));
    } else {
      path = arg;
    }
  }
  if (path.empty()) {
    die("usage: onyx_bench_serve MODEL.onnx [--callers=1,2,4,8] [--runs=N] [--soak=N]");
  }
  onyx::Result<std::vector<onyx::NamedValue>> inputs = onyx_bench::readModelInputs(path);
  if (!inputs) die(inputs.status().toString());
  onyx::Result<onyx::Model> model = onyx::loadModel(path);
  if (!model) die("cannot load " + path + ": " + model.status().toString());

  onyx::EvalOptions options;
  // One intra-op thread per run: the callers are the parallelism. Runs at once default to
  // the cores; callers past them queue for the Evaluator's runner threads.
  options.threads_per_run = 1;
  onyx::Evaluator evaluator(*model, options);
  auto loneRun = [&] {
    onyx::Result<std::vector<onyx::EvalValue>> outputs = evaluator.run(*inputs);
    if (!outputs) die("cannot run " + path + ": " + outputs.status().toString());
    return std::move(*outputs);
  };
  loneRun();  // a first run prepares what later runs reuse; the reference is a warm run's
  std::vector<onyx::EvalValue> reference = loneRun();

  std::string name = path.substr(path.find_last_of('/') + 1);
  if (soak_runs > 0) {
    soak(evaluator, *inputs, reference, soak_runs, name);
    return 0;
  }
  for (int callers : caller_counts) {
    Row row = serve(evaluator, *inputs, reference, callers, runs, name);
    std::printf("SERVE|onyx|%s|%d|%d|%.2f|%.3f|%.3f|%.2f|%d\n", name.c_str(), callers, runs,
                runs / row.seconds, percentile(row.latencies_ms, 0.5),
                percentile(row.latencies_ms, 0.99), row.cpu_seconds / row.seconds, row.mismatches);
    std::fflush(stdout);
  }
  return 0;
}
