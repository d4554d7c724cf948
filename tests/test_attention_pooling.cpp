#include <doctest/doctest.h>

#include <cmath>

#include "attn/layers/attention_pooling.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;

namespace {

const ScoreKind kPoolingKinds[] = {ScoreKind::additive, ScoreKind::concat, ScoreKind::general, ScoreKind::scaled_dot,
                                   ScoreKind::dot};

Tensor3 random_sequence(Rng& rng, std::size_t b, std::size_t t, std::size_t d) {
  Tensor3 x = xt::empty<float>({b, t, d});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  return x;
}

}  // namespace

TEST_CASE("attention_pooling.hand_computed_dot") {
  // q = [1, 0]; h_1 = [ln 3, 1], h_2 = [0, 2], h_3 padded.
  // scores = q·h = [ln 3, 0] -> weights = [3/4, 1/4, 0];
  // pooled = 0.75 [ln 3, 1] + 0.25 [0, 2] = [0.823959, 1.25].
  Rng rng(1);
  AttentionPooling pool(ScoreKind::dot, 2, 0, rng);
  pool.q = {1.f, 0.f};
  Tensor3 h = {{{std::log(3.f), 1.f}, {0.f, 2.f}, {50.f, -50.f}}};
  const Mask2 mask = {{1, 1, 0}};
  Tensor2 pooled;
  AttentionPoolingCache cache;
  pool.forward(h, &mask, pooled, cache);
  check_close(cache.weights, {1, 3}, {0.75f, 0.25f, 0.f}, 1e-6f);
  CHECK(cache.weights(0, 2) == 0.f);
  check_close(pooled, {1, 2}, {0.823959f, 1.25f}, 1e-5f);
}

TEST_CASE("attention_pooling.hand_computed_scaled_dot") {
  // W = [[1, 0, 0, 0], [0, 2, 0, 0]] (D = 2, A = 4), q = [ln 9, 0, 0, 0]; h_1 = [1, 5], h_2 = [0, 7].
  // keys h W = [1, 10, 0, 0] and [0, 14, 0, 0]; scores = keys·q / √4 = [ln 9 / 2, 0] = [ln 3, 0]
  // -> weights [3/4, 1/4]; pooled = 0.75 [1, 5] + 0.25 [0, 7] = [0.75, 5.5].
  Rng rng(1);
  AttentionPooling pool(ScoreKind::scaled_dot, 2, 4, rng);
  pool.w = {{1.f, 0.f, 0.f, 0.f}, {0.f, 2.f, 0.f, 0.f}};
  pool.q = {std::log(9.f), 0.f, 0.f, 0.f};
  Tensor3 h = {{{1.f, 5.f}, {0.f, 7.f}}};
  Tensor2 pooled;
  AttentionPoolingCache cache;
  pool.forward(h, nullptr, pooled, cache);
  check_close(cache.weights, {1, 2}, {0.75f, 0.25f}, 1e-6f);
  check_close(pooled, {1, 2}, {0.75f, 5.5f}, 1e-5f);
}

TEST_CASE("attention_pooling.scaled_dot_query_starts_at_unit_variance") {
  // The 1/√A scale assumes queries and keys of unit-variance entries (as in a Transformer); a
  // Glorot-sized query (|q_j| <= 0.3 for A = 64) left the Studio's weights uniform (issue 25).
  Rng rng(3);
  AttentionPooling pool(ScoreKind::scaled_dot, 64, 64, rng);
  double squares = 0;
  for (const float x : pool.q) squares += static_cast<double>(x) * x;
  CHECK(squares / 64 == doctest::Approx(1.0).epsilon(0.3));
}

TEST_CASE("attention_pooling.hand_computed_additive") {
  // D = 2, A = 1: W = [[1], [0]], b = [0], v = [1] -> score_t = tanh(h_t[0]).
  // h_1 = [0, 5]: tanh(0) = 0; h_2 = [100, -3]: tanh(100) = 1.
  // weights = softmax([0, 1]) = [1/(1+e), e/(1+e)] = [0.268941, 0.731059]
  // pooled = 0.268941 [0, 5] + 0.731059 [100, -3] = [73.105858, 1.344707 - 2.193176 = -0.848469]
  Rng rng(1);
  AttentionPooling pool(ScoreKind::additive, 2, 1, rng);
  pool.w = {{1.f}, {0.f}};
  pool.b = {0.f};
  pool.v = {1.f};
  const Tensor3 h = {{{0.f, 5.f}, {100.f, -3.f}}};
  Tensor2 pooled;
  AttentionPoolingCache cache;
  pool.forward(h, nullptr, pooled, cache);
  check_close(cache.weights, {1, 2}, {0.268941f, 0.731059f}, 1e-6f);
  check_close(pooled, {1, 2}, {73.105858f, -0.848469f}, 1e-4f);
}

