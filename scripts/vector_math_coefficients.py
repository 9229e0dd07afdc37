#!/usr/bin/env python3
"""Prints the polynomial coefficients of src/ops/math/vector_math.h (FLOAT exp, erf, tanh and
log1p).

    scripts/vector_math_coefficients.py

Each polynomial is mpmath's Chebyshev fit (near-minimax) of the function on its interval, at
40 digits, rounded to the nearest float; the fit's own error is printed beside it. Needs
mpmath (pip install mpmath).

  exp:  e^r = 1 + r + r^2 q(r),  |r| <= ln(2)/2                      (after Cody-Waite)
  erf:  erf(x) = x + x s(x^2),  |x| < ERF_SPLIT
        erf(x) = 1 - exp(-x^2 + l(x - ERF_CENTER)),  ERF_SPLIT <= x <= ERF_END
        (l(x - c) = log(erfc(x) e^(x^2)), smooth and slowly varying there)
  tanh: tanh(x) = x + x t s(t),  t = x^2,  |x| < TANH_SPLIT           (above: from exp)
  log1p: log(1 + u) = u p(u),  0 <= u <= 1
"""
import struct

import mpmath as mp

mp.mp.dps = 40

EXP_DEGREE = 4
ERF_SPLIT = mp.mpf(1)
ERF_END = mp.mpf(4)
ERF_CENTER = (ERF_SPLIT + ERF_END) / 2
ERF_SMALL_DEGREE = 6
ERF_LARGE_DEGREE = 9
TANH_SPLIT = mp.mpf("0.55")
TANH_DEGREE = 5
LOG1P_DEGREE = 10


def nearest_float(value):
    return struct.unpack("f", struct.pack("f", float(value)))[0]


def fit(name, f, interval, degree):
    coefficients, error = mp.chebyfit(f, interval, degree + 1, error=True)
    print(f"// {name}: degree {degree} on [{mp.nstr(interval[0], 6)}, "
          f"{mp.nstr(interval[1], 6)}], fit error {mp.nstr(error, 3)}; highest power first")
    for c in coefficients:
        print(f"  {nearest_float(c)!r}f,")


def exp_tail(r):
    if abs(r) < mp.mpf("1e-12"):
        return mp.mpf(1) / 2 + r / 6
    return (mp.exp(r) - 1 - r) / (r * r)


def erf_small(t):
    if t == 0:
        return 2 / mp.sqrt(mp.pi) - 1
    x = mp.sqrt(t)
    return mp.erf(x) / x - 1


def erf_large(s):
    x = s + ERF_CENTER
    return mp.log(mp.erfc(x)) + x * x


def tanh_small(t):
    if t == 0:
        return -mp.mpf(1) / 3
    x = mp.sqrt(t)
    return (mp.tanh(x) / x - 1) / t


def log1p_ratio(u):
    if u == 0:
        return mp.mpf(1)
    return mp.log1p(u) / u


def main():
    half_ln2 = mp.log(2) / 2
    fit("exp q(r)", exp_tail, [-half_ln2, half_ln2], EXP_DEGREE)
    fit("erf s(t)", erf_small, [0, ERF_SPLIT**2], ERF_SMALL_DEGREE)
    fit("erf l(x - c)", erf_large, [ERF_SPLIT - ERF_CENTER, ERF_END - ERF_CENTER],
        ERF_LARGE_DEGREE)
    fit("tanh s(t)", tanh_small, [0, TANH_SPLIT**2], TANH_DEGREE)
    fit("log1p p(u)", log1p_ratio, [0, 1], LOG1P_DEGREE)
    print(f"// ln 2 high part: {nearest_float(mp.mpf(355) / 512)!r}f, low part: "
          f"{nearest_float(mp.log(2) - mp.mpf(355) / 512)!r}f")


if __name__ == "__main__":
    main()
