// The vectorized FLOAT <-> FLOAT16 loops (src/ops/lib/float_casts.h), which Cast and the
// evaluator's float16-as-float kernels run, give the bits of the element-by-element
// conversions (onyx/core/float_formats.h): every float16 code widened, and floats around
// every rounding boundary, NaNs, infinities, subnormals and overflow narrowed.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "onyx/core/float_formats.h"
#include "ops/lib/float_casts.h"

namespace onyx {
namespace {

TEST(FloatCasts, EveryFloat16CodeWidensAsOneElementDoes) {
  std::vector<uint16_t> codes(65536);
  for (uint32_t code = 0; code < 65536; ++code) codes[code] = static_cast<uint16_t>(code);
  std::vector<float> wide(codes.size());
  ops::cast::halvesToFloats(codes.data(), codes.size(), wide.data());
  for (uint32_t code = 0; code < 65536; ++code) {
    ASSERT_EQ(std::bit_cast<uint32_t>(wide[code]),
              std::bit_cast<uint32_t>(float16ToFloat(static_cast<uint16_t>(code))))
        << "code " << code;
  }
}

TEST(FloatCasts, FloatsNarrowAsOneElementDoes) {
  std::vector<float> floats = {0.0f,
                               -0.0f,
                               65504.0f,
                               65519.99f,
                               65520.0f,
                               1e9f,
                               -1e9f,
                               std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN(),
                               std::bit_cast<float>(0x7fa00001u),  // a signalling NaN
                               std::bit_cast<float>(0xffc12345u),  // a NaN with a payload
                               5.9604645e-8f,
                               2.9802322e-8f,
                               2.9802326e-8f,
                               1e-10f};
  // Each float16 value, and the floats just below, at and just above half-way to the next:
  // where rounding to nearest even decides.
  for (uint32_t code = 0; code < 0x7c00; ++code) {
    float low = float16ToFloat(static_cast<uint16_t>(code));
    float high = float16ToFloat(static_cast<uint16_t>(code + 1));
    float middle = low + (high - low) / 2;
    for (float v : {low, std::nextafter(middle, low), middle, std::nextafter(middle, high)}) {
      floats.push_back(v);
      floats.push_back(-v);
    }
  }
  std::mt19937 random(7);
  for (int i = 0; i < 100000; ++i) floats.push_back(std::bit_cast<float>(uint32_t(random())));
  std::vector<uint16_t> narrow(floats.size());
  ops::cast::floatsToHalves(floats.data(), floats.size(), narrow.data());
  for (size_t i = 0; i < floats.size(); ++i) {
    ASSERT_EQ(narrow[i], floatToFloat16(floats[i]))
        << "float bits 0x" << std::hex << std::bit_cast<uint32_t>(floats[i]);
  }
}

}  // namespace
}  // namespace onyx
