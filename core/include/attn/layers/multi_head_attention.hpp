// Multi-head self-attention (Vaswani et al. 2017), trainable.
//
// Legend: B batch, T time, D model size (d_model), H heads, d = D / H per-head size.
//
//   Q = x W_q + b_q,  K = x W_k + b_k,  V = x W_v + b_v            [B, T, D] each
//   per head h (columns h·d .. (h+1)·d − 1 of Q, K, V):
//     S_h = Q_h K_hᵀ / √d                                           [B, T, T]
//     P_h = masked softmax over keys of S_h                         [B, T, T]
//     O_h = P_h V_h  (0 when head_enabled[h] is false)              [B, T, d]
//   C = [O_1 … O_H] (heads side by side)                            [B, T, D]
//   y = C W_o + b_o                                                 [B, T, D]
//
// Weights are [in, out] (x W), Glorot-uniform; biases start at 0. Masks: key i is hidden from
// query t when key_padding[b, i] == 0, or (causal) when i > t, or — with an attention_mask
// [T, T] given instead of causal — when attention_mask[t, i] == 0 (any pattern, shared by the
// batch; the backward needs nothing more: a hidden entry has P = 0 and so gets no gradient). Queries at padded
// positions still get outputs (callers ignore them); a query that sees no key at all gets P = 0, so O = 0 and y = b_o,
// never NaN.
//
// Each S_h is written by one GEMM straight into P_h's rows and turned into probabilities there by
// kernels::softmax_row (masking, maximum, exp, sum and scaling fused in one row's passes); the
// backward runs kernels::softmax_row_backward in place over dP_h (softmax_rows.hpp). That per-head
// core is shared with MultiHeadCrossAttention (cross_attention.hpp) and the Transformer decoder's
// cached step (core/src/layers/attention_heads.hpp).
//
// Gradients follow layers/README.md: parameter grads +=, dx overwritten.
#pragma once

#include <string>
#include <vector>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"

namespace attn {

struct MultiHeadAttentionCache {
  Tensor3 x;         // [B, T, D] copy of the input
  Tensor3 q, k, v;   // [B, T, D] projections (heads side by side)
  Tensor2 key_bias;  // [B, T] 0 for a real key, −inf for a padded one (added to the scores);
                     // [B, T·T] with an attention mask: row t of sequence b's T × T block is query t's
  Mask1 padded;      // [B] 1 when sequence b has a padded key (else its key_bias is not read)
  bool causal = false;
  Tensor4 weights;  // [B, H, T, T] attention probabilities (for visualisation too)
  Tensor3 heads;    // [B, T, D] C, the concatenated head outputs
};

class MultiHeadSelfAttention {
 public:
  // Throws ShapeError when heads does not divide d_model (or either is 0).
  MultiHeadSelfAttention(std::size_t d_model, std::size_t heads, Rng& rng);

  // x [B, T, D], key_padding [B, T] (1 = real token) or null, causal: hide later keys;
  // attention_mask [T, T] (1 = query t may see key i) or null, not together with causal.
  // -> y [B, T, D].
  void forward(const Tensor3& x, const Mask2* key_padding, bool causal, Tensor3& y, MultiHeadAttentionCache& cache,
               const Mask2* attention_mask = nullptr) const;
  // dy [B, T, D] -> dx [B, T, D] (overwritten); parameter grads +=.
  void backward(const Tensor3& dy, const MultiHeadAttentionCache& cache, Tensor3& dx);
  // Appends w_q, b_q, w_k, b_k, w_v, b_v, w_o, b_o.
  void parameters(ParameterList& out, const std::string& prefix);

  std::size_t d_model() const { return d_model_; }
  std::size_t heads() const { return heads_; }
  std::size_t head_dim() const { return d_model_ / heads_; }

  Tensor2 w_q, w_k, w_v, w_o;      // [D, D]
  Tensor1 b_q, b_k, b_v, b_o;      // [D]
  Tensor2 dw_q, dw_k, dw_v, dw_o;  // [D, D]
  Tensor1 db_q, db_k, db_v, db_o;  // [D]
  // Head ablation: a disabled head contributes 0 to C (and its slices of W_q, W_k, W_v, b_q,
  // b_k, b_v get no gradient); cache.weights still shows what it would have attended to.
  // Size H, all true by default.
  std::vector<bool> head_enabled;

 private:
  std::size_t d_model_;
  std::size_t heads_;
  // backward scratch, reused across calls
  Tensor3 dheads_, dq_, dk_, dv_;  // [B, T, D]
  Tensor2 dprobs_;                 // [T, T] dP_h, then dS_h in place
  Tensor2 d_transposed_;           // [d, T] dV_hᵀ, then dK_hᵀ
};

}  // namespace attn
