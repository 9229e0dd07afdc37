// Internal: the signal-processing kernels: DFT, STFT, the cosine windows (Hann, Hamming,
// Blackman) and MelWeightMatrix.
//
// Transforms compute in double with an exact twiddle table (angle 2*pi*j/n for j < n):
// radix-2 for powers of two, mixed radix (2, 3, 4, 5) for lengths of those factors, the
// direct O(n^2) sum otherwise. Full
// transforms of complex FLOAT signals instead run single-precision mixed-radix passes that
// round as numpy's complex64 FFT (the conformance data's source) does.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "ops/kernels.h"

namespace onyx::ops {

namespace signal_detail {

using Complex = std::complex<double>;

/// Transforms one line in place: out[k] = sum_t in[t] * exp(sign * 2*pi*i*k*t/n) for k < n
/// (`line` has n entries). `twiddle[j]` = exp(-2*pi*i*j/n).
inline void transformLine(std::vector<Complex>& line, std::vector<Complex>& scratch,
                          const std::vector<Complex>& twiddle, bool inverse) {
  size_t n = line.size();
  if (n <= 1) return;
  auto w = [&](size_t j) { return inverse ? std::conj(twiddle[j % n]) : twiddle[j % n]; };
  if ((n & (n - 1)) == 0) {
    // Iterative radix-2: bit-reversal permutation, then butterflies.
    for (size_t i = 1, j = 0; i < n; ++i) {
      size_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(line[i], line[j]);
    }
    for (size_t len = 2; len <= n; len <<= 1) {
      size_t step = n / len;
      for (size_t start = 0; start < n; start += len) {
        for (size_t k = 0; k < len / 2; ++k) {
          Complex u = line[start + k];
          Complex v = line[start + k + len / 2] * w(k * step);
          line[start + k] = u + v;
          line[start + k + len / 2] = u - v;
        }
      }
    }
    return;
  }
  scratch.assign(n, Complex(0, 0));
  for (size_t k = 0; k < n; ++k) {
    Complex sum(0, 0);
    size_t j = 0;  // (k * t) mod n, advanced by k each step
    for (size_t t = 0; t < n; ++t) {
      sum += line[t] * w(j);
      j += k;
      if (j >= n) j -= n;
    }
    scratch[k] = sum;
  }
  line.swap(scratch);
}

inline std::vector<Complex> twiddles(size_t n) {
  std::vector<Complex> table(n);
  for (size_t j = 0; j < n; ++j) {
    double angle = -2.0 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(n);
    table[j] = Complex(std::cos(angle), std::sin(angle));
  }
  return table;
}

// ---- FLOAT transforms with numpy's complex64 rounding ----------------------------------
//
// numpy (2.x) transforms complex64 signals in single precision with a mixed-radix FFT whose
// rounding the conformance data carries (an exact zero comes out as ~1e-7). FLOAT signals
// whose length factors into that FFT's radix-2, 3, 4 and 5 passes are transformed the same
// way, in the same operation order: factors 4 first, then one 2 moved to the front, then
// 3s and 5s; each pass reads `cc` and writes `ch` in FFTPACK's layout, twiddles in float.

template <class F>
struct ComplexOf {
  F r, i;
};
template <class F>
inline ComplexOf<F> operator+(ComplexOf<F> a, ComplexOf<F> b) {
  return {a.r + b.r, a.i + b.i};
}
template <class F>
inline ComplexOf<F> operator-(ComplexOf<F> a, ComplexOf<F> b) {
  return {a.r - b.r, a.i - b.i};
}
using ComplexF = ComplexOf<float>;

// v * w (backward) or v * conj(w) (forward).
template <bool kForward, class F>
inline ComplexOf<F> twiddled(ComplexOf<F> v, ComplexOf<F> w) {
  if constexpr (kForward) {
    return {v.r * w.r + v.i * w.i, v.i * w.r - v.r * w.i};
  } else {
    return {v.r * w.r - v.i * w.i, v.r * w.i + v.i * w.r};
  }
}

// i * a (backward) or -i * a (forward).
template <bool kForward, class F>
inline ComplexOf<F> quarterTurn(ComplexOf<F> a) {
  if constexpr (kForward) {
    return {a.i, -a.r};
  } else {
    return {-a.i, a.r};
  }
}

// The radices of n in the order the passes run; empty when n needs another radix (8, 7,
// larger primes), which the double-precision transform then handles.
inline std::vector<size_t> floatRadices(size_t n) {
  std::vector<size_t> radices;
  if (n % 8 == 0) return {};
  size_t rest = n;
  while (rest % 4 == 0) {
    radices.push_back(4);
    rest /= 4;
  }
  if (rest % 2 == 0) {
    rest /= 2;
    radices.push_back(2);
    std::swap(radices.front(), radices.back());
  }
  for (size_t p : {size_t{3}, size_t{5}}) {
    while (rest % p == 0) {
      radices.push_back(p);
      rest /= p;
    }
  }
  if (rest != 1) return {};
  return radices;
}

template <class F>
class MixedRadixFft {
 public:
  using C = ComplexOf<F>;

