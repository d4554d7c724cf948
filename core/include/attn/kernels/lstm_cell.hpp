// The element-wise part of one LSTM step for one batch row, forward and backward, fused into one
// pass over the row (layers/lstm.cpp runs the products with `gemm` and calls these per row).
//
// Legend: U units. A row's gates are stored [4U] in the order i, f, g, o.
//
//   forward:  [i f g o] = [σ σ tanh σ](pre);  c = f ⊙ c_prev + i ⊙ g;  h = o ⊙ tanh(c)
//   backward: from dh, dc (w.r.t. h, c) to d pre and dc_prev, using the forward's activations.
//
// `lstm_cell_forward` / `lstm_cell_backward` work four units at a time (wasm_simd128, SSE2, or
// plain scalar code, like vector_math.hpp); the last U % 4 units go through the same code in a
// zero-padded block, so a unit's result does not depend on its position. σ and tanh are
// vector_math.hpp's (within 2.4e-7 relative of std::). The `_reference` versions are the plain
// loops the tests compare them with (σ and tanh from std::exp / std::tanh).
#pragma once

#include <cstddef>

namespace attn::kernels {

// gates [4U]: pre-activations in, activations i, f, g, o out. c_prev [U] -> c, tanh_c, h [U].
// c_prev must not overlap the outputs.
void lstm_cell_forward(float* gates, const float* c_prev, float* c, float* tanh_c, float* h, std::size_t units);
void lstm_cell_forward_reference(float* gates, const float* c_prev, float* c, float* tanh_c, float* h,
                                 std::size_t units);

// dh [U]: gradient w.r.t. h. dc [U]: in, the gradient w.r.t. c from later steps; out, the
// gradient w.r.t. c_prev. gates [4U], tanh_c [U]: the forward's activations; c_prev [U].
// Writes the pre-activation gradients [4U] to dgates (the h_prev and x parts, dgates · w_hᵀ and
// dgates · w_xᵀ, are the caller's products).
void lstm_cell_backward(const float* dh, float* dc, const float* gates, const float* tanh_c, const float* c_prev,
                        float* dgates, std::size_t units);
void lstm_cell_backward_reference(const float* dh, float* dc, const float* gates, const float* tanh_c,
                                  const float* c_prev, float* dgates, std::size_t units);

}  // namespace attn::kernels
