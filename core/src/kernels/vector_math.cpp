#include "attn/kernels/vector_math.hpp"

#include <cmath>

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

// Placeholders until the SIMD versions land.
void sigmoid(const float* x, float* y, std::size_t n) { sigmoid_reference(x, y, n); }
void tanh(const float* x, float* y, std::size_t n) { tanh_reference(x, y, n); }
void exp(const float* x, float* y, std::size_t n) { exp_reference(x, y, n); }

}  // namespace attn::kernels
