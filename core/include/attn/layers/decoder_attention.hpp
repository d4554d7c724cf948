// Decoder-side attention for seq2seq, one decoder step at a time.
//
// Legend: B batch, T source length, Ds decoder state size, Dh annotation (encoder state) size,
// A attention hidden size.
//
// Bahdanau et al. 2015 ("additive"), scored with the PREVIOUS decoder state s_{t-1}:
//   e_j = vᵀ tanh(s_{t-1} W1 + h_j W2)    W1 [Ds, A], W2 [Dh, A], v [A]
//   a = masked softmax over j of e,  context c = Σ_j a_j h_j                     [B, Dh]
// h_j W2 does not depend on the step, so `precompute` does it once per source sequence.
//
// Luong et al. 2015 ("global" attention), scored with the CURRENT decoder state s_t:
//   dot         e_j = s_tᵀ h_j                             (Ds == Dh)
//   scaled_dot  e_j = s_tᵀ h_j / √Dh                       (Ds == Dh)
//   general     e_j = s_tᵀ W_a h_j                          W_a [Ds, Dh]
//   concat      e_j = v_aᵀ tanh([s_t; h_j] W_a)             W_a [Ds + Dh, A], v_a [A], A = Ds
//   location    e   = (s_t W_a)[0..T)                       W_a [Ds, max_source_len]
//   a = masked softmax of e,  c = Σ_j a_j h_j,  attentional h̃ = tanh([c; s_t] W_c)
//                                                           W_c [Dh + Ds, Ds]
// Matrices are [in, out] (x W). Weights are Glorot-uniform.
//
// Gradient rule, with one documented exception: parameter grads accumulate (+=) and input
// grads are overwritten (ds_prev, ds_t), EXCEPT the annotations and Bahdanau's precomputed keys.
// Every decoder step reads the same annotations, so their gradient is the sum over steps:
// step_backward and keys_backward ADD into dannotations / dkeys. The caller zeroes them
// before walking the steps backwards and passes them, correctly shaped, to every
// step; a wrongly shaped accumulator throws instead of being silently reset.
//
// Bahdanau per source sequence: precompute once; step_forward per decoder step (one cache
// each); step_backward for every step in reverse; then keys_backward once.
// Luong concat uses A = Ds (the constructor takes no attention size; Luong et al. use the
// hidden size throughout).
#pragma once

#include <string>

#include "attn/attention/scores.hpp"
#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"

namespace attn {

// ---------------------------------------------------------------------------------------------
// Bahdanau

struct BahdanauKeys {
  Tensor3 projected;  // [B, T, A] annotations W2
};
struct BahdanauKeysGrad {
  Tensor3 projected;  // [B, T, A] accumulated (+=) over steps
};

struct BahdanauStepCache {
  Tensor2 s_prev;       // [B, Ds]
  Tensor3 annotations;  // [B, T, Dh] copy (step_backward needs h_j for da_j = dc·h_j)
  Mask2 mask;           // [B, T] all ones when none was given
  Tensor3 hidden;       // [B, T, A] tanh(s W1 + h W2)
  Tensor2 query;        // [B, A] s_prev W1
  Tensor2 scores;       // [B, T]
  Tensor2 weights;      // [B, T]
};

class BahdanauAttention {
 public:
  BahdanauAttention(std::size_t query_dim, std::size_t key_dim, std::size_t attention_dim, Rng& rng);

