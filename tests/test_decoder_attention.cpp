#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "attn/layers/decoder_attention.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;

namespace {

Tensor3 random_sequence(Rng& rng, std::size_t b, std::size_t t, std::size_t d) {
  Tensor3 x = xt::empty<float>({b, t, d});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  return x;
}

Tensor2 random_matrix(Rng& rng, std::size_t rows, std::size_t cols) {
  Tensor2 x = xt::empty<float>({rows, cols});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  return x;
}

std::vector<float> gradients(const ParameterList& params) {
  std::vector<float> g;
  for (const Parameter& p : params) g.insert(g.end(), p.grad, p.grad + p.size);
  return g;
}

// Two decoder steps share one set of annotations: L = Σ_k Σ context_k ⊙ R_k (Bahdanau) or
// Σ_k Σ attentional_k ⊙ R_k (Luong), so dannotations must accumulate over the steps.
constexpr std::size_t kSteps = 2;

// --- Bahdanau ---------------------------------------------------------------------------------

double bahdanau_loss(const BahdanauAttention& att, const Tensor3& ann, const std::vector<Tensor2>& s, const Mask2* mask,
                     const std::vector<Tensor2>& r) {
  BahdanauKeys keys;
  att.precompute(ann, keys);
  double loss = 0.0;
  Tensor2 context, weights;
  BahdanauStepCache cache;
  for (std::size_t k = 0; k < s.size(); ++k) {
    att.step_forward(s[k], ann, keys, mask, context, weights, cache);
    loss += attn::test::probe_loss(context, r[k]);
  }
  return loss;
}

// Forward all steps, then backward in reverse; fills ds[k] and dann (zeroed first).
void bahdanau_backward(BahdanauAttention& att, const ParameterList& params, const Tensor3& ann,
                       const std::vector<Tensor2>& s, const Mask2* mask, const std::vector<Tensor2>& r,
                       std::vector<Tensor2>& ds, Tensor3& dann, std::vector<Tensor2>* contexts = nullptr) {
  zero_grads(params);
  BahdanauKeys keys;
  att.precompute(ann, keys);
  std::vector<BahdanauStepCache> caches(s.size());
  Tensor2 context, weights;
  for (std::size_t k = 0; k < s.size(); ++k) {
    att.step_forward(s[k], ann, keys, mask, context, weights, caches[k]);
    if (contexts != nullptr) contexts->push_back(context);
  }
  dann = xt::zeros<float>(ann.shape());
  BahdanauKeysGrad dkeys;
  dkeys.projected = xt::zeros<float>(keys.projected.shape());
  ds.assign(s.size(), Tensor2());
  for (std::size_t k = s.size(); k-- > 0;) att.step_backward(r[k], caches[k], ds[k], dann, dkeys);
  att.keys_backward(dkeys, ann, dann);
}

// --- Luong ------------------------------------------------------------------------------------

double luong_loss(const LuongAttention& att, const Tensor3& ann, const std::vector<Tensor2>& s, const Mask2* mask,
                  const std::vector<Tensor2>& r) {
  double loss = 0.0;
  Tensor2 context, attentional, weights;
  LuongStepCache cache;
  for (std::size_t k = 0; k < s.size(); ++k) {
    att.step_forward(s[k], ann, mask, context, attentional, weights, cache);
    loss += attn::test::probe_loss(attentional, r[k]);
  }
  return loss;
}

void luong_backward(LuongAttention& att, const ParameterList& params, const Tensor3& ann, const std::vector<Tensor2>& s,
                    const Mask2* mask, const std::vector<Tensor2>& r, std::vector<Tensor2>& ds, Tensor3& dann,
                    std::vector<Tensor2>* outputs = nullptr) {
  zero_grads(params);
  std::vector<LuongStepCache> caches(s.size());
  Tensor2 context, attentional, weights;
  for (std::size_t k = 0; k < s.size(); ++k) {
    att.step_forward(s[k], ann, mask, context, attentional, weights, caches[k]);
    if (outputs != nullptr) outputs->push_back(attentional);
  }
  dann = xt::zeros<float>(ann.shape());
  ds.assign(s.size(), Tensor2());
  for (std::size_t k = s.size(); k-- > 0;) att.step_backward(r[k], caches[k], ds[k], dann);
}

const ScoreKind kLuongKinds[] = {ScoreKind::dot, ScoreKind::scaled_dot, ScoreKind::general, ScoreKind::concat,
                                 ScoreKind::location};

}  // namespace

