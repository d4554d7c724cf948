#include "attn/kernels/vector_math.hpp"

#include <cmath>
#include <cstdint>

#include "simd4.hpp"

namespace attn::kernels {

void sigmoid_reference(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    // Two branches keep exp's argument <= 0, so neither overflows.
    const float e = std::exp(-std::fabs(x[i]));
    y[i] = x[i] >= 0.f ? 1.f / (1.f + e) : e / (1.f + e);
  }
}

void tanh_reference(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::tanh(x[i]);
}

void exp_reference(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::exp(x[i]);
}

namespace {

using namespace simd4;

F4 sign_bits() { return as_float(isplat(INT32_MIN)); }

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
  const F4 e = exp4_nonpositive(splat(-2.f) * ax);  // ax ≥ 0; where they differ, tanh rounds to 1
  const F4 large = (one - e) / (one + e);
  return bit_or(select(less(ax, splat(0.625f)), small, large), sign);
}

// Eight at a time (two independent chains hide latency), then a zero-padded last group of up to
// four, so the tail gets exactly the same arithmetic as the body.
template <F4 (*f)(F4)>
void apply(const float* x, float* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const F4 a = f(load(x + i));
    const F4 b = f(load(x + i + 4));
    store(y + i, a);
    store(y + i + 4, b);
  }
  for (; i + 4 <= n; i += 4) store(y + i, f(load(x + i)));
  if (i < n) {
    float buffer[4] = {0.f, 0.f, 0.f, 0.f};
    for (std::size_t j = i; j < n; ++j) buffer[j - i] = x[j];
    store(buffer, f(load(buffer)));
    for (std::size_t j = i; j < n; ++j) y[j] = buffer[j - i];
  }
}

}  // namespace

void sigmoid(const float* x, float* y, std::size_t n) { apply<sigmoid4>(x, y, n); }
void tanh(const float* x, float* y, std::size_t n) { apply<tanh4>(x, y, n); }
void exp(const float* x, float* y, std::size_t n) { apply<exp4>(x, y, n); }

}  // namespace attn::kernels
