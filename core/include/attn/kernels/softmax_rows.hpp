// The attention softmax, one query's row of scores at a time, in place, and its backward; used by
// MultiHeadSelfAttention on every row of S_h = Q_h K_hᵀ / √d right after the GEMM wrote it.
//
//   softmax_row:  x [n] -> p [n], p_j = exp(x_j + bias_j − m) / Σ_i exp(x_i + bias_i − m) over the
//                 visible entries, p_j = 0 elsewhere; m = the largest visible x_j + bias_j.
//     visible   j < limit (a causal query t passes limit = t + 1) and, when key_bias is not null,
//               key_bias[j] == 0 (key_bias[j] = −inf hides key j: padding)
//     no visible entry: the row becomes all 0 (no distribution, never NaN)
//     returns false (x then unspecified) when an entry j < limit of x is NaN or +inf
//   softmax_row_backward:  dx_j = scale · p_j (dy_j − Σ_i p_i dy_i) for j < limit, 0 for j >= limit.
//     Entries hidden by key_bias have p_j = 0, so they get dx_j = 0 without the mask (dy finite).
//     dx == dy (in place) is allowed.
//
// The fast versions run four lanes at a time with kernels::exp's polynomial (vector_math.hpp);
// the `_reference` versions are the plain loops with std::exp the tests compare them with.
#pragma once

#include <cstddef>

namespace attn::kernels {

bool softmax_row(float* x, std::size_t n, std::size_t limit, const float* key_bias);
void softmax_row_backward(const float* p, const float* dy, float* dx, std::size_t n, std::size_t limit, float scale);

bool softmax_row_reference(float* x, std::size_t n, std::size_t limit, const float* key_bias);
void softmax_row_backward_reference(const float* p, const float* dy, float* dx, std::size_t n, std::size_t limit,
                                    float scale);

}  // namespace attn::kernels
