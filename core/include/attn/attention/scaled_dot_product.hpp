// Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V, with optional masks, and multi-head split/merge.
//
// Legend: Tq queries, Tk keys/values, d_k query/key size, d_v value size, H heads,
// D = H · d_head model size.
#pragma once

#include "attn/tensor.hpp"

namespace attn {

struct AttentionResult {
  Tensor2 output;   // [Tq, d_v]
  Tensor2 weights;  // [Tq, Tk], rows sum to 1 (0 for a fully masked row)
};

struct MultiHeadAttentionResult {
  Tensor3 output;   // [H, Tq, d_v]
  Tensor3 weights;  // [H, Tq, Tk]
};

// q [Tq, d_k], k [Tk, d_k], v [Tk, d_v] -> output [Tq, d_v], weights [Tq, Tk]
AttentionResult scaled_dot_product_attention(const Tensor2& q, const Tensor2& k, const Tensor2& v);
// as above; mask [Tq, Tk], 1 = visible (see masks.hpp for causal and padding masks)
AttentionResult scaled_dot_product_attention(const Tensor2& q, const Tensor2& k, const Tensor2& v, const Mask2& mask);
// Per head: q [H, Tq, d_k], k [H, Tk, d_k], v [H, Tk, d_v], mask [Tq, Tk] shared by every head.
MultiHeadAttentionResult scaled_dot_product_attention(const Tensor3& q, const Tensor3& k, const Tensor3& v,
                                                      const Mask2* mask = nullptr);

// x [T, H·d_head] -> [H, T, d_head]: head h takes columns h·d_head .. (h+1)·d_head - 1.
Tensor3 split_heads(const Tensor2& x, std::size_t heads);
// x [H, T, d_head] -> [T, H·d_head]; the inverse of split_heads.
Tensor2 merge_heads(const Tensor3& x);

}  // namespace attn
