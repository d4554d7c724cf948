// Element-wise activation functions and their derivatives.
//
// Shapes: any; the functions work on flat arrays of n floats (a tensor's data()), and the
// xtensor conveniences accept any rank N (e.g. [B, T, D]).
//
//   identity  y = x                                       dy/dx = 1
//   tanh      y = tanh(x)                                 dy/dx = 1 − y²
//   sigmoid   y = 1 / (1 + e^−x)                          dy/dx = y (1 − y)
//   relu      y = max(0, x)                               dy/dx = 1 if x > 0 else 0 (0 at x = 0)
//   gelu      y = ½ x (1 + tanh(u)),  u = √(2/π) (x + 0.044715 x³)
//             — the tanh approximation (Hendrycks & Gimpel 2016, as in GPT-2 and BERT), not the
//             erf form; its derivative below is exact for this approximation:
//             dy/dx = ½ (1 + tanh u) + ½ x (1 − tanh² u) · √(2/π) (1 + 3 · 0.044715 x²)
//
// tanh and sigmoid go through kernels::tanh / kernels::sigmoid (SIMD in wasm).
#pragma once

#include <string>

#include "attn/tensor.hpp"

namespace attn {

enum class Activation { identity, tanh, sigmoid, relu, gelu };

// "identity" (or Keras' "linear"), "tanh", "sigmoid", "relu", "gelu"; anything else throws
// std::invalid_argument listing the known names.
Activation activation_from_name(const std::string& name);
// The canonical name ("identity", "tanh", ...); activation_from_name(activation_name(a)) == a.
const char* activation_name(Activation activation);

// x [n] -> y [n]. y == x (in place) is allowed.
void activation_forward(Activation activation, const float* x, float* y, std::size_t n);

// x [n], y [n] (the forward output), dy [n] -> dx [n]; dx == dy is allowed.
// Each activation reads only what its derivative needs, so the other pointer may be null:
//   identity: neither x nor y;  tanh, sigmoid: y only;  relu, gelu: x only.
void activation_backward(Activation activation, const float* x, const float* y, const float* dy, float* dx,
                         std::size_t n);

// GELU with tanh u kept: the forward writes y and tanh_u [n] (x, y, tanh_u distinct); the backward
// reads them instead of computing tanh again. Same values as activation_forward / _backward.
void gelu_forward_keep_tanh(const float* x, float* y, float* tanh_u, std::size_t n);
void gelu_backward_with_tanh(const float* x, const float* tanh_u, const float* dy, float* dx, std::size_t n);

// Tensor conveniences, any rank N. y / dx are resized only when their shape differs.
template <std::size_t N>
void activation_forward(Activation activation, const xt::xtensor<float, N>& x, xt::xtensor<float, N>& y) {
  if (y.shape() != x.shape()) y.resize(x.shape());
  activation_forward(activation, x.data(), y.data(), x.size());
}

template <std::size_t N>
void activation_backward(Activation activation, const xt::xtensor<float, N>& x, const xt::xtensor<float, N>& y,
                         const xt::xtensor<float, N>& dy, xt::xtensor<float, N>& dx) {
  ATTN_REQUIRE(x.shape() == dy.shape() && y.shape() == dy.shape(), "activation_backward",
               "x has shape " + shape_string(x.shape()) + ", y has shape " + shape_string(y.shape()) +
                   " and dy has shape " + shape_string(dy.shape()) + "; all three must match");
  if (dx.shape() != dy.shape()) dx.resize(dy.shape());
  activation_backward(activation, x.data(), y.data(), dy.data(), dx.data(), dy.size());
}

// Returns activation(x) as a new tensor (for one-off use outside training loops).
template <std::size_t N>
xt::xtensor<float, N> activate(Activation activation, const xt::xtensor<float, N>& x) {
  xt::xtensor<float, N> y = xt::empty<float>(x.shape());
  activation_forward(activation, x.data(), y.data(), x.size());
  return y;
}

}  // namespace attn
