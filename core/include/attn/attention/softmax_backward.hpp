// Backward pass of (masked) softmax, shared by every trainable attention layer.
//
//   forward:  y = softmax(x / τ) along one axis, masked entries exactly 0 (softmax.hpp)
//   backward: dx_i = y_i (dy_i − Σ_j y_j dy_j) / τ,   masked entries dx_i = 0
//
// Why this form: ∂y_i/∂x_j = y_i (δ_ij − y_j) / τ, so dx = Jᵀ dy collapses to one dot product
// per slice instead of an n × n Jacobian. Masked entries are constants (they never reached the
// exponent), so their gradient is exactly 0 — set explicitly, not left to 0 · dy, so a NaN or
// inf in dy at a masked position cannot leak. A fully masked slice has y = 0 and gives dx = 0.
//
// Shapes: y, dy, dx and mask all have the same shape; the softmax ran along `axis`.
#pragma once

#include <array>

#include "attn/attention/softmax.hpp"

namespace attn {
namespace detail {
// y, dy, mask (may be null), dx: row-major blocks of outer × n × inner; softmax ran along n.
// dx may alias dy (each entry of dy is read before the same entry of dx is written).
void softmax_backward_strided(const float* y, const float* dy, const std::uint8_t* mask, float* dx, std::size_t outer,
                              std::size_t n, std::size_t inner, float temperature);
}  // namespace detail

// y [...] (the softmax output), dy [...] -> dx [...], same shape, along `axis`.
template <std::size_t N>
xt::xtensor<float, N> softmax_backward(const xt::xtensor<float, N>& y, const xt::xtensor<float, N>& dy,
                                       std::size_t axis = N - 1, float temperature = 1.f) {
  ATTN_REQUIRE(
      dy.shape() == y.shape(), "softmax_backward",
      "dy has shape " + shape_string(dy.shape()) + " but y has shape " + shape_string(y.shape()) + "; they must match");
  std::size_t outer, n, inner;
  detail::softmax_dims<N>(y.shape(), axis, outer, n, inner);
  xt::xtensor<float, N> dx = xt::empty<float>(y.shape());
  detail::softmax_backward_strided(y.data(), dy.data(), nullptr, dx.data(), outer, n, inner, temperature);
  return dx;
}

// y [...] (the masked softmax output), dy [...], mask [...] (1 = visible) -> dx [...].
template <std::size_t N>
xt::xtensor<float, N> masked_softmax_backward(const xt::xtensor<float, N>& y, const xt::xtensor<float, N>& dy,
                                              const xt::xtensor<std::uint8_t, N>& mask, std::size_t axis = N - 1,
                                              float temperature = 1.f) {
  ATTN_REQUIRE(
      dy.shape() == y.shape(), "masked_softmax_backward",
      "dy has shape " + shape_string(dy.shape()) + " but y has shape " + shape_string(y.shape()) + "; they must match");
  ATTN_REQUIRE(mask.shape() == y.shape(), "masked_softmax_backward",
               "mask has shape " + shape_string(mask.shape()) + " but y has shape " + shape_string(y.shape()) +
                   "; they must match");
  std::size_t outer, n, inner;
  detail::softmax_dims<N>(y.shape(), axis, outer, n, inner);
  xt::xtensor<float, N> dx = xt::empty<float>(y.shape());
  detail::softmax_backward_strided(y.data(), dy.data(), mask.data(), dx.data(), outer, n, inner, temperature);
  return dx;
}

}  // namespace attn
