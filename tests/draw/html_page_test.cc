// The HTML page's script reads the boxes by the names the page's data gives their fields, and
// the kinds and changes by the CSS classes the data lists: every field the script asks for is
// in the data of a drawn model, so a field renamed on one side fails here, not in a browser.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "onyx/draw/draw.h"
#include "onyx/text/parser.h"

namespace onyx {
namespace {

std::string page() {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 18]>
    g (float[2] x, bool c) => (float[2] y) {
      a = Relu (x)
      y = If (c) <then_branch = t () => (float[2] p) { p = Neg (a) },
                  else_branch = e () => (float[2] q) { q = Abs (a) }>
    })");
  EXPECT_TRUE(model) << model.status().toString();
  DrawOptions options;
  options.format = DrawFormat::kHtml;
  std::string out;
  EXPECT_TRUE(drawModel(*model, options, out).isOk());
  return out;
}

// The strings of a JSON array of strings `"key":[...]` in `text`.
std::set<std::string> listed(const std::string& text, const std::string& key) {
  std::smatch found;
  std::set<std::string> names;
  if (!std::regex_search(text, found, std::regex("\"" + key + "\":\\[([^\\]]*)\\]"))) {
    return names;
  }
  std::string list = found[1];
  std::regex item("\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), item); it != std::sregex_iterator();
       ++it) {
    names.insert((*it)[1]);
  }
  return names;
}

TEST(HtmlPage, EveryBoxFieldTheScriptReadsIsNamedInTheData) {
  std::string html = page();
  std::set<std::string> fields = listed(html, "boxFields");
  ASSERT_FALSE(fields.empty());
  std::regex asked("field\\('([A-Za-z]+)'\\)");
  size_t count = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), asked);
       it != std::sregex_iterator(); ++it, ++count) {
    EXPECT_TRUE(fields.contains((*it)[1]))
        << "the script reads a box field " << (*it)[1] << " the data does not name";
  }
  EXPECT_GE(count, 14u);
}

TEST(HtmlPage, TheDataListsTheClassesOfEveryKindAndTheItemCodes) {
  std::string html = page();
  std::set<std::string> kinds = listed(html, "kinds");
  for (const char* kind : {"node", "input", "output", "graph", "control"}) {
    EXPECT_TRUE(kinds.contains(kind)) << kind;
  }
  EXPECT_EQ(listed(html, "changes").size(), 4u);
  EXPECT_NE(html.find("\"itemCodes\":{\"bend\":-1,\"port\":-2}"), std::string::npos);
}

}  // namespace
}  // namespace onyx
