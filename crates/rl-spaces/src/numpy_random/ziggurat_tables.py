#!/usr/bin/env python3
"""Computes the ziggurat tables of numpy's `standard_normal` and `standard_exponential` and
writes them as Rust (`ziggurat_tables.rs`, next to this file).

Usage (mpmath is the only dependency; any Python 3.9 or later):

    python3 -m venv /tmp/zig && /tmp/zig/bin/pip install mpmath
    /tmp/zig/bin/python crates/rl-spaces/src/numpy_random/ziggurat_tables.py \
        > crates/rl-spaces/src/numpy_random/ziggurat_tables.rs
    /tmp/zig/bin/python crates/rl-spaces/src/numpy_random/ziggurat_tables.py --check

(`--check` compares the output with the committed file and exits non-zero on a difference.)

Nothing here is taken from numpy's source: every number is computed from the ziggurat's
definition (Marsaglia and Tsang, "The Ziggurat Method for Generating Random Variables", 2000).
The draws that use the tables are `standard_normal` and `standard_exponential` in `draws.rs`;
the crate's test `numpy_ziggurat` checks them against numpy 2.4.6's draws (10^5 per seed and
distribution, several seeds). During development the tables were also compared with numpy's
own entry for entry: all 6 x 256 entries and the constants are equal.

The ziggurat of a decreasing density f on [0, inf) (up to a constant) with 256 layers: points
0 = x_0 < x_1 < ... < x_255 = r such that each layer i >= 1, the rectangle
[0, x_i] x [f(x_i), f(x_{i-1})], and the base, the rectangle [0, r] x [0, f(r)] with the tail
beyond r, all have the same area v:

    v = r f(r) + integral_r^inf f,    x_{i-1} = f^-1(v / x_i + f(x_i)),

and r is the root of the condition that the top layer closes, v = x_1 (f(0) - f(x_1)). The
tables, in numpy's layout (index 0 is the base, whose pseudo-width is x_b = v / f(r)):

    w[i] = x_i / 2^m,  f[i] = f(x_i),  k[i] ~ 2^m' x_{i-1} / x_i  (i >= 1; f[0] = 1, k[1] = 0)
    w[0] = x_b / 2^m,  k[0] ~ 2^m' r / x_b

A draw takes a layer i and an m-bit integer u, x = u w[i], and accepts at once when u < k[i]
(x lies under the next layer up); the rest is the tail (layer 0) or the wedge test against f.

**Exponential** (f(x) = e^-x, m = 53): computed exactly (256-bit arithmetic), then each entry
rounded once: w and f to the nearest float64, k[i] = 2 floor(2^52 x_{i-1} / x_i) (numpy's
entries are all even: the ratio truncated at 2^52, then doubled for the 53-bit draw).

**Normal** (f(x) = e^(-x^2/2), m = m' = 52): numpy's tables are not the exact ziggurat rounded,
but its recurrence evaluated in float64 from the top of the base down, x_255 = r, then
x_{i-1} = sqrt(-2 log(exp(-0.5 x_i x_i) + V / x_i)) with each operation rounded to float64,
k[i] = nearest(float64(x_{i-1} / x_i) 2^52) (ties to even), k[0] = nearest(float64(r f(r) /
V) 2^52), w[0] = float64(V / f(r)) / 2^52. This script evaluates exp and log correctly rounded
(256-bit, then rounded), so that its output is the same on every platform. Two facts about
numpy's tables cannot be derived from the definition and are fitted (each is the only value
that reproduces numpy's draws; both are checked below):

- V = 0.004928673233974652 (float64), 3.5 float64 units below the exact area v(r) (computed
  and printed in the output); V one float64 unit up or down changes 9 to 13 entries.
- exp(-0.5 x_38^2) is 0.6773880362187735, one unit above its correctly rounded value: its
  exact value lies 0.002 units below the midpoint between the two float64, a case where a
  libm exp with an error just over half a unit (the one numpy's tables were computed with)
  rounds up. Rounded to nearest, 92 entries differ (f[38] and, through the recurrence, entries
  of w, f and k of layers 1 to 38). The script checks that this is such a near-midpoint case.

The tail constants are r (rounded to float64) and, for the normal, 1 / r in float64.
"""

import math
import sys
from pathlib import Path

