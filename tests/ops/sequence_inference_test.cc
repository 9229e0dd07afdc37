// Shape rules of the sequence and optional operators.
#include <gtest/gtest.h>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::inferText;

constexpr const char* kHeader = R"(<ir_version: 10, opset_import: ["" : 21]>)";

std::string model(const char* body) { return std::string(kHeader) + body; }

TEST(SequenceInference, ConstructMergesTheElementShapes) {
  auto m = inferText(model(R"(
    g (float[N, 3] a, float[N, 3] b, float[2, 3] c) => (same, mixed) {
      same = SequenceConstruct(a, b)
      mixed = SequenceConstruct(a, c)
    })"));
  EXPECT_EQ(m.typeOf("same"), "seq(float[N,3])");
  EXPECT_EQ(m.typeOf("mixed"), "seq(float[?,3])");
}

TEST(SequenceInference, ConstructOfOtherElementTypesFails) {
  auto m = inferText(model(R"(
    g (float[3] a, int64[3] b) => (s) { s = SequenceConstruct(a, b) })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(SequenceInference, EmptyTakesItsDtype) {
  auto m = inferText(model(R"(
    g () => (f, i) {
      f = SequenceEmpty ()
      i = SequenceEmpty <dtype = 7> ()
    })"));
  EXPECT_EQ(m.typeOf("f"), "seq(float)");
  EXPECT_EQ(m.typeOf("i"), "seq(int64)");
}

TEST(SequenceInference, EmptyWithAnImpossibleDtypeFails) {
  auto m = inferText(model(R"(g () => (f) { f = SequenceEmpty <dtype = 12345> () })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(SequenceInference, InsertEraseAtLength) {
  auto m = inferText(model(R"(
    g (seq(float[N, 3]) s, float[N, 3] t, float[4, 3] u, int64 p) => (ins, wide, er, at, len) {
      ins = SequenceInsert(s, t)
      wide = SequenceInsert(s, u, p)
      er = SequenceErase(s, p)
      at = SequenceAt(s, p)
      len = SequenceLength(s)
    })"));
  EXPECT_EQ(m.typeOf("ins"), "seq(float[N,3])");
  EXPECT_EQ(m.typeOf("wide"), "seq(float[?,3])");
  EXPECT_EQ(m.typeOf("er"), "seq(float[N,3])");
  EXPECT_EQ(m.typeOf("at"), "float[N,3]");
  EXPECT_EQ(m.typeOf("len"), "int64[]");
}

TEST(SequenceInference, InsertOfAnotherElementTypeFails) {
  auto m = inferText(model(R"(
    g (seq(float[3]) s, int32[3] t) => (ins) { ins = SequenceInsert(s, t) })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(SequenceInference, SplitToSequence) {
  auto m = inferText(model(R"(
    g (float[6, N] x) => (ones, flat, equal, even, uneven) {
      ones = SplitToSequence <axis = 0> (x)
      flat = SplitToSequence <axis = 0, keepdims = 0> (x)
      two = Constant <value = int64 {2}> ()
      equal = SplitToSequence (x, two)
      parts = Constant <value_ints = [3, 3]> ()
      even = SplitToSequence (x, parts)
      uneven_parts = Constant <value_ints = [2, 4]> ()
      uneven = SplitToSequence (x, uneven_parts)
    })"));
  EXPECT_EQ(m.typeOf("ones"), "seq(float[1,N])");
  EXPECT_EQ(m.typeOf("flat"), "seq(float[N])");
  EXPECT_EQ(m.typeOf("two"), "int64[]");
  EXPECT_EQ(m.typeOf("equal"), "seq(float[2,N])");
  EXPECT_EQ(m.typeOf("even"), "seq(float[3,N])");
  EXPECT_EQ(m.typeOf("uneven"), "seq(float[?,N])");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(SequenceInference, SplitToSequenceWhoseLengthsDoNotAddUpFails) {
  auto m = inferText(model(R"(
    g (float[6, N] x) => (s) {
      parts = Constant <value_ints = [2, 2]> ()
      s = SplitToSequence (x, parts)
    })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(SequenceInference, ConcatFromSequenceNewAxisIsAFlag) {
  auto bad = inferText(model(R"(g (float[2, 3] x) => (y) {
    s = SequenceConstruct (x, x)
    y = ConcatFromSequence <axis = 0, new_axis = 2> (s) })"));
  EXPECT_TRUE(bad.refused("new_axis is 2; it is 0 (join) or 1 (stack)")) << bad.diagnostics();
  auto fine = inferText(model(R"(g (float[2, 3] x) => (y) {
    s = SequenceConstruct (x, x)
    y = ConcatFromSequence <axis = 0, new_axis = 1> (s) })"));
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[?,2,3]");
}

TEST(SequenceInference, ConcatFromSequence) {
  auto m = inferText(model(R"(
    g (seq(float[N, 3]) s) => (joined, stacked, last) {
      joined = ConcatFromSequence <axis = 0> (s)
      stacked = ConcatFromSequence <axis = 1, new_axis = 1> (s)
      last = ConcatFromSequence <axis = -1, new_axis = 1> (s)
    })"));
  EXPECT_EQ(m.typeOf("joined"), "float[?,3]");
  EXPECT_EQ(m.typeOf("stacked"), "float[N,?,3]");
  EXPECT_EQ(m.typeOf("last"), "float[N,3,?]");
}

TEST(SequenceInference, ConcatFromSequenceAxisOutOfRangeFails) {
  auto m = inferText(model(R"(
    g (seq(float[N, 3]) s) => (j) { j = ConcatFromSequence <axis = 2> (s) })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(OptionalInference, OptionalOfInputOrOfTypeAttribute) {
  auto m = inferText(model(R"(
    g (float[N] x, seq(int64[2]) s) => (a, b, c) {
      a = Optional(x)
      b = Optional(s)
      c = Optional <type: type_proto = float[2, 3]> ()
    })"));
  EXPECT_EQ(m.typeOf("a"), "optional(float[N])");
  EXPECT_EQ(m.typeOf("b"), "optional(seq(int64[2]))");
  EXPECT_EQ(m.typeOf("c"), "optional(float[2,3])");
}

TEST(OptionalInference, GetElementAndHasElement) {
  auto m = inferText(model(R"(
    g (optional(float[N]) o, float[3] t) => (e, passed, has, has_none) {
      e = OptionalGetElement(o)
      passed = OptionalGetElement(t)
      has = OptionalHasElement(o)
      has_none = OptionalHasElement()
    })"));
  EXPECT_EQ(m.typeOf("e"), "float[N]");
  EXPECT_EQ(m.typeOf("passed"), "float[3]");
  EXPECT_EQ(m.typeOf("has"), "bool[]");
  EXPECT_EQ(m.typeOf("has_none"), "bool[]");
}

}  // namespace
}  // namespace onyx
