// Private helpers shared by the trainable attention layers (attention_pooling, multi_head_attention,
// decoder_attention): caller-owned buffer reuse, Glorot initialisation and x·W (+ b) through
// kernels::gemm. Not installed; nothing outside core/src/layers includes it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "attn/kernels/gemm.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn::layers_detail {

// Like attn::require, but the message is built only on failure, so the success path of a
// per-step call allocates nothing (layers/README.md rule 4).
template <class MakeMessage>
void check(bool condition, const char* where, MakeMessage&& message) {
  if (!condition) throw ShapeError(std::string(where) + ": " + message());
}

using attn::copy_into;
using attn::ensure_shape;

// Glorot/Xavier uniform: U(±√(6 / (fan_in + fan_out))), drawn in row-major order.
inline Tensor2 glorot(Rng& rng, std::size_t fan_in, std::size_t fan_out) {
  const float bound = std::sqrt(6.f / static_cast<float>(fan_in + fan_out));
  return random_uniform(rng, fan_in, fan_out, -bound, bound);
}

// A learned vector treated as a [n, 1] matrix for Glorot.
inline Tensor1 glorot_vector(Rng& rng, std::size_t n) {
  const float bound = std::sqrt(6.f / static_cast<float>(n + 1));
  return random_uniform(rng, n, -bound, bound);
}

// y [rows, out] = x [rows, in] · w [in, out] (+ b [out] when b != nullptr). y is overwritten.
inline void linear(const float* x, std::size_t rows, std::size_t in, const float* w, std::size_t out, const float* b,
                   float* y) {
  kernels::gemm(false, false, rows, out, in, 1.f, x, in, w, out, 0.f, y, out);
  if (b == nullptr) return;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t j = 0; j < out; ++j) y[r * out + j] += b[j];
  }
}

// Backward of y = x·w + b with dy [rows, out]: dw [in, out] += xᵀ dy, db [out] += Σ_rows dy
// (db may be null), and dx [rows, in] = dy wᵀ (overwrite) or += when accumulate_dx.
inline void linear_backward(const float* x, std::size_t rows, std::size_t in, const float* w, std::size_t out,
                            const float* dy, float* dw, float* db, float* dx, bool accumulate_dx) {
  kernels::gemm(true, false, in, out, rows, 1.f, x, in, dy, out, 1.f, dw, out);
  if (db != nullptr) {
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t j = 0; j < out; ++j) db[j] += dy[r * out + j];
    }
  }
  if (dx != nullptr) kernels::gemm(false, true, rows, in, out, 1.f, dy, out, w, out, accumulate_dx ? 1.f : 0.f, dx, in);
}

// The context vector: out[b] = Σ_t w[b, t] x[b, t]; w [B, T], x [B, T, D] -> out [B, D].
inline void weighted_sum(const float* w, const float* x, std::size_t nb, std::size_t nt, std::size_t d, float* out) {
  for (std::size_t b = 0; b < nb; ++b) {
    kernels::gemm(false, false, 1, d, nt, 1.f, w + b * nt, nt, x + b * nt * d, d, 0.f, out + b * d, d);
  }
}

// Backward of weighted_sum with dout [B, D]: dx[b, t] = w[b, t] dout[b] (+= when accumulate_dx),
// dw[b, t] = dout[b]·x[b, t] (overwritten).
inline void weighted_sum_backward(const float* w, const float* x, const float* dout, std::size_t nb, std::size_t nt,
                                  std::size_t d, float* dx, bool accumulate_dx, float* dw) {
  for (std::size_t b = 0; b < nb; ++b) {
    const float* g = dout + b * d;
    for (std::size_t t = 0; t < nt; ++t) {
      const std::size_t row = b * nt + t;
      const float weight = w[row];
      float* dx_row = dx + row * d;
      const float* x_row = x + row * d;
      float dot = 0.f;
      for (std::size_t i = 0; i < d; ++i) {
        dx_row[i] = (accumulate_dx ? dx_row[i] : 0.f) + weight * g[i];
        dot += g[i] * x_row[i];
      }
      dw[row] = dot;
    }
  }
}

// The four [D, D] projections of a multi-head attention layer (self or cross): checks that
// `heads` divides d_model (an error naming `layer`), then draws w_q, w_k, w_v, w_o from `rng` in
// that order (Glorot) and zeroes the biases and every gradient. Returns `heads`, for the layer's
// member initialiser.
template <class Layer>
std::size_t init_projections(Layer& layer, std::size_t d_model, std::size_t heads, Rng& rng, const char* name) {
  check(heads > 0 && d_model > 0 && d_model % heads == 0, name, [&] {
    return "d_model (" + std::to_string(d_model) + ") must be divisible by the number of heads (" +
           std::to_string(heads) + ")";
  });
  const std::size_t d = d_model;
  layer.w_q = glorot(rng, d, d);
  layer.w_k = glorot(rng, d, d);
  layer.w_v = glorot(rng, d, d);
  layer.w_o = glorot(rng, d, d);
  for (Tensor1* bias :
       {&layer.b_q, &layer.b_k, &layer.b_v, &layer.b_o, &layer.db_q, &layer.db_k, &layer.db_v, &layer.db_o}) {
    *bias = xt::zeros<float>({d});
  }
  for (Tensor2* grad : {&layer.dw_q, &layer.dw_k, &layer.dw_v, &layer.dw_o}) *grad = xt::zeros<float>({d, d});
  return heads;
}

}  // namespace attn::layers_detail
