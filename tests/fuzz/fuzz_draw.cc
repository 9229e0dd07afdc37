// fuzz_draw — arbitrary bytes through the decoder and, when they decode, through `onyx draw`'s
// three writers with every group expanded and as a diff against itself: no crash, no hang, and
// pictures whose markup the model's names cannot break. The SVG holds as many `<g` as `</g>` and no
// `<script`; the HTML page holds exactly the page's two scripts; every picture is valid
// UTF-8 without control characters but newlines and tabs the writers put there themselves.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "onyx/core/utf8.h"
#include "onyx/draw/draw.h"
#include "onyx/serde/model_io.h"

namespace onyx::fuzz {
namespace {

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_draw: %s\n  %s\n", what, detail.c_str());
  __builtin_trap();
}

size_t count(std::string_view text, std::string_view what) {
  size_t found = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) {
    ++found;
  }
  return found;
}

void expectClean(const std::string& picture, const char* format) {
  if (!isValidUtf8(picture)) broken("a picture that is not UTF-8", format);
  for (char c : picture) {
    auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f) {
      broken("a control character in a picture", format);
    }
  }
}

void run(std::string_view bytes) {
  LoadOptions load;
  load.load_external_data = false;
  Result<Model> model = parseModel(bytes, nullptr, load);
  if (!model) return;
  // Every group expanded: a shallower picture draws a subset of this one (a collapsed group is
  // a box like any other), and one depth keeps the runs fast enough to get past the seeds.
  DrawOptions options;
  options.depth = 64;
  std::string svg;
  options.format = DrawFormat::kSvg;
  if (!drawModel(*model, options, svg).isOk()) return;  // nested beyond the limits
  expectClean(svg, "svg");
  if (count(svg, "<g") != count(svg, "</g>")) broken("unbalanced groups in the SVG", "");
  if (count(svg, "<script") != 0) broken("a script in the SVG", "");
  std::string html;
  options.format = DrawFormat::kHtml;
  if (!drawModel(*model, options, html).isOk()) broken("HTML refused what SVG drew", "");
  expectClean(html, "html");
  if (count(html, "<script") != 2 || count(html, "</script>") != 2) {
    broken("the page's scripts are not its two", "");
  }
  std::string dot;
  options.format = DrawFormat::kDot;
  if (!drawModel(*model, options, dot).isOk()) broken("DOT refused what SVG drew", "");
  expectClean(dot, "dot");
  std::string diff;
  options.format = DrawFormat::kSvg;
  if (!drawDiff(*model, *model, options, diff).isOk()) broken("a diff with itself failed", "");
  if (count(diff, " added\"") + count(diff, " removed\"") + count(diff, " changed\"") != 0) {
    broken("a diff of a model with itself marks boxes", "");
  }
}

}  // namespace
}  // namespace onyx::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onyx::fuzz::run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
