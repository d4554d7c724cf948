// Inverted dropout (Srivastava et al. 2014, with the scaling moved to training time).
//
// Shapes: any; the layer works on flat arrays of n floats, and the xtensor conveniences accept
// any rank N (e.g. [B, T, D]).
//
// Training:   keep_i = (u_i >= rate), u_i ~ U[0, 1) from the caller's Rng, one draw per unit
//             in row-major order;  y_i = keep_i · x_i / (1 − rate)
// Inference (or rate == 0): y = x, and no random numbers are drawn.
// Grouped ("spatial") dropout: with group = g, each run of g consecutive units shares one draw,
// so e.g. x [B, T, E] with g = E drops whole token vectors (word dropout).
//
// Scaling kept units by 1 / (1 − rate) keeps E[y] = x, so inference needs no rescaling.
// The same Rng state gives the same mask on every runtime.
#pragma once

#include <cstdint>

#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

struct DropoutCache {
  Mask1 keep;           // [n] 1 = kept, 0 = dropped; empty when the forward pass was the identity
  std::size_t n = 0;    // units seen by forward
  bool active = false;  // false: forward was the identity (inference, or rate == 0)
  float scale = 1.f;    // 1 / (1 − rate)
};

class Dropout {
 public:
  // rate in [0, 1): the probability of dropping a unit. Anything else throws std::invalid_argument.
  explicit Dropout(float rate);

  // x [n] -> y [n]; y == x (in place) is allowed. group >= 1 must divide n (one draw per group).
  void forward(const float* x, float* y, std::size_t n, bool training, Rng& rng, DropoutCache& cache,
               std::size_t group = 1) const;
  // dy [n] -> dx [n] (dx == dy allowed): y = keep · x · scale  ->  dx = keep · dy · scale.
  // n must match the forward pass.
  void backward(const float* dy, float* dx, std::size_t n, const DropoutCache& cache) const;

  // Tensor conveniences, any rank N; y / dx are resized only when their shape differs.
  template <std::size_t N>
  void forward(const xt::xtensor<float, N>& x, xt::xtensor<float, N>& y, bool training, Rng& rng,
               DropoutCache& cache) const {
    if (y.shape() != x.shape()) y.resize(x.shape());
    forward(x.data(), y.data(), x.size(), training, rng, cache);
  }
  template <std::size_t N>
  void backward(const xt::xtensor<float, N>& dy, const DropoutCache& cache, xt::xtensor<float, N>& dx) const {
    if (dx.shape() != dy.shape()) dx.resize(dy.shape());
    backward(dy.data(), dx.data(), dy.size(), cache);
  }

  float rate() const { return rate_; }

 private:
  float rate_;
};

}  // namespace attn
