#include "attn/layers/activations.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/kernels/vector_math.hpp"

namespace attn {
namespace {

constexpr float kGeluScale = 0.7978845608028654f;  // √(2/π)
constexpr float kGeluCubic = 0.044715f;
// GELU needs tanh(u) for a block of u; a fixed stack block keeps kernels::tanh vectorised
// without allocating.
constexpr std::size_t kBlock = 256;

// u = √(2/π) (x + 0.044715 x³), the argument of GELU's tanh.
inline float gelu_u(float x) { return kGeluScale * (x + kGeluCubic * x * x * x); }
// y = ½ x (1 + tanh u)
inline float gelu_from_tanh(float x, float t) { return 0.5f * x * (1.f + t); }
// dy/dx = ½ (1 + tanh u) + ½ x (1 − tanh² u) du/dx, du/dx = √(2/π) (1 + 3 · 0.044715 x²)
inline float gelu_slope(float x, float t) {
  const float du = kGeluScale * (1.f + 3.f * kGeluCubic * x * x);
  return 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * du;
}

}  // namespace

void gelu_forward_keep_tanh(const float* x, float* y, float* tanh_u, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) tanh_u[i] = gelu_u(x[i]);
  kernels::tanh(tanh_u, tanh_u, n);
  for (std::size_t i = 0; i < n; ++i) y[i] = gelu_from_tanh(x[i], tanh_u[i]);
}

void gelu_backward_with_tanh(const float* x, const float* tanh_u, const float* dy, float* dx, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dx[i] = dy[i] * gelu_slope(x[i], tanh_u[i]);
}

Activation activation_from_name(const std::string& name) {
  if (name == "identity" || name == "linear") return Activation::identity;
  if (name == "tanh") return Activation::tanh;
  if (name == "sigmoid") return Activation::sigmoid;
  if (name == "relu") return Activation::relu;
  if (name == "gelu") return Activation::gelu;
  throw std::invalid_argument("activation_from_name: unknown activation '" + name +
                              "' (expected identity, linear, tanh, sigmoid, relu or gelu)");
}

const char* activation_name(Activation activation) {
  switch (activation) {
    case Activation::identity:
      return "identity";
    case Activation::tanh:
      return "tanh";
    case Activation::sigmoid:
      return "sigmoid";
    case Activation::relu:
      return "relu";
    case Activation::gelu:
      return "gelu";
  }
  return "unknown";
}

void activation_forward(Activation activation, const float* x, float* y, std::size_t n) {
  switch (activation) {
    case Activation::identity:
      if (y != x) std::copy(x, x + n, y);
      return;
    case Activation::tanh:
      kernels::tanh(x, y, n);
      return;
    case Activation::sigmoid:
      kernels::sigmoid(x, y, n);
      return;
    case Activation::relu:
      for (std::size_t i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
      return;
    case Activation::gelu: {
      float t[kBlock];
      for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t len = std::min(kBlock, n - start);
        const float* xs = x + start;
        for (std::size_t i = 0; i < len; ++i) t[i] = gelu_u(xs[i]);
        kernels::tanh(t, t, len);
        // Read x before writing y so in-place works.
        for (std::size_t i = 0; i < len; ++i) y[start + i] = gelu_from_tanh(xs[i], t[i]);
      }
      return;
    }
  }
}

void activation_backward(Activation activation, const float* x, const float* y, const float* dy, float* dx,
                         std::size_t n) {
  switch (activation) {
    case Activation::identity:
      // y = x
      if (dx != dy) std::copy(dy, dy + n, dx);
      return;
    case Activation::tanh:
      // y = tanh(x)  ->  dx = dy (1 − y²)
      for (std::size_t i = 0; i < n; ++i) dx[i] = dy[i] * (1.f - y[i] * y[i]);
      return;
    case Activation::sigmoid:
      // y = σ(x)  ->  dx = dy y (1 − y)
      for (std::size_t i = 0; i < n; ++i) dx[i] = dy[i] * y[i] * (1.f - y[i]);
      return;
    case Activation::relu:
      // y = max(0, x)  ->  dx = dy where x > 0 (the kink at 0 takes gradient 0)
      for (std::size_t i = 0; i < n; ++i) dx[i] = x[i] > 0.f ? dy[i] : 0.f;
      return;
    case Activation::gelu: {
      // y = ½ x (1 + tanh u)  ->  dx = dy (½ (1 + tanh u) + ½ x (1 − tanh² u) du/dx),
      // du/dx = √(2/π) (1 + 3 · 0.044715 x²). tanh u is recomputed rather than cached.
      float t[kBlock];
      for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t len = std::min(kBlock, n - start);
        const float* xs = x + start;
        for (std::size_t i = 0; i < len; ++i) t[i] = gelu_u(xs[i]);
        kernels::tanh(t, t, len);
        for (std::size_t i = 0; i < len; ++i) dx[start + i] = dy[start + i] * gelu_slope(xs[i], t[i]);
      }
      return;
    }
  }
}

}  // namespace attn
