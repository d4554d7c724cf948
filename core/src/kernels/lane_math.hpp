// exp, sigmoid and tanh written once for any float-vector type V: simd4::F4 (every build, via
// simd4_math.hpp) and the AVX2 F8 of lstm_cell_x86.cpp. V brings, found by argument-dependent
// lookup: + − * / on V; min_keep_nan, max_keep_nan, less, bit_and, bit_or, bit_andnot, select;
// as_int / as_float to and from its integer twin (with + −, shift_left, shift_right_arith);
// splat_like(V, float) and isplat_like(I, int32) (a constant in every lane). Lanes never mix, so
// one element's result does not depend on the lane width. Accuracy: attn/kernels/vector_math.hpp.
//
// Only templates here: a file compiled for another target (lstm_cell_x86.cpp) includes this
// header inside its `#pragma GCC target` region, so its instantiations get that target.
#pragma once

#include <cstdint>

#define ATTN_LANES_INLINE inline __attribute__((always_inline))

namespace attn::kernels::lanes {

// exp(x) = 2^n · exp(r), n = round(x / ln 2), r = x − n·ln 2 ∈ [−ln2/2, ln2/2] (Cephes expf).
// ln 2 is split in two (Cody–Waite) so n·C1 is exact and r keeps its low bits. exp_reduced
// returns exp(r) and n; the callers clamp x first and apply 2^n.
template <class V, class I>
ATTN_LANES_INLINE V exp_reduced(V x, I& ni) {
  // Adding 1.5·2^23 pushes the fraction out of the mantissa: round-to-nearest without a
  // float→int conversion, and the integer is the low mantissa bits.
  const V magic = splat_like(x, 12582912.f);
  const V t = x * splat_like(x, 1.44269504088896341f) + magic;
  const V n = t - magic;
  ni = as_int(t) - as_int(magic);
  const V r = (x - n * splat_like(x, 0.693359375f)) - n * splat_like(x, -2.12194440e-4f);
  const V z = r * r;
  V p = splat_like(x, 1.9875691500e-4f);
  p = p * r + splat_like(x, 1.3981999507e-3f);
  p = p * r + splat_like(x, 8.3334519073e-3f);
  p = p * r + splat_like(x, 4.1665795894e-2f);
  p = p * r + splat_like(x, 1.6666665459e-1f);
  p = p * r + splat_like(x, 5.0000001201e-1f);
  return p * z + r + splat_like(x, 1.f);
}

// The clamp keeps n in [−150, 128]; 2^n is applied as two factors 2^⌊n/2⌋ · 2^⌈n/2⌉ so each is a
// normal float, and the product overflows to +inf / underflows to 0 exactly where the true value
// does.
template <class V>
ATTN_LANES_INLINE V exp(V x) {
  decltype(as_int(x)) ni;
  const V p = exp_reduced(min_keep_nan(max_keep_nan(x, splat_like(x, -104.f)), splat_like(x, 89.f)), ni);
  const auto n_low = shift_right_arith(ni, 1);
  const auto n_high = ni - n_low;
  const V scale_low = as_float(shift_left(n_low + isplat_like(ni, 127), 23));
  const V scale_high = as_float(shift_left(n_high + isplat_like(ni, 127), 23));
  return (p * scale_low) * scale_high;
}

// exp(x) for x ≤ 0 (softmax rows: x − max; tanh: −2|x|), a quarter faster than exp: x is clamped
// below at −126·ln 2 only, so 2^n ≥ 2^−126 is one normal float. Equal to exp bit for bit down to
// x ≈ −87.3; below it gives about 1e−38 where exp gives less (or 0) — nothing next to a softmax
// row's maximum, whose exp is 1. NaN stays NaN.
template <class V>
ATTN_LANES_INLINE V exp_nonpositive(V x) {
  decltype(as_int(x)) ni;
  const V p = exp_reduced(max_keep_nan(x, splat_like(x, -87.33654f)), ni);
  return p * as_float(shift_left(ni + isplat_like(ni, 127), 23));
}

template <class V>
ATTN_LANES_INLINE V sign_bits_like(V x) {
  return as_float(isplat_like(as_int(x), INT32_MIN));
}

// sigmoid(x) = 1 / (1 + e) for x >= 0, e / (1 + e) for x < 0, with e = exp(−|x|) <= 1.
template <class V>
ATTN_LANES_INLINE V sigmoid(V x) {
  const V one = splat_like(x, 1.f);
  const V e = lanes::exp(bit_or(x, sign_bits_like(x)));
  const V inv = one / (one + e);
  return select(less(x, splat_like(x, 0.f)), e * inv, inv);
}

// tanh(|x|) = (1 − e) / (1 + e), e = exp(−2|x|), loses relative accuracy to cancellation near 0,
// so |x| < 0.625 uses Cephes' odd polynomial instead. The sign is put back last (keeps −0).
template <class V>
ATTN_LANES_INLINE V tanh(V x) {
  const V sign = bit_and(x, sign_bits_like(x));
  const V ax = bit_andnot(x, sign_bits_like(x));
  const V z = ax * ax;
  V s = splat_like(x, -5.70498872745e-3f);
  s = s * z + splat_like(x, 2.06390887954e-2f);
  s = s * z - splat_like(x, 5.37397155531e-2f);
  s = s * z + splat_like(x, 1.33314422036e-1f);
  s = s * z - splat_like(x, 3.33332819422e-1f);
  const V small = s * z * ax + ax;
  const V one = splat_like(x, 1.f);
  const V e = lanes::exp_nonpositive(splat_like(x, -2.f) * ax);  // ax ≥ 0; where they differ, tanh rounds to 1
  const V large = (one - e) / (one + e);
  return bit_or(select(less(ax, splat_like(x, 0.625f)), small, large), sign);
}

// Forward of `lanes` LSTM units (one vector's worth): gates[k] points at the k-th gate's block
// (i, f, g, o), read as pre-activations and overwritten with activations; then
// c = f ⊙ c_prev + i ⊙ g, tanh_c = tanh(c), h = o ⊙ tanh_c. `like` only names the type.
template <class V>
ATTN_LANES_INLINE void lstm_cell_forward(V like, float* const (&gates)[4], const float* c_prev, float* c, float* tanh_c,
                                         float* h) {
  const V i = lanes::sigmoid(load_like(like, gates[0]));
  const V f = lanes::sigmoid(load_like(like, gates[1]));
  const V g = lanes::tanh(load_like(like, gates[2]));
  const V o = lanes::sigmoid(load_like(like, gates[3]));
  const V c_new = f * load_like(like, c_prev) + i * g;
  const V tc = lanes::tanh(c_new);
  store(gates[0], i);
  store(gates[1], f);
  store(gates[2], g);
  store(gates[3], o);
  store(c, c_new);
  store(tanh_c, tc);
  store(h, o * tc);
}

}  // namespace attn::kernels::lanes
