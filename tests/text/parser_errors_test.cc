// The text parser on malformed input: every error says where (line, column, byte offset) and
// what was expected and found, with kMalformed, or kLimitExceeded for the limits; no input
// crashes, hangs or allocates without bound.
#include <gtest/gtest.h>

#include <string>

#include "onyx/text/parser.h"

namespace onyx {
namespace {

struct BadText {
  const char* text;
  int line;
  int column;
  const char* message;  // the message after "line L, column C: "
};

Status parseFailure(std::string_view text, const TextParseOptions& options = {}) {
  Result<Model> model = parseText(text, options);
  EXPECT_FALSE(model) << "accepted: " << text;
  return model.status();
}

void expectError(const BadText& bad) {
  Status status = parseFailure(bad.text);
  std::string where =
      "line " + std::to_string(bad.line) + ", column " + std::to_string(bad.column) + ": ";
  EXPECT_EQ(status.code(), ErrorCode::kMalformed) << bad.text;
  EXPECT_EQ(status.message(), where + bad.message) << bad.text;
  EXPECT_TRUE(status.offset().has_value()) << bad.text;
}

TEST(TextParserErrors, SyntaxErrorsSayWhereAndWhat) {
  const BadText kCases[] = {
      {"g () => () { x = A( }", 1, 21, "expected ')', found '}'"},
      {"g () => () {\n  x = A()\n", 3, 1, "expected a node or '}', found end of input"},
      {"g () = > () {}", 1, 7, "expected '>' right after '=' (the arrow '=>'), found ' '"},
      {"g () => () { x = A<>() }", 1, 20, "expected an attribute name, found '>'"},
      {"g () => () { x = A<a = >() }", 1, 24,
       "expected an attribute value (a number, a quoted string, a type, a tensor, a graph or "
       "@name), found '>'"},
      {"g () => () { x = A<a: bogus = 1>() }", 1, 23,
       "expected an attribute type (int, float, string, tensor, graph, type_proto, "
       "sparse_tensor, or one of them in the plural, such as ints), found 'bogus'"},
      {"g (foo x) => () {}", 1, 8, "expected ')', found 'x'"},
      {"g (float) => () {}", 1, 9,
       "expected a name after the type (an identifier or a quoted string), found ')'"},
      {"g (map(foo, float) x) => () {}", 1, 8,
       "expected an element type for the map's keys (such as int64 or string), found 'foo'"},
      {"g (sparse_tensor(seq(float)) x) => () {}", 1, 18,
       "expected an element type (such as float), found 'seq'"},
      {"g (float[N,] x) => () {}", 1, 12,
       "expected a dimension (a number, a name, a quoted string or ?), found ']'"},
      {"g (float[1.5] x) => () {}", 1, 10, "expected an integer, found '1.5'"},
      {"<ir_version: \"7\"> g () => () {}", 1, 14, "expected an integer, found the string \"7\""},
      {"<bogus: 7> g () => () {}", 1, 2,
       "expected a model header key (ir_version, opset_import, producer_name, producer_version, "
       "domain, model_version, doc_string or metadata_props), found 'bogus'"},
      {"<opset_import: [foo: 1]> g () => () {}", 1, 17,
       "expected a quoted domain (\"\" for the default one), found 'foo'"},
      {"<metadata_props: [\"a\"]> g () => () {}", 1, 22, "expected ':', found ']'"},
      {"g () => () {} <bogus: \"x\"> f () => () {}", 1, 16,
       "expected a function header key (opset_import, domain, overload or doc_string), found "
       "'bogus'"},
      {"g () => () { x = a..b() }", 1, 20, "expected an operator name after '.', found '.'"},
      {"g () => () { x = A:() }", 1, 20, "expected an overload name after ':', found '('"},
      {"g () => () { [label x = A() }", 1, 21, "expected ']', found 'x'"},
      {"g () => () { x = A<t = float[2] {1, 2} extra> () }", 1, 40, "expected '>', found 'extra'"},
      {"", 1, 1, "expected a graph name (an identifier or a quoted string), found end of input"},
      {"\n\n   ?", 3, 4, "expected a graph name (an identifier or a quoted string), found '?'"},
      {"g () => () { x = A() } \x01", 1, 24,
       "expected a function name (an identifier or a quoted string), found the control character "
       "0x01"},
  };
  for (const BadText& bad : kCases) expectError(bad);
}

TEST(TextParserErrors, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes, one column.
  Status status = parseFailure("g (\"é\") => () { x = A( }");
  EXPECT_EQ(status.message(), "line 1, column 24: expected ')', found '}'");
  EXPECT_EQ(status.offset(), 24u);
}

TEST(TextParserErrors, Literals) {
  const BadText kCases[] = {
      {"g () => () { x = A<a = 99999999999999999999>() }", 1, 24,
       "expected an integer that fits in 64 bits, found '99999999999999999999'"},
      {"g () => () <int64[1] w = {-9223372036854775809}> {}", 1, 27,
       "expected an integer that fits in 64 bits, found '-9223372036854775809'"},
      {"g () => () <uint64[1] w = {18446744073709551616}> {}", 1, 28,
       "expected an integer that fits in 64 bits, found '18446744073709551616'"},
      {"g () => () <int32[1] w = {3000000000}> {}", 1, 27,
       "expected an integer that fits in 32 bits (int32 data is stored as int32), found "
       "'3000000000'"},
      {"g () => () <uint8[1] w = {-2147483649}> {}", 1, 27,
       "expected an integer that fits in 32 bits (uint8 data is stored as int32), found "
       "'-2147483649'"},
      {"g () => () { x = A<a = 1e>() }", 1, 26, "expected the digits of the exponent, found '>'"},
      {"g () => () { x = A<a = 2E+>() }", 1, 27, "expected the digits of the exponent, found '>'"},
      // onnx's scanner reads "- 5" and then fails to convert it; say so up front.
      {"g () => () { x = A<a = - 5>() }", 1, 25,
       "expected a digit, inf or nan right after '-', found ' '"},
      {"g () => () <float[1] w = {1e39}> {}", 1, 27,
       "expected a number within the range of float, found '1e39'"},
      {"g () => () <double[1] w = {1e309}> {}", 1, 28,
       "expected a number within the range of double, found '1e309'"},
      {"g () => () <float[1] w = {infinite}> {}", 1, 27, "expected a number, found 'infinite'"},
      {"g () => () <float[1] w = {inf5}> {}", 1, 27, "expected a number, found 'inf5'"},
      {"g () => () <int32[1] w = {1.5}> {}", 1, 27, "expected an integer, found '1.5'"},
      {"g () => () <float16[1] w = {0.5}> {}", 1, 29, "expected an integer, found '0.5'"},
      {"g () => () <string[1] w = {1}> {}", 1, 28, "expected a quoted string, found '1'"},
      {"g () => () <float[2] w = {1,}> {}", 1, 29, "expected a number, found '}'"},
      {"g () => () <float[1] w = .5> {}", 1, 26, "expected '>', found '.'"},
  };
  for (const BadText& bad : kCases) expectError(bad);
}

TEST(TextParserErrors, Strings) {
  const BadText kCases[] = {
      {"g () => () { x = A<a = \"unterminated>() }", 1, 24,
       "expected '\"' to close the string that starts here, found end of input"},
      {"g () => () { x = A<a = \"ends in a backslash\\", 1, 45,
       "expected a character after the backslash, found end of input"},
      {"\"unterminated graph name", 1, 1,
       "expected '\"' to close the string that starts here, found end of input"},
  };
  for (const BadText& bad : kCases) expectError(bad);
}

TEST(TextParserErrors, NotUtf8) {
  const BadText kCases[] = {
      {"\xff g () => () {}", 1, 1, "expected UTF-8 text, found the byte 0xff"},
      {"g () => () { x = A<s = \"\xc3\x28\"> () }", 1, 25,
       "expected UTF-8 text, found the byte 0xc3"},
      {"# a comment with a stray byte \x80\ng () => () {}", 1, 31,
       "expected UTF-8 text, found the byte 0x80"},
      {"g () => () {}\n# \xed\xa0\x80 is a surrogate", 2, 3,
       "expected UTF-8 text, found the byte 0xed"},
  };
  for (const BadText& bad : kCases) expectError(bad);
}

TEST(TextParserErrors, Attributes) {
  const BadText kCases[] = {
      {"g () => () { x = A<a: int = 2.5>() }", 1, 29, "expected a value of type int, found '2.5'"},
      {"g () => () { x = A<a: ints = 5>() }", 1, 30, "expected a value of type ints, found '5'"},
      {"g () => () { x = A<a: float = \"s\">() }", 1, 31,
       "expected a value of type float, found the string \"s\""},
      {"g () => () { x = A<a: tensor = float[2]>() }", 1, 32,
       "expected a value of type tensor, found 'float'"},
      {"g () => () { x = A<a = []>() }", 1, 24,
       "an empty list needs the attribute's type, as in `pads: ints = []`"},
      {"g () => () { x = A<a: int = []>() }", 1, 29, "expected a value of type int, found a list"},
      // A list keeps the type of its first element: onnx refuses mixed lists too.
      {"g () => () { x = A<a = [1, 2.5]>() }", 1, 28, "expected a value of type int, found '2.5'"},
      {"g () => () { x = A<a = [\"s\", 1]>() }", 1, 30,
       "expected a value of type string, found '1'"},
      {"g () => () { x = A<a = [float[1] {1}, 2]>() }", 1, 39,
       "expected a value of type tensor, found '2'"},
      {"g () => () { x = A<a: ints = [@r]>() }", 1, 31, "expected a value of type int, found '@'"},
      {"g () => () { x = A<a = @> () }", 1, 25,
       "expected the name of a function attribute after '@' (an identifier or a quoted string), "
       "found '>'"},
      {"g () => () { x = A<a = true> () }", 1, 28, "expected '=>', found '>'"},
      // onnx ignores an error in a function attribute's default and reads on; onyx does not.
      {"g () => () {} f <a: float = \"s\"> () => () {}", 1, 29,
       "expected a value of type float, found the string \"s\""},
  };
  for (const BadText& bad : kCases) expectError(bad);
}

TEST(TextParserErrors, TensorConstants) {
  const BadText kCases[] = {
      {"g (float[N] x = {1}) => () {}", 1, 10,
       "expected a number as a dimension of a tensor constant, found 'N'"},
      {"g (float[?] x = {1}) => () {}", 1, 10,
       "expected a number as a dimension of a tensor constant, found '?'"},
      {"g (float[] x = {1}) => () {}", 1, 4,
       "expected a tensor type with its dims (such as float[2,3]) before constant data, found "
       "'float[]' (a tensor of unknown rank)"},
      {"g (x = {1}) => () {}", 1, 4,
       "expected a tensor type before the name of an initializer (as in float[2] w = {1, 2}), "
       "found 'x'"},
      {"g (seq(float) x = {1}) => () {}", 1, 4,
       "expected a tensor type (such as float[2,3]) before constant data, found 'seq(float)'"},
      {"g () => () <float[1] w = [\"k\"]> {}", 1, 30, "expected ':', found ']'"},
      {"g () => () <float[1] w = []> {}", 1, 27, "expected a quoted string, found ']'"},
      // onnx accepts a negative size here; onyx refuses such a tensor in any model it reads.
      {"g () => () <float[2, -1] w = {}> {}", 1, 13,
       "the dims of this tensor constant: dims[1] is negative (-1)"},
  };
  for (const BadText& bad : kCases) expectError(bad);
}

TEST(TextParserErrors, HugeDimsAreALimitNotAnAllocation) {
  Status status = parseFailure("g () => () <float[4294967296, 4294967296] w = {}> {}");
  EXPECT_EQ(status.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(status.message(),
            "line 1, column 13: the dims of this tensor constant: the product of the dims passes "
            "9223372036854775807 elements");
  // A type's dims are only declared: huge ones are fine, as long as each fits in 64 bits.
  EXPECT_TRUE(parseText("g (float[9223372036854775807, 9223372036854775807] x) => () {}"));
  // A zero anywhere makes the tensor empty, whatever the other dims.
  EXPECT_TRUE(parseText("g () => () <float[0, 9223372036854775807, 4] w = {}> {}"));
}

TEST(TextParserErrors, TrailingText) {
  EXPECT_EQ(parseFailure("g () => () {} junk").message(),
            "line 1, column 19: expected '(', found end of input");
  EXPECT_EQ(parseGraphText("g () => () {} g2").status().message(),
            "line 1, column 15: expected end of input, found 'g2'");
  EXPECT_EQ(parseNodesText("{ a = B() } c").status().message(),
            "line 1, column 13: expected end of input, found 'c'");
  EXPECT_EQ(parseFunctionText("f () => () {} x").status().message(),
            "line 1, column 15: expected end of input, found 'x'");
}

std::string nestedGraphs(int depth) {
  std::string text;
  for (int i = 0; i < depth; ++i) text += "g" + std::to_string(i) + " () => () { x = If <b = ";
  text += "leaf () => () {}";
  for (int i = 0; i < depth; ++i) text += "> () }";
  return text;
}

std::string nestedTypes(int depth) {
  std::string text = "g (";
  for (int i = 0; i < depth; ++i) text += "seq(";
  text += "float";
  text.append(static_cast<size_t>(depth), ')');
  return text + " x) => () {}";
}

TEST(TextParserErrors, NestingDepthIsLimited) {
  TextParseOptions options;
  options.max_depth = 20;
  // The main graph is one level, each graph in an attribute one more.
  EXPECT_TRUE(parseText(nestedGraphs(19), options))
      << parseText(nestedGraphs(19), options).status().toString();
  Status graphs = parseFailure(nestedGraphs(20), options);
  EXPECT_EQ(graphs.code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(graphs.message().find("graphs and types nest more than 20 deep"), std::string::npos)
      << graphs.message();
  EXPECT_EQ(graphs.message().rfind("line 1, column ", 0), 0u) << graphs.message();
  // Types count on top of the graph they are in, and the tensor type inside seq() is a level.
  EXPECT_TRUE(parseText(nestedTypes(18), options));
  EXPECT_EQ(parseFailure(nestedTypes(19), options).code(), ErrorCode::kLimitExceeded);
  // Deep input with the default limit: an error, not a stack overflow.
  Status deep = parseFailure(nestedTypes(100000));
  EXPECT_EQ(deep.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(parseFailure(nestedGraphs(5000)).code(), ErrorCode::kLimitExceeded);
  // Within the default limit, the decoder's own limit does not speak first.
  EXPECT_TRUE(parseText(nestedGraphs(99)));
  EXPECT_TRUE(parseText(nestedTypes(98)));
}

TEST(TextParserErrors, BadOptions) {
  TextParseOptions options;
  options.max_depth = 0;
  EXPECT_EQ(parseText("g () => () {}", options).status().code(), ErrorCode::kInvalidArgument);
  options.max_depth = 201;
  EXPECT_EQ(parseText("g () => () {}", options).status().code(), ErrorCode::kInvalidArgument);
  options.max_depth = 200;
  EXPECT_TRUE(parseText(nestedGraphs(199), options));
}

TEST(TextParserErrors, EveryPrefixOfAValidTextFailsCleanly) {
  // Cutting a text anywhere gives an error with a place inside it, never a crash.
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[N, 2] x, float b = {0.5}) => (float[N, 2] y) <float[2] w = {1, -2e3}> {
  [n] t = com.ex.Op:ov <a = 1, f = [0.5, 1], s = "q\"", g = sub () => (z) { z = Id(x) }> (x, , w)
  y = Add(t, b)
}
<domain: "com.ex", opset_import: ["" : 13]> Op <a, f: floats = [1]> (X) => (Y) { Y = Id(X) })";
  ASSERT_TRUE(parseText(text));
  for (size_t cut = 0; cut < text.size(); ++cut) {
    Result<Model> model = parseText(std::string_view(text.data(), cut));
    if (model) continue;  // some prefixes are whole models
    const Status& status = model.status();
    EXPECT_TRUE(status.code() == ErrorCode::kMalformed) << cut << ": " << status.toString();
    EXPECT_EQ(status.message().rfind("line ", 0), 0u) << cut << ": " << status.toString();
    ASSERT_TRUE(status.offset().has_value());
    EXPECT_LE(*status.offset(), cut);
  }
}

}  // namespace
}  // namespace onyx
