// Multi-head cross-attention (Vaswani et al. 2017, the decoder's "encoder–decoder attention"),
// trainable: queries come from one sequence, keys and values from another (the encoder memory).
//
// Legend: B batch, Ty query (target) positions, Tx key (source) positions, D model size,
// H heads, d = D / H per-head size.
//
//   Q = x W_q + b_q                        [B, Ty, D]   x: the decoder's sequence
//   K = m W_k + b_k,  V = m W_v + b_v      [B, Tx, D]   m: the memory
//   per head h:  S_h = Q_h K_hᵀ / √d        [B, Ty, Tx]
//                P_h = masked softmax over the source keys of S_h
//                O_h = P_h V_h              [B, Ty, d]
//   y = [O_1 … O_H] W_o + b_o               [B, Ty, D]
//
// The per-head core (one GEMM into P_h, the fused masked softmax rows, the backward in place) is
// MultiHeadSelfAttention's own, shared through core/src/layers/attention_heads.hpp. Key i of
// sequence b is hidden when source_padding[b, i] == 0; a query with no real key gets P = 0 and
// y = b_o. Weights are [in, out], Glorot-uniform in the order W_q, W_k, W_v, W_o; biases 0.
//
// Gradients follow layers/README.md: parameter grads +=, dx and dmemory overwritten.
#pragma once

#include <string>
#include <vector>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"

namespace attn {

struct CrossAttentionCache {
  Tensor3 x;         // [B, Ty, D] copy of the queries' input
  Tensor3 memory;    // [B, Tx, D] copy of the memory
  Tensor3 q;         // [B, Ty, D]
  Tensor3 k, v;      // [B, Tx, D]
  Tensor2 key_bias;  // [B, Tx] 0 real, −inf padding
  Mask1 padded;      // [B] 1 when sequence b has a padded key
  Tensor4 weights;   // [B, H, Ty, Tx] attention probabilities (what a page draws)
  Tensor3 heads;     // [B, Ty, D] the concatenated head outputs
};

class MultiHeadCrossAttention {
 public:
  // Throws ShapeError when heads does not divide d_model (or either is 0).
  MultiHeadCrossAttention(std::size_t d_model, std::size_t heads, Rng& rng);

  // x [B, Ty, D], memory [B, Tx, D], source_padding [B, Tx] (1 = real) or null -> y [B, Ty, D].
  void forward(const Tensor3& x, const Tensor3& memory, const Mask2* source_padding, Tensor3& y,
               CrossAttentionCache& cache) const;
  // dy [B, Ty, D] -> dx [B, Ty, D], dmemory [B, Tx, D] (both overwritten); parameter grads +=.
  void backward(const Tensor3& dy, const CrossAttentionCache& cache, Tensor3& dx, Tensor3& dmemory);
  // Appends w_q, b_q, w_k, b_k, w_v, b_v, w_o, b_o.
  void parameters(ParameterList& out, const std::string& prefix);

  std::size_t d_model() const { return d_model_; }
  std::size_t heads() const { return heads_; }

  Tensor2 w_q, w_k, w_v, w_o;      // [D, D]
  Tensor1 b_q, b_k, b_v, b_o;      // [D]
  Tensor2 dw_q, dw_k, dw_v, dw_o;  // [D, D]
  Tensor1 db_q, db_k, db_v, db_o;  // [D]
  std::vector<bool> head_enabled;  // size H, all true: a disabled head contributes 0

 private:
  std::size_t d_model_;
  std::size_t heads_;
  Tensor3 dheads_, dq_;  // [B, Ty, D]
  Tensor3 dk_, dv_;      // [B, Tx, D]
  Tensor2 dprobs_;       // [Ty, Tx]
  Tensor2 transposed_;   // [d, Tx]
};

}  // namespace attn
