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
//   scaled_dot  score_t = qᵀ (h_t W) / √A             q [A], W [D, A]   (keys h_t W, as in a Transformer)
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
// Why scaled_dot has a key projection and a unit-variance query (issue 25): as qᵀ h_t / √D with
// a Glorot-sized q [D] it never left uniform weights in the Studio (0.1665–0.1669 on six tokens
// after 85 Adam steps). Adam moves each parameter by about the learning rate per step, so a score
// can change per step by about lr · Σ |∂score/∂θ|: with q alone that is lr · Σ_i |h_t,i| / √D
// ≈ lr · 0.4 for BiLSTM states of ~0.05, against ≈ lr · 25 for additive's 2,048 weights in W.
// The keys h_t W and a query of unit variance (the scale 1/√A assumes it) give scaled_dot the
// same reach (≈ lr · 18). `dot` keeps the bare form (a learned query against the states) and
// learns as slowly; it is there to be compared.
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
  Tensor1 query_key;  // [D] the vector k with score_t = k·h_t (dot: q; general: qᵀ W; scaled_dot: W q / √A)
  Tensor2 scores;     // [B, T]
  Tensor2 weights;    // [B, T] attention weights, masked positions exactly 0 (for visualisation)
};

class AttentionPooling {
 public:
  // Throws std::invalid_argument for location/cosine (listing the supported kinds) and
  // ShapeError for input_dim == 0 or (additive/concat/scaled_dot) attention_dim == 0.
  // attention_dim is read by additive, concat and scaled_dot only.
  AttentionPooling(ScoreKind kind, std::size_t input_dim, std::size_t attention_dim, Rng& rng);

  // h [B, T, D], mask [B, T] (1 = real token) or null -> pooled [B, D]. A row whose positions
  // are all masked gets zero weights and a zero pooled vector.
  void forward(const Tensor3& h, const Mask2* mask, Tensor2& pooled, AttentionPoolingCache& cache) const;
  // dpooled [B, D] -> dh [B, T, D] (overwritten; exactly 0 at masked positions); parameter grads +=.
  void backward(const Tensor2& dpooled, const AttentionPoolingCache& cache, Tensor3& dh);
  // Appends this kind's parameters in construction order: additive w, b, v; concat q, w, v;
  // general and scaled_dot q, w; dot q.
  void parameters(ParameterList& out, const std::string& prefix);

  ScoreKind kind() const { return kind_; }
  std::size_t input_dim() const { return input_dim_; }
  std::size_t attention_dim() const { return attention_dim_; }

  // Parameters and their gradients; a kind uses only those listed in the table above.
  Tensor1 q, dq;  // [D]; scaled_dot [A]
  Tensor2 w, dw;  // additive [D, A]; concat [2D, A]; general [D, D]; scaled_dot [D, A]
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
