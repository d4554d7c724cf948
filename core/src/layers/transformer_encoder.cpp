#include "attn/layers/transformer_encoder.hpp"

namespace attn {
TransformerEncoderBlock::TransformerEncoderBlock(const TransformerEncoderConfig& config, Rng& rng)
    : config_(config),
      ln1_(config.d_model),
      attention_(config.d_model, config.heads, rng),
      drop1_(config.dropout),
      ln2_(config.d_model),
      ff1_(config.d_model, config.ff_dim, rng),
      ff2_(config.ff_dim, config.d_model, rng),
      drop2_(config.dropout) {}

void TransformerEncoderBlock::forward(const Tensor3& x, const Mask2* key_padding, bool causal, bool training, Rng& rng,
                                      Tensor3& y, TransformerEncoderCache& c) const {
  ATTN_REQUIRE(x.shape(2) == config_.d_model, "TransformerEncoderBlock::forward",
               "x has shape " + shape_string(x.shape()) +
                   "; its last axis must be d_model = " + std::to_string(config_.d_model));
  // a = x + Dropout(MHA(LN1(x)))
  ln1_.forward(x, c.ln1_out, c.ln1);
  attention_.forward(c.ln1_out, key_padding, causal, c.attention_out, c.attention);
  ensure_shape(c.a, x.shape());
  drop1_.forward(c.attention_out.data(), c.a.data(), c.a.size(), training, rng, c.drop1);
  add_to(c.a, x);
  // y = a + Dropout(W2 · act(W1 · LN2(a)))
  ln2_.forward(c.a, c.ln2_out, c.ln2);
  ff1_.forward(c.ln2_out, c.ff_pre, c.ff1);
  ensure_shape(c.ff_act, c.ff_pre.shape());
  if (config_.activation == Activation::gelu) {  // keeps tanh u for the backward
    ensure_shape(c.ff_tanh, c.ff_pre.shape());
    gelu_forward_keep_tanh(c.ff_pre.data(), c.ff_act.data(), c.ff_tanh.data(), c.ff_pre.size());
  } else {
    activation_forward(config_.activation, c.ff_pre.data(), c.ff_act.data(), c.ff_pre.size());
  }
  ff2_.forward(c.ff_act, c.ff_out, c.ff2);
  ensure_shape(y, x.shape());
  drop2_.forward(c.ff_out.data(), y.data(), y.size(), training, rng, c.drop2);
  add_to(y, c.a);
}

void TransformerEncoderBlock::backward(const Tensor3& dy, const TransformerEncoderCache& c, Tensor3& dx) {
  // y = a + Dropout(ff_out): both branches receive dy.
  ensure_shape(d_ff_out_, dy.shape());
  drop2_.backward(dy.data(), d_ff_out_.data(), dy.size(), c.drop2);
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
  // ff_pre = W1 · LN2(a)
  ff1_.backward(d_ff_pre_, c.ff1, d_ln2_out_);
  // ln2_out = LN2(a); a also feeds the residual: da = dy + dLN2
  ln2_.backward(d_ln2_out_, c.ln2, d_a_);
  add_to(d_a_, dy);
  // a = x + Dropout(attention_out)
  ensure_shape(d_attention_out_, dy.shape());
  drop1_.backward(d_a_.data(), d_attention_out_.data(), d_a_.size(), c.drop1);
  // attention_out = MHA(ln1_out)
  attention_.backward(d_attention_out_, c.attention, d_ln1_out_);
  // ln1_out = LN1(x); x also feeds the residual: dx = da + dLN1
  ln1_.backward(d_ln1_out_, c.ln1, dx);
  add_to(dx, d_a_);
}

void TransformerEncoderBlock::parameters(ParameterList& out, const std::string& prefix) {
  ln1_.parameters(out, prefix + "ln1.");
  attention_.parameters(out, prefix + "attention.");
  ln2_.parameters(out, prefix + "ln2.");
  ff1_.parameters(out, prefix + "ff1.");
  ff2_.parameters(out, prefix + "ff2.");
}

}  // namespace attn