TEST_CASE("attention_pooling.gradients_match_finite_differences_for_every_kind") {
  // Tolerances: central differences with step 1e-2, rel 2e-2, abs 2e-3 (grad_check defaults),
  // up to 24 probes per tensor. Mask: row 0 padded at the end, row 1 at the start (Keras 'pre').
  const std::size_t nb = 2, nt = 4, d = 3, a = 5;
  const Mask2 mask = {{1, 1, 1, 0}, {0, 1, 1, 1}};
  for (ScoreKind kind : kPoolingKinds) {
    CAPTURE(score_kind_name(kind));
    Rng rng(7);
    AttentionPooling pool(kind, d, a, rng);
    Tensor3 h = random_sequence(rng, nb, nt, d);
    ParameterList params;
    pool.parameters(params, "pool.");
    Tensor2 pooled;
    AttentionPoolingCache cache;
    pool.forward(h, &mask, pooled, cache);
    const Tensor2 r = attn::test::probe_weights(pooled, 3);
    auto loss = [&] {
      Tensor2 out;
      AttentionPoolingCache c;
      pool.forward(h, &mask, out, c);
      return attn::test::probe_loss(out, r);
    };
    zero_grads(params);
    Tensor3 dh;
    pool.backward(r, cache, dh);
    attn::test::check_parameter_gradients(params, loss);
    auto masked = [&](std::size_t i) { return mask.data()[i / d] == 0; };
    attn::test::check_gradient("h", h.data(), dh.data(), h.size(), loss, {}, masked);
    for (std::size_t i = 0; i < dh.size(); ++i) {
      if (masked(i)) CHECK(dh.data()[i] == 0.f);
    }
  }
}

TEST_CASE("attention_pooling.all_masked_row_gives_zeros_not_nan") {
  for (ScoreKind kind : kPoolingKinds) {
    CAPTURE(score_kind_name(kind));
    Rng rng(8);
    AttentionPooling pool(kind, 3, 4, rng);
    const Tensor3 h = random_sequence(rng, 2, 3, 3);
    const Mask2 mask = {{0, 0, 0}, {1, 1, 0}};
    Tensor2 pooled;
    AttentionPoolingCache cache;
    pool.forward(h, &mask, pooled, cache);
    for (std::size_t t = 0; t < 3; ++t) CHECK(cache.weights(0, t) == 0.f);
    for (std::size_t i = 0; i < 3; ++i) CHECK(pooled(0, i) == 0.f);
    CHECK(cache.weights(1, 0) + cache.weights(1, 1) == doctest::Approx(1.f));
    Tensor3 dh;
    pool.backward(attn::test::probe_weights(pooled, 4), cache, dh);
    for (float g : dh) CHECK_FALSE(std::isnan(g));
    for (std::size_t t = 0; t < 3; ++t) {
      for (std::size_t i = 0; i < 3; ++i) CHECK(dh(0, t, i) == 0.f);
    }
  }
}

TEST_CASE("attention_pooling.padding_is_invisible") {
  // Appending padded positions (with arbitrary values) changes neither the pooled vector nor
  // the gradients of the real positions and the parameters (to 1e-6).
  for (ScoreKind kind : kPoolingKinds) {
    CAPTURE(score_kind_name(kind));
    Rng rng(9);
    AttentionPooling pool(kind, 3, 4, rng);
    ParameterList params;
    pool.parameters(params, "");
    const Tensor3 short_h = random_sequence(rng, 2, 3, 3);
    Tensor3 long_h = random_sequence(rng, 2, 5, 3);
    xt::view(long_h, xt::all(), xt::range(0, 3), xt::all()) = short_h;
    const Mask2 short_mask = {{1, 1, 1}, {1, 1, 0}};
    const Mask2 long_mask = {{1, 1, 1, 0, 0}, {1, 1, 0, 0, 0}};
    const Tensor2 r = attn::test::probe_weights(Tensor2(xt::zeros<float>({2, 3})), 5);

    auto run = [&](const Tensor3& h, const Mask2& mask, Tensor2& pooled, Tensor3& dh) {
      AttentionPoolingCache cache;
      zero_grads(params);
      pool.forward(h, &mask, pooled, cache);
      pool.backward(r, cache, dh);
      std::vector<float> grads;
      for (const Parameter& p : params) grads.insert(grads.end(), p.grad, p.grad + p.size);
      return grads;
    };
    Tensor2 pooled_short, pooled_long;
    Tensor3 dh_short, dh_long;
    const auto g_short = run(short_h, short_mask, pooled_short, dh_short);
    const auto g_long = run(long_h, long_mask, pooled_long, dh_long);
    CHECK(xt::allclose(pooled_short, pooled_long, 0.0, 1e-6));
    CHECK(xt::allclose(dh_short, xt::view(dh_long, xt::all(), xt::range(0, 3), xt::all()), 0.0, 1e-6));
    REQUIRE(g_short.size() == g_long.size());
    for (std::size_t i = 0; i < g_short.size(); ++i) CHECK(std::fabs(g_short[i] - g_long[i]) <= 1e-6f);
  }
}

