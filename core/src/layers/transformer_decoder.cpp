#include "attn/layers/transformer_decoder.hpp"

#include <algorithm>
#include <limits>

#include "attention_heads.hpp"
#include "attention_layer_common.hpp"

namespace attn {
namespace {
// Makes room for `needed` positions in a [B, C, D] cache, doubling C and keeping rows 0 .. kept − 1.
void reserve_positions(Tensor3& cache, std::size_t nb, std::size_t d, std::size_t kept, std::size_t needed) {
  if (cache.dimension() == 3 && cache.shape(0) == nb && cache.shape(2) == d && cache.shape(1) >= needed) return;
  const std::size_t old_capacity = cache.size() == 0 ? 0 : cache.shape(1);
  const std::size_t capacity = std::max({needed, 2 * old_capacity, std::size_t{8}});
  Tensor3 bigger = xt::zeros<float>({nb, capacity, d});
  for (std::size_t b = 0; b < nb && kept > 0; ++b) {
    std::copy(cache.data() + b * old_capacity * d, cache.data() + (b * old_capacity + kept) * d,
              bigger.data() + b * capacity * d);
  }
  cache = std::move(bigger);
}
}  // namespace

TransformerDecoderBlock::TransformerDecoderBlock(const TransformerEncoderConfig& config, Rng& rng)
    : config_(config),
      ln1_(config.d_model),
      self_attention_(config.d_model, config.heads, rng),
      drop1_(config.dropout),
      ln2_(config.d_model),
      cross_attention_(config.d_model, config.heads, rng),
      drop2_(config.dropout),
      ln3_(config.d_model),
      ff1_(config.d_model, config.ff_dim, rng),
      ff2_(config.ff_dim, config.d_model, rng),
      drop3_(config.dropout) {}

void TransformerDecoderBlock::forward(const Tensor3& x, const Tensor3& memory, const Mask2* target_padding,
                                      const Mask2* source_padding, bool training, Rng& rng, Tensor3& y,
                                      TransformerDecoderCache& c, const Mask2* self_mask) const {
  ATTN_REQUIRE(x.shape(2) == config_.d_model, "TransformerDecoderBlock::forward",
               "x has shape " + shape_string(x.shape()) +
                   "; its last axis must be d_model = " + std::to_string(config_.d_model));
  // a = x + Dropout(SelfMHA(LN1(x)))   (causal, or the caller's mask)
  ln1_.forward(x, c.ln1_out, c.ln1);
  self_attention_.forward(c.ln1_out, target_padding, self_mask == nullptr, c.self_out, c.self_attention, self_mask);
  ensure_shape(c.a, x.shape());
  drop1_.forward(c.self_out.data(), c.a.data(), c.a.size(), training, rng, c.drop1);
  add_to(c.a, x);
  // c = a + Dropout(CrossMHA(LN2(a), m))
  ln2_.forward(c.a, c.ln2_out, c.ln2);
  cross_attention_.forward(c.ln2_out, memory, source_padding, c.cross_out, c.cross_attention);
  ensure_shape(c.c, x.shape());
  drop2_.forward(c.cross_out.data(), c.c.data(), c.c.size(), training, rng, c.drop2);
  add_to(c.c, c.a);
  // y = c + Dropout(W2 · act(W1 · LN3(c)))
  ln3_.forward(c.c, c.ln3_out, c.ln3);
  ff1_.forward(c.ln3_out, c.ff_pre, c.ff1);
  ensure_shape(c.ff_act, c.ff_pre.shape());
  if (config_.activation == Activation::gelu) {  // keeps tanh u for the backward
    ensure_shape(c.ff_tanh, c.ff_pre.shape());
    gelu_forward_keep_tanh(c.ff_pre.data(), c.ff_act.data(), c.ff_tanh.data(), c.ff_pre.size());
  } else {
    activation_forward(config_.activation, c.ff_pre.data(), c.ff_act.data(), c.ff_pre.size());
  }
  ff2_.forward(c.ff_act, c.ff_out, c.ff2);
  ensure_shape(y, x.shape());
  drop3_.forward(c.ff_out.data(), y.data(), y.size(), training, rng, c.drop3);
  add_to(y, c.c);
}

void TransformerDecoderBlock::backward(const Tensor3& dy, const TransformerDecoderCache& c, Tensor3& dx,
                                       Tensor3& dmemory) {
  ATTN_REQUIRE(dy.shape() == c.c.shape(), "TransformerDecoderBlock::backward",
               "dy has shape " + shape_string(dy.shape()) + " but forward produced " + shape_string(c.c.shape()));
  // y = c + Dropout(ff_out): both branches receive dy.
  ensure_shape(d_ff_out_, dy.shape());
  drop3_.backward(dy.data(), d_ff_out_.data(), dy.size(), c.drop3);
  // ff_out = W2 · ff_act
  ff2_.backward(d_ff_out_, c.ff2, d_ff_act_);
  // ff_act = act(ff_pre)
  ensure_shape(d_ff_pre_, c.ff_pre.shape());
  if (config_.activation == Activation::gelu) {
    gelu_backward_with_tanh(c.ff_pre.data(), c.ff_tanh.data(), d_ff_act_.data(), d_ff_pre_.data(), d_ff_pre_.size());
  } else {
    activation_backward(config_.activation, c.ff_pre.data(), c.ff_act.data(), d_ff_act_.data(), d_ff_pre_.data(),
                        d_ff_pre_.size());
  }
  // ff_pre = W1 · LN3(c)
  ff1_.backward(d_ff_pre_, c.ff1, d_ln3_out_);
  // ln3_out = LN3(c); c also feeds the residual: dc = dy + dLN3
  ln3_.backward(d_ln3_out_, c.ln3, d_c_);
  add_to(d_c_, dy);
  // c = a + Dropout(cross_out)
  ensure_shape(d_cross_out_, dy.shape());
  drop2_.backward(d_c_.data(), d_cross_out_.data(), d_c_.size(), c.drop2);
  // cross_out = CrossMHA(ln2_out, m)
  cross_attention_.backward(d_cross_out_, c.cross_attention, d_ln2_out_, dmemory);
  // ln2_out = LN2(a); a also feeds the residual: da = dc + dLN2
  ln2_.backward(d_ln2_out_, c.ln2, d_a_);
  add_to(d_a_, d_c_);
  // a = x + Dropout(self_out)
  ensure_shape(d_self_out_, dy.shape());
  drop1_.backward(d_a_.data(), d_self_out_.data(), d_a_.size(), c.drop1);
  // self_out = SelfMHA(ln1_out)
  self_attention_.backward(d_self_out_, c.self_attention, d_ln1_out_);
  // ln1_out = LN1(x); x also feeds the residual: dx = da + dLN1
  ln1_.backward(d_ln1_out_, c.ln1, dx);
  add_to(dx, d_a_);
}

void TransformerDecoderBlock::start(const Tensor3& memory, TransformerDecoderLayerState& state) const {
  const std::size_t nb = memory.shape(0), nx = memory.shape(1), d = config_.d_model;
  ATTN_REQUIRE(nb > 0 && nx > 0 && memory.shape(2) == d, "TransformerDecoderBlock::start",
               "memory has shape " + shape_string(memory.shape()) + "; expected [B, Tx, " + std::to_string(d) + "]");
  const MultiHeadCrossAttention& cross = cross_attention_;
  ensure_shape(state.cross_k, memory.shape());
  ensure_shape(state.cross_v, memory.shape());
  // K, V = m W + b, once for every step that follows
  layers_detail::linear(memory.data(), nb * nx, d, cross.w_k.data(), d, cross.b_k.data(), state.cross_k.data());
  layers_detail::linear(memory.data(), nb * nx, d, cross.w_v.data(), d, cross.b_v.data(), state.cross_v.data());
  state.self_k = Tensor3();
  state.self_v = Tensor3();
  state.length = 0;
}

void TransformerDecoderBlock::step(const Tensor3& x, const Tensor2& source_bias, const Mask1& source_padded,
                                   TransformerDecoderLayerState& state, Tensor3& y, TransformerStepWeights& weights,
                                   const std::uint8_t* self_mask_row) const {
  Tensor3 a, queries_input, heads;
  step_self(x, state, self_mask_row, a, queries_input, weights.self_weights);
  step_cross(queries_input, source_bias, source_padded, state, heads, weights.cross_weights);
  step_finish(a, heads, y);
}

void TransformerDecoderBlock::step_self(const Tensor3& x, TransformerDecoderLayerState& state,
                                        const std::uint8_t* self_mask_row, Tensor3& a, Tensor3& queries_input,
                                        Tensor4& self_weights) const {
  const std::size_t nb = x.shape(0), d = config_.d_model, nh = config_.heads, t = state.length;
  ATTN_REQUIRE(x.shape(1) == 1 && x.shape(2) == d && state.cross_k.shape(0) == nb, "TransformerDecoderBlock::step",
               "x has shape " + shape_string(x.shape()) + "; expected [" + std::to_string(state.cross_k.shape(0)) +
                   ", 1, " + std::to_string(d) + "] (the batch of the state start() made)");
  const std::array<std::size_t, 3> row_shape{nb, 1, d};
  LayerNormCache norm;
  Tensor3 normed, q, k_row, v_row, heads, out;
  for (Tensor3* buffer : {&normed, &q, &k_row, &v_row, &heads, &out}) buffer->resize(row_shape);

  // a = x + SelfMHA(LN1(x)) over positions 0 .. t: this step's key and value join the cache.
  const MultiHeadSelfAttention& self = self_attention_;
  ln1_.forward(x, normed, norm);
  layers_detail::linear(normed.data(), nb, d, self.w_q.data(), d, self.b_q.data(), q.data());
  layers_detail::linear(normed.data(), nb, d, self.w_k.data(), d, self.b_k.data(), k_row.data());
  layers_detail::linear(normed.data(), nb, d, self.w_v.data(), d, self.b_v.data(), v_row.data());
  reserve_positions(state.self_k, nb, d, t, t + 1);
  reserve_positions(state.self_v, nb, d, t, t + 1);
  const std::size_t capacity = state.self_k.shape(1);
  for (std::size_t b = 0; b < nb; ++b) {
    std::copy(k_row.data() + b * d, k_row.data() + (b + 1) * d, state.self_k.data() + (b * capacity + t) * d);
    std::copy(v_row.data() + b * d, v_row.data() + (b + 1) * d, state.self_v.data() + (b * capacity + t) * d);
  }
  state.length = t + 1;
  // The caller's mask row t as a key bias shared by the batch (0 visible, −inf hidden).
  Tensor1 mask_bias;
  Mask1 every_row;
  if (self_mask_row != nullptr) {
    mask_bias = xt::empty<float>({t + 1});
    for (std::size_t i = 0; i <= t; ++i)
      mask_bias(i) = self_mask_row[i] != 0 ? 0.f : -std::numeric_limits<float>::infinity();
    every_row = xt::ones<std::uint8_t>({nb});
  }
  ensure_shape(self_weights, std::array<std::size_t, 4>{nb, nh, 1, t + 1});
  layers_detail::attend_heads({nb, 1, t + 1, d, nh, capacity * d}, q.data(), state.self_k.data(), state.self_v.data(),
                              self_mask_row != nullptr ? mask_bias.data() : nullptr, 0,
                              self_mask_row != nullptr ? every_row.data() : nullptr, false, self.head_enabled,
                              "TransformerDecoderBlock::step", self_weights.data(), heads.data());
  layers_detail::linear(heads.data(), nb, d, self.w_o.data(), d, self.b_o.data(), out.data());
  a = x;
  add_to(a, out);
  // the cross-attention's input, LN2(a)
  ln2_.forward(a, queries_input, norm);
}

void TransformerDecoderBlock::step_cross(const Tensor3& queries_input, const Tensor2& source_bias,
                                         const Mask1& source_padded, const TransformerDecoderLayerState& state,
                                         Tensor3& heads, Tensor4& cross_weights) const {
  const std::size_t nb = queries_input.shape(0), d = config_.d_model, nh = config_.heads;
  const std::size_t nx = state.cross_k.shape(1);
  ATTN_REQUIRE(queries_input.shape(1) == 1 && queries_input.shape(2) == d && state.cross_k.shape(0) == nb,
               "TransformerDecoderBlock::step",
               "queries_input has shape " + shape_string(queries_input.shape()) + "; expected [" +
                   std::to_string(state.cross_k.shape(0)) + ", 1, " + std::to_string(d) + "]");
  ATTN_REQUIRE(source_bias.shape(0) == nb && source_bias.shape(1) == nx && source_padded.size() == nb,
               "TransformerDecoderBlock::step",
               "source_bias has shape " + shape_string(source_bias.shape()) + "; expected [" + std::to_string(nb) +
                   ", " + std::to_string(nx) + "]");
  // CrossMHA's heads with the memory's keys / values from start(): softmax(Q_h K_hᵀ / √d) V_h
  const MultiHeadCrossAttention& cross = cross_attention_;
  Tensor3 q = xt::empty<float>({nb, std::size_t{1}, d});
  layers_detail::linear(queries_input.data(), nb, d, cross.w_q.data(), d, cross.b_q.data(), q.data());
  ensure_shape(heads, std::array<std::size_t, 3>{nb, 1, d});
  ensure_shape(cross_weights, std::array<std::size_t, 4>{nb, nh, 1, nx});
  layers_detail::attend_heads({nb, 1, nx, d, nh, nx * d}, q.data(), state.cross_k.data(), state.cross_v.data(),
                              source_bias.data(), nx, source_padded.data(), false, cross.head_enabled,
                              "TransformerDecoderBlock::step", cross_weights.data(), heads.data());
}

void TransformerDecoderBlock::step_finish(const Tensor3& a, const Tensor3& heads, Tensor3& y) const {
  const std::size_t nb = a.shape(0), d = config_.d_model;
  ATTN_REQUIRE(heads.shape(0) == nb && heads.shape(1) == 1 && heads.shape(2) == d && a.shape(1) == 1,
               "TransformerDecoderBlock::step",
               "the cross-attention heads have shape " + shape_string(heads.shape()) + "; expected [" +
                   std::to_string(nb) + ", 1, " + std::to_string(d) + "]");
  // c = a + CrossMHA: the heads through W_o
  const MultiHeadCrossAttention& cross = cross_attention_;
  Tensor3 out = xt::empty<float>({nb, std::size_t{1}, d});
  layers_detail::linear(heads.data(), nb, d, cross.w_o.data(), d, cross.b_o.data(), out.data());
  Tensor3 c = a;
  add_to(c, out);
  // y = c + W2 · act(W1 · LN3(c))
  LayerNormCache norm;
  Tensor3 normed;
  ln3_.forward(c, normed, norm);
  Tensor3 ff = xt::empty<float>({nb, std::size_t{1}, config_.ff_dim});
  ff1_.forward_rows(normed.data(), nb, ff.data());
  activation_forward(config_.activation, ff.data(), ff.data(), ff.size());
  ensure_shape(y, std::array<std::size_t, 3>{nb, 1, d});
  ff2_.forward_rows(ff.data(), nb, y.data());
  add_to(y, c);
}

void TransformerDecoderBlock::parameters(ParameterList& out, const std::string& prefix) {
  ln1_.parameters(out, prefix + "ln1.");
  self_attention_.parameters(out, prefix + "self_attention.");
  ln2_.parameters(out, prefix + "ln2.");
  cross_attention_.parameters(out, prefix + "cross_attention.");
  ln3_.parameters(out, prefix + "ln3.");
  ff1_.parameters(out, prefix + "ff1.");
  ff2_.parameters(out, prefix + "ff2.");
}

}  // namespace attn
