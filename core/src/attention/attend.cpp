#include "attn/attention/attend.hpp"

#include <cmath>

#include "attn/attention/context.hpp"
#include "attn/attention/softmax.hpp"
#include "attn/random.hpp"

namespace attn {

AttendResult attend(ScoreKind kind, const Tensor1& query, const Tensor2& annotations, const ScoreParams& params,
                    float temperature, const Mask1* key_mask) {
  AttendResult r;
  r.scores = scores(kind, query, annotations, params);
  if (key_mask != nullptr) {
    ATTN_REQUIRE(key_mask->shape(0) == annotations.shape(0), "attend",
                 "mask has shape " + shape_string(key_mask->shape()) + " but there are " +
                     std::to_string(annotations.shape(0)) + " annotations");
    r.weights = masked_softmax(r.scores, *key_mask, 0, temperature);
  } else {
    r.weights = softmax(r.scores, 0, temperature);
  }
  r.weighted = weighted_annotations(r.weights, annotations);
  r.context = context_vector(r.weights, annotations);
  return r;
}

ScoreParams init_score_params(ScoreKind kind, std::size_t ds, std::size_t dh, std::size_t t, std::size_t attention_dim,
                              std::uint64_t seed) {
  ATTN_REQUIRE(
      ds > 0 && dh > 0 && t > 0, "init_score_params",
      "sizes must be >= 1 (ds=" + std::to_string(ds) + ", dh=" + std::to_string(dh) + ", T=" + std::to_string(t) + ")");
  Rng rng(seed);
  auto bound = [](std::size_t fan_in) { return 1.f / std::sqrt(static_cast<float>(fan_in)); };
  ScoreParams p;
  switch (kind) {
    case ScoreKind::general:
      p.w = random_uniform(rng, ds, dh, -bound(dh), bound(dh));
      break;
    case ScoreKind::additive:
      ATTN_REQUIRE(attention_dim > 0, "init_score_params", "attention_dim must be >= 1 for additive");
      p.w1 = random_uniform(rng, attention_dim, ds, -bound(ds), bound(ds));
      p.w2 = random_uniform(rng, attention_dim, dh, -bound(dh), bound(dh));
      p.v = random_uniform(rng, attention_dim, -bound(attention_dim), bound(attention_dim));
      break;
    case ScoreKind::concat:
      ATTN_REQUIRE(attention_dim > 0, "init_score_params", "attention_dim must be >= 1 for concat");
      p.w = random_uniform(rng, attention_dim, ds + dh, -bound(ds + dh), bound(ds + dh));
      p.v = random_uniform(rng, attention_dim, -bound(attention_dim), bound(attention_dim));
      break;
    case ScoreKind::location:
      p.w = random_uniform(rng, t, ds, -bound(ds), bound(ds));
      break;
    default:
      break;
  }
  return p;
}

}  // namespace attn
