// onyx_bench_text — printing and parsing the ONNX text syntax, onyx against onnx's own C++
// printer and parser (Debian libonnx-dev 1.12), in one run.
//
//   onyx_bench_text [MODEL] [--reps=N]
//
// MODEL defaults to build/bench-models/graph200k.onnx (made by onyx_make_bench_models).
// Every step runs once to warm up, then N times (default 7); the figures are the median and
// the minimum CPU time. Inputs are prepared outside the timed part, and freeing results is
// not timed, for any side.
//
// onnx 1.12 prints a GraphProto (it has no printer for a whole ModelProto) and leaves out the
// initializers and value_info, so printing is compared on the model without initializers;
// onyx printing the whole model is shown beside it. For parsing, both
// parsers read the same text: the one onyx prints for the
// same model with its names made plain identifiers and its nodes unnamed, which 1.12 needs
// (it predates quoted names and node labels).
//
// Lines starting with "SUMMARY|" are the figures bench/run.sh collects.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "onnx/defs/parser.h"
#include "onnx/defs/printer.h"
#include "onnx/onnx_pb.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "onyx/text/printer.h"

namespace {

double cpuMilliseconds() {
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

[[noreturn]] void die(const std::string& message) {
  std::cerr << "onyx_bench_text: " << message << "\n";
  std::exit(1);
}

struct Timing {
  double median_ms;
  double min_ms;
};

/// Runs `step` once to warm up and `reps` times measured; `step` returns the CPU time of
/// its timed part, so that setup and freeing stay outside.
Timing measure(int reps, const std::function<double()>& step) {
  step();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) times.push_back(step());
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.front()};
}

void report(const std::string& what, const std::string& ours_name, Timing ours,
            const std::string& theirs_name, Timing theirs) {
  std::printf("%-44s %-22s %9.1f ms (min %.1f)\n", what.c_str(), ours_name.c_str(), ours.median_ms,
              ours.min_ms);
  std::printf("%-44s %-22s %9.1f ms (min %.1f)\n", "", theirs_name.c_str(), theirs.median_ms,
              theirs.min_ms);
  std::printf("SUMMARY|(info) %s|%s %.1f ms vs %s %.1f ms CPU (median)|%.2fx|none|-\n",
              what.c_str(), ours_name.c_str(), ours.median_ms, theirs_name.c_str(),
              theirs.median_ms, theirs.median_ms / ours.median_ms);
}

/// `name` with every character outside [A-Za-z0-9_] made '_': onnx 1.12's parser reads
/// only plain identifiers (quoted names came later), and exporters' names hold '/' and '.'.
std::string plainIdentifier(const std::string& name) {
  std::string plain = name;
  for (char& c : plain) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) c = '_';
  }
  if (!plain.empty() && plain[0] >= '0' && plain[0] <= '9') plain.insert(0, "_");
  return plain;
}

