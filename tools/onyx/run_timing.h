// What `onyx run` reports of time: latency statistics over repeated runs (--repeat) and the
// time per step, per operator type and per node (--profile).
#pragma once

#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "onyx/ir/graph.h"

namespace onyx::tool {

/// Latencies in milliseconds. The median of an even count is the mean of the middle two;
/// p90 is the nearest rank (the smallest latency that 90% of the runs do not exceed).
struct LatencySummary {
  double min = 0;
  double median = 0;
  double p90 = 0;
  double max = 0;
};

/// The summary of `milliseconds` (at least one).
LatencySummary summarizeLatency(std::vector<double> milliseconds);

/// The summary as a two-line table (a header row, a row of values), each line ending in '\n'.
std::string formatLatencyTable(const LatencySummary& summary);

/// Adds up the time of each step of the main graph while recording is on (the timed runs,
/// not the warm-up), and prints it per operator type and for the slowest steps; the steps
/// inside If/Loop/Scan bodies and function bodies are added up apart, named by their path
/// (`If_0/then_branch/LSTM_3`), since their time is also in the step that holds them. With
/// tracing on, every step of every recorded run is also kept as an event of a Chrome trace.
///
/// A fused step is one measurement for several nodes: its time is shown under the chain of
/// its members' operator types (`Conv+BatchNormalization+Relu`), not divided among them,
/// which would invent numbers; the chain also tells the user which nodes ran fused, since a
/// Conv that did not fuse is counted under `Conv` alone. Each row says what ran it ("ran
/// by": a provider and its fusion, the built-in kernel; EvalObserver::stepRanBy).
class StepProfile : public EvalObserver {
 public:
  /// `graph` is the main graph the evaluator runs (its node positions name nameless nodes).
  explicit StepProfile(const Graph& graph);

  void setRecording(bool recording) { recording_ = recording; }
  /// Keep an event per step for chromeTrace (off by default: a long run makes many).
  void setTracing(bool tracing) { tracing_ = tracing; }
  void stepRan(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed) override;
  void stepRanBy(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed,
                 std::string_view kernel) override;
  void innerStepRan(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed,
                    int depth) override;
  void fusionDeclined(std::span<const Node* const> nodes) override;

  /// The profile of `runs` recorded runs that took `run_milliseconds` in all, as aligned
  /// tables: operator types by total time, then the `slowest` slowest steps.
  std::string format(size_t runs, double run_milliseconds, size_t slowest = 10) const;

  /// The recorded steps as the Trace Event Format's complete events ("ph": "X", times in
  /// microseconds from the first recorded step), one per step run, for chrome://tracing and
  /// Perfetto: {"name": op types, "cat": "step", "ts", "dur", "pid": 1, "tid": depth + 1,
  /// "args": {"node": path, "ran_by": what ran it (main-graph steps)}}. A JSON array.
  std::string chromeTraceEvents() const;

 private:
  struct StepTotals {
    std::string op_types;  // the members' operator types, joined by '+'
    std::string names;     // the members' names (node[i] for a nameless one), joined by '+'
    std::string ran_by;    // what ran it (EvalObserver::stepRanBy), each kind once, by ", "
    std::chrono::nanoseconds elapsed{0};
    size_t calls = 0;
  };

  struct TraceEvent {
    const StepTotals* step;
    std::chrono::steady_clock::time_point start;
    std::chrono::nanoseconds elapsed;
    int depth;
  };

  StepTotals describe(std::span<const Node* const> nodes) const;
  // Where `node` is: its name (node[i] for a nameless one), after the path of the node that
  // holds its graph and the attribute that holds it; a function body's nodes under "function".
  std::string pathOf(const Node& node) const;
  void record(std::unordered_map<const Node*, StepTotals>& steps,
              std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed, int depth,
              std::string_view ran_by = {});

  const Graph& graph_;
  std::unordered_map<const Node*, size_t> position_;
  // Keyed by the step's last member, where the step runs.
  std::unordered_map<const Node*, StepTotals> steps_;
  std::unordered_map<const Node*, StepTotals> inner_steps_;
  // Fused steps that ran their nodes one by one, keyed by the last member, with the count.
  std::unordered_map<const Node*, StepTotals> declined_;
  std::vector<TraceEvent> events_;
  bool recording_ = true;
  bool tracing_ = false;
};

}  // namespace onyx::tool
