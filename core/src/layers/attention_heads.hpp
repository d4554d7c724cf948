// Private: the per-head core that MultiHeadSelfAttention, MultiHeadCrossAttention and the
// Transformer decoder's cached step share, on projections that were already computed.
//
// Legend: B batch, Tq query positions, Tk key positions, D model size, H heads, d = D / H.
//
//   per sequence b and head h (columns h·d .. (h+1)·d − 1):
//     S_h = Q_h K_hᵀ / √d                      [Tq, Tk], written by one GEMM where P_h goes
//     P_h = masked softmax over keys of S_h    [Tq, Tk] (kernels::softmax_row, fused)
//     O_h = P_h V_h                            [Tq, d], into head h's columns of C [Tq, D]
//
// Q and C are [B, Tq, D]; K and V hold Tk rows of D per sequence, `kv_stride` floats apart from
// one sequence to the next (Tk·D for a plain [B, Tk, D] tensor, capacity·D for a decoder's growing
// key/value cache). key_bias [B, key_bias_stride] (0 = real key, −inf = padding) is read for
// sequence b only when padded[b] != 0; both may be null. With bias_query_stride > 0 every query
// has its own row of key bias, query t's at key_bias + b·key_bias_stride + t·bias_query_stride (an
// attention mask given per query and key, e.g. the decoder's own self-attention mask); 0 shares one
// row among all queries. Causal needs Tq == Tk: query t sees keys 0..t. With Tq == Tk and kv_stride == Tk·D these are
// exactly the GEMM and softmax calls the self-attention layer always made, so its numbers do not move.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/tensor.hpp"

namespace attn::layers_detail {

struct HeadsShape {
  std::size_t batch = 0, queries = 0, keys = 0, d_model = 0, heads = 0;
  std::size_t kv_stride = 0;          // floats between sequence b and b + 1 of K and V
  std::size_t bias_query_stride = 0;  // floats between query t's key-bias row and t + 1's (0: shared)
};

// key_padding [B, T] (1 = real) or null -> key_bias [B, T], padded [B] (see above).
void fill_key_bias(const Mask2* key_padding, std::size_t batch, std::size_t keys, Tensor2& key_bias, Mask1& padded);

// mask [Tq, Tk] (1 = query t may see key i) and key_padding [B, Tk] (1 = real) or null ->
// key_bias [B, Tq·Tk] (row t of sequence b: 0 where both allow key i, −inf elsewhere), padded [B]
// all 1 (every row is read). Pass bias_query_stride = Tk and key_bias_stride = Tq·Tk.
void fill_query_key_bias(const Mask2& mask, const Mask2* key_padding, std::size_t batch, Tensor2& key_bias,
                         Mask1& padded);

// q [B, Tq, D], k, v (see kv_stride) -> probs [B, H, Tq, Tk], heads C [B, Tq, D] (0 for a disabled
// head). Throws std::invalid_argument naming `where` when a score row holds NaN or +inf.
void attend_heads(const HeadsShape& s, const float* q, const float* k, const float* v, const float* key_bias,
                  std::size_t key_bias_stride, const std::uint8_t* padded, bool causal,
                  const std::vector<bool>& head_enabled, const char* where, float* probs, float* heads);

// dheads dC [B, Tq, D] -> dq [B, Tq, D], dk, dv [B, Tk, D] (overwritten; rows of a disabled head
// 0). Scratch: dprobs [Tq·Tk], transposed [d·Tk]. Reads the forward's q, k, v (kv_stride = Tk·D)
// and probs.
void attend_heads_backward(const HeadsShape& s, const float* q, const float* k, const float* v, const float* probs,
                           bool causal, const std::vector<bool>& head_enabled, const float* dheads, float* dprobs,
                           float* transposed, float* dq, float* dk, float* dv);

}  // namespace attn::layers_detail