import mpmath

mpmath.mp.prec = 256
LAYERS = 256


def round_to_f64(value):
    """The float64 nearest to an mpmath number (ties to even)."""
    return float(mpmath.mpf(value))


def layer_points(r, v, density, inverse):
    """x_1 .. x_255 (index 0 unused) of the exact ziggurat with base r and area v."""
    x = [None] * LAYERS
    x[LAYERS - 1] = r
    for i in range(LAYERS - 1, 1, -1):
        x[i - 1] = inverse(v / x[i] + density(x[i]))
    return x


def solve_r(area, density, inverse, low, high):
    """The r in [low, high] for which the top layer closes, v(r) = x_1 (f(0) - f(x_1)), by
    bisection: below the root the layers' areas are too large (the residual is positive, or the
    recurrence passes the top before layer 1), above it too small."""

    def below_root(r):
        v = area(r)
        x = r
        for _ in range(LAYERS - 2):
            y = v / x + density(x)
            if y >= density(mpmath.mpf(0)):
                return True
            x = inverse(y)
        return v - x * (density(mpmath.mpf(0)) - density(x)) > 0

    low, high = mpmath.mpf(low), mpmath.mpf(high)
    assert below_root(low) and not below_root(high)
    while high - low > mpmath.mpf(2) ** -200:
        middle = (low + high) / 2
        if below_root(middle):
            low = middle
        else:
            high = middle
    return (low + high) / 2


# ---------------------------------------------------------------- exponential, exact

def exponential_tables():
    density = lambda x: mpmath.exp(-x)
    inverse = lambda y: -mpmath.log(y)
    area = lambda r: (r + 1) * mpmath.exp(-r)  # r e^-r + integral_r^inf e^-x dx
    r = solve_r(area, density, inverse, 7, 8)
    v = area(r)
    x = layer_points(r, v, density, inverse)
    scale_w, scale_k = mpmath.mpf(2) ** 53, mpmath.mpf(2) ** 52
    w = [round_to_f64(v / density(r) / scale_w)] + [round_to_f64(x[i] / scale_w) for i in range(1, LAYERS)]
    f = [1.0] + [round_to_f64(density(x[i])) for i in range(1, LAYERS)]
    k = [2 * int(mpmath.floor(scale_k * r * density(r) / v)), 0]
    k += [2 * int(mpmath.floor(scale_k * x[i - 1] / x[i])) for i in range(2, LAYERS)]
    return round_to_f64(r), k, w, f


# ---------------------------------------------------------------- normal, numpy's float64 chain

NORMAL_V = 0.004928673233974652
NUMPY_EXP_ROUNDED_UP_LAYER = 38


def exact_normal_area(r):
    return r * mpmath.exp(-r * r / 2) + mpmath.sqrt(mpmath.pi / 2) * mpmath.erfc(r / mpmath.sqrt(2))


def normal_density_f64(x, layer=None):
    """float64 exp(-0.5 x x): the argument in float64, exp correctly rounded, except at the
    one layer where numpy's tables hold the upper neighbour (checked to be a near-tie)."""
    argument = -0.5 * x * x
    exact = mpmath.exp(mpmath.mpf(argument))
    nearest = round_to_f64(exact)
    if layer is None or layer != NUMPY_EXP_ROUNDED_UP_LAYER:
        return nearest
    upper = math.nextafter(nearest, math.inf)
    midpoint = (mpmath.mpf(nearest) + mpmath.mpf(upper)) / 2
    units_below_midpoint = (midpoint - exact) / (mpmath.mpf(upper) - mpmath.mpf(nearest))
    assert 0 < units_below_midpoint < 0.002, units_below_midpoint
    return upper


def log_f64(y):
    return round_to_f64(mpmath.log(mpmath.mpf(y)))


