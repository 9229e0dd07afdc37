// The picture formats, named once (onyx/draw/draw.h) for the command line and Python: by name,
// and by a file name's ending.
#include <gtest/gtest.h>

#include "onyx/draw/draw.h"

namespace onyx {
namespace {

TEST(DrawFormat, NamesGoBothWays) {
  for (DrawFormat format : {DrawFormat::kSvg, DrawFormat::kDot, DrawFormat::kHtml}) {
    EXPECT_EQ(drawFormatNamed(drawFormatName(format)), format);
  }
  EXPECT_EQ(drawFormatNamed("png"), std::nullopt);
  EXPECT_EQ(drawFormatNamed("SVG"), std::nullopt);  // a name, not an extension
}

TEST(DrawFormat, AFileNameSaysItsFormatByItsEnding) {
  EXPECT_EQ(drawFormatOfPath("model.svg"), DrawFormat::kSvg);
  EXPECT_EQ(drawFormatOfPath("out/model.DOT"), DrawFormat::kDot);
  EXPECT_EQ(drawFormatOfPath("model.gv"), DrawFormat::kDot);
  EXPECT_EQ(drawFormatOfPath("model.html"), DrawFormat::kHtml);
  EXPECT_EQ(drawFormatOfPath("model.Htm"), DrawFormat::kHtml);
  EXPECT_EQ(drawFormatOfPath("model.png"), std::nullopt);
  EXPECT_EQ(drawFormatOfPath("model"), std::nullopt);
  EXPECT_EQ(drawFormatOfPath("pictures.svg/model"), std::nullopt);  // a folder's dot
  EXPECT_EQ(drawFormatOfPath(""), std::nullopt);
}

}  // namespace
}  // namespace onyx