// =============================================================================================

TEST_CASE("decoder_attention.bahdanau_hand_computed") {
  // Ds = Dh = A = 1: W1 = [[2]], W2 = [[1]], v = [1]; s_prev = [0.25] -> s W1 = 0.5.
  // h = [0, 100, 7], the last one padded: e = [tanh(0.5), tanh(100.5)] = [0.462117, 1.0];
  // a = softmax(e) = [0.368680, 0.631320, 0]; c = 0.631320 · 100 = 63.131978.
  Rng rng(1);
  BahdanauAttention att(1, 1, 1, rng);
  att.w1 = {{2.f}};
  att.w2 = {{1.f}};
  att.v = {1.f};
  const Tensor3 ann = {{{0.f}, {100.f}, {7.f}}};
  const Mask2 mask = {{1, 1, 0}};
  BahdanauKeys keys;
  att.precompute(ann, keys);
  check_close(keys.projected, {1, 3, 1}, {0.f, 100.f, 7.f});
  Tensor2 context, weights;
  BahdanauStepCache cache;
  att.step_forward(Tensor2{{0.25f}}, ann, keys, &mask, context, weights, cache);
  check_close(cache.scores, {1, 3}, {0.462117f, 1.f, 0.9999984f}, 1e-5f);  // tanh(7.5): masked, unused
  check_close(weights, {1, 3}, {0.368680f, 0.631320f, 0.f}, 1e-6f);
  check_close(context, {1, 1}, {63.131978f}, 1e-4f);
}

TEST_CASE("decoder_attention.bahdanau_gradients_match_finite_differences") {
  // Tolerances: central differences with step 1e-2, rel 2e-2, abs 2e-3 (grad_check defaults),
  // up to 24 probes per tensor. Two steps share the annotations; row 1 is pre-padded.
  const std::size_t nb = 2, nt = 4, ds_dim = 3, dh_dim = 5, a = 4;
  Rng rng(2);
  BahdanauAttention att(ds_dim, dh_dim, a, rng);
  ParameterList params;
  att.parameters(params, "att.");
  Tensor3 ann = random_sequence(rng, nb, nt, dh_dim);
  std::vector<Tensor2> s, r;
  for (std::size_t k = 0; k < kSteps; ++k) {
    s.push_back(random_matrix(rng, nb, ds_dim));
    r.push_back(attn::test::probe_weights(Tensor2(xt::zeros<float>({nb, dh_dim})), 10 + k));
  }
  const Mask2 mask = {{1, 1, 1, 0}, {0, 1, 1, 1}};
  std::vector<Tensor2> ds;
  Tensor3 dann;
  bahdanau_backward(att, params, ann, s, &mask, r, ds, dann);
  auto loss = [&] { return bahdanau_loss(att, ann, s, &mask, r); };
  attn::test::check_parameter_gradients(params, loss);
  auto masked = [&](std::size_t i) { return mask.data()[i / dh_dim] == 0; };
  attn::test::check_gradient("annotations", ann.data(), dann.data(), ann.size(), loss, {}, masked);
  for (std::size_t i = 0; i < dann.size(); ++i) {
    if (masked(i)) CHECK(dann.data()[i] == 0.f);
  }
  for (std::size_t k = 0; k < kSteps; ++k) {
    attn::test::check_gradient("s_prev[" + std::to_string(k) + "]", s[k].data(), ds[k].data(), s[k].size(), loss);
  }
}