def normal_tables():
    density = lambda x: mpmath.exp(-x * x / 2)
    inverse = lambda y: mpmath.sqrt(-2 * mpmath.log(y))
    r_exact = solve_r(exact_normal_area, density, inverse, 3, 4)
    r = round_to_f64(r_exact)
    v_exact = exact_normal_area(mpmath.mpf(r))
    units = (v_exact - mpmath.mpf(NORMAL_V)) / mpmath.mpf(math.ulp(NORMAL_V))
    assert 3 < units < 4, units
    x = [0.0] * LAYERS
    x[LAYERS - 1] = r
    for i in range(LAYERS - 1, 1, -1):
        y = normal_density_f64(x[i], i) + NORMAL_V / x[i]
        x[i - 1] = math.sqrt(-2.0 * log_f64(y))
    scale = 2.0 ** 52
    f_r = normal_density_f64(r)
    w = [NORMAL_V / f_r / scale] + [x[i] / scale for i in range(1, LAYERS)]
    f = [1.0] + [normal_density_f64(x[i], i) for i in range(1, LAYERS)]
    k = [round(r * f_r / NORMAL_V * scale), 0]
    k += [round(x[i - 1] / x[i] * scale) for i in range(2, LAYERS)]
    return r, 1.0 / r, k, w, f, r_exact, v_exact


# ---------------------------------------------------------------- output

def rust_array(name, kind, values, doc):
    lines = [f"/// {doc}", f"pub(super) const {name}: [{kind}; {LAYERS}] = ["]
    if kind == "u64":
        items = [str(value) for value in values]
    else:
        items = [repr(value) for value in values]
        assert all(float(item) == value for item, value in zip(items, values))
    for start in range(0, LAYERS, 4):
        lines.append("    " + ", ".join(items[start:start + 4]) + ",")
    lines.append("];")
    return "\n".join(lines)


def generate():
    nr, ninv, nk, nw, nf, nr_exact, nv_exact = normal_tables()
    er, ek, ew, ef = exponential_tables()
    assert nk[1] == 0 and ek[1] == 0
    assert all(0 <= value < 2 ** 52 for value in nk) and all(0 <= value < 2 ** 53 for value in ek)
    parts = [
        "//! The tables of numpy's ziggurat draws ([`standard_normal`](super::standard_normal),",
        "//! [`standard_exponential`](super::standard_exponential)), generated by",
        "//! `ziggurat_tables.py` (next to this file) from the ziggurat's definition: see that",
        "//! script for how each entry is computed. Do not edit; regenerate.",
        "//!",
        f"//! Normal: r = {mpmath.nstr(nr_exact, 30)}; at r rounded, the area v = {mpmath.nstr(nv_exact, 25)}",
        f"//! (numpy's tables use V = {NORMAL_V!r}). Exponential: r = {repr(er)} (rounded).",
        "",
        "/// The normal ziggurat's base: the tail starts at `NORMAL_R`.",
        f"pub(super) const NORMAL_R: f64 = {nr!r};",
        "/// `1 / NORMAL_R` in float64.",
        f"pub(super) const NORMAL_INV_R: f64 = {ninv!r};",
        rust_array("NORMAL_K", "u64", nk, "Normal: a 52-bit draw `u` in layer `i` is accepted at once when `u < NORMAL_K[i]`."),
        rust_array("NORMAL_W", "f64", nw, "Normal: the draw is `u * NORMAL_W[i]` (layer `i`'s width over 2^52)."),
        rust_array("NORMAL_F", "f64", nf, "Normal: the density `exp(-x^2 / 2)` at layer `i`'s edge (`NORMAL_F[0] = 1`)."),
        "/// The exponential ziggurat's base: the tail starts at `EXPONENTIAL_R`.",
        f"pub(super) const EXPONENTIAL_R: f64 = {er!r};",
        rust_array("EXPONENTIAL_K", "u64", ek, "Exponential: a 53-bit draw `u` in layer `i` is accepted at once when `u < EXPONENTIAL_K[i]`."),
        rust_array("EXPONENTIAL_W", "f64", ew, "Exponential: the draw is `u * EXPONENTIAL_W[i]` (layer `i`'s width over 2^53)."),
        rust_array("EXPONENTIAL_F", "f64", ef, "Exponential: the density `exp(-x)` at layer `i`'s edge (`EXPONENTIAL_F[0] = 1`)."),
    ]
    return "\n".join(parts) + "\n"


def main():
    text = generate()
    if sys.argv[1:] == ["--check"]:
        committed = (Path(__file__).parent / "ziggurat_tables.rs").read_text()
        if committed != text:
            sys.exit("ziggurat_tables.rs differs from this script's output: regenerate it")
        print("ziggurat_tables.rs is this script's output")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
