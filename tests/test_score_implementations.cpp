// One truth for scores: the engine scores annotations in three places — attention/scores (weights
// [out, in], one function per kind), layers/decoder_attention (Bahdanau and Luong, weights
// [in, out]) and layers/attention_pooling (a learned query, weights [in, out]). The course grades
// learners against all three, so for every kind two of them share, the same (transposed) weights
// must give the same scores.
#include <doctest/doctest.h>

#include <cmath>

#include "attn/attention/scores.hpp"
#include "attn/layers/attention_pooling.hpp"
#include "attn/layers/decoder_attention.hpp"
#include "attn/random.hpp"

using namespace attn;

namespace {

constexpr std::size_t kT = 5, kD = 4, kA = 3;

template <class Tensor>
void fill(Tensor& x, Rng& rng) {
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
}

Tensor2 random_matrix(std::size_t rows, std::size_t cols, Rng& rng) {
  Tensor2 m = xt::zeros<float>({rows, cols});
  fill(m, rng);
  return m;
}

Tensor2 transpose(const Tensor2& m) { return xt::transpose(m); }

// scores [T] of the functions in attention/scores.hpp for one query.
Tensor1 reference_scores(ScoreKind kind, const Tensor1& s, const Tensor2& h, const ScoreParams& p) {
  return scores(kind, s, h, p);
}

void require_same(const Tensor1& reference, const Tensor2& layer_scores, const char* what) {
  CAPTURE(what);
  REQUIRE(layer_scores.shape(0) == 1);
  REQUIRE(layer_scores.shape(1) == reference.shape(0));
  for (std::size_t t = 0; t < reference.shape(0); ++t) {
    CAPTURE(t);
    CHECK(layer_scores(0, t) == doctest::Approx(reference(t)).epsilon(1e-5).scale(1.0));
  }
}

struct Inputs {
  Tensor1 s;        // [D] the query (decoder state / pooling query)
  Tensor2 h;        // [T, D] annotations
  Tensor2 s_row;    // [1, D]
  Tensor3 h_batch;  // [1, T, D]
};

Inputs make_inputs(Rng& rng) {
  Inputs in;
  in.s = xt::zeros<float>({kD});
  fill(in.s, rng);
  in.h = random_matrix(kT, kD, rng);
  in.s_row = xt::reshape_view(in.s, {std::size_t{1}, kD});
  in.h_batch = xt::reshape_view(in.h, {std::size_t{1}, kT, kD});
  return in;
}

Tensor2 luong_scores(ScoreKind kind, const Inputs& in, const Tensor2* w_a, const Tensor1* v_a, Rng& rng) {
  LuongAttention layer(kind, kD, kD, kT, rng);
  if (w_a) layer.w_a = *w_a;
  if (v_a) layer.v_a = *v_a;
  Tensor2 context, attentional, weights;
  LuongStepCache cache;
  layer.step_forward(in.s_row, in.h_batch, nullptr, context, attentional, weights, cache);
  return cache.scores;
}

Tensor2 pooling_scores(ScoreKind kind, const Inputs& in, std::size_t attention_dim, Rng& rng,
                       void (*set)(AttentionPooling&, const Inputs&, void*), void* weights) {
  AttentionPooling layer(kind, kD, attention_dim, rng);
  set(layer, in, weights);
  Tensor2 pooled;
  AttentionPoolingCache cache;
  layer.forward(in.h_batch, nullptr, pooled, cache);
  return cache.scores;
}

}  // namespace

TEST_CASE("score_implementations.dot_and_scaled_dot_agree") {
  Rng rng(17);
  const Inputs in = make_inputs(rng);
  for (ScoreKind kind : {ScoreKind::dot, ScoreKind::scaled_dot}) {
    const Tensor1 reference = reference_scores(kind, in.s, in.h, {});
    require_same(reference, luong_scores(kind, in, nullptr, nullptr, rng), "luong");
    // Pooling's learned query q plays the decoder state. scaled_dot pooling scores qᵀ(h W)/√A
    // (keys h W): with W the identity (A = D) that is Luong's sᵀh/√D.
    const std::size_t attention_dim = kind == ScoreKind::scaled_dot ? kD : 0;
    require_same(reference,
                 pooling_scores(
                     kind, in, attention_dim, rng,
                     [](AttentionPooling& l, const Inputs& i, void*) {
                       l.q = i.s;
                       if (l.kind() == ScoreKind::scaled_dot) l.w = xt::eye<float>(kD);
                     },
                     nullptr),
                 "pooling");
  }
}

