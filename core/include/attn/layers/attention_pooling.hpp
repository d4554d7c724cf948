// Attention pooling: a sequence of hidden states becomes one vector, a weighted average whose
// weights a learned query chooses (Yang et al. 2016, "Hierarchical Attention Networks"; the
// course's Keras attention layer). Pooling has no decoder state, so every kind scores the
// hidden states against learned parameters only.
//
// Legend: B batch, T time, D input (hidden state) size, A attention hidden size.
//
//   additive    score_t = vᵀ tanh(h_t W + b)          W [D, A], b [A], v [A]   (default)
//   concat      score_t = vᵀ tanh([q; h_t] W)         q [D], W [2D, A], v [A]
//   general     score_t = qᵀ W h_t                    q [D], W [D, D]
//   scaled_dot  score_t = qᵀ h_t / √D                 q [D]
//   dot         score_t = qᵀ h_t                      q [D]
//
//   a = masked softmax over t of score     [B, T]   (padding gets exactly 0)
//   pooled = Σ_t a_t h_t                   [B, D]
//
// Matrices are stored [in, out] (rows multiply from the left: h_t W), unlike the [out, in] of
// attention/scores.hpp, because that is the layout kernels::gemm consumes without a transpose.
// `location` and `cosine` are not supported: location needs a decoder state and a fixed T,
// cosine has no trainable part here.
//
// Gradients follow layers/README.md: parameter grads +=, input grads (dh) overwritten.
#pragma once

#include <string>

#include "attn/attention/scores.hpp"
#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"

namespace attn {

// What backward needs; owned by the caller, resized only when shapes change.
struct AttentionPoolingCache {
  Tensor3 h;          // [B, T, D] copy of the input
  Mask2 mask;         // [B, T] copy of the mask (all ones when none was given)
  Tensor3 hidden;     // [B, T, A] tanh(...) of additive/concat; empty for the dot family
  Tensor1 query_key;  // [D] the vector k with score_t = k·h_t (dot family: q, q/√D or W q)
  Tensor2 scores;     // [B, T]
  Tensor2 weights;    // [B, T] attention weights, masked positions exactly 0 (for visualisation)
};

class AttentionPooling {
 public:
  // Throws std::invalid_argument for location/cosine (listing the supported kinds) and
  // ShapeError for input_dim == 0 or (additive/concat) attention_dim == 0. attention_dim is
  // read by additive and concat only.
  AttentionPooling(ScoreKind kind, std::size_t input_dim, std::size_t attention_dim, Rng& rng);

  // h [B, T, D], mask [B, T] (1 = real token) or null -> pooled [B, D]. A row whose positions
  // are all masked gets zero weights and a zero pooled vector.
  void forward(const Tensor3& h, const Mask2* mask, Tensor2& pooled, AttentionPoolingCache& cache) const;
  // dpooled [B, D] -> dh [B, T, D] (overwritten; exactly 0 at masked positions); parameter grads +=.
  void backward(const Tensor2& dpooled, const AttentionPoolingCache& cache, Tensor3& dh);
  // Appends this kind's parameters in construction order: additive w, b, v; concat q, w, v;
  // general q, w; dot / scaled_dot q.
  void parameters(ParameterList& out, const std::string& prefix);

  ScoreKind kind() const { return kind_; }
  std::size_t input_dim() const { return input_dim_; }
  std::size_t attention_dim() const { return attention_dim_; }

  // Parameters and their gradients; a kind uses only those listed in the table above.
  Tensor1 q, dq;  // [D]
  Tensor2 w, dw;  // additive [D, A]; concat [2D, A]; general [D, D]
  Tensor1 b, db;  // [A] additive only
  Tensor1 v, dv;  // [A] additive, concat

 private:
  bool uses_hidden_layer() const { return kind_ == ScoreKind::additive || kind_ == ScoreKind::concat; }

  ScoreKind kind_;
  std::size_t input_dim_;
  std::size_t attention_dim_;
  // backward scratch (reused across calls)
  Tensor2 dweights_, dscores_;  // [B, T]
  Tensor3 dpre_;                // [B, T, A]
  Tensor1 dbias_, dkey_;        // [A], [D]
};

}  // namespace attn