  MixedRadixFft(size_t n, std::vector<size_t> radices) : n_(n), radices_(std::move(radices)) {
    // Angles 2*pi*x/n in double, rounded to float.
    std::vector<C> unit(n);
    for (size_t x = 0; x < n; ++x) {
      double angle = 2.0 * std::numbers::pi * static_cast<double>(x) / static_cast<double>(n);
      unit[x] = {static_cast<F>(std::cos(angle)), static_cast<F>(std::sin(angle))};
    }
    size_t l1 = 1;
    for (size_t ip : radices_) {
      size_t ido = n / (l1 * ip);
      std::vector<C> table((ip - 1) * (ido > 0 ? ido - 1 : 0));
      for (size_t j = 1; j < ip; ++j) {
        for (size_t i = 1; i < ido; ++i) table[(j - 1) * (ido - 1) + i - 1] = unit[j * l1 * i];
      }
      tables_.push_back(std::move(table));
      l1 *= ip;
    }
  }

  /// Transforms `data` (n values) in place, scaled by `factor` when it is not 1.
  template <bool kForward>
  void run(std::vector<C>& data, std::vector<C>& scratch, F factor) const {
    scratch.resize(n_);
    C* p1 = data.data();
    C* p2 = scratch.data();
    size_t l1 = 1;
    for (size_t f = 0; f < radices_.size(); ++f) {
      size_t ip = radices_[f];
      size_t ido = n_ / (l1 * ip);
      const C* wa = tables_[f].data();
      if (ip == 2) pass2<kForward>(ido, l1, p1, p2, wa);
      if (ip == 3) pass3<kForward>(ido, l1, p1, p2, wa);
      if (ip == 4) pass4<kForward>(ido, l1, p1, p2, wa);
      if (ip == 5) pass5<kForward>(ido, l1, p1, p2, wa);
      std::swap(p1, p2);
      l1 *= ip;
    }
    if (p1 != data.data()) std::copy(p1, p1 + n_, data.data());
    if (factor != F(1)) {
      for (C& v : data) v = {v.r * factor, v.i * factor};
    }
  }

 private:
  // Element (a, b, c) of the pass output [c][b][a] (l1 rows) and input [c][b][a] (ip rows).
  static size_t out(size_t ido, size_t l1, size_t a, size_t b, size_t c) {
    return a + ido * (b + l1 * c);
  }
  static size_t in(size_t ido, size_t ip, size_t a, size_t b, size_t c) {
    return a + ido * (b + ip * c);
  }

  template <bool kForward>
  static void pass2(size_t ido, size_t l1, const C* cc, C* ch, const C* wa) {
    for (size_t k = 0; k < l1; ++k) {
      for (size_t i = 0; i < ido; ++i) {
        C a = cc[in(ido, 2, i, 0, k)], b = cc[in(ido, 2, i, 1, k)];
        ch[out(ido, l1, i, k, 0)] = a + b;
        ch[out(ido, l1, i, k, 1)] = i == 0 ? a - b : twiddled<kForward>(a - b, wa[i - 1]);
      }
    }
  }

