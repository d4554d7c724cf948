#include "attn/kernels/vector_math.hpp"

#include <cmath>
#include <cstdint>

#include "simd4_math.hpp"

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

double lane_sum(const float* x, std::size_t n) {
  float lanes[8] = {};
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (std::size_t l = 0; l < 8; ++l) lanes[l] += x[i + l];
  }
  double sum = 0.0;
  for (float lane : lanes) sum += lane;
  for (; i < n; ++i) sum += x[i];
  return sum;
}

double lane_sum_squares(const float* x, std::size_t n) {
  double lanes[8] = {};
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (std::size_t l = 0; l < 8; ++l) {
      const double v = x[i + l];
      lanes[l] += v * v;
    }
  }
  double sum = 0.0;
  for (double lane : lanes) sum += lane;
  for (; i < n; ++i) sum += static_cast<double>(x[i]) * x[i];
  return sum;
}

float lane_max(const float* x, std::size_t n) {
  float lanes[8];
  for (float& lane : lanes) lane = x[0];
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (std::size_t l = 0; l < 8; ++l) lanes[l] = x[i + l] > lanes[l] ? x[i + l] : lanes[l];
  }
  float top = lanes[0];
  for (float lane : lanes) top = lane > top ? lane : top;
  for (; i < n; ++i) top = x[i] > top ? x[i] : top;
  return top;
}

}  // namespace attn::kernels
