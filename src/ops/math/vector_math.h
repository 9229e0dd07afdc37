// Internal: e^x, erf(x), tanh(x) and log(1 + u) of FLOAT without branches, for elementwise
// loops the compiler vectorizes (libm's expf, erff, tanhf and log1pf are calls, one element
// at a time).
//
// They are polynomials whose coefficients scripts/vector_math_coefficients.py derives (a
// Chebyshev fit of each function, rounded to float). Over all floats they are within
// kExpMaxUlp, kErfMaxUlp and kTanhMaxUlp units in the last place of the exact result
// (measured exhaustively against double; tests/ops/vector_math_test.cc checks a sample), and
// they handle NaN, infinities, -0, overflow and gradual underflow; log1pUnitFloat is for
// [0, 1] alone. The whole-array forms hold the
// loops; on x86-64 Linux they are also compiled for AVX2 and chosen when the library loads.
// Every vector width gives the same bits, so a kernel that uses them gives the same result
// on every thread count.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace onyx::ops::vector_math {

/// The largest errors of expFloat and erfFloat over all floats, in units in the last place
/// (of the exact value's binade): 1.049 at x = -48.866 and 1.337 at x = 0.99541, measured
/// exhaustively against libm's double exp and erf.
inline constexpr double kExpMaxUlp = 1.05;
inline constexpr double kErfMaxUlp = 1.34;
/// The same for tanhFloat over all floats and log1pUnitFloat over [0, 1]: 1.525 at x = 0.86540
/// and 1.877 at u = 0.97754.
inline constexpr double kTanhMaxUlp = 1.53;
inline constexpr double kLog1pMaxUlp = 1.88;

/// `condition ? a : b` by bit masks: a float `?:` after a comparison is a branch the compiler
/// does not vectorize unless told that comparisons cannot trap (-fno-trapping-math).
inline float select(bool condition, float a, float b) {
  const uint32_t mask = 0u - static_cast<uint32_t>(condition);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(a) & mask) |
                              (std::bit_cast<uint32_t>(b) & ~mask));
}

/// e^x. Cody-Waite reduction x = n ln 2 + r with |r| <= ln(2) / 2, a polynomial for e^r, and
/// 2^n applied as two factors so that neither overflows nor is subnormal.
inline float expFloat(float x) {
  // e^x is +inf above 88.73 and rounds to 0 below -103.98: clamped just outside, the
  // arithmetic below overflows or underflows by itself; NaN passes both comparisons.
  x = select(x > 89.0f, 89.0f, x);
  x = select(x < -110.0f, -110.0f, x);
  // Adding 1.5 * 2^23 rounds to an integer (|x log2 e| < 2^22), which is then in the low
  // bits of the sum.
  constexpr float kRoundingShift = 12582912.0f;
  constexpr float kLog2E = 1.44269504088896341f;
  constexpr float kLn2High = 0.693359375f;  // 9 bits: n * kLn2High is exact
  constexpr float kLn2Low = -0.00021219444170128554f;
  const float shifted = x * kLog2E + kRoundingShift;
  const float n = shifted - kRoundingShift;
  const float r = (x - n * kLn2High) - n * kLn2Low;
  float q = 0.0013926175888627768f;
  q = q * r + 0.008363173343241215f;
  q = q * r + 0.041666556149721146f;
  q = q * r + 0.16666577756404877f;
  q = q * r + 0.5f;
  const float p = 1.0f + (r + r * r * q);
  // n in [-159, 129] (anything for NaN, whose p is NaN); unsigned arithmetic never overflows.
  const uint32_t k = std::bit_cast<uint32_t>(shifted) - std::bit_cast<uint32_t>(kRoundingShift);
  const uint32_t half = static_cast<uint32_t>(static_cast<int32_t>(k) >> 1);
  const float first = std::bit_cast<float>((half + 127u) << 23);
  const float second = std::bit_cast<float>((k - half + 127u) << 23);
  return p * first * second;
}

/// Below this |x|, erf(x) = x + x s(x^2); at and above, 1 - erfc(x).
inline constexpr float kErfSplit = 1.0f;

/// erf(x) for |x| < kErfSplit (and NaN): x + x s(x^2).
inline float erfSmallFloat(float x) {
  const float t = x * x;
  float s = 7.875874871388078e-05f;
  s = s * t - 0.000801686430349946f;
  s = s * t + 0.005189087241888046f;
  s = s * t - 0.02685421146452427f;
  s = s * t + 0.11283594369888306f;
  s = s * t - 0.3761262595653534f;
  s = s * t + 0.12837916612625122f;
  return x + x * s;
}