  template <bool kForward>
  static void pass3(size_t ido, size_t l1, const C* cc, C* ch, const C* wa) {
    const F kCos = F(-0.5);
    const F sine = (kForward ? F(-1) : F(1)) * F(0.866025403784438646763723170752936L);
    for (size_t k = 0; k < l1; ++k) {
      for (size_t i = 0; i < ido; ++i) {
        C t0 = cc[in(ido, 3, i, 0, k)];
        C c1 = cc[in(ido, 3, i, 1, k)], c2 = cc[in(ido, 3, i, 2, k)];
        C t1 = c1 + c2, t2 = c1 - c2;
        ch[out(ido, l1, i, k, 0)] = t0 + t1;
        C ca = t0 + C{t1.r * kCos, t1.i * kCos};
        C cb = {t2.r * sine, t2.i * sine};
        cb = {-cb.i, cb.r};
        C da = ca + cb, db = ca - cb;
        if (i == 0) {
          ch[out(ido, l1, 0, k, 1)] = da;
          ch[out(ido, l1, 0, k, 2)] = db;
        } else {
          ch[out(ido, l1, i, k, 1)] = twiddled<kForward>(da, wa[i - 1]);
          ch[out(ido, l1, i, k, 2)] = twiddled<kForward>(db, wa[i - 1 + (ido - 1)]);
        }
      }
    }
  }

  template <bool kForward>
  static void pass4(size_t ido, size_t l1, const C* cc, C* ch, const C* wa) {
    for (size_t k = 0; k < l1; ++k) {
      for (size_t i = 0; i < ido; ++i) {
        C c0 = cc[in(ido, 4, i, 0, k)], c1 = cc[in(ido, 4, i, 1, k)], c2 = cc[in(ido, 4, i, 2, k)],
          c3 = cc[in(ido, 4, i, 3, k)];
        C t2 = c0 + c2, t1 = c0 - c2;
        C t3 = c1 + c3, t4 = quarterTurn<kForward>(c1 - c3);
        if (i == 0) {
          ch[out(ido, l1, 0, k, 0)] = t2 + t3;
          ch[out(ido, l1, 0, k, 2)] = t2 - t3;
          ch[out(ido, l1, 0, k, 1)] = t1 + t4;
          ch[out(ido, l1, 0, k, 3)] = t1 - t4;
        } else {
          ch[out(ido, l1, i, k, 0)] = t2 + t3;
          C d3 = t2 - t3, d2 = t1 + t4, d4 = t1 - t4;
          ch[out(ido, l1, i, k, 1)] = twiddled<kForward>(d2, wa[i - 1]);
          ch[out(ido, l1, i, k, 2)] = twiddled<kForward>(d3, wa[i - 1 + (ido - 1)]);
          ch[out(ido, l1, i, k, 3)] = twiddled<kForward>(d4, wa[i - 1 + 2 * (ido - 1)]);
        }
      }
    }
  }