TEST_CASE("decoder_attention.bahdanau_padding_is_invisible") {
  // Appending padded source positions changes neither contexts nor the gradients of s, of the
  // real annotations or of the parameters (to 1e-6).
  Rng rng(3);
  const std::size_t nb = 2, ds_dim = 3, dh_dim = 4;
  BahdanauAttention att(ds_dim, dh_dim, 5, rng);
  ParameterList params;
  att.parameters(params, "");
  const Tensor3 short_ann = random_sequence(rng, nb, 3, dh_dim);
  Tensor3 long_ann = random_sequence(rng, nb, 5, dh_dim);
  xt::view(long_ann, xt::all(), xt::range(0, 3), xt::all()) = short_ann;
  const Mask2 short_mask = {{1, 1, 1}, {1, 1, 0}};
  const Mask2 long_mask = {{1, 1, 1, 0, 0}, {1, 1, 0, 0, 0}};
  std::vector<Tensor2> s, r;
  for (std::size_t k = 0; k < kSteps; ++k) {
    s.push_back(random_matrix(rng, nb, ds_dim));
    r.push_back(random_matrix(rng, nb, dh_dim));
  }
  std::vector<Tensor2> ds_short, ds_long, c_short, c_long;
  Tensor3 dann_short, dann_long;
  bahdanau_backward(att, params, short_ann, s, &short_mask, r, ds_short, dann_short, &c_short);
  const auto g_short = gradients(params);
  bahdanau_backward(att, params, long_ann, s, &long_mask, r, ds_long, dann_long, &c_long);
  const auto g_long = gradients(params);
  for (std::size_t k = 0; k < kSteps; ++k) {
    CHECK(xt::allclose(c_short[k], c_long[k], 0.0, 1e-6));
    CHECK(xt::allclose(ds_short[k], ds_long[k], 0.0, 1e-6));
  }
  CHECK(xt::allclose(dann_short, xt::view(dann_long, xt::all(), xt::range(0, 3), xt::all()), 0.0, 1e-6));
  REQUIRE(g_short.size() == g_long.size());
  for (std::size_t i = 0; i < g_short.size(); ++i) CHECK(std::fabs(g_short[i] - g_long[i]) <= 1e-6f);
}

TEST_CASE("decoder_attention.bahdanau_rejects_bad_arguments") {
  Rng rng(4);
  BahdanauAttention att(3, 4, 5, rng);
  const Tensor3 ann = xt::zeros<float>({2, 3, 4});
  BahdanauKeys keys;
  CHECK_THROWS_WITH_AS(att.precompute(Tensor3(xt::zeros<float>({2, 3, 5})), keys),
                       "BahdanauAttention::precompute: annotations has shape [2, 3, 5]; expected [B, T, 4] with B, T "
                       ">= 1",
                       ShapeError);
  att.precompute(ann, keys);
  Tensor2 context, weights;
  BahdanauStepCache cache;
  CHECK_THROWS_WITH_AS(att.step_forward(Tensor2(xt::zeros<float>({2, 4})), ann, keys, nullptr, context, weights, cache),
                       "BahdanauAttention::step_forward: s_prev has shape [2, 4]; expected [B, Ds] = [2, 3]",
                       ShapeError);
  BahdanauKeys stale;
  att.precompute(Tensor3(xt::zeros<float>({2, 6, 4})), stale);
  CHECK_THROWS_WITH_AS(
      att.step_forward(Tensor2(xt::zeros<float>({2, 3})), ann, stale, nullptr, context, weights, cache),
      "BahdanauAttention::step_forward: keys has shape [2, 6, 5]; expected [B, T, A] = [2, 3, 5] "
      "(call precompute on these annotations)",
      ShapeError);
  att.step_forward(Tensor2(xt::zeros<float>({2, 3})), ann, keys, nullptr, context, weights, cache);
  Tensor2 ds;
  Tensor3 dann;  // not zeroed at the annotations' shape
  BahdanauKeysGrad dkeys;
  dkeys.projected = xt::zeros<float>({2, 3, 5});
  CHECK_THROWS_WITH_AS(att.step_backward(Tensor2(xt::zeros<float>({2, 4})), cache, ds, dann, dkeys),
                       "BahdanauAttention::step_backward: dannotations has shape [0, 0, 0] but annotations has shape "
                       "[2, 3, 4]; it accumulates over steps, so zero it at that shape first",
                       ShapeError);
}

