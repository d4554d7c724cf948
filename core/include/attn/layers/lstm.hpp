// Long short-term memory layer (Hochreiter & Schmidhuber 1997, with a forget gate) and its
// backpropagation through time.
//
// Legend: B batch, T time, D input features (model dim), U units.
//
//   [i f g o] = [σ σ tanh σ](x_t · w_x + h_{t-1} · w_h + b)     gates [B, 4U], order i, f, g, o
//   c_t = f ⊙ c_{t-1} + i ⊙ g
//   h_t = o ⊙ tanh(c_t)
//
// Two ways in: the step API (one timestep, for decoders that feed their own output back) and
// the sequence API (all T steps with padding masks; the encoder path). Both follow
// layers/README.md: caller-owned caches, parameter gradients accumulate (+=), input gradients
// are overwritten.
//
// Masking (sequence API): where mask[b, t] == 0 the state is carried unchanged
// (h_t = h_{t-1}, c_t = c_{t-1}), the output h_seq[b, t] is 0, and that step sends no
// gradient to x[b, t] or to the weights. Padding may sit at the start (Keras 'pre') or the end.
#pragma once

#include <cstddef>
#include <string>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

// What step_backward needs from one step_forward call.
struct LSTMStepCache {
  Tensor2 x;       // [B, D] the input, copied
  Tensor2 h_prev;  // [B, U]
  Tensor2 c_prev;  // [B, U]
  Tensor2 gates;   // [B, 4U] activations i, f, g, o
  Tensor2 tanh_c;  // [B, U] tanh(c_t)
};

// What backward needs from one sequence forward call. h_last / c_last are also the layer's
// final-state outputs. The per-step tensors are time-major ([T, B, ·]): the recurrence reads and
// writes one contiguous block of B rows per step.
struct LSTMCache {
  Tensor3 x;   // [T, B, D] the input, copied time-major (for dw_x)
  Mask2 mask;  // [B, T] 1 = real step; all ones when forward got no mask
  bool reverse = false;
  Tensor2 h0;      // [B, U] initial states (zeros when none were given)
  Tensor2 c0;      // [B, U]
  Tensor3 gates;   // [T, B, 4U] activations i, f, g, o (unspecified at padded steps)
  Tensor3 h;       // [T, B, U] state after step t (carried through padding, unlike h_seq)
  Tensor3 c;       // [T, B, U] cell after step t (carried through padding)
  Tensor3 tanh_c;  // [T, B, U] tanh(c) (unspecified at padded steps)
  Tensor2 h_last;  // [B, U] state after the last processed step (t = T-1, or t = 0 when reverse)
  Tensor2 c_last;  // [B, U]
};

class LSTM {
 public:
  using Cache = LSTMCache;

  // w_x: Glorot-uniform, U(±√(6 / (D + 4U))). w_h: U(±1/√U) (PyTorch's scheme; not
  // orthogonal). b: forget-gate slice [U, 2U) = 1 (Jozefowicz et al. 2015), the rest 0.
  // Draws w_x then w_h from `rng`, row-major.
  LSTM(std::size_t input_size, std::size_t units, Rng& rng);

  std::size_t input_size() const { return input_size_; }
  std::size_t units() const { return units_; }

  // Appends prefix + "w_x", "w_h", "b" (in that order).
  void parameters(ParameterList& out, const std::string& prefix = "");

  // ---- step API ----------------------------------------------------------------------------
  // x_t [B, D], h_prev [B, U], c_prev [B, U] -> h [B, U], c [B, U]. No masking. h / c may be
  // the same tensors as h_prev / c_prev (the cache keeps copies).
  void step_forward(const Tensor2& x_t, const Tensor2& h_prev, const Tensor2& c_prev, Tensor2& h, Tensor2& c,
                    LSTMStepCache& cache) const;
  // dh [B, U], dc [B, U] (gradients w.r.t. step_forward's h and c) -> dx_t [B, D],
  // dh_prev [B, U], dc_prev [B, U] (overwritten; dh_prev / dc_prev may alias dh / dc).
  // Accumulates dw_x, dw_h, db.
  void step_backward(const Tensor2& dh, const Tensor2& dc, const LSTMStepCache& cache, Tensor2& dx_t, Tensor2& dh_prev,
                     Tensor2& dc_prev);

  // ---- sequence API ------------------------------------------------------------------------
  // x [B, T, D], mask [B, T] (1 = real, may be null) -> h_seq [B, T, U]; final states in
  // cache.h_last / cache.c_last [B, U]. reverse: process t = T-1 … 0 (the backward direction
  // of a bidirectional layer); outputs still land at their own t. h0 / c0 [B, U] default to 0.
  void forward(const Tensor3& x, const Mask2* mask, bool reverse, Tensor3& h_seq, LSTMCache& cache,
               const Tensor2* h0 = nullptr, const Tensor2* c0 = nullptr) const;
  // dh_seq [B, T, U] (gradient w.r.t. h_seq), dh_last / dc_last [B, U] (w.r.t. cache.h_last /
  // c_last; null = 0) -> dx [B, T, D], and optionally dh0 / dc0 [B, U] (all overwritten).
  // Accumulates dw_x, dw_h, db.
  void backward(const Tensor3& dh_seq, const Tensor2* dh_last, const Tensor2* dc_last, const LSTMCache& cache,
                Tensor3& dx, Tensor2* dh0 = nullptr, Tensor2* dc0 = nullptr);

  Tensor2 w_x;  // [D, 4U]
  Tensor2 w_h;  // [U, 4U]
  Tensor1 b;    // [4U]
  Tensor2 dw_x;
  Tensor2 dw_h;
  Tensor1 db;

 private:
  std::size_t input_size_;
  std::size_t units_;
  // Backward scratch, resized only when B or T change.
  Tensor3 dgates_;         // [T, B, 4U] pre-activation gradients of every step (time-major)
  Tensor2 dstep_;          // [B, 4U] step API
  Tensor2 dh_;             // [B, U] gradient flowing into the state h_{t-1}
  Tensor2 dc_;             // [B, U]
  Tensor2 w_h_t_;          // [4U, U] w_hᵀ, refreshed at every backward
  Tensor3 h_prev_;         // [T, B, U] the state each step read, for dw_h's single product
  Tensor3 dx_time_major_;  // [T, B, D]
};

}  // namespace attn
