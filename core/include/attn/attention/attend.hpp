// One attention step for a single query, every intermediate kept: the Attention Lab shows each.
//   scores   = score(s, h_t)                       [T]
//   weights  = softmax(scores / τ), masked         [T]
//   weighted = weights[t] · h_t                    [T, D]
//   context  = Σ_t weighted[t]                     [D]
#pragma once

#include <cstdint>

#include "attn/attention/scores.hpp"

namespace attn {

struct AttendResult {
  Tensor1 scores;    // [T]
  Tensor1 weights;   // [T]
  Tensor2 weighted;  // [T, Dh]
  Tensor1 context;   // [Dh]
};

// query [Ds], annotations [T, Dh], key_mask [T] (1 = visible) or null for none.
AttendResult attend(ScoreKind kind, const Tensor1& query, const Tensor2& annotations, const ScoreParams& params = {},
                    float temperature = 1.f, const Mask1* key_mask = nullptr);

// Parameters for `kind` sized for query size ds, key size dh, T keys and hidden size
// attention_dim, drawn from U(-1/√fan_in, 1/√fan_in) with a seeded generator: the same seed
// gives the same parameters natively and in wasm. Kinds without parameters get an empty set.
ScoreParams init_score_params(ScoreKind kind, std::size_t ds, std::size_t dh, std::size_t t, std::size_t attention_dim,
                              std::uint64_t seed);

}  // namespace attn
