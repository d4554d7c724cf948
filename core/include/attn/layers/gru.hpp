// Gated recurrent unit (Cho et al. 2014) with the reset gate applied after the recurrent
// matmul, as in cuDNN, PyTorch and Keras' reset_after=True, and its backpropagation through
// time.
//
// Legend: B batch, T time, D input features (model dim), U units.
//
//   xp = x_t · w_x + b_x,   hp = h_{t-1} · w_h + b_h          [B, 3U] each, order r, z, n
//   r = σ(xp_r + hp_r),  z = σ(xp_z + hp_z)
//   n = tanh(xp_n + r ⊙ hp_n)
//   h_t = (1 − z) ⊙ n + z ⊙ h_{t-1}
//
// Same two entry points and contract as LSTM (layers/lstm.hpp, layers/README.md): a step API
// for decoders and a masked sequence API. At a padded step (mask 0) the state is carried
// (h_t = h_{t-1}), the output h_seq[b, t] is 0 and no gradient reaches x[b, t] or the weights.
#pragma once

#include <cstddef>
#include <string>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

// What step_backward needs from one step_forward call.
struct GRUStepCache {
  Tensor2 x;       // [B, D] the input, copied
  Tensor2 h_prev;  // [B, U]
  Tensor2 gates;   // [B, 3U] activations r, z, n
  Tensor2 hproj;   // [B, 3U] hp = h_prev · w_h + b_h (its n part feeds dr)
};

// What backward needs from one sequence forward call; h_last is also the final-state output.
struct GRUCache {
  Tensor3 x;   // [B, T, D] the input, copied (for dw_x)
  Mask2 mask;  // [B, T] 1 = real step; all ones when forward got no mask
  bool reverse = false;
  Tensor2 h0;      // [B, U] initial state (zeros when none was given)
  Tensor3 gates;   // [B, T, 3U] activations r, z, n (unspecified at padded steps)
  Tensor3 hproj;   // [B, T, 3U] hp of each step
  Tensor3 h;       // [B, T, U] state after step t (carried through padding, unlike h_seq)
  Tensor2 h_last;  // [B, U] state after the last processed step (t = T-1, or t = 0 when reverse)
};

class GRU {
 public:
  using Cache = GRUCache;

  // w_x: Glorot-uniform, U(±√(6 / (D + 3U))). w_h: U(±1/√U) (PyTorch's scheme; not
  // orthogonal). b_x, b_h: 0. Draws w_x then w_h from `rng`, row-major.
  GRU(std::size_t input_size, std::size_t units, Rng& rng);

  std::size_t input_size() const { return input_size_; }
  std::size_t units() const { return units_; }

  // Appends prefix + "w_x", "w_h", "b_x", "b_h" (in that order).
  void parameters(ParameterList& out, const std::string& prefix = "");

  // ---- step API ----------------------------------------------------------------------------
  // x_t [B, D], h_prev [B, U] -> h [B, U]. No masking. h may be the same tensor as h_prev.
  void step_forward(const Tensor2& x_t, const Tensor2& h_prev, Tensor2& h, GRUStepCache& cache) const;
  // dh [B, U] (gradient w.r.t. step_forward's h) -> dx_t [B, D], dh_prev [B, U] (overwritten;
  // dh_prev may alias dh). Accumulates dw_x, dw_h, db_x, db_h.
  void step_backward(const Tensor2& dh, const GRUStepCache& cache, Tensor2& dx_t, Tensor2& dh_prev);

  // ---- sequence API ------------------------------------------------------------------------
  // x [B, T, D], mask [B, T] (1 = real, may be null) -> h_seq [B, T, U]; final state in
  // cache.h_last [B, U]. reverse: process t = T-1 … 0; outputs still land at their own t.
  // h0 [B, U] defaults to 0.
  void forward(const Tensor3& x, const Mask2* mask, bool reverse, Tensor3& h_seq, GRUCache& cache,
               const Tensor2* h0 = nullptr) const;
  // dh_seq [B, T, U] (gradient w.r.t. h_seq), dh_last [B, U] (w.r.t. cache.h_last; null = 0)
  // -> dx [B, T, D] and optionally dh0 [B, U] (overwritten). Accumulates dw_x, dw_h, db_x, db_h.
  void backward(const Tensor3& dh_seq, const Tensor2* dh_last, const GRUCache& cache, Tensor3& dx,
                Tensor2* dh0 = nullptr);

  Tensor2 w_x;  // [D, 3U]
  Tensor2 w_h;  // [U, 3U]
  Tensor1 b_x;  // [3U]
  Tensor1 b_h;  // [3U]
  Tensor2 dw_x;
  Tensor2 dw_h;
  Tensor1 db_x;
  Tensor1 db_h;

 private:
  std::size_t input_size_;
  std::size_t units_;
  // Backward scratch, resized only when B or T change. The two pre-activation gradients differ
  // only in their n part: dL/dxp_n = dn_pre, dL/dhp_n = dn_pre ⊙ r.
  Tensor3 dxproj_;  // [B, T, 3U] dL/dxp of every step
  Tensor3 dhproj_;  // [B, T, 3U] dL/dhp of every step
  Tensor2 dxstep_;  // [B, 3U] step API
  Tensor2 dhstep_;  // [B, 3U] step API
  Tensor2 dh_;      // [B, U] gradient flowing into the state h_{t-1}
  Tensor2 w_h_t_;   // [3U, U] w_hᵀ, refreshed at every backward
  Tensor3 h_prev_;  // [B, T, U] the state each step read, for dw_h's single product
};

}  // namespace attn
