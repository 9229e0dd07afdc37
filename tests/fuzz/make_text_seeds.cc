// onyx_make_text_fuzz_seeds — writes the seed corpus of fuzz_text_parser.
//
//   onyx_make_text_fuzz_seeds <output-dir>
//
// Every hand-written model of tests/support/text_samples.cc, plus lone graphs, node lists,
// functions and types for the other entry points. Each seed is checked to parse first: a
// seed that does not is a mistake in the seed, and the run fails.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

#include "onyx/text/parser.h"
#include "support/text_samples.h"

namespace onyx::seeds {
namespace {

namespace fs = std::filesystem;

struct Piece {
  std::string_view name;
  std::string_view text;
  Result<Model> (*parse)(std::string_view, const TextParseOptions&);
};

Result<Model> parseType(std::string_view text, const TextParseOptions& options) {
  Model owner;
  Result<Type*> type = parseTypeText(text, owner, options);
  if (!type) return type.status();
  return owner;
}

const Piece kPieces[] = {
    {"graph_plain", "g (float[N] x) => (float[N] y) { y = Relu(x) }", parseGraphText},
    {"graph_initializers",
     "g (float[2] x, float b = {1}) => (y) <float[2] w = {1, 2}, float[2] t> { t = Add(x, w)\n"
     "y = Mul(t, b) }",
     parseGraphText},
    {"nodes_plain", "{ a = Foo(x) \n b = bar.Baz <k = [1, 2]> (a, , x) \n [n] c, = Qux(b) }",
     parseNodesText},
    {"nodes_subgraph",
     "{ y = If (c) <then_branch = t () => (a) { a = Id(x) }, else_branch = e () => (b) { b = "
     "Id(x) }> }",
     parseNodesText},
    {"function_plain", "<domain: \"d\", opset_import: [\"\" : 18]> f (x) => (y) { y = Neg(x) }",
     parseFunctionText},
    {"function_attributes",
     "f <a: float = 1.5, b, \"c d\"> (float[N] x, y) => (z) <float[N] t> { t = Mul(x, y)\n"
     "z = Constant <value_float = @a> () }",
     parseFunctionText},
    {"type_tensor", "float[N, 3, ?, \"a+b\"]", parseType},
    {"type_nested", "map(int64, seq(optional(sparse_tensor(float16[]))))", parseType},
    {"type_opaque", "opaque(com.example, Thing)", parseType},
};

bool write(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out);
}

int run(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output-dir>\n", argv[0]);
    return 2;
  }
  fs::path out = argv[1];
  std::error_code error;
  fs::create_directories(out, error);
  if (error) {
    std::fprintf(stderr, "onyx_make_text_fuzz_seeds: cannot create %s: %s\n", out.c_str(),
                 error.message().c_str());
    return 1;
  }
  int refused = 0;
  int written = 0;
  auto add = [&](std::string_view name, std::string_view text, auto parse) {
    Result<Model> parsed = parse(text, TextParseOptions());
    if (!parsed) {
      std::fprintf(stderr, "onyx_make_text_fuzz_seeds: seed %.*s does not parse: %s\n",
                   static_cast<int>(name.size()), name.data(), parsed.status().toString().c_str());
      ++refused;
    }
    if (!write(out / (std::string(name) + ".onnxtxt"), text)) {
      std::fprintf(stderr, "onyx_make_text_fuzz_seeds: cannot write %.*s\n",
                   static_cast<int>(name.size()), name.data());
      ++refused;
    }
    ++written;
  };
  for (const testing::TextSample& sample : testing::textSamples()) {
    add(sample.name, sample.text, parseText);
  }
  for (const Piece& piece : kPieces) add(piece.name, piece.text, piece.parse);
  std::printf("onyx_make_text_fuzz_seeds: %d seeds in %s\n", written, out.c_str());
  return refused == 0 ? 0 : 1;
}

}  // namespace
}  // namespace onyx::seeds

int main(int argc, char** argv) { return onyx::seeds::run(argc, argv); }
