#include "attn/layers/multi_head_attention.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "attention_heads.hpp"
#include "attention_layer_common.hpp"

namespace attn {
namespace {
using layers_detail::check;
using layers_detail::ensure_shape;

}  // namespace

MultiHeadSelfAttention::MultiHeadSelfAttention(std::size_t d_model, std::size_t heads, Rng& rng)
    : d_model_(d_model), heads_(heads) {
  head_enabled.assign(layers_detail::init_projections(*this, d_model, heads, rng, "MultiHeadSelfAttention"), true);
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
                                     MultiHeadAttentionCache& cache, const Mask2* attention_mask) const {
  const std::size_t nb = x.shape(0), nt = x.shape(1), d = d_model_, nh = heads_;
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
  if (attention_mask != nullptr) {
    check(attention_mask->shape(0) == nt && attention_mask->shape(1) == nt, "MultiHeadSelfAttention::forward", [&] {
      return "attention_mask has shape " + shape_string(attention_mask->shape()) + " but x has " + std::to_string(nt) +
             " positions; it must be [T, T] = [" + std::to_string(nt) + ", " + std::to_string(nt) + "]";
    });
    if (causal) {
      throw std::invalid_argument(
          "MultiHeadSelfAttention::forward: pass either causal or an attention_mask, not both (the mask says "
          "everything a query may see)");
    }
  }
  check(head_enabled.size() == nh, "MultiHeadSelfAttention::forward", [&] {
    return "head_enabled has " + std::to_string(head_enabled.size()) + " entries; expected one per head (" +
           std::to_string(nh) + ")";
  });
  const std::size_t rows = nb * nt;
  const std::array<std::size_t, 3> seq_shape{nb, nt, d};
  layers_detail::copy_into(cache.x, x);
  for (Tensor3* t : {&cache.q, &cache.k, &cache.v, &cache.heads}) ensure_shape(*t, seq_shape);
  ensure_shape(cache.weights, std::array<std::size_t, 4>{nb, nh, nt, nt});
  ensure_shape(y, seq_shape);
  cache.causal = causal;

  // Q, K, V = x W + b
  layers_detail::linear(x.data(), rows, d, w_q.data(), d, b_q.data(), cache.q.data());
  layers_detail::linear(x.data(), rows, d, w_k.data(), d, b_k.data(), cache.k.data());
  layers_detail::linear(x.data(), rows, d, w_v.data(), d, b_v.data(), cache.v.data());

  layers_detail::HeadsShape shape{nb, nt, nt, d, nh, nt * d};
  if (attention_mask == nullptr) {
    layers_detail::fill_key_bias(key_padding, nb, nt, cache.key_bias, cache.padded);
  } else {  // one key-bias row per query: hidden where the mask or the padding hides the key
    layers_detail::fill_query_key_bias(*attention_mask, key_padding, nb, cache.key_bias, cache.padded);
    shape.bias_query_stride = nt;
  }
  // S_h, P_h = masked softmax(S_h), O_h = P_h V_h per sequence and head (attention_heads.hpp)
  layers_detail::attend_heads(shape, cache.q.data(), cache.k.data(), cache.v.data(), cache.key_bias.data(),
                              cache.key_bias.shape(1), cache.padded.data(), causal, head_enabled,
                              "MultiHeadSelfAttention::forward", cache.weights.data(), cache.heads.data());
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

  // C = [O_1 … O_H]  ->  dQ, dK, dV through each head's softmax (attention_heads.hpp)
  const layers_detail::HeadsShape shape{nb, nt, nt, d, nh, nt * d};
  layers_detail::attend_heads_backward(shape, cache.q.data(), cache.k.data(), cache.v.data(), cache.weights.data(),
                                       cache.causal, head_enabled, dheads_.data(), dprobs_.data(), d_transposed_.data(),
                                       dq_.data(), dk_.data(), dv_.data());
  // Q, K, V = x W + b  ->  dW += xᵀ dQ (etc.), db += Σ dQ, dx = dQ W_qᵀ + dK W_kᵀ + dV W_vᵀ
  layers_detail::linear_backward(cache.x.data(), rows, d, w_q.data(), d, dq_.data(), dw_q.data(), db_q.data(),
                                 dx.data(), false);
  layers_detail::linear_backward(cache.x.data(), rows, d, w_k.data(), d, dk_.data(), dw_k.data(), db_k.data(),
                                 dx.data(), true);
  layers_detail::linear_backward(cache.x.data(), rows, d, w_v.data(), d, dv_.data(), dw_v.data(), db_v.data(),
                                 dx.data(), true);
}

}  // namespace attn