// =============================================================================================

TEST_CASE("decoder_attention.luong_hand_computed") {
  // Ds = Dh = 1, W_c = [[1], [1]] so h̃ = tanh(c + s); s = [1], h = [ln 3, 0].
  //   dot:      e = [ln 3, 0]        -> a = [3/4, 1/4],   c = 0.75 ln 3 = 0.823959, h̃ = tanh(1.823959) = 0.949232
  //   general:  W_a = [[2]], e = [2 ln 3, 0] -> a = [9/10, 1/10], c = 0.988751, h̃ = tanh(1.988751) = 0.963224
  //   location: W_a = [[0, ln 3, 5]] (max_source_len 3, T = 2) -> e = [0, ln 3], a = [1/4, 3/4],
  //             c = 0.25 ln 3 = 0.274653, h̃ = tanh(1.274653) = 0.855054
  const float ln3 = std::log(3.f);
  const Tensor3 ann = {{{ln3}, {0.f}}};
  const Tensor2 s = {{1.f}};
  auto run = [&](LuongAttention& att, std::vector<float> a, float c, float out) {
    att.w_c = {{1.f}, {1.f}};
    Tensor2 context, attentional, weights;
    LuongStepCache cache;
    att.step_forward(s, ann, nullptr, context, attentional, weights, cache);
    check_close(weights, {1, 2}, a, 1e-6f);
    check_close(context, {1, 1}, {c}, 1e-6f);
    check_close(attentional, {1, 1}, {out}, 1e-6f);
  };
  Rng rng(5);
  LuongAttention dot(ScoreKind::dot, 1, 1, 0, rng);
  run(dot, {0.75f, 0.25f}, 0.823959f, 0.949232f);
  LuongAttention general(ScoreKind::general, 1, 1, 0, rng);
  general.w_a = {{2.f}};
  run(general, {0.9f, 0.1f}, 0.988751f, 0.963224f);
  LuongAttention location(ScoreKind::location, 1, 1, 3, rng);
  location.w_a = {{0.f, ln3, 5.f}};
  run(location, {0.25f, 0.75f}, 0.274653f, 0.855054f);
}