TEST_CASE("attention_pooling.gradients_accumulate_and_inputs_overwrite") {
  Rng rng(10);
  AttentionPooling pool(ScoreKind::additive, 3, 4, rng);
  const Tensor3 h = random_sequence(rng, 2, 3, 3);
  Tensor2 pooled;
  AttentionPoolingCache cache;
  pool.forward(h, nullptr, pooled, cache);
  const Tensor2 r = attn::test::probe_weights(pooled, 6);
  Tensor3 dh1, dh2;
  pool.backward(r, cache, dh1);
  const Tensor2 dw_once = pool.dw;
  pool.backward(r, cache, dh2);
  CHECK(xt::allclose(pool.dw, 2.f * dw_once, 1e-6, 1e-7));
  CHECK(xt::allclose(dh1, dh2, 0.0, 0.0));
}

TEST_CASE("attention_pooling.parameter_names_per_kind") {
  auto names = [](ScoreKind kind) {
    Rng rng(1);
    AttentionPooling pool(kind, 3, 4, rng);
    ParameterList params;
    pool.parameters(params, "att.");
    std::string out;
    for (const Parameter& p : params) out += p.name + shape_string(p.shape) + " ";
    return out;
  };
  CHECK(names(ScoreKind::additive) == "att.w[3, 4] att.b[4] att.v[4] ");
  CHECK(names(ScoreKind::concat) == "att.q[3] att.w[6, 4] att.v[4] ");
  CHECK(names(ScoreKind::general) == "att.q[3] att.w[3, 3] ");
  CHECK(names(ScoreKind::scaled_dot) == "att.q[4] att.w[3, 4] ");
  CHECK(names(ScoreKind::dot) == "att.q[3] ");
}

TEST_CASE("attention_pooling.rejects_bad_arguments") {
  Rng rng(1);
  CHECK_THROWS_WITH_AS(AttentionPooling(ScoreKind::location, 3, 4, rng),
                       "AttentionPooling: score 'location' is not supported (pooling has no decoder state); "
                       "supported: additive, concat, general, scaled_dot, dot",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(AttentionPooling(ScoreKind::cosine, 3, 4, rng),
                       "AttentionPooling: score 'cosine' is not supported (pooling has no decoder state); "
                       "supported: additive, concat, general, scaled_dot, dot",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(AttentionPooling(ScoreKind::additive, 3, 0, rng),
                       "AttentionPooling: attention_dim must be >= 1 for 'additive'", ShapeError);
  AttentionPooling pool(ScoreKind::additive, 3, 4, rng);
  Tensor2 pooled;
  AttentionPoolingCache cache;
  const Tensor3 wrong = xt::zeros<float>({2, 5, 4});
  CHECK_THROWS_WITH_AS(pool.forward(wrong, nullptr, pooled, cache),
                       "AttentionPooling::forward: h has shape [2, 5, 4]; expected [B, T, 3] with B, T >= 1",
                       ShapeError);
  const Tensor3 h = xt::zeros<float>({2, 5, 3});
  const Mask2 mask = xt::ones<std::uint8_t>({2, 4});
  CHECK_THROWS_WITH_AS(pool.forward(h, &mask, pooled, cache),
                       "AttentionPooling::forward: mask has shape [2, 4] but h has shape [2, 5, 3]; mask must be "
                       "[B, T] = [2, 5]",
                       ShapeError);
  pool.forward(h, nullptr, pooled, cache);
  Tensor3 dh;
  CHECK_THROWS_WITH_AS(pool.backward(Tensor2(xt::zeros<float>({2, 4})), cache, dh),
                       "AttentionPooling::backward: dpooled has shape [2, 4] but forward produced [2, 3]", ShapeError);
}
