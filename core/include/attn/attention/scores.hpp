// Alignment scores: how well each key (annotation) h_t matches a query (decoder state) s.
//
// Legend: Q number of queries, T number of keys (annotations), Ds query size, Dh key size,
// A size of the additive/concat hidden layer.
//
//   dot         score(s, h) = sᵀh                          (Ds == Dh)
//   scaled_dot  score(s, h) = sᵀh / √Dh                     (Ds == Dh)
//   general     score(s, h) = sᵀ W h                        W  [Ds, Dh]
//   additive    score(s, h) = vᵀ tanh(W1 s + W2 h)          W1 [A, Ds], W2 [A, Dh], v [A]  (Bahdanau)
//   concat      score(s, h) = vᵀ tanh(W [s; h])             W  [A, Ds + Dh], v [A]         (Luong)
//   location    score(s)_t  = (W s)_t, independent of h     W  [T, Ds]                     (Luong)
//   cosine      score(s, h) = sᵀh / (|s| |h|), 0 if either is the zero vector  (Ds == Dh)
//
// Every function takes many queries at once (queries [Q, Ds] -> scores [Q, T]); the overload of
// `scores` taking one query [Ds] returns [T].
#pragma once

#include <string>
#include <vector>

#include "attn/tensor.hpp"

namespace attn {

enum class ScoreKind { dot, scaled_dot, general, additive, concat, location, cosine };

// "dot", "scaled_dot", "general", "additive", "concat", "location", "cosine".
const char* score_kind_name(ScoreKind kind);
// Inverse of score_kind_name; throws std::invalid_argument listing the valid names.
ScoreKind score_kind_from_name(const std::string& name);
const std::vector<ScoreKind>& all_score_kinds();
// True for the kinds that read ScoreParams (general, additive, concat, location).
bool score_kind_has_parameters(ScoreKind kind);

// Learnable parameters; a kind reads only the ones listed for it in the table above.
struct ScoreParams {
  Tensor2 w;   // general [Ds, Dh]; concat [A, Ds + Dh]; location [T, Ds]
  Tensor2 w1;  // additive [A, Ds]
  Tensor2 w2;  // additive [A, Dh]
  Tensor1 v;   // additive, concat [A]
};

// queries [Q, D], keys [T, D] -> [Q, T]
Tensor2 dot_scores(const Tensor2& queries, const Tensor2& keys);
// queries [Q, D], keys [T, D] -> [Q, T], divided by √D
Tensor2 scaled_dot_scores(const Tensor2& queries, const Tensor2& keys);
// queries [Q, Ds], keys [T, Dh], w [Ds, Dh] -> [Q, T]
Tensor2 general_scores(const Tensor2& queries, const Tensor2& keys, const Tensor2& w);
// queries [Q, Ds], keys [T, Dh], w1 [A, Ds], w2 [A, Dh], v [A] -> [Q, T]
Tensor2 additive_scores(const Tensor2& queries, const Tensor2& keys, const Tensor2& w1, const Tensor2& w2,
                        const Tensor1& v);
// queries [Q, Ds], keys [T, Dh], w [A, Ds + Dh], v [A] -> [Q, T]
Tensor2 concat_scores(const Tensor2& queries, const Tensor2& keys, const Tensor2& w, const Tensor1& v);
// queries [Q, Ds], keys [T, Dh] (only T is used), w [T, Ds] -> [Q, T]
Tensor2 location_scores(const Tensor2& queries, const Tensor2& keys, const Tensor2& w);
// queries [Q, D], keys [T, D] -> [Q, T]
Tensor2 cosine_scores(const Tensor2& queries, const Tensor2& keys);

// Dispatch on kind. queries [Q, Ds], keys [T, Dh] -> [Q, T].
Tensor2 scores(ScoreKind kind, const Tensor2& queries, const Tensor2& keys, const ScoreParams& params = {});
// One query: query [Ds], keys [T, Dh] -> [T].
Tensor1 scores(ScoreKind kind, const Tensor1& query, const Tensor2& keys, const ScoreParams& params = {});

}  // namespace attn