TEST_CASE("decoder_attention.luong_gradients_match_finite_differences_for_every_kind") {
  // Tolerances: central differences with step 1e-2, rel 2e-2, abs 2e-3 (grad_check defaults),
  // up to 24 probes per tensor. Two steps share the annotations; row 1 is pre-padded.
  const std::size_t nb = 2, nt = 4;
  const Mask2 mask = {{1, 1, 1, 0}, {0, 1, 1, 1}};
  for (ScoreKind kind : kLuongKinds) {
    CAPTURE(score_kind_name(kind));
    const bool same_size = kind == ScoreKind::dot || kind == ScoreKind::scaled_dot;
    const std::size_t ds_dim = 3, dh_dim = same_size ? 3 : 5;
    Rng rng(6);
    LuongAttention att(kind, ds_dim, dh_dim, 6, rng);
    ParameterList params;
    att.parameters(params, "att.");
    Tensor3 ann = random_sequence(rng, nb, nt, dh_dim);
    std::vector<Tensor2> s, r;
    for (std::size_t k = 0; k < kSteps; ++k) {
      s.push_back(random_matrix(rng, nb, ds_dim));
      r.push_back(attn::test::probe_weights(Tensor2(xt::zeros<float>({nb, ds_dim})), 20 + k));
    }
    std::vector<Tensor2> ds;
    Tensor3 dann;
    luong_backward(att, params, ann, s, &mask, r, ds, dann);
    auto loss = [&] { return luong_loss(att, ann, s, &mask, r); };
    attn::test::check_parameter_gradients(params, loss, {1e-2, 2e-2, 2e-3, 32, 1});
    auto masked = [&](std::size_t i) { return mask.data()[i / dh_dim] == 0; };
    attn::test::check_gradient("annotations", ann.data(), dann.data(), ann.size(), loss, {}, masked);
    for (std::size_t i = 0; i < dann.size(); ++i) {
      if (masked(i)) CHECK(dann.data()[i] == 0.f);
    }
    for (std::size_t k = 0; k < kSteps; ++k) {
      attn::test::check_gradient("s_t[" + std::to_string(k) + "]", s[k].data(), ds[k].data(), s[k].size(), loss);
    }
    if (kind == ScoreKind::location) {
      // Columns of W_a past T (positions this batch never had) get exactly zero gradient.
      for (std::size_t i = 0; i < ds_dim; ++i) {
        for (std::size_t j = nt; j < 6; ++j) CHECK(att.dw_a(i, j) == 0.f);
      }
    }
  }
}

TEST_CASE("decoder_attention.luong_padding_is_invisible") {
  const std::size_t nb = 2, ds_dim = 3;
  for (ScoreKind kind : kLuongKinds) {
    CAPTURE(score_kind_name(kind));
    const std::size_t dh_dim = (kind == ScoreKind::dot || kind == ScoreKind::scaled_dot) ? 3 : 4;
    Rng rng(7);
    LuongAttention att(kind, ds_dim, dh_dim, 5, rng);
    ParameterList params;
    att.parameters(params, "");
    const Tensor3 short_ann = random_sequence(rng, nb, 3, dh_dim);
    Tensor3 long_ann = random_sequence(rng, nb, 5, dh_dim);
    xt::view(long_ann, xt::all(), xt::range(0, 3), xt::all()) = short_ann;
    const Mask2 short_mask = {{1, 1, 1}, {1, 1, 0}};
    const Mask2 long_mask = {{1, 1, 1, 0, 0}, {1, 1, 0, 0, 0}};
    std::vector<Tensor2> s, r;
    for (std::size_t k = 0; k < kSteps; ++k) {
      s.push_back(random_matrix(rng, nb, ds_dim));
      r.push_back(random_matrix(rng, nb, ds_dim));
    }
    std::vector<Tensor2> ds_short, ds_long, out_short, out_long;
    Tensor3 dann_short, dann_long;
    luong_backward(att, params, short_ann, s, &short_mask, r, ds_short, dann_short, &out_short);
    const auto g_short = gradients(params);
    luong_backward(att, params, long_ann, s, &long_mask, r, ds_long, dann_long, &out_long);
    const auto g_long = gradients(params);
    for (std::size_t k = 0; k < kSteps; ++k) {
      CHECK(xt::allclose(out_short[k], out_long[k], 0.0, 1e-6));
      CHECK(xt::allclose(ds_short[k], ds_long[k], 0.0, 1e-6));
    }
    CHECK(xt::allclose(dann_short, xt::view(dann_long, xt::all(), xt::range(0, 3), xt::all()), 0.0, 1e-6));
    REQUIRE(g_short.size() == g_long.size());
    for (std::size_t i = 0; i < g_short.size(); ++i) CHECK(std::fabs(g_short[i] - g_long[i]) <= 1e-6f);
  }
}