/// The model with every value and graph name a plain identifier and no node names (the mapping is
/// one-to-one for the generated models, whose names differ in more than punctuation).
void makeNamesPlain(onnx::ModelProto& proto) {
  onnx::GraphProto& graph = *proto.mutable_graph();
  graph.set_name(plainIdentifier(graph.name()));
  for (onnx::NodeProto& node : *graph.mutable_node()) {
    node.clear_name();  // 1.12 has no node labels either
    for (std::string& name : *node.mutable_input()) name = plainIdentifier(name);
    for (std::string& name : *node.mutable_output()) name = plainIdentifier(name);
  }
  for (onnx::TensorProto& tensor : *graph.mutable_initializer()) {
    tensor.set_name(plainIdentifier(tensor.name()));
  }
  for (auto* list : {graph.mutable_input(), graph.mutable_output(), graph.mutable_value_info()}) {
    for (onnx::ValueInfoProto& info : *list) info.set_name(plainIdentifier(info.name()));
  }
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = "build/bench-models/graph200k.onnx";
  int reps = 7;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--reps=", 0) == 0) {
      reps = std::max(1, std::atoi(arg.c_str() + 7));
    } else {
      path = arg;
    }
  }
  std::string bytes = readFile(path);
  onyx::Result<onyx::Model> loaded = onyx::loadModel(path);
  if (!loaded.isOk()) die(loaded.status().toString());
  const onyx::Model& model = loaded.value();
  onnx::ModelProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    die("libprotobuf cannot parse " + path);
  }
  std::printf("model: %s (%.1f MB)\n", path.c_str(), static_cast<double>(bytes.size()) / 1e6);

  // Printing. onnx 1.12 prints a graph without its initializers (and without value_info), so
  // the like-for-like figure prints the model with its initializers removed; onyx printing
  // the whole model, with every weight as a literal, is shown beside it.
  auto printOnyx = [&](const onyx::Model& printed, std::string& kept) {
    return measure(reps, [&] {
      std::string out;
      double start = cpuMilliseconds();
      onyx::printModel(printed, out, onyx::PrintOptions(), nullptr);
      double elapsed = cpuMilliseconds() - start;
      kept.swap(out);
      return elapsed;
    });
  };
  auto printOnnx = [&](const onnx::ModelProto& printed, std::string& kept) {
    return measure(reps, [&] {
      double start = cpuMilliseconds();
      std::ostringstream out;
      out << printed.graph();
      std::string text = out.str();
      double elapsed = cpuMilliseconds() - start;
      kept.swap(text);
      return elapsed;
    });
  };
  onnx::ModelProto bare = proto;
  bare.mutable_graph()->clear_initializer();
  std::string bare_bytes = bare.SerializeAsString();
  onyx::Result<onyx::Model> bare_model = onyx::parseModel(bare_bytes, nullptr);
  if (!bare_model.isOk()) die(bare_model.status().toString());
  std::string onyx_bare_text;
  std::string onnx_bare_text;
  Timing onyx_bare = printOnyx(bare_model.value(), onyx_bare_text);
  Timing onnx_bare = printOnnx(bare, onnx_bare_text);
  std::printf("text without initializers: onyx %.1f MB (with value_info), onnx %.1f MB\n",
              static_cast<double>(onyx_bare_text.size()) / 1e6,
              static_cast<double>(onnx_bare_text.size()) / 1e6);
  report("print graph200k without initializers", "onyx printModel", onyx_bare,
         "onnx operator<<(Graph)", onnx_bare);
  std::string onyx_text;
  Timing onyx_full = printOnyx(model, onyx_text);
  std::printf(
      "print graph200k with its 40,000 initializers as literals: onyx %.1f ms (min %.1f), "
      "%.1f MB of text\n",
      onyx_full.median_ms, onyx_full.min_ms, static_cast<double>(onyx_text.size()) / 1e6);

  // Parsing: the same text for both, the one onyx prints for the model with plain names.
  onnx::ModelProto plain = proto;
  makeNamesPlain(plain);
  std::string plain_bytes = plain.SerializeAsString();
  onyx::Result<onyx::Model> plain_model = onyx::parseModel(plain_bytes, nullptr);
  if (!plain_model.isOk()) die(plain_model.status().toString());
  std::string text = onyx::printModel(plain_model.value());
  std::string source = "onyx's text of the model with plain names, nodes unnamed";
  {
    onnx::ModelProto parsed;
    onnx::OnnxParser parser(text.c_str());
    auto status = parser.Parse(parsed);
    if (!status.IsOK()) die("onnx's parser refuses the text: " + status.ErrorMessage());
    onyx::Result<onyx::Model> ours = onyx::parseText(text);
    if (!ours.isOk()) die("onyx's parser refuses the text: " + ours.status().toString());
  }
  std::printf("parsing %s (%.1f MB)\n", source.c_str(), static_cast<double>(text.size()) / 1e6);
  Timing onyx_parse = measure(reps, [&] {
    double start = cpuMilliseconds();
    onyx::Result<onyx::Model> parsed = onyx::parseText(text);
    double elapsed = cpuMilliseconds() - start;
    if (!parsed.isOk()) die(parsed.status().toString());
    return elapsed;
  });
  Timing onnx_parse = measure(reps, [&] {
    onnx::ModelProto parsed;
    double start = cpuMilliseconds();
    onnx::OnnxParser parser(text.c_str());
    auto status = parser.Parse(parsed);
    double elapsed = cpuMilliseconds() - start;
    if (!status.IsOK()) die(status.ErrorMessage());
    return elapsed;
  });
  report("parse graph200k text", "onyx parseText", onyx_parse, "onnx OnnxParser::Parse",
         onnx_parse);
  return 0;
}
