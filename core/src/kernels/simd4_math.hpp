// sigmoid and tanh over four float lanes, built on simd4::exp4: the element-wise kernels
// (vector_math.cpp) and the fused LSTM cell (lstm_cell.cpp) share them. Accuracy: see
// attn/kernels/vector_math.hpp.
#pragma once

#include <cstdint>

#include "simd4.hpp"

namespace attn::kernels::simd4 {

ATTN_SIMD4_INLINE F4 sign_bits() { return as_float(isplat(INT32_MIN)); }

// sigmoid(x) = 1 / (1 + e) for x >= 0, e / (1 + e) for x < 0, with e = exp(−|x|) <= 1.
ATTN_SIMD4_INLINE F4 sigmoid4(F4 x) {
  const F4 one = splat(1.f);
  const F4 e = exp4(bit_or(x, sign_bits()));
  const F4 inv = one / (one + e);
  return select(less(x, splat(0.f)), e * inv, inv);
}

// tanh(|x|) = (1 − e) / (1 + e), e = exp(−2|x|), loses relative accuracy to cancellation near 0,
// so |x| < 0.625 uses Cephes' odd polynomial instead. The sign is put back last (keeps −0).
ATTN_SIMD4_INLINE F4 tanh4(F4 x) {
  const F4 sign = bit_and(x, sign_bits());
  const F4 ax = bit_andnot(x, sign_bits());
  const F4 z = ax * ax;
  F4 s = splat(-5.70498872745e-3f);
  s = s * z + splat(2.06390887954e-2f);
  s = s * z - splat(5.37397155531e-2f);
  s = s * z + splat(1.33314422036e-1f);
  s = s * z - splat(3.33332819422e-1f);
  const F4 small = s * z * ax + ax;
  const F4 one = splat(1.f);
  const F4 e = exp4(splat(-2.f) * ax);
  const F4 large = (one - e) / (one + e);
  return bit_or(select(less(ax, splat(0.625f)), small, large), sign);
}

}  // namespace attn::kernels::simd4