TEST_CASE("decoder_attention.luong_all_masked_row_gives_zero_context") {
  Rng rng(8);
  LuongAttention att(ScoreKind::general, 3, 4, 0, rng);
  const Tensor3 ann = random_sequence(rng, 2, 3, 4);
  const Mask2 mask = {{0, 0, 0}, {1, 0, 1}};
  Tensor2 context, attentional, weights;
  LuongStepCache cache;
  att.step_forward(random_matrix(rng, 2, 3), ann, &mask, context, attentional, weights, cache);
  for (std::size_t i = 0; i < 4; ++i) CHECK(context(0, i) == 0.f);
  for (std::size_t t = 0; t < 3; ++t) CHECK(weights(0, t) == 0.f);
  for (float v : attentional) CHECK_FALSE(std::isnan(v));
  Tensor2 ds;
  Tensor3 dann = xt::zeros<float>(ann.shape());
  att.step_backward(random_matrix(rng, 2, 3), cache, ds, dann);
  for (float v : ds) CHECK_FALSE(std::isnan(v));
  for (std::size_t t = 0; t < 3; ++t) {
    for (std::size_t i = 0; i < 4; ++i) CHECK(dann(0, t, i) == 0.f);
  }
}

TEST_CASE("decoder_attention.luong_rejects_bad_arguments") {
  Rng rng(9);
  CHECK_THROWS_WITH_AS(LuongAttention(ScoreKind::dot, 3, 4, 0, rng),
                       "LuongAttention: score 'dot' compares s_t and h_j directly, so query_dim must equal key_dim "
                       "(got 3 and 4); use 'general' or 'concat' for different sizes",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(LuongAttention(ScoreKind::scaled_dot, 4, 3, 0, rng),
                       "LuongAttention: score 'scaled_dot' compares s_t and h_j directly, so query_dim must equal "
                       "key_dim (got 4 and 3); use 'general' or 'concat' for different sizes",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(LuongAttention(ScoreKind::cosine, 3, 3, 0, rng),
                       "LuongAttention: score 'cosine' is not a Luong score; supported: dot, general, concat, "
                       "location, scaled_dot",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(LuongAttention(ScoreKind::additive, 3, 3, 0, rng),
                       "LuongAttention: score 'additive' is not a Luong score; supported: dot, general, concat, "
                       "location, scaled_dot (use BahdanauAttention for additive)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(LuongAttention(ScoreKind::location, 3, 3, 0, rng),
                       "LuongAttention: max_source_len must be >= 1 for 'location' (one learned weight column per "
                       "source position)",
                       ShapeError);
  LuongAttention location(ScoreKind::location, 3, 4, 5, rng);
  Tensor2 context, attentional, weights;
  LuongStepCache cache;
  CHECK_THROWS_WITH_AS(location.step_forward(Tensor2(xt::zeros<float>({1, 3})), Tensor3(xt::zeros<float>({1, 7, 4})),
                                             nullptr, context, attentional, weights, cache),
                       "LuongAttention::step_forward: annotations has T = 7 but the 'location' score was built for "
                       "max_source_len 5 (one learned weight column per source position)",
                       ShapeError);
  const Mask2 mask = xt::ones<std::uint8_t>({1, 2});
  CHECK_THROWS_WITH_AS(location.step_forward(Tensor2(xt::zeros<float>({1, 3})), Tensor3(xt::zeros<float>({1, 3, 4})),
                                             &mask, context, attentional, weights, cache),
                       "LuongAttention::step_forward: mask has shape [1, 2]; expected [B, T] = [1, 3]", ShapeError);
  ParameterList params;
  LuongAttention concat(ScoreKind::concat, 3, 4, 0, rng);
  concat.parameters(params, "dec.");
  REQUIRE(params.size() == 3);
  CHECK(params[0].name + shape_string(params[0].shape) == "dec.w_a[7, 3]");
  CHECK(params[1].name + shape_string(params[1].shape) == "dec.v_a[3]");
  CHECK(params[2].name + shape_string(params[2].shape) == "dec.w_c[7, 3]");
}
