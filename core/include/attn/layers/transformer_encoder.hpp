// A residual Transformer encoder block, pre-norm (Xiong et al. 2020: LayerNorm inside the
// residual branch trains without warm-up tricks at our small sizes):
//
//   a = x + Dropout(MHA(LN1(x)))                 [B, T, D]
//   y = a + Dropout(W2 · act(W1 · LN2(a)))        [B, T, D], W1 [D, F], W2 [F, D]
//
// Legend: B batch, T time, D model size, H heads, F feed-forward size.
#pragma once

#include "attn/layers/activations.hpp"
#include "attn/layers/dense.hpp"
#include "attn/layers/dropout.hpp"
#include "attn/layers/layer_norm.hpp"
#include "attn/layers/multi_head_attention.hpp"

namespace attn {

struct TransformerEncoderConfig {
  std::size_t d_model = 32;
  std::size_t heads = 2;
  std::size_t ff_dim = 64;
  float dropout = 0.f;
  Activation activation = Activation::gelu;
};

struct TransformerEncoderCache {
  LayerNormCache ln1;
  Tensor3 ln1_out;  // [B, T, D]
  MultiHeadAttentionCache attention;
  Tensor3 attention_out;  // [B, T, D]
  DropoutCache drop1;
  Tensor3 a;  // x + dropout(attention): [B, T, D]
  LayerNormCache ln2;
  Tensor3 ln2_out;  // [B, T, D]
  DenseCache ff1;
  Tensor3 ff_pre;   // W1 · LN2(a): [B, T, F]
  Tensor3 ff_act;   // act(ff_pre): [B, T, F]
  Tensor3 ff_tanh;  // GELU only: tanh u of ff_pre (activations.hpp), [B, T, F]
  DenseCache ff2;
  Tensor3 ff_out;  // [B, T, D]
  DropoutCache drop2;
};

class TransformerEncoderBlock {
 public:
  TransformerEncoderBlock(const TransformerEncoderConfig& config, Rng& rng);

  // x [B, T, D], key_padding [B, T] (1 = real) or null -> y [B, T, D].
  // `training` switches dropout on (drawing from `rng`); attention weights: cache.attention.weights.
  void forward(const Tensor3& x, const Mask2* key_padding, bool causal, bool training, Rng& rng, Tensor3& y,
               TransformerEncoderCache& cache) const;
  // dy [B, T, D] -> dx [B, T, D]; parameter gradients accumulate.
  void backward(const Tensor3& dy, const TransformerEncoderCache& cache, Tensor3& dx);

  void parameters(ParameterList& out, const std::string& prefix);
  const TransformerEncoderConfig& config() const { return config_; }
  MultiHeadSelfAttention& attention() { return attention_; }

 private:
  TransformerEncoderConfig config_;
  LayerNorm ln1_;
  MultiHeadSelfAttention attention_;
  Dropout drop1_;
  LayerNorm ln2_;
  Dense ff1_;
  Dense ff2_;
  Dropout drop2_;
  // Scratch for backward, reused across steps.
  Tensor3 d_ff_out_, d_ff_act_, d_ff_pre_, d_ln2_out_, d_a_, d_attention_out_, d_ln1_out_;
};

}  // namespace attn