TEST_CASE("score_implementations.general_agrees") {
  Rng rng(18);
  const Inputs in = make_inputs(rng);
  ScoreParams p;
  p.w = random_matrix(kD, kD, rng);  // sᵀ W h, W [Ds, Dh] in both scores.hpp and Luong
  const Tensor1 reference = reference_scores(ScoreKind::general, in.s, in.h, p);
  require_same(reference, luong_scores(ScoreKind::general, in, &p.w, nullptr, rng), "luong");
  require_same(reference,
               pooling_scores(
                   ScoreKind::general, in, 0, rng,
                   [](AttentionPooling& l, const Inputs& i, void* w) {
                     l.q = i.s;
                     l.w = *static_cast<Tensor2*>(w);
                   },
                   &p.w),
               "pooling");
}

TEST_CASE("score_implementations.concat_agrees") {
  Rng rng(19);
  const Inputs in = make_inputs(rng);
  ScoreParams p;
  p.w = random_matrix(kD, 2 * kD, rng);  // scores.hpp: W [A, Ds + Dh]; Luong concat has A = Ds
  p.v = xt::zeros<float>({kD});
  fill(p.v, rng);
  const Tensor1 reference = reference_scores(ScoreKind::concat, in.s, in.h, p);
  const Tensor2 w_in_out = transpose(p.w);  // the layers' [Ds + Dh, A]
  require_same(reference, luong_scores(ScoreKind::concat, in, &w_in_out, &p.v, rng), "luong");
  struct Weights {
    Tensor2 w;
    Tensor1 v;
  } weights{w_in_out, p.v};
  require_same(reference,
               pooling_scores(
                   ScoreKind::concat, in, kD, rng,
                   [](AttentionPooling& l, const Inputs& i, void* w) {
                     const auto& ws = *static_cast<Weights*>(w);
                     l.q = i.s;
                     l.w = ws.w;
                     l.v = ws.v;
                   },
                   &weights),
               "pooling");
}

TEST_CASE("score_implementations.additive_agrees") {
  Rng rng(20);
  const Inputs in = make_inputs(rng);
  ScoreParams p;
  p.w1 = random_matrix(kA, kD, rng);
  p.w2 = random_matrix(kA, kD, rng);
  p.v = xt::zeros<float>({kA});
  fill(p.v, rng);
  const Tensor1 reference = reference_scores(ScoreKind::additive, in.s, in.h, p);

  // Bahdanau: e_j = vᵀ tanh(s W1 + h_j W2) with W1 [Ds, A], W2 [Dh, A].
  BahdanauAttention bahdanau(kD, kD, kA, rng);
  bahdanau.w1 = transpose(p.w1);
  bahdanau.w2 = transpose(p.w2);
  bahdanau.v = p.v;
  BahdanauKeys keys;
  bahdanau.precompute(in.h_batch, keys);
  Tensor2 context, weights;
  BahdanauStepCache cache;
  bahdanau.step_forward(in.s_row, in.h_batch, keys, nullptr, context, weights, cache);
  require_same(reference, cache.scores, "bahdanau");

  // Pooling has no decoder state: vᵀ tanh(h_t W + b) is the additive score with b = W1 s.
  struct Weights {
    Tensor2 w;
    Tensor1 b, v;
  } pooled{transpose(p.w2), xt::zeros<float>({kA}), p.v};
  for (std::size_t a = 0; a < kA; ++a) {
    double sum = 0;
    for (std::size_t d = 0; d < kD; ++d) sum += double(p.w1(a, d)) * in.s(d);
    pooled.b(a) = static_cast<float>(sum);
  }
  require_same(reference,
               pooling_scores(
                   ScoreKind::additive, in, kA, rng,
                   [](AttentionPooling& l, const Inputs&, void* w) {
                     const auto& ws = *static_cast<Weights*>(w);
                     l.w = ws.w;
                     l.b = ws.b;
                     l.v = ws.v;
                   },
                   &pooled),
               "pooling");
}

TEST_CASE("score_implementations.location_agrees") {
  Rng rng(21);
  const Inputs in = make_inputs(rng);
  ScoreParams p;
  p.w = random_matrix(kT, kD, rng);  // scores.hpp: W [T, Ds]; Luong: W_a [Ds, max_source_len]
  const Tensor1 reference = reference_scores(ScoreKind::location, in.s, in.h, p);
  const Tensor2 w_a = transpose(p.w);
  require_same(reference, luong_scores(ScoreKind::location, in, &w_a, nullptr, rng), "luong");
}
