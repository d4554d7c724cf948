#include "attn/layers/multi_head_attention.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "attention_layer_common.hpp"
#include "attn/kernels/softmax_rows.hpp"

namespace attn {
namespace {
using layers_detail::check;
using layers_detail::ensure_shape;

std::size_t checked_heads(std::size_t d_model, std::size_t heads) {
  check(heads > 0 && d_model > 0 && d_model % heads == 0, "MultiHeadSelfAttention", [&] {
    return "d_model (" + std::to_string(d_model) + ") must be divisible by the number of heads (" +
           std::to_string(heads) + ")";
  });
  return heads;
}
// out[c, r] (row stride ld_out) = in[r, c] for in [rows, cols] (row stride cols).
void transpose_into(const float* in, std::size_t rows, std::size_t cols, float* out, std::size_t ld_out) {
  for (std::size_t c = 0; c < cols; ++c) {
    for (std::size_t r = 0; r < rows; ++r) out[c * ld_out + r] = in[r * cols + c];
  }
}
}  // namespace

MultiHeadSelfAttention::MultiHeadSelfAttention(std::size_t d_model, std::size_t heads, Rng& rng)
    : head_enabled(checked_heads(d_model, heads), true), d_model_(d_model), heads_(heads) {
  const std::size_t d = d_model;
  w_q = layers_detail::glorot(rng, d, d);
  w_k = layers_detail::glorot(rng, d, d);
  w_v = layers_detail::glorot(rng, d, d);
  w_o = layers_detail::glorot(rng, d, d);
  for (Tensor1* bias : {&b_q, &b_k, &b_v, &b_o, &db_q, &db_k, &db_v, &db_o}) *bias = xt::zeros<float>({d});
  for (Tensor2* grad : {&dw_q, &dw_k, &dw_v, &dw_o}) *grad = xt::zeros<float>({d, d});
}

void MultiHeadSelfAttention::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "w_q", w_q, dw_q);
  add_parameter(out, prefix, "b_q", b_q, db_q);
  add_parameter(out, prefix, "w_k", w_k, dw_k);
  add_parameter(out, prefix, "b_k", b_k, db_k);
  add_parameter(out, prefix, "w_v", w_v, dw_v);
  add_parameter(out, prefix, "b_v", b_v, db_v);
  add_parameter(out, prefix, "w_o", w_o, dw_o);
  add_parameter(out, prefix, "b_o", b_o, db_o);
}

void MultiHeadSelfAttention::forward(const Tensor3& x, const Mask2* key_padding, bool causal, Tensor3& y,
                                     MultiHeadAttentionCache& cache) const {
  const std::size_t nb = x.shape(0), nt = x.shape(1), d = d_model_, nh = heads_, hd = d / nh;
  check(nb > 0 && nt > 0 && x.shape(2) == d, "MultiHeadSelfAttention::forward", [&] {
    return "x has shape " + shape_string(x.shape()) + "; expected [B, T, " + std::to_string(d) + "] with B, T >= 1";
  });
  if (key_padding != nullptr) {
    check(key_padding->shape(0) == nb && key_padding->shape(1) == nt, "MultiHeadSelfAttention::forward", [&] {
      return "key_padding has shape " + shape_string(key_padding->shape()) + " but x has shape " +
             shape_string(x.shape()) + "; key_padding must be [B, T] = [" + std::to_string(nb) + ", " +
             std::to_string(nt) + "]";
    });
  }
  check(head_enabled.size() == nh, "MultiHeadSelfAttention::forward", [&] {
    return "head_enabled has " + std::to_string(head_enabled.size()) + " entries; expected one per head (" +
           std::to_string(nh) + ")";
  });
  const std::size_t rows = nb * nt;
  const std::array<std::size_t, 3> seq_shape{nb, nt, d};
  layers_detail::copy_into(cache.x, x);
  for (Tensor3* t : {&cache.q, &cache.k, &cache.v, &cache.heads}) ensure_shape(*t, seq_shape);
  ensure_shape(cache.key_bias, std::array<std::size_t, 2>{nb, nt});
  ensure_shape(cache.padded, std::array<std::size_t, 1>{nb});
  ensure_shape(cache.weights, std::array<std::size_t, 4>{nb, nh, nt, nt});
  ensure_shape(y, seq_shape);
  cache.causal = causal;

  // Q, K, V = x W + b
  layers_detail::linear(x.data(), rows, d, w_q.data(), d, b_q.data(), cache.q.data());
  layers_detail::linear(x.data(), rows, d, w_k.data(), d, b_k.data(), cache.k.data());
  layers_detail::linear(x.data(), rows, d, w_v.data(), d, b_v.data(), cache.v.data());

  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (std::size_t bi = 0; bi < nb; ++bi) {
    bool padded = false;
    for (std::size_t i = 0; i < nt; ++i) {
      const bool real_key = key_padding == nullptr || (*key_padding)(bi, i) != 0;
      cache.key_bias(bi, i) = real_key ? 0.f : neg_inf;
      padded = padded || !real_key;
    }
    cache.padded(bi) = padded ? 1 : 0;
  }

  const float scale = 1.f / std::sqrt(static_cast<float>(hd));
  for (std::size_t bi = 0; bi < nb; ++bi) {
    const std::size_t seq = bi * nt * d;
    const float* key_bias = cache.padded(bi) != 0 ? cache.key_bias.data() + bi * nt : nullptr;
    for (std::size_t h = 0; h < nh; ++h) {
      const std::size_t col = seq + h * hd;  // first entry of head h's columns in this sequence
      float* probs = cache.weights.data() + (bi * nh + h) * nt * nt;
      // S_h = Q_h K_hᵀ / √d, written where P_h goes; then P_h = masked softmax over keys, row by row.
      kernels::gemm(false, true, nt, nt, hd, scale, cache.q.data() + col, d, cache.k.data() + col, d, 0.f, probs, nt);
      for (std::size_t t = 0; t < nt; ++t) {
        const bool finite = kernels::softmax_row(probs + t * nt, nt, causal ? t + 1 : nt, key_bias);
        if (!finite) {
          throw std::invalid_argument("MultiHeadSelfAttention::forward: the attention scores of sequence " +
                                      std::to_string(bi) + ", head " + std::to_string(h) + ", query " +
                                      std::to_string(t) + " hold NaN or +inf; the input or the weights are not finite");
        }
      }
      // O_h = P_h V_h, written into head h's columns of C.
      float* out = cache.heads.data() + col;
      if (head_enabled[h]) {
        kernels::gemm(false, false, nt, hd, nt, 1.f, probs, nt, cache.v.data() + col, d, 0.f, out, d);
      } else {
        for (std::size_t t = 0; t < nt; ++t) std::fill(out + t * d, out + t * d + hd, 0.f);
      }
    }
  }
  // y = C W_o + b_o
  layers_detail::linear(cache.heads.data(), rows, d, w_o.data(), d, b_o.data(), y.data());
}

