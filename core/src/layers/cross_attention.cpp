#include "attn/layers/cross_attention.hpp"

#include "attention_heads.hpp"
#include "attention_layer_common.hpp"

namespace attn {
namespace {
using layers_detail::check;
using layers_detail::ensure_shape;

}  // namespace

MultiHeadCrossAttention::MultiHeadCrossAttention(std::size_t d_model, std::size_t heads, Rng& rng)
    : d_model_(d_model), heads_(heads) {
  head_enabled.assign(layers_detail::init_projections(*this, d_model, heads, rng, "MultiHeadCrossAttention"), true);
}

void MultiHeadCrossAttention::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "w_q", w_q, dw_q);
  add_parameter(out, prefix, "b_q", b_q, db_q);
  add_parameter(out, prefix, "w_k", w_k, dw_k);
  add_parameter(out, prefix, "b_k", b_k, db_k);
  add_parameter(out, prefix, "w_v", w_v, dw_v);
  add_parameter(out, prefix, "b_v", b_v, db_v);
  add_parameter(out, prefix, "w_o", w_o, dw_o);
  add_parameter(out, prefix, "b_o", b_o, db_o);
}

void MultiHeadCrossAttention::forward(const Tensor3& x, const Tensor3& memory, const Mask2* source_padding, Tensor3& y,
                                      CrossAttentionCache& cache) const {
  const std::size_t nb = x.shape(0), ny = x.shape(1), nx = memory.shape(1), d = d_model_, nh = heads_;
  check(nb > 0 && ny > 0 && x.shape(2) == d, "MultiHeadCrossAttention::forward", [&] {
    return "x has shape " + shape_string(x.shape()) + "; expected [B, Ty, " + std::to_string(d) + "] with B, Ty >= 1";
  });
  check(memory.shape(0) == nb && nx > 0 && memory.shape(2) == d, "MultiHeadCrossAttention::forward", [&] {
    return "memory has shape " + shape_string(memory.shape()) + "; expected [" + std::to_string(nb) + ", Tx, " +
           std::to_string(d) + "] with Tx >= 1";
  });
  if (source_padding != nullptr) {
    check(source_padding->shape(0) == nb && source_padding->shape(1) == nx, "MultiHeadCrossAttention::forward", [&] {
      return "source_padding has shape " + shape_string(source_padding->shape()) + " but memory has shape " +
             shape_string(memory.shape()) + "; it must be [B, Tx]";
    });
  }
  check(head_enabled.size() == nh, "MultiHeadCrossAttention::forward", [&] {
    return "head_enabled has " + std::to_string(head_enabled.size()) + " entries; expected " + std::to_string(nh);
  });
  copy_into(cache.x, x);
  copy_into(cache.memory, memory);
  ensure_shape(cache.q, x.shape());
  ensure_shape(cache.heads, x.shape());
  ensure_shape(cache.k, memory.shape());
  ensure_shape(cache.v, memory.shape());
  ensure_shape(cache.weights, std::array<std::size_t, 4>{nb, nh, ny, nx});
  ensure_shape(y, x.shape());

  // Q = x W_q + b_q;  K, V = m W + b
  layers_detail::linear(x.data(), nb * ny, d, w_q.data(), d, b_q.data(), cache.q.data());
  layers_detail::linear(memory.data(), nb * nx, d, w_k.data(), d, b_k.data(), cache.k.data());
  layers_detail::linear(memory.data(), nb * nx, d, w_v.data(), d, b_v.data(), cache.v.data());
  layers_detail::fill_key_bias(source_padding, nb, nx, cache.key_bias, cache.padded);
  // S_h, P_h, O_h per sequence and head
  const layers_detail::HeadsShape shape{nb, ny, nx, d, nh, nx * d};
  layers_detail::attend_heads(shape, cache.q.data(), cache.k.data(), cache.v.data(), cache.key_bias.data(), nx,
                              cache.padded.data(), false, head_enabled, "MultiHeadCrossAttention::forward",
                              cache.weights.data(), cache.heads.data());
  // y = C W_o + b_o
  layers_detail::linear(cache.heads.data(), nb * ny, d, w_o.data(), d, b_o.data(), y.data());
}

void MultiHeadCrossAttention::backward(const Tensor3& dy, const CrossAttentionCache& cache, Tensor3& dx,
                                       Tensor3& dmemory) {
  const std::size_t nb = cache.x.shape(0), ny = cache.x.shape(1), nx = cache.memory.shape(1), d = d_model_;
  const std::size_t nh = heads_;
  check(dy.shape() == cache.x.shape(), "MultiHeadCrossAttention::backward", [&] {
    return "dy has shape " + shape_string(dy.shape()) + " but forward produced " + shape_string(cache.x.shape());
  });
  for (Tensor3* t : {&dheads_, &dq_, &dx}) ensure_shape(*t, cache.x.shape());
  for (Tensor3* t : {&dk_, &dv_, &dmemory}) ensure_shape(*t, cache.memory.shape());
  ensure_shape(dprobs_, std::array<std::size_t, 2>{ny, nx});
  ensure_shape(transposed_, std::array<std::size_t, 2>{d / nh, nx});

  // y = C W_o + b_o  ->  dW_o += Cᵀ dy, db_o += Σ dy, dC = dy W_oᵀ
  layers_detail::linear_backward(cache.heads.data(), nb * ny, d, w_o.data(), d, dy.data(), dw_o.data(), db_o.data(),
                                 dheads_.data(), false);
  // C = [O_1 … O_H]  ->  dQ, dK, dV
  const layers_detail::HeadsShape shape{nb, ny, nx, d, nh, nx * d};
  layers_detail::attend_heads_backward(shape, cache.q.data(), cache.k.data(), cache.v.data(), cache.weights.data(),
                                       false, head_enabled, dheads_.data(), dprobs_.data(), transposed_.data(),
                                       dq_.data(), dk_.data(), dv_.data());
  // Q = x W_q + b_q  ->  dx = dQ W_qᵀ;  K, V = m W + b  ->  dm = dK W_kᵀ + dV W_vᵀ
  layers_detail::linear_backward(cache.x.data(), nb * ny, d, w_q.data(), d, dq_.data(), dw_q.data(), db_q.data(),
                                 dx.data(), false);
  layers_detail::linear_backward(cache.memory.data(), nb * nx, d, w_k.data(), d, dk_.data(), dw_k.data(), db_k.data(),
                                 dmemory.data(), false);
  layers_detail::linear_backward(cache.memory.data(), nb * nx, d, w_v.data(), d, dv_.data(), dw_v.data(), db_v.data(),
                                 dmemory.data(), true);
}

}  // namespace attn