  template <bool kForward>
  static void pass5(size_t ido, size_t l1, const C* cc, C* ch, const C* wa) {
    const F sign = kForward ? F(-1) : F(1);
    const F c1r = F(0.3090169943749474241022934171828191L);
    const F c1i = sign * F(0.9510565162951535721164393333793821L);
    const F c2r = F(-0.8090169943749474241022934171828191L);
    const F c2i = sign * F(0.5877852522924731291687059546390728L);
    for (size_t k = 0; k < l1; ++k) {
      for (size_t i = 0; i < ido; ++i) {
        C t0 = cc[in(ido, 5, i, 0, k)];
        C x1 = cc[in(ido, 5, i, 1, k)], x2 = cc[in(ido, 5, i, 2, k)], x3 = cc[in(ido, 5, i, 3, k)],
          x4 = cc[in(ido, 5, i, 4, k)];
        C t1 = x1 + x4, t4 = x1 - x4, t2 = x2 + x3, t3 = x2 - x3;
        ch[out(ido, l1, i, k, 0)] = {t0.r + t1.r + t2.r, t0.i + t1.i + t2.i};
        // Outputs u1 and u2 = 5 - u1 from cosines (ar, br) and sines (ai, bi).
        auto step = [&](size_t u1, size_t u2, F ar, F br, F ai, F bi) {
          C ca = {t0.r + ar * t1.r + br * t2.r, t0.i + ar * t1.i + br * t2.i};
          C cb;
          cb.i = ai * t4.r + bi * t3.r;
          cb.r = -(ai * t4.i + bi * t3.i);
          C da = ca + cb, db = ca - cb;
          if (i == 0) {
            ch[out(ido, l1, 0, k, u1)] = da;
            ch[out(ido, l1, 0, k, u2)] = db;
          } else {
            ch[out(ido, l1, i, k, u1)] = twiddled<kForward>(da, wa[i - 1 + (u1 - 1) * (ido - 1)]);
            ch[out(ido, l1, i, k, u2)] = twiddled<kForward>(db, wa[i - 1 + (u2 - 1) * (ido - 1)]);
          }
        };
        step(1, 4, c1r, c2r, c1i, c2i);
        step(2, 3, c2r, c1r, c2i, -c1i);
      }
    }
  }

  size_t n_;
  std::vector<size_t> radices_;
  std::vector<std::vector<C>> tables_;
};

// The radices for a double-precision mixed-radix transform of n points (4s, a 2, 3s, 5s);
// empty when n has another prime factor.
inline std::vector<size_t> mixedRadices(size_t n) {
  std::vector<size_t> radices;
  size_t rest = n;
  while (rest % 4 == 0) {
    radices.push_back(4);
    rest /= 4;
  }
  if (rest % 2 == 0) {
    radices.push_back(2);
    rest /= 2;
  }
  for (size_t p : {size_t{3}, size_t{5}}) {
    while (rest % p == 0) {
      radices.push_back(p);
      rest /= p;
    }
  }
  if (rest != 1 || n == 1) return {};
  return radices;
}

// A double-precision transform of n points: radix-2 for powers of two, mixed radix for
// lengths of factors 2, 3 and 5, the direct sum otherwise.
class LineTransform {
 public:
  explicit LineTransform(size_t n) : n_(n), table_(twiddles(n)) {
    if ((n & (n - 1)) != 0) {
      std::vector<size_t> radices = mixedRadices(n);
      if (!radices.empty()) mixed_.emplace(n, std::move(radices));
    }
  }

  void apply(std::vector<Complex>& line, std::vector<Complex>& scratch,
             std::vector<ComplexOf<double>>& buffer, std::vector<ComplexOf<double>>& spare,
             bool inverse) const {
    if (!mixed_) {
      transformLine(line, scratch, table_, inverse);
      return;
    }
    buffer.resize(n_);
    for (size_t t = 0; t < n_; ++t) buffer[t] = {line[t].real(), line[t].imag()};
    if (inverse) {
      mixed_->run<false>(buffer, spare, 1.0);
    } else {
      mixed_->run<true>(buffer, spare, 1.0);
    }
    for (size_t t = 0; t < n_; ++t) line[t] = Complex(buffer[t].r, buffer[t].i);
  }