void MultiHeadSelfAttention::backward(const Tensor3& dy, const MultiHeadAttentionCache& cache, Tensor3& dx) {
  const std::size_t nb = cache.x.shape(0), nt = cache.x.shape(1), d = d_model_, nh = heads_, hd = d / nh;
  check(dy.shape() == cache.x.shape(), "MultiHeadSelfAttention::backward", [&] {
    return "dy has shape " + shape_string(dy.shape()) + " but forward produced " + shape_string(cache.x.shape());
  });
  const std::size_t rows = nb * nt;
  for (Tensor3* t : {&dheads_, &dq_, &dk_, &dv_, &dx}) ensure_shape(*t, cache.x.shape());
  ensure_shape(dprobs_, std::array<std::size_t, 2>{nt, nt});
  ensure_shape(d_transposed_, std::array<std::size_t, 2>{hd, nt});

  // y = C W_o + b_o  ->  dW_o += Cᵀ dy, db_o += Σ dy, dC = dy W_oᵀ
  layers_detail::linear_backward(cache.heads.data(), rows, d, w_o.data(), d, dy.data(), dw_o.data(), db_o.data(),
                                 dheads_.data(), false);

  const float scale = 1.f / std::sqrt(static_cast<float>(hd));
  for (std::size_t bi = 0; bi < nb; ++bi) {
    const std::size_t seq = bi * nt * d;
    for (std::size_t h = 0; h < nh; ++h) {
      const std::size_t col = seq + h * hd;
      if (!head_enabled[h]) {  // O_h = 0: no gradient reaches Q_h, K_h, V_h
        for (Tensor3* g : {&dq_, &dk_, &dv_}) {
          for (std::size_t t = 0; t < nt; ++t) std::fill(g->data() + col + t * d, g->data() + col + t * d + hd, 0.f);
        }
        continue;
      }
      const float* probs = cache.weights.data() + (bi * nh + h) * nt * nt;
      const float* dout = dheads_.data() + col;
      // O_h = P_h V_h  ->  dP_h = dO_h V_hᵀ,  dV_h = P_hᵀ dO_h
      kernels::gemm(false, true, nt, nt, hd, 1.f, dout, d, cache.v.data() + col, d, 0.f, dprobs_.data(), nt);
      // dV_h is formed transposed, dV_hᵀ = dO_hᵀ P_h [d, T]: the GEMM then packs the small dO_hᵀ
      // rather than all of P_hᵀ [T, T], and its tiles span T columns instead of d.
      kernels::gemm(true, false, hd, nt, nt, 1.f, dout, d, probs, nt, 0.f, d_transposed_.data(), nt);
      transpose_into(d_transposed_.data(), hd, nt, dv_.data() + col, d);
      // P_h = masked softmax(S_h)  ->  dS_h / √d (in place over dP_h; hidden entries 0: P is 0 there)
      for (std::size_t t = 0; t < nt; ++t) {
        float* row = dprobs_.data() + t * nt;
        kernels::softmax_row_backward(probs + t * nt, row, row, nt, cache.causal ? t + 1 : nt, scale);
      }
      // S_h = Q_h K_hᵀ / √d  ->  dQ_h = dS_h K_h / √d,  dK_h = dS_hᵀ Q_h / √d
      kernels::gemm(false, false, nt, hd, nt, 1.f, dprobs_.data(), nt, cache.k.data() + col, d, 0.f, dq_.data() + col,
                    d);
      kernels::gemm(true, false, hd, nt, nt, 1.f, cache.q.data() + col, d, dprobs_.data(), nt, 0.f,
                    d_transposed_.data(), nt);  // dK_hᵀ = Q_hᵀ dS_h, as for dV_h
      transpose_into(d_transposed_.data(), hd, nt, dk_.data() + col, d);
    }
  }
  // Q, K, V = x W + b  ->  dW += xᵀ dQ (etc.), db += Σ dQ, dx = dQ W_qᵀ + dK W_kᵀ + dV W_vᵀ
  layers_detail::linear_backward(cache.x.data(), rows, d, w_q.data(), d, dq_.data(), dw_q.data(), db_q.data(),
                                 dx.data(), false);
  layers_detail::linear_backward(cache.x.data(), rows, d, w_k.data(), d, dk_.data(), dw_k.data(), db_k.data(),
                                 dx.data(), true);
  layers_detail::linear_backward(cache.x.data(), rows, d, w_v.data(), d, dv_.data(), dw_v.data(), db_v.data(),
                                 dx.data(), true);
}

}  // namespace attn
