// Numerically stable softmax over one axis of a tensor of any rank.
//
//   y_i = exp((x_i - m) / τ) / Σ_j exp((x_j - m) / τ),   m = max over the visible x_j
//
// Subtracting the maximum keeps every exponent <= 0, so float32 never overflows (softmax of
// [1000, 1001] is [0.2689, 0.7311]). With a mask (same shape as x, 1 = visible), masked entries
// get exactly 0 and are left out of m and of the sum; a slice whose entries are all masked gives
// all zeros rather than NaN. x = -inf counts as masked. NaN or +inf in x is an error
// (std::invalid_argument naming the index). The JS API applies the same rule to softmax's scores
// and accepts -inf nowhere else (wasm/convert.hpp NonFinite).
// τ (temperature) must be finite and > 0: τ < 1 sharpens, τ > 1 flattens.
#pragma once

#include <array>

#include "attn/tensor.hpp"

namespace attn {
namespace detail {
// x, mask (may be null), y: row-major blocks of outer × n × inner; softmax runs along n.
void softmax_strided(const float* x, const std::uint8_t* mask, float* y, std::size_t outer, std::size_t n,
                     std::size_t inner, float temperature);

template <std::size_t N>
void softmax_dims(const std::array<std::size_t, N>& shape, std::size_t axis, std::size_t& outer, std::size_t& n,
                  std::size_t& inner) {
  ATTN_REQUIRE(axis < N, "softmax",
               "axis " + std::to_string(axis) + " is out of range for a rank-" + std::to_string(N) + " tensor");
  outer = 1;
  inner = 1;
  for (std::size_t i = 0; i < axis; ++i) outer *= shape[i];
  for (std::size_t i = axis + 1; i < N; ++i) inner *= shape[i];
  n = shape[axis];
}
}  // namespace detail

// x any shape -> same shape, softmax along `axis` (default: the last one).
template <std::size_t N>
xt::xtensor<float, N> softmax(const xt::xtensor<float, N>& x, std::size_t axis = N - 1, float temperature = 1.f) {
  std::size_t outer, n, inner;
  detail::softmax_dims<N>(x.shape(), axis, outer, n, inner);
  xt::xtensor<float, N> y = xt::empty<float>(x.shape());
  detail::softmax_strided(x.data(), nullptr, y.data(), outer, n, inner, temperature);
  return y;
}

// x any shape, mask same shape (1 = visible) -> same shape.
template <std::size_t N>
xt::xtensor<float, N> masked_softmax(const xt::xtensor<float, N>& x, const xt::xtensor<std::uint8_t, N>& mask,
                                     std::size_t axis = N - 1, float temperature = 1.f) {
  ATTN_REQUIRE(mask.shape() == x.shape(), "masked_softmax",
               "mask has shape " + shape_string(mask.shape()) + " but x has shape " + shape_string(x.shape()) +
                   "; they must match");
  std::size_t outer, n, inner;
  detail::softmax_dims<N>(x.shape(), axis, outer, n, inner);
  xt::xtensor<float, N> y = xt::empty<float>(x.shape());
  detail::softmax_strided(x.data(), mask.data(), y.data(), outer, n, inner, temperature);
  return y;
}

}  // namespace attn