 private:
  size_t n_;
  std::vector<Complex> table_;
  std::optional<MixedRadixFft<double>> mixed_;
};

/// A scalar integer input (rank 0 or one element); nullopt when absent or not one integer.
inline std::optional<int64_t> scalarInput(const KernelContext& ctx, size_t i) {
  const Array* array = ctx.inputArray(i);
  if (array == nullptr) return std::nullopt;
  std::optional<std::vector<int64_t>> values = integersOf(*array);
  if (!values || values->size() != 1) return std::nullopt;
  return (*values)[0];
}

/// The real numeric element type of a TensorProto.DataType code; nullopt for others.
inline std::optional<ElementType> numericType(int64_t code) {
  if (code < 1 || code > 1000) return std::nullopt;
  const ElementTypeInfo* info = elementTypeInfo(static_cast<int32_t>(code));
  if (info == nullptr || !(info->isFloatingPoint() || info->isInteger())) return std::nullopt;
  return info->type;
}

}  // namespace signal_detail

/// DFT over `axis` of a signal [..., L, ..., 1 or 2] (real, or complex as re/im pairs): the
/// forward transform (onesided keeps the first n/2 + 1 bins), the inverse (scaled by 1/n),
/// or with inverse and onesided the real signal whose one-sided spectrum is given.
inline Status runDftKernel(KernelContext& ctx, bool axis_from_input) {
  using namespace signal_detail;
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  size_t rank = x->rank();
  if (rank < 2) return ctx.fail("the input needs rank 2 or more");
  int64_t channels = x->dim(rank - 1);
  if (channels != 1 && channels != 2) return ctx.fail("the last dimension must be 1 or 2");
  int64_t axis_value = 1;
  if (axis_from_input) {
    axis_value = -2;
    if (ctx.hasInput(2)) {
      std::optional<int64_t> given = scalarInput(ctx, 2);
      if (!given) return ctx.fail("axis must be an integer scalar");
      axis_value = *given;
    }
  } else {
    axis_value = ctx.intAttribute("axis").value_or(1);
  }
  std::optional<size_t> axis = kernelAxis(axis_value, rank);
  if (!axis || *axis == rank - 1) return ctx.fail("axis is out of range");
  bool inverse = ctx.intAttribute("inverse").value_or(0) != 0;
  bool onesided = ctx.intAttribute("onesided").value_or(0) != 0;
  size_t length = static_cast<size_t>(x->dim(*axis));
  int64_t n_value =
      inverse && onesided ? 2 * (static_cast<int64_t>(length) - 1) : static_cast<int64_t>(length);
  if (ctx.hasInput(1)) {
    std::optional<int64_t> given = scalarInput(ctx, 1);
    if (!given) return ctx.fail("dft_length must be an integer scalar");
    n_value = *given;
  }
  if (n_value < 1) return ctx.fail("dft_length must be positive");
  if (n_value > (int64_t{1} << 26)) return ctx.fail("dft_length is too large");
  size_t n = static_cast<size_t>(n_value);
  bool real_out = inverse && onesided;
  size_t n_out = !inverse && onesided ? n / 2 + 1 : n;
  std::vector<int64_t> shape = x->shape();
  shape[*axis] = static_cast<int64_t>(n_out);
  shape[rank - 1] = real_out ? 1 : 2;
  Result<Array> made = Array::allocate(ElementType::kDouble, shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  Array wide = widenToFloat(*x);
  size_t in_c = static_cast<size_t>(channels), out_c = real_out ? 1 : 2;
  size_t inner = 1;
  for (size_t i = *axis + 1; i + 1 < rank; ++i) inner *= static_cast<size_t>(x->dim(i));
  size_t outer = 1;
  for (size_t i = 0; i < *axis; ++i) outer *= static_cast<size_t>(x->dim(i));
  LineTransform transform(n);
  // Full transforms of complex FLOAT signals (numpy's complex64) round as numpy's single-
  // precision FFT does; real signals, which numpy promotes to complex128, go in double.
  std::vector<size_t> radices = floatRadices(n);
  bool single =
      wide.type() == ElementType::kFloat && in_c == 2 && !onesided && (n == 1 || !radices.empty());
  std::optional<MixedRadixFft<float>> float_fft;
  if (single) float_fft.emplace(n, radices);
  float factor = inverse ? static_cast<float>(1.0 / static_cast<double>(n)) : 1.0f;
  double* result = out.data<double>();
  bool ok = dispatchFloat(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    parallelFor(ctx, outer * inner, std::max<size_t>(1, 256 / n), [&](size_t begin, size_t end) {
      std::vector<Complex> line, scratch;
      std::vector<ComplexOf<double>> buffer, spare;
      std::vector<ComplexF> line_f, scratch_f;
      for (size_t l = begin; l < end; ++l) {
        size_t in_start = (l / inner) * length * inner * in_c + (l % inner) * in_c;
        size_t out_start = (l / inner) * n_out * inner * out_c + (l % inner) * out_c;
        auto sample = [&](size_t t) {
          const T* p = in + in_start + t * inner * in_c;
          return Complex(static_cast<double>(p[0]), in_c == 2 ? static_cast<double>(p[1]) : 0.0);
        };
        if (float_fft) {
          line_f.assign(n, ComplexF{0.0f, 0.0f});
          for (size_t t = 0; t < n && t < length; ++t) {
            const T* p = in + in_start + t * inner * in_c;
            line_f[t] = {static_cast<float>(p[0]), in_c == 2 ? static_cast<float>(p[1]) : 0.0f};
          }
          if (inverse) {
            float_fft->run<false>(line_f, scratch_f, factor);
          } else {
            float_fft->run<true>(line_f, scratch_f, factor);
          }
          for (size_t k = 0; k < n_out; ++k) {
            double* p = result + out_start + k * inner * out_c;
            p[0] = line_f[k].r;
            p[1] = line_f[k].i;
          }
          continue;
        }
        line.assign(n, Complex(0, 0));
        if (real_out) {
          // Rebuild the full Hermitian spectrum from bins 0..n/2 (imaginary parts of bin 0
          // and, for even n, bin n/2 dropped, as a real inverse transform does).
          size_t half = n / 2;
          for (size_t k = 0; k <= half && k < length; ++k) line[k] = sample(k);
          line[0] = Complex(line[0].real(), 0);
          if (n % 2 == 0) line[half] = Complex(line[half].real(), 0);
          for (size_t k = 1; k < n - k; ++k) line[n - k] = std::conj(line[k]);
        } else {
          for (size_t t = 0; t < n && t < length; ++t) line[t] = sample(t);
        }
        transform.apply(line, scratch, buffer, spare, inverse);
        double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
        for (size_t k = 0; k < n_out; ++k) {
          double* p = result + out_start + k * inner * out_c;
          p[0] = line[k].real() * scale;
          if (out_c == 2) p[1] = line[k].imag() * scale;
        }
      }
    });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  Array back(wide.type(), shape);
  for (size_t i = 0; i < out.size(); ++i) storeDouble(back, i, result[i]);
  ctx.setOutput(0, narrowFromFloat(back, x->type()));
  return Status::ok();
}

/// STFT of signal [batch, length, 1 or 2]: frames every frame_step samples, each weighted by
/// the window (ones when absent) and transformed over frame_length points (onesided keeps
/// frame_length/2 + 1 bins): [batch, frames, bins, 2].
inline Status runStftKernel(KernelContext& ctx) {
  using namespace signal_detail;
  const Array* x = ctx.inputArray(0);
  if (x == nullptr || x->rank() != 3) return ctx.fail("the signal must be [batch, length, 1 or 2]");
  int64_t channels = x->dim(2);
  if (channels != 1 && channels != 2) return ctx.fail("the last dimension must be 1 or 2");
  std::optional<int64_t> step = scalarInput(ctx, 1);
  if (!step || *step < 1) return ctx.fail("frame_step must be a positive integer scalar");
  const Array* window = ctx.inputArray(2);
  if (window != nullptr && window->rank() != 1) return ctx.fail("the window must be 1-D");
  int64_t length = x->dim(1);
  int64_t frame_length = window != nullptr ? window->dim(0) : length;
  if (ctx.hasInput(3)) {
    std::optional<int64_t> given = scalarInput(ctx, 3);
    if (!given) return ctx.fail("frame_length must be an integer scalar");
    frame_length = *given;
  }
  if (frame_length < 1) return ctx.fail("frame_length must be positive");
  if (frame_length > length) return ctx.fail("frame_length is longer than the signal");
  int64_t window_size = window != nullptr ? window->dim(0) : frame_length;
  bool onesided = ctx.intAttribute("onesided").value_or(1) != 0;
  size_t n = static_cast<size_t>(frame_length);
  size_t bins = onesided ? n / 2 + 1 : n;
  size_t frames = static_cast<size_t>(1 + (length - frame_length) / *step);
  size_t batch = static_cast<size_t>(x->dim(0));
  std::vector<int64_t> shape = {x->dim(0), static_cast<int64_t>(frames), static_cast<int64_t>(bins),
                                2};
  Result<Array> made = Array::allocate(ElementType::kDouble, shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  double* result = out.data<double>();
  Array wide = widenToFloat(*x);
  std::vector<double> weights(static_cast<size_t>(window_size), 1.0);
  if (window != nullptr) {
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = elementAsDouble(*window, i);
  }
  LineTransform transform(n);
  size_t c = static_cast<size_t>(channels);
  bool ok = dispatchFloat(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    parallelFor(ctx, batch * frames, 1, [&](size_t begin, size_t end) {
      std::vector<Complex> line, scratch;
      std::vector<ComplexOf<double>> buffer, spare;
      for (size_t job = begin; job < end; ++job) {
        size_t b = job / frames, f = job % frames;
        size_t first = f * static_cast<size_t>(*step);
        line.assign(n, Complex(0, 0));
        for (size_t t = 0; t < n && t < weights.size(); ++t) {
          size_t at = first + t;
          if (at >= static_cast<size_t>(length)) break;
          const T* p = in + (b * static_cast<size_t>(length) + at) * c;
          line[t] = Complex(static_cast<double>(p[0]), c == 2 ? static_cast<double>(p[1]) : 0.0) *
                    weights[t];
        }
        transform.apply(line, scratch, buffer, spare, false);
        double* dst = result + job * bins * 2;
        for (size_t k = 0; k < bins; ++k) {
          dst[2 * k] = line[k].real();
          dst[2 * k + 1] = line[k].imag();
        }
      }
    });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  Array back(wide.type(), shape);
  for (size_t i = 0; i < out.size(); ++i) storeDouble(back, i, result[i]);
  ctx.setOutput(0, narrowFromFloat(back, x->type()));
  return Status::ok();
}

enum class WindowKind { kHann, kHamming, kBlackman };

/// The cosine windows of `size` points (input 0), periodic (denominator size) or symmetric
/// (size - 1), in `output_datatype`.
template <WindowKind K>
Status runWindow(KernelContext& ctx) {
  std::optional<int64_t> size = signal_detail::scalarInput(ctx, 0);
  if (!size || *size < 0) return ctx.fail("size must be a non-negative integer scalar");
  int64_t type_code = ctx.intAttribute("output_datatype").value_or(1);
  std::optional<ElementType> type = signal_detail::numericType(type_code);
  if (!type) {
    return ctx.fail("output_datatype " + std::to_string(type_code) + " is not a numeric type");
  }
  bool periodic = ctx.intAttribute("periodic").value_or(1) != 0;
  Result<Array> made = Array::allocate(*type, {*size});
  if (!made) return made.status();
  Array out = std::move(*made);
  double denominator = static_cast<double>(periodic ? *size : *size - 1);
  constexpr double kPi = std::numbers::pi;
  for (int64_t i = 0; i < *size; ++i) {
    double x = static_cast<double>(i) / denominator;
    double value = 0;
    if constexpr (K == WindowKind::kHann) {
      double s = std::sin(kPi * x);
      value = s * s;
    } else if constexpr (K == WindowKind::kHamming) {
      constexpr double kAlpha = 25.0 / 46.0;
      value = kAlpha - (1.0 - kAlpha) * std::cos(2 * kPi * x);
    } else {
      value = 0.42 - 0.5 * std::cos(2 * kPi * x) + 0.08 * std::cos(4 * kPi * x);
    }
    storeDouble(out, static_cast<size_t>(i), value);
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

/// MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins] triangular filters between
/// lower_edge_hertz and upper_edge_hertz on the mel scale, in `output_datatype`.
inline Status runMelWeightMatrixKernel(KernelContext& ctx) {
  using signal_detail::scalarInput;
  std::optional<int64_t> mel_bins = scalarInput(ctx, 0);
  std::optional<int64_t> dft_length = scalarInput(ctx, 1);
  std::optional<int64_t> sample_rate = scalarInput(ctx, 2);
  const Array* lower = ctx.inputArray(3);
  const Array* upper = ctx.inputArray(4);
  if (!mel_bins || !dft_length || !sample_rate || lower == nullptr || upper == nullptr ||
      lower->size() != 1 || upper->size() != 1) {
    return ctx.fail("needs scalar num_mel_bins, dft_length, sample_rate and edge frequencies");
  }
  if (*mel_bins < 0 || *dft_length < 1 || *sample_rate < 1) {
    return ctx.fail("num_mel_bins, dft_length and sample_rate must be positive");
  }
  int64_t type_code = ctx.intAttribute("output_datatype").value_or(1);
  std::optional<ElementType> type = signal_detail::numericType(type_code);
  if (!type) {
    return ctx.fail("output_datatype " + std::to_string(type_code) + " is not a numeric type");
  }
  int64_t spectrogram_bins = *dft_length / 2 + 1;
  Result<Array> made = Array::allocate(*type, {spectrogram_bins, *mel_bins});
  if (!made) return made.status();
  Array out = std::move(*made);
  // The mel edges in the edges' precision (FLOAT as the reference computes them), the bin
  // positions in double, floored.
  float low_hz = static_cast<float>(elementAsDouble(*lower, 0));
  float high_hz = static_cast<float>(elementAsDouble(*upper, 0));
  float low_mel = 2595.0f * std::log10(1.0f + low_hz / 700.0f);
  float high_mel = 2595.0f * std::log10(1.0f + high_hz / 700.0f);
  float mel_step = (high_mel - low_mel) / static_cast<float>(*mel_bins + 2);
  std::vector<int64_t> edges(static_cast<size_t>(*mel_bins + 2));
  for (size_t i = 0; i < edges.size(); ++i) {
    double mel = static_cast<double>(i) * static_cast<double>(mel_step) + low_mel;
    double hz = 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
    double bin = std::floor((static_cast<double>(*dft_length) + 1.0) * hz /
                            static_cast<double>(*sample_rate));
    if (!(std::fabs(bin) < 9.0e15)) return ctx.fail("the edge frequencies give no finite bins");
    edges[i] = static_cast<int64_t>(bin);
  }
  std::vector<double> values(static_cast<size_t>(spectrogram_bins * *mel_bins), 0.0);
  auto set = [&](int64_t row, int64_t column, double value) -> bool {
    if (row < 0 || row >= spectrogram_bins) return false;
    values[static_cast<size_t>(row * *mel_bins + column)] = value;
    return true;
  };
  for (int64_t i = 0; i < *mel_bins; ++i) {
    int64_t left = edges[static_cast<size_t>(i)], center = edges[static_cast<size_t>(i + 1)],
            right = edges[static_cast<size_t>(i + 2)];
    int64_t rise = center - left;
    if (rise == 0) {
      if (!set(center, i, 1.0)) return ctx.fail("a mel band falls outside the spectrogram");
    } else {
      for (int64_t j = left; j <= center; ++j) {
        if (!set(j, i, static_cast<double>(j - left) / static_cast<double>(rise))) {
          return ctx.fail("a mel band falls outside the spectrogram");
        }
      }
    }
    int64_t fall = right - center;
    for (int64_t j = center; fall > 0 && j < right; ++j) {
      if (!set(j, i, static_cast<double>(right - j) / static_cast<double>(fall))) {
        return ctx.fail("a mel band falls outside the spectrogram");
      }
    }
  }
  for (size_t i = 0; i < values.size(); ++i) storeDouble(out, i, values[i]);
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace onyx::ops
