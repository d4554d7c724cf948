// A residual Transformer decoder block, pre-norm like TransformerEncoderBlock (Xiong et al. 2020):
//
//   a = x + Dropout(SelfMHA(LN1(x)))            causal + target padding        [B, Ty, D]
//   c = a + Dropout(CrossMHA(LN2(a), m))        keys/values from the memory m  [B, Ty, D]
//   y = c + Dropout(W2 · act(W1 · LN3(c)))      W1 [D, F], W2 [F, D]           [B, Ty, D]
//
// Legend: B batch, Ty target positions, Tx source positions, D model size, H heads,
// F feed-forward size, C cache capacity (positions the decoding cache can hold before it grows).
//
// Training runs every target position at once (teacher forcing): the causal mask keeps position
// t from reading positions > t. A caller may give its own self-attention mask instead ([Ty, Ty],
// 1 = visible; the course trains with a learner's mask to show what a wrong one does), still
// combined with the target padding. Decoding runs one position at a time through step(): the block
// keeps the keys and values of the positions already decoded in a TransformerDecoderLayerState
// and appends one row per step, so a step costs O(t) attention and never recomputes the prefix.
// step() is inference only (no dropout) and gives the same numbers as forward() at that position
// up to float rounding (GEMMs of different shapes sum in different orders).
#pragma once

#include "attn/layers/activations.hpp"
#include "attn/layers/cross_attention.hpp"
#include "attn/layers/dense.hpp"
#include "attn/layers/dropout.hpp"
#include "attn/layers/layer_norm.hpp"
#include "attn/layers/multi_head_attention.hpp"
#include "attn/layers/transformer_encoder.hpp"

namespace attn {

struct TransformerDecoderCache {
  LayerNormCache ln1;
  Tensor3 ln1_out;  // [B, Ty, D]
  MultiHeadAttentionCache self_attention;
  Tensor3 self_out;  // [B, Ty, D]
  DropoutCache drop1;
  Tensor3 a;  // [B, Ty, D]
  LayerNormCache ln2;
  Tensor3 ln2_out;  // [B, Ty, D]
  CrossAttentionCache cross_attention;
  Tensor3 cross_out;  // [B, Ty, D]
  DropoutCache drop2;
  Tensor3 c;  // [B, Ty, D]
  LayerNormCache ln3;
  Tensor3 ln3_out;  // [B, Ty, D]
  DenseCache ff1;
  Tensor3 ff_pre, ff_act, ff_tanh;  // [B, Ty, F] (ff_tanh: GELU only)
  DenseCache ff2;
  Tensor3 ff_out;  // [B, Ty, D]
  DropoutCache drop3;
};

// One block's decoding cache.
struct TransformerDecoderLayerState {
  Tensor3 self_k, self_v;    // [B, C, D] rows 0 .. length − 1: keys / values of the decoded positions
  Tensor3 cross_k, cross_v;  // [B, Tx, D] the memory's keys / values, projected once by start()
  std::size_t length = 0;    // positions decoded so far
};

// What one decoding step attended to.
struct TransformerStepWeights {
  Tensor4 self_weights;   // [B, H, 1, t + 1] over the positions 0 .. t decoded so far
  Tensor4 cross_weights;  // [B, H, 1, Tx] over the source (padding exactly 0)
};

class TransformerDecoderBlock {
 public:
  // Uses config's d_model, heads, ff_dim, dropout and activation.
  TransformerDecoderBlock(const TransformerEncoderConfig& config, Rng& rng);

  // x [B, Ty, D], memory [B, Tx, D], target_padding [B, Ty] and source_padding [B, Tx]
  // (1 = real) or null, self_mask [Ty, Ty] (1 = query t may see position i) or null for the causal
  // mask -> y [B, Ty, D]. `training` switches dropout on (drawing from rng).
  void forward(const Tensor3& x, const Tensor3& memory, const Mask2* target_padding, const Mask2* source_padding,
               bool training, Rng& rng, Tensor3& y, TransformerDecoderCache& cache,
               const Mask2* self_mask = nullptr) const;
  // dy [B, Ty, D] -> dx [B, Ty, D], dmemory [B, Tx, D] (both overwritten); parameter grads +=.
  void backward(const Tensor3& dy, const TransformerDecoderCache& cache, Tensor3& dx, Tensor3& dmemory);

  // Decoding. start: memory [B, Tx, D] -> state with the memory's keys / values and length 0.
  void start(const Tensor3& memory, TransformerDecoderLayerState& state) const;
  // x [B, 1, D] (the input at position t = state.length), source_bias [B, Tx] (0 real, −inf
  // padding) and source_padded [B] (1 when row b has padding; both from the model's encoding)
  // -> y [B, 1, D]; appends position t's keys / values (state.length becomes t + 1).
  // self_mask_row [t + 1] (1 = visible; row t of the mask forward() was trained with) or null:
  // every decoded position (the causal mask's row t).
  void step(const Tensor3& x, const Tensor2& source_bias, const Mask1& source_padded,
            TransformerDecoderLayerState& state, Tensor3& y, TransformerStepWeights& weights,
            const std::uint8_t* self_mask_row = nullptr) const;

  // step() in its three parts, so a caller can put its own cross-attention between them:
  //   step_self:   x [B, 1, D] -> a = x + SelfMHA(LN1(x)) [B, 1, D] over the cache (which grows
  //                by position t) and queries_input = LN2(a) [B, 1, D], what the cross-attention's
  //                queries are projected from; self_weights [B, H, 1, t + 1]
  //   step_cross:  queries_input -> heads [B, 1, D] (each head's P_h V_h in its columns, before
  //                W_o) and cross_weights [B, H, 1, Tx], with the memory's keys / values of state
  //   step_finish: a, heads -> y = c + W2 · act(W1 · LN3(c)) [B, 1, D], c = a + heads W_o + b_o
  void step_self(const Tensor3& x, TransformerDecoderLayerState& state, const std::uint8_t* self_mask_row, Tensor3& a,
                 Tensor3& queries_input, Tensor4& self_weights) const;
  void step_cross(const Tensor3& queries_input, const Tensor2& source_bias, const Mask1& source_padded,
                  const TransformerDecoderLayerState& state, Tensor3& heads, Tensor4& cross_weights) const;
  void step_finish(const Tensor3& a, const Tensor3& heads, Tensor3& y) const;

  // Appends ln1.*, self_attention.*, ln2.*, cross_attention.*, ln3.*, ff1.*, ff2.*.
  void parameters(ParameterList& out, const std::string& prefix);
  const TransformerEncoderConfig& config() const { return config_; }
  MultiHeadSelfAttention& self_attention() { return self_attention_; }
  MultiHeadCrossAttention& cross_attention() { return cross_attention_; }

 private:
  TransformerEncoderConfig config_;
  LayerNorm ln1_;
  MultiHeadSelfAttention self_attention_;
  Dropout drop1_;
  LayerNorm ln2_;
  MultiHeadCrossAttention cross_attention_;
  Dropout drop2_;
  LayerNorm ln3_;
  Dense ff1_;
  Dense ff2_;
  Dropout drop3_;
  // Scratch for backward, reused across steps.
  Tensor3 d_ff_out_, d_ff_act_, d_ff_pre_, d_ln3_out_, d_c_, d_cross_out_, d_ln2_out_, d_a_, d_self_out_, d_ln1_out_;
};

}  // namespace attn