/// erf(x): erfSmallFloat below kErfSplit, else 1 - e^(-x^2 + l(x)) with l(x) = log(erfc(x)
/// e^(x^2)), which is smooth there; from 4 on erf(x) rounds to 1. Odd, so -0 stays -0.
inline float erfFloat(float x) {
  const float a = std::fabs(x);
  const float small = erfSmallFloat(a);
  const float b = select(a > 4.0f, 4.0f, a);  // NaN passes
  const float s = b - 2.5f;
  float l = -7.582681860185403e-08f;
  l = l * s + 1.6155811408680165e-06f;
  l = l * s - 1.2925695955345873e-05f;
  l = l * s + 7.738760177744552e-05f;
  l = l * s - 0.0004207916499581188f;
  l = l * s + 0.002165169920772314f;
  l = l * s - 0.010858112946152687f;
  l = l * s + 0.05610635504126549f;
  l = l * s - 0.3526807427406311f;
  l = l * s - 1.556815266609192f;
  const float large = 1.0f - expFloat(l - b * b);
  return std::copysign(select(a < kErfSplit, small, large), x);
}

/// 1 / (1 + e^-x), with neither exponential overflowing: e^-|x| is at most 1.
inline float sigmoidFloat(float x) {
  const float e = expFloat(-std::fabs(x));
  return select(x >= 0.0f, 1.0f, e) / (1.0f + e);
}

/// Below this |x|, tanh(x) = x + x t s(t) with t = x^2; at and above, (1 - e) / (1 + e) with
/// e = e^(-2|x|) <= 1/3, where the difference loses nothing to cancellation.
inline constexpr float kTanhSplit = 0.55f;

/// tanh(x). Odd, so -0 stays -0; from 9.1 on it rounds to 1.
inline float tanhFloat(float x) {
  const float a = std::fabs(x);
  const float t = a * a;
  float s = 0.0025263905990868807f;
  s = s * t - 0.008526332676410675f;
  s = s * t + 0.02181844972074032f;
  s = s * t - 0.05396470054984093f;
  s = s * t + 0.1333332359790802f;
  s = s * t - 0.3333333432674408f;
  const float small = a + a * (t * s);
  const float e = expFloat(-2.0f * a);  // NaN passes; 0 for large |x|
  const float large = (1.0f - e) / (1.0f + e);
  return std::copysign(select(a < kTanhSplit, small, large), x);
}

/// log(1 + u) for u in [0, 1] (and NaN): u p(u), whose relative error does not grow as u
/// goes to 0 (softplus's log(1 + e^-|x|) has u there).
inline float log1pUnitFloat(float u) {
  float p = 0.001986696617677808f;
  p = p * u - 0.013187826611101627f;
  p = p * u + 0.04100657254457474f;
  p = p * u - 0.08188040554523468f;
  p = p * u + 0.12377995997667313f;
  p = p * u - 0.16087622940540314f;
  p = p * u + 0.19885820150375366f;
  p = p * u - 0.24986496567726135f;
  p = p * u + 0.33332496881484985f;
  p = p * u - 0.4999997913837433f;
  p = p * u + 1.0f;
  return u * p;
}

/// to[i] = e^from[i] for i < count; `to` is `from` or does not overlap it.
void expFloats(const float* from, float* to, size_t count);

/// to[i] = e^(from[i] - shift) for i < count (softmax's exponentials); the arrays do not
/// overlap.
void expShiftedFloats(const float* from, float shift, float* to, size_t count);

/// to[i] = x[i] * sigmoid(x[i]) (SiLU) for i < count, as Mul(x, Sigmoid(x)) rounds it.
void siluFloats(const float* x, float* to, size_t count);

/// to[i] = (x[i] * sigmoid(x[i])) * up[i] for i < count (a SwiGLU gate), as the nodes round it.
void gatedSiluFloats(const float* x, const float* up, float* to, size_t count);

/// to[i] = erf(from[i]) for i < count; `to` is `from` or does not overlap it.
void erfFloats(const float* from, float* to, size_t count);

/// y[j] += ((x[0] * rows[0][j] + x[1] * rows[1][j]) + x[2] * rows[2][j]) + x[3] * rows[3][j]
/// for j < count: four rows of a matrix swept at once into a row of sums (a vector times a
/// matrix, a row of the matrix a stream). `y` overlaps no row.
void addFourScaledRows(const float* const rows[4], const float x[4], float* y, size_t count);

/// y[j] += x * row[j] for j < count; `y` does not overlap `row`.
void addScaledRow(const float* row, float x, float* y, size_t count);

}  // namespace onyx::ops::vector_math
