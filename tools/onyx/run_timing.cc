#include "run_timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "onyx/ir/node.h"

namespace onyx::tool {

namespace {

double millisecondsOf(std::chrono::nanoseconds elapsed) {
  return std::chrono::duration<double, std::milli>(elapsed).count();
}

double percentOf(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

// The entries of a ", "-joined list.
std::vector<std::string_view> splitList(std::string_view list) {
  std::vector<std::string_view> entries;
  while (!list.empty()) {
    size_t end = list.find(", ");
    entries.push_back(list.substr(0, end));
    list = end == std::string_view::npos ? std::string_view() : list.substr(end + 2);
  }
  return entries;
}

// Whether `entry` is one of a ", "-joined list's.
bool listed(std::string_view list, std::string_view entry) {
  const std::vector<std::string_view> entries = splitList(list);
  return std::ranges::find(entries, entry) != entries.end();
}

}  // namespace

LatencySummary summarizeLatency(std::vector<double> milliseconds) {
  std::sort(milliseconds.begin(), milliseconds.end());
  size_t count = milliseconds.size();
  LatencySummary summary;
  summary.min = milliseconds.front();
  summary.max = milliseconds.back();
  summary.median = count % 2 == 1 ? milliseconds[count / 2]
                                  : (milliseconds[count / 2 - 1] + milliseconds[count / 2]) / 2;
  // Nearest rank: ceil(0.9 * count), counted from 1.
  size_t rank = (9 * count + 9) / 10;
  summary.p90 = milliseconds[rank - 1];
  return summary;
}

std::string formatLatencyTable(const LatencySummary& summary) {
  return fmt::format("{:>10} {:>10} {:>10} {:>10}\n{:>10.3f} {:>10.3f} {:>10.3f} {:>10.3f}\n",
                     "min", "median", "p90", "max", summary.min, summary.median, summary.p90,
                     summary.max);
}

StepProfile::StepProfile(const Graph& graph) : graph_(graph) {
  size_t index = 0;
  for (const Node* node : graph.nodes()) position_.emplace(node, index++);
}

std::string StepProfile::pathOf(const Node& node) const {
  std::string own(node.nameOrEmpty());
  const Graph* graph = node.graph();
  if (own.empty()) {
    auto found = position_.find(&node);
    if (found != position_.end()) {
      own = fmt::format("node[{}]", found->second);
    } else if (graph != nullptr) {
      size_t index = 0;
      for (const Node* sibling : graph->nodes()) {
        if (sibling == &node) break;
        ++index;
      }
      own = fmt::format("node[{}]", index);
    } else {
      own = "?";
    }
  }
  if (graph == nullptr || graph == &graph_) return own;
  const Node* holder = graph->owner();
  if (holder == nullptr) return "function/" + own;
  std::string_view attribute = "?";
  for (const Attribute* held : holder->attributes) {
    if (held == nullptr) continue;
    bool holds = held->g == graph;
    for (const Graph* listed : held->rare().graphs) holds = holds || listed == graph;
    if (holds) attribute = held->nameOrEmpty();
  }
  return fmt::format("{}/{}/{}", pathOf(*holder), attribute, own);
}

StepProfile::StepTotals StepProfile::describe(std::span<const Node* const> nodes) const {
  StepTotals totals;
  for (const Node* node : nodes) {
    const char* separator = totals.op_types.empty() ? "" : "+";
    totals.op_types += fmt::format("{}{}", separator, node->opType());
    totals.names += fmt::format("{}{}", separator, pathOf(*node));
  }
  return totals;
}

void StepProfile::record(std::unordered_map<const Node*, StepTotals>& steps,
                         std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed,
                         int depth, std::string_view ran_by) {
  if (!recording_ || nodes.empty()) return;
  auto [entry, added] = steps.try_emplace(nodes.back());
  if (added) entry->second = describe(nodes);
  std::string& kinds = entry->second.ran_by;
  if (!ran_by.empty() && !listed(kinds, ran_by)) {
    kinds += fmt::format("{}{}", kinds.empty() ? "" : ", ", ran_by);
  }
  entry->second.elapsed += elapsed;
  ++entry->second.calls;
  if (tracing_) {
    events_.push_back({&entry->second, std::chrono::steady_clock::now() - elapsed, elapsed, depth});
  }
}

void StepProfile::stepRan(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed) {
  record(steps_, nodes, elapsed, 0);
}

void StepProfile::stepRanBy(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed,
                            std::string_view kernel) {
  record(steps_, nodes, elapsed, 0, kernel);
}

void StepProfile::innerStepRan(std::span<const Node* const> nodes, std::chrono::nanoseconds elapsed,
                               int depth) {
  record(inner_steps_, nodes, elapsed, depth);
}

void StepProfile::fusionDeclined(std::span<const Node* const> nodes) {
  if (!recording_ || nodes.empty()) return;
  auto [entry, added] = declined_.try_emplace(nodes.back());
  if (added) entry->second = describe(nodes);
  ++entry->second.calls;
}

std::string StepProfile::chromeTraceEvents() const {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  if (events_.empty()) return events.dump();
  std::chrono::steady_clock::time_point origin = events_.front().start;
  for (const TraceEvent& event : events_) origin = std::min(origin, event.start);
  auto microseconds = [](auto duration) {
    return std::chrono::duration<double, std::micro>(duration).count();
  };
  for (const TraceEvent& event : events_) {
    events.push_back({{"name", event.step->op_types},
                      {"cat", "step"},
                      {"ph", "X"},
                      {"ts", microseconds(event.start - origin)},
                      {"dur", microseconds(event.elapsed)},
                      {"pid", 1},
                      {"tid", event.depth + 1},
                      {"args", {{"node", event.step->names}, {"ran_by", event.step->ran_by}}}});
  }
  // Names need not be UTF-8 in a model written by another tool: replace, never throw.
  return events.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string StepProfile::format(size_t runs, double run_milliseconds, size_t slowest) const {
  struct TypeTotals {
    std::chrono::nanoseconds elapsed{0};
    size_t steps = 0;  // distinct steps of this chain in one run
    size_t calls = 0;
    std::string ran_by;  // what ran its steps, each kind once
  };
  std::map<std::string_view, TypeTotals> by_type;
  std::vector<const StepTotals*> ordered;
  std::chrono::nanoseconds in_steps{0};
  for (const auto& [last, step] : steps_) {
    TypeTotals& totals = by_type[step.op_types];
    totals.elapsed += step.elapsed;
    totals.calls += step.calls;
    ++totals.steps;
    for (std::string_view kind : splitList(step.ran_by)) {
      if (!listed(totals.ran_by, kind)) {
        totals.ran_by += fmt::format("{}{}", totals.ran_by.empty() ? "" : ", ", kind);
      }
    }
    in_steps += step.elapsed;
    ordered.push_back(&step);
  }
  std::string out =
      fmt::format("profile of {} run{}: {} steps took {:.3f} ms of {:.3f} ms ({:.1f}%){}\n", runs,
                  runs == 1 ? "" : "s", ordered.size(), millisecondsOf(in_steps), run_milliseconds,
                  percentOf(millisecondsOf(in_steps), run_milliseconds),
                  runs == 1 ? "" : "; times summed over the runs");

  std::vector<std::pair<std::string_view, TypeTotals>> types(by_type.begin(), by_type.end());
  std::stable_sort(types.begin(), types.end(), [](const auto& a, const auto& b) {
    return a.second.elapsed > b.second.elapsed;
  });
  size_t type_width = std::string_view("op type").size();
  for (const auto& [name, totals] : types) type_width = std::max(type_width, name.size());
  out += fmt::format("{:<{}}  {:>5}  {:>9}  {:>5}  {:>8}  {}\n", "op type", type_width, "steps",
                     "total ms", "%", "avg ms", "ran by");
  for (const auto& [name, totals] : types) {
    double total = millisecondsOf(totals.elapsed);
    out +=
        fmt::format("{:<{}}  {:>5}  {:>9.3f}  {:>5.1f}  {:>8.3f}  {}\n", name, type_width,
                    totals.steps, total, percentOf(total, run_milliseconds),
                    total / static_cast<double>(std::max<size_t>(totals.calls, 1)), totals.ran_by);
  }

  std::stable_sort(ordered.begin(), ordered.end(), [](const StepTotals* a, const StepTotals* b) {
    return a->elapsed != b->elapsed ? a->elapsed > b->elapsed : a->names < b->names;
  });
  ordered.resize(std::min(ordered.size(), slowest));
  size_t chain_width = type_width;
  size_t by_width = std::string_view("ran by").size();
  for (const StepTotals* step : ordered) {
    chain_width = std::max(chain_width, step->op_types.size());
    by_width = std::max(by_width, step->ran_by.size());
  }
  out +=
      fmt::format("\n{} slowest steps\n{:>9}  {:>5}  {:>8}  {:<{}}  {:<{}}  {}\n", ordered.size(),
                  "total ms", "%", "avg ms", "op type", chain_width, "ran by", by_width, "node");
  for (const StepTotals* step : ordered) {
    double total = millisecondsOf(step->elapsed);
    out += fmt::format("{:>9.3f}  {:>5.1f}  {:>8.3f}  {:<{}}  {:<{}}  {}\n", total,
                       percentOf(total, run_milliseconds),
                       total / static_cast<double>(std::max<size_t>(step->calls, 1)),
                       step->op_types, chain_width, step->ran_by, by_width, step->names);
  }
  if (!declined_.empty()) {
    std::map<std::string_view, std::pair<size_t, size_t>> by_chain;  // steps, declines
    for (const auto& [last, step] : declined_) {
      auto& [steps, declines] = by_chain[step.op_types];
      ++steps;
      declines += step.calls;
    }
    out +=
        "\nfused steps that declined and ran their nodes one by one (a type, shape or "
        "attribute their kernel does not take):\n";
    for (const auto& [chain, counts] : by_chain) {
      out +=
          fmt::format("  {}: {} step{}, {} time{}\n", chain, counts.first,
                      counts.first == 1 ? "" : "s", counts.second, counts.second == 1 ? "" : "s");
    }
  }
  if (inner_steps_.empty()) return out;
  std::vector<const StepTotals*> inner;
  for (const auto& [last, step] : inner_steps_) inner.push_back(&step);
  std::stable_sort(inner.begin(), inner.end(), [](const StepTotals* a, const StepTotals* b) {
    return a->elapsed != b->elapsed ? a->elapsed > b->elapsed : a->names < b->names;
  });
  size_t shown = std::min(inner.size(), slowest);
  size_t inner_width = std::string_view("op type").size();
  for (size_t i = 0; i < shown; ++i) inner_width = std::max(inner_width, inner[i]->op_types.size());
  out += fmt::format(
      "\n{} slowest of {} steps inside subgraphs and function bodies (their time is also in "
      "the step that holds them)\n{:>9}  {:>5}  {:>6}  {:>8}  {:<{}}  {}\n",
      shown, inner.size(), "total ms", "%", "calls", "avg ms", "op type", inner_width, "node");
  for (size_t i = 0; i < shown; ++i) {
    const StepTotals& step = *inner[i];
    double total = millisecondsOf(step.elapsed);
    out += fmt::format("{:>9.3f}  {:>5.1f}  {:>6}  {:>8.3f}  {:<{}}  {}\n", total,
                       percentOf(total, run_milliseconds), step.calls,
                       total / static_cast<double>(std::max<size_t>(step.calls, 1)), step.op_types,
                       inner_width, step.names);
  }
  return out;
}

}  // namespace onyx::tool
