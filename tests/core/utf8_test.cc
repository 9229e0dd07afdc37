// UTF-8 validation of names: the ASCII fast path must agree with the full check wherever
// the non-ASCII byte falls, and the full check must refuse every ill-formed sequence.
#include "onyx/core/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace onyx {
namespace {

TEST(Utf8, AsciiOfEveryLengthIsValid) {
  std::string text;
  for (size_t length = 0; length <= 70; ++length) {
    EXPECT_TRUE(isValidUtf8(text)) << length;
    EXPECT_EQ(validUtf8Prefix(text), text.size());
    text.push_back(static_cast<char>('a' + length % 26));
  }
}

TEST(Utf8, AStrayContinuationByteAnywhereIsFound) {
  // Every length up to well past two words, the bad byte at every position: the word
  // loop, the overlapping last word and the short-string loop each see it.
  for (size_t length = 1; length <= 40; ++length) {
    for (size_t at = 0; at < length; ++at) {
      std::string text(length, 'x');
      text[at] = '\x80';
      EXPECT_FALSE(isValidUtf8(text)) << length << " " << at;
      EXPECT_EQ(validUtf8Prefix(text), at) << length << " " << at;
    }
  }
}

TEST(Utf8, WellFormedMultiByteCharactersAreValid) {
  for (size_t pad = 0; pad <= 17; ++pad) {
    std::string text = std::string(pad, 'n') + "\xc3\xa9" + "\xe2\x82\xac" + "\xf0\x9f\x98\x80";
    EXPECT_TRUE(isValidUtf8(text)) << pad;
    EXPECT_TRUE(isValidUtf8(text + std::string(pad, 'z'))) << pad;
  }
  EXPECT_TRUE(isValidUtf8("\xf4\x8f\xbf\xbf"));  // U+10FFFF, the last code point
}

TEST(Utf8, IllFormedSequencesAreRefused) {
  const char* bad[] = {
      "\xc0\xaf",          // overlong '/'
      "\xe0\x80\xaf",      // overlong, three bytes
      "\xed\xa0\x80",      // a surrogate
      "\xf4\x90\x80\x80",  // past U+10FFFF
      "\xf8\x88\x80\x80",  // a five-byte lead
      "\xc3",              // cut short
      "\xe2\x82",          // cut short
      "\xc3\x28",          // a lead without its continuation
  };
  for (const char* sequence : bad) {
    std::string alone = sequence;
    std::string padded = "layer_0/" + alone + "/output";
    EXPECT_FALSE(isValidUtf8(alone)) << padded;
    EXPECT_FALSE(isValidUtf8(padded)) << padded;
    EXPECT_EQ(validUtf8Prefix(padded), 8u) << padded;
  }
}

}  // namespace
}  // namespace onyx