  // annotations [B, T, Dh] -> keys.projected [B, T, A]; once per source sequence.
  void precompute(const Tensor3& annotations, BahdanauKeys& keys) const;
  // s_prev [B, Ds], annotations [B, T, Dh], keys from precompute, mask [B, T] or null
  // -> context [B, Dh], weights [B, T] (masked exactly 0; an all-masked row gives zeros).
  void step_forward(const Tensor2& s_prev, const Tensor3& annotations, const BahdanauKeys& keys, const Mask2* mask,
                    Tensor2& context, Tensor2& weights, BahdanauStepCache& cache) const;
  // dcontext [B, Dh] -> ds_prev [B, Ds] (overwritten), dannotations [B, T, Dh] (+=),
  // dkeys.projected [B, T, A] (+=); dW1, dv +=.
  void step_backward(const Tensor2& dcontext, const BahdanauStepCache& cache, Tensor2& ds_prev, Tensor3& dannotations,
                     BahdanauKeysGrad& dkeys);
  // Backward of precompute, once after every step_backward: dkeys [B, T, A], annotations
  // [B, T, Dh] -> dannotations [B, T, Dh] (+=); dW2 +=.
  void keys_backward(const BahdanauKeysGrad& dkeys, const Tensor3& annotations, Tensor3& dannotations);
  // Appends w1, w2, v.
  void parameters(ParameterList& out, const std::string& prefix);

  Tensor2 w1, dw1;  // [Ds, A]
  Tensor2 w2, dw2;  // [Dh, A]
  Tensor1 v, dv;    // [A]

 private:
  std::size_t query_dim_, key_dim_, attention_dim_;
  Tensor2 dweights_, dscores_;  // [B, T]
  Tensor2 dquery_;              // [B, A]
};

// ---------------------------------------------------------------------------------------------
// Luong

struct LuongStepCache {
  Tensor2 s;            // [B, Ds]
  Tensor3 annotations;  // [B, T, Dh] copy
  Mask2 mask;           // [B, T]
  Tensor2 key;          // [B, Dh] k with e_j = k·h_j (dot: s, scaled_dot: s/√Dh, general: s W_a)
  Tensor2 query;        // [B, A] concat: s W_a[:Ds]
  Tensor3 hidden;       // [B, T, A] concat: tanh(s W_a[:Ds] + h W_a[Ds:])
  Tensor2 scores;       // [B, T]
  Tensor2 weights;      // [B, T]
  Tensor2 joined;       // [B, Dh + Ds] [c; s]
  Tensor2 attentional;  // [B, Ds] h̃
};

class LuongAttention {
 public:
  // kind: dot, scaled_dot, general, concat or location. Throws std::invalid_argument for cosine
  // and for dot/scaled_dot with query_dim != key_dim; ShapeError for zero sizes or location
  // with max_source_len == 0. max_source_len is read by location only.
  LuongAttention(ScoreKind kind, std::size_t query_dim, std::size_t key_dim, std::size_t max_source_len, Rng& rng);

  // s_t [B, Ds], annotations [B, T, Dh], mask [B, T] or null -> context [B, Dh],
  // attentional [B, Ds], weights [B, T]. location throws ShapeError when T > max_source_len.
  void step_forward(const Tensor2& s_t, const Tensor3& annotations, const Mask2* mask, Tensor2& context,
                    Tensor2& attentional, Tensor2& weights, LuongStepCache& cache) const;
  // dattentional [B, Ds] -> ds_t [B, Ds] (overwritten), dannotations [B, T, Dh] (+=); params +=.
  void step_backward(const Tensor2& dattentional, const LuongStepCache& cache, Tensor2& ds_t, Tensor3& dannotations);
  // Appends (kind-dependent) w_a, v_a, then w_c.
  void parameters(ParameterList& out, const std::string& prefix);

  ScoreKind kind() const { return kind_; }

  Tensor2 w_a, dw_a;  // general [Ds, Dh]; concat [Ds + Dh, A]; location [Ds, max_source_len]
  Tensor1 v_a, dv_a;  // concat [A]
  Tensor2 w_c, dw_c;  // [Dh + Ds, Ds]

 private:
  ScoreKind kind_;
  std::size_t query_dim_, key_dim_, max_source_len_, attention_dim_;
  Tensor2 dpre_out_, djoined_;  // [B, Ds], [B, Dh + Ds]
  Tensor2 dweights_, dscores_;  // [B, T]
  Tensor2 dkey_, dquery_;       // [B, Dh], [B, A]
  Tensor3 dpre_;                // [B, T, A]
};

}  // namespace attn
