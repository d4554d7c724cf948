#include <doctest/doctest.h>

#include <cmath>

#include "attn/attention/masks.hpp"
#include "attn/attention/scaled_dot_product.hpp"
#include "attn/layers/multi_head_attention.hpp"
#include "attn/linalg.hpp"
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

// Biases start at 0; give them values so their gradient paths are exercised by the checks.
void randomise_biases(MultiHeadSelfAttention& mha, Rng& rng) {
  for (Tensor1* b : {&mha.b_q, &mha.b_k, &mha.b_v, &mha.b_o}) {
    for (auto& v : *b) v = rng.uniform(-0.5f, 0.5f);
  }
}

// Runs forward + backward once with zeroed grads; returns y and dx.
void forward_backward(MultiHeadSelfAttention& mha, const ParameterList& params, const Tensor3& x, const Mask2* padding,
                      bool causal, const Tensor3& dy, Tensor3& y, Tensor3& dx, MultiHeadAttentionCache& cache) {
  zero_grads(params);
  mha.forward(x, padding, causal, y, cache);
  mha.backward(dy, cache, dx);
}

}  // namespace

TEST_CASE("multi_head_attention.hand_computed") {
  // D = 2, H = 1, all W = I, b_q = b_k = b_v = 0, b_o = [1, -1]; x = [[1, 0], [0, 1]].
  // S = x xᵀ / √2 = [[0.707107, 0], [0, 0.707107]];
  // softmax row 0 = [e^0.707107, 1] / (e^0.707107 + 1) = [0.669762, 0.330238], row 1 mirrored.
  // C = P V = P x = P; y = C + b_o = [[1.669762, -0.669762], [1.330238, -0.330238]].
  Rng rng(1);
  MultiHeadSelfAttention mha(2, 1, rng);
  for (Tensor2* w : {&mha.w_q, &mha.w_k, &mha.w_v, &mha.w_o}) *w = xt::eye<float>(2);
  mha.b_o = {1.f, -1.f};
  const Tensor3 x = {{{1.f, 0.f}, {0.f, 1.f}}};
  Tensor3 y;
  MultiHeadAttentionCache cache;
  mha.forward(x, nullptr, false, y, cache);
  check_close(cache.weights, {1, 1, 2, 2}, {0.669762f, 0.330238f, 0.330238f, 0.669762f}, 1e-6f);
  check_close(y, {1, 2, 2}, {1.669762f, -0.669762f, 1.330238f, -0.330238f}, 1e-5f);
  // Causal: query 0 sees only key 0 -> C row 0 = x_0 = [1, 0]; row 1 unchanged.
  mha.forward(x, nullptr, true, y, cache);
  check_close(y, {1, 2, 2}, {2.f, -1.f, 1.330238f, -0.330238f}, 1e-5f);
}

TEST_CASE("multi_head_attention.one_head_equals_scaled_dot_product_attention") {
  // With H = 1, y = SDPA(x W_q + b_q, x W_k + b_k, x W_v + b_v, mask) W_o + b_o per sequence.
  Rng rng(2);
  const std::size_t nb = 2, nt = 4, d = 3;
  MultiHeadSelfAttention mha(d, 1, rng);
  randomise_biases(mha, rng);
  const Tensor3 x = random_sequence(rng, nb, nt, d);
  const Mask2 padding = {{1, 1, 1, 0}, {0, 1, 1, 1}};
  for (bool causal : {false, true}) {
    CAPTURE(causal);
    Tensor3 y;
    MultiHeadAttentionCache cache;
    mha.forward(x, &padding, causal, y, cache);
    for (std::size_t b = 0; b < nb; ++b) {
      const Tensor2 xb = xt::view(x, b, xt::all(), xt::all());
      const Tensor2 q = matmul(xb, mha.w_q) + mha.b_q;
      const Tensor2 k = matmul(xb, mha.w_k) + mha.b_k;
      const Tensor2 v = matmul(xb, mha.w_v) + mha.b_v;
      Mask1 valid = xt::view(padding, b, xt::all());
      Mask2 mask = padding_mask(nt, valid);
      if (causal) mask = combine_masks(mask, causal_mask(nt));
      const AttentionResult r = scaled_dot_product_attention(q, k, v, mask);
      const Tensor2 expected = matmul(r.output, mha.w_o) + mha.b_o;
      CHECK(xt::allclose(xt::view(y, b, xt::all(), xt::all()), expected, 1e-5, 1e-5));
      CHECK(xt::allclose(xt::view(cache.weights, b, 0, xt::all(), xt::all()), r.weights, 1e-5, 1e-6));
    }
  }
}

TEST_CASE("multi_head_attention.gradients_match_finite_differences") {
  // Tolerances: central differences with step 1e-2, rel 2e-2, abs 2e-3 (grad_check defaults),
  // up to 24 probes per tensor; every parameter and x, with padding, with and without causal.
  const std::size_t nb = 2, nt = 4, d = 4, heads = 2;
  const Mask2 padding = {{1, 1, 1, 0}, {0, 1, 1, 1}};
  for (bool causal : {false, true}) {
    CAPTURE(causal);
    Rng rng(3);
    MultiHeadSelfAttention mha(d, heads, rng);
    randomise_biases(mha, rng);
    ParameterList params;
    mha.parameters(params, "mha.");
    Tensor3 x = random_sequence(rng, nb, nt, d);
    Tensor3 y, dx;
    MultiHeadAttentionCache cache;
    mha.forward(x, &padding, causal, y, cache);
    const Tensor3 r = attn::test::probe_weights(y, 4);
    forward_backward(mha, params, x, &padding, causal, r, y, dx, cache);
    auto loss = [&] {
      Tensor3 out;
      MultiHeadAttentionCache c;
      mha.forward(x, &padding, causal, out, c);
      return attn::test::probe_loss(out, r);
    };
    attn::test::check_parameter_gradients(params, loss, {1e-2, 2e-2, 2e-3, 40, 1});
    attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss, {1e-2, 2e-2, 2e-3, 32, 2});
  }
}

TEST_CASE("multi_head_attention.disabled_head_contributes_nothing") {
  // Head 1 off: its columns of C are 0, so y depends on head 0 only; the gradient check still
  // holds, and head 1's slices of W_q, W_k, W_v, b_q, b_k, b_v get exactly zero gradient.
  const std::size_t nb = 2, nt = 3, d = 4, heads = 2, hd = 2;
  Rng rng(4);
  MultiHeadSelfAttention mha(d, heads, rng);
  randomise_biases(mha, rng);
  mha.head_enabled[1] = false;
  ParameterList params;
  mha.parameters(params, "mha.");
  Tensor3 x = random_sequence(rng, nb, nt, d);
  const Mask2 padding = {{1, 1, 0}, {1, 1, 1}};
  Tensor3 y, dx;
  MultiHeadAttentionCache cache;
  mha.forward(x, &padding, false, y, cache);
  for (std::size_t b = 0; b < nb; ++b) {
    for (std::size_t t = 0; t < nt; ++t) {
      for (std::size_t j = hd; j < d; ++j) CHECK(cache.heads(b, t, j) == 0.f);
    }
  }
  const Tensor3 r = attn::test::probe_weights(y, 5);
  forward_backward(mha, params, x, &padding, false, r, y, dx, cache);
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t j = hd; j < d; ++j) {
      CHECK(mha.dw_q(i, j) == 0.f);
      CHECK(mha.dw_k(i, j) == 0.f);
      CHECK(mha.dw_v(i, j) == 0.f);
    }
  }
  for (std::size_t j = hd; j < d; ++j) CHECK((mha.db_q(j) == 0.f && mha.db_k(j) == 0.f && mha.db_v(j) == 0.f));
  auto loss = [&] {
    Tensor3 out;
    MultiHeadAttentionCache c;
    mha.forward(x, &padding, false, out, c);
    return attn::test::probe_loss(out, r);
  };
  attn::test::check_parameter_gradients(params, loss, {1e-2, 2e-2, 2e-3, 40, 1});
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss);
  // Turning the head on changes y: the hook is not a no-op.
  mha.head_enabled[1] = true;
  Tensor3 y_on;
  mha.forward(x, &padding, false, y_on, cache);
  CHECK_FALSE(xt::allclose(y, y_on, 0.0, 1e-4));
}

TEST_CASE("multi_head_attention.padding_is_invisible") {
  // Appending padded positions changes neither the real positions' outputs nor their input
  // gradients nor the parameter gradients (to 1e-6), when the padded outputs get no gradient
  // (they are ignored downstream).
  Rng rng(5);
  const std::size_t d = 4;
  MultiHeadSelfAttention mha(d, 2, rng);
  randomise_biases(mha, rng);
  ParameterList params;
  mha.parameters(params, "");
  const Tensor3 short_x = random_sequence(rng, 2, 3, d);
  Tensor3 long_x = random_sequence(rng, 2, 5, d);
  xt::view(long_x, xt::all(), xt::range(0, 3), xt::all()) = short_x;
  const Mask2 short_mask = {{1, 1, 1}, {1, 1, 0}};
  const Mask2 long_mask = {{1, 1, 1, 0, 0}, {1, 1, 0, 0, 0}};
  Tensor3 short_dy = attn::test::probe_weights(short_x, 6);
  xt::view(short_dy, 1, 2, xt::all()) = 0.f;  // padded query in the short batch too
  Tensor3 long_dy = xt::zeros<float>(long_x.shape());
  xt::view(long_dy, xt::all(), xt::range(0, 3), xt::all()) = short_dy;
  for (bool causal : {false, true}) {
    CAPTURE(causal);
    auto grads = [&] {
      std::vector<float> g;
      for (const Parameter& p : params) g.insert(g.end(), p.grad, p.grad + p.size);
      return g;
    };
    Tensor3 y_short, dx_short, y_long, dx_long;
    MultiHeadAttentionCache cache;
    forward_backward(mha, params, short_x, &short_mask, causal, short_dy, y_short, dx_short, cache);
    const auto g_short = grads();
    forward_backward(mha, params, long_x, &long_mask, causal, long_dy, y_long, dx_long, cache);
    const auto g_long = grads();
    const Tensor3 y_long_real = xt::view(y_long, xt::all(), xt::range(0, 3), xt::all());
    const Tensor3 dx_long_real = xt::view(dx_long, xt::all(), xt::range(0, 3), xt::all());
    // Row 1's third position is padding in both: compare only the real positions.
    for (std::size_t b = 0; b < 2; ++b) {
      for (std::size_t t = 0; t < 3; ++t) {
        if (short_mask(b, t) == 0) continue;
        for (std::size_t i = 0; i < d; ++i) {
          CHECK(std::fabs(y_short(b, t, i) - y_long_real(b, t, i)) <= 1e-6f);
          CHECK(std::fabs(dx_short(b, t, i) - dx_long_real(b, t, i)) <= 1e-6f);
        }
      }
    }
    REQUIRE(g_short.size() == g_long.size());
    for (std::size_t i = 0; i < g_short.size(); ++i) CHECK(std::fabs(g_short[i] - g_long[i]) <= 1e-6f);
  }
}

TEST_CASE("multi_head_attention.causal_mask_hides_the_future") {
  Rng rng(6);
  const std::size_t nt = 5, d = 4;
  MultiHeadSelfAttention mha(d, 2, rng);
  randomise_biases(mha, rng);
  ParameterList params;
  mha.parameters(params, "");
  const Tensor3 x = random_sequence(rng, 1, nt, d);
  for (std::size_t t = 0; t + 1 < nt; ++t) {
    CAPTURE(t);
    // Output at t is unchanged (bit for bit) when every input after t changes.
    Tensor3 x2 = x;
    xt::view(x2, 0, xt::range(t + 1, nt), xt::all()) = 3.f;
    Tensor3 y, y2, dx;
    MultiHeadAttentionCache cache;
    mha.forward(x, nullptr, true, y, cache);
    mha.forward(x2, nullptr, true, y2, cache);
    for (std::size_t s = 0; s <= t; ++s) {
      for (std::size_t i = 0; i < d; ++i) CHECK(y(0, s, i) == y2(0, s, i));
    }
    // A loss on y_t alone sends exactly zero gradient to x after t, and some to x_0..x_t.
    Tensor3 dy = xt::zeros<float>(x.shape());
    xt::view(dy, 0, t, xt::all()) = 1.f;
    forward_backward(mha, params, x, nullptr, true, dy, y, dx, cache);
    for (std::size_t s = t + 1; s < nt; ++s) {
      for (std::size_t i = 0; i < d; ++i) CHECK(dx(0, s, i) == 0.f);
    }
    float past = 0.f;
    for (std::size_t s = 0; s <= t; ++s) {
      for (std::size_t i = 0; i < d; ++i) past += std::fabs(dx(0, s, i));
    }
    CHECK(past > 0.f);
  }
}

TEST_CASE("multi_head_attention.fully_masked_query_gives_bias_not_nan") {
  // Left padding + causal: query 0 sees only key 0, which is padding -> P row = 0, C row = 0,
  // y row = b_o. A batch row with every key padded behaves the same for every query.
  Rng rng(7);
  MultiHeadSelfAttention mha(4, 2, rng);
  randomise_biases(mha, rng);
  const Tensor3 x = random_sequence(rng, 2, 3, 4);
  const Mask2 padding = {{0, 1, 1}, {0, 0, 0}};
  Tensor3 y, dx;
  MultiHeadAttentionCache cache;
  mha.forward(x, &padding, true, y, cache);
  for (float v : y) CHECK_FALSE(std::isnan(v));
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(y(0, 0, i) == doctest::Approx(mha.b_o(i)));
    for (std::size_t t = 0; t < 3; ++t) CHECK(y(1, t, i) == doctest::Approx(mha.b_o(i)));
  }
  for (std::size_t h = 0; h < 2; ++h) {
    for (std::size_t j = 0; j < 3; ++j) CHECK(cache.weights(0, h, 0, j) == 0.f);
  }
  mha.backward(attn::test::probe_weights(y, 8), cache, dx);
  for (float v : dx) CHECK_FALSE(std::isnan(v));
}

TEST_CASE("multi_head_attention.rejects_bad_arguments") {
  Rng rng(1);
  CHECK_THROWS_WITH_AS(MultiHeadSelfAttention(10, 3, rng),
                       "MultiHeadSelfAttention: d_model (10) must be divisible by the number of heads (3)", ShapeError);
  CHECK_THROWS_AS(MultiHeadSelfAttention(4, 0, rng), ShapeError);
  MultiHeadSelfAttention mha(4, 2, rng);
  ParameterList params;
  mha.parameters(params, "enc.");
  REQUIRE(params.size() == 8);
  CHECK(params[0].name == "enc.w_q");
  CHECK(params[7].name == "enc.b_o");
  Tensor3 y;
  MultiHeadAttentionCache cache;
  CHECK_THROWS_WITH_AS(mha.forward(Tensor3(xt::zeros<float>({1, 3, 5})), nullptr, false, y, cache),
                       "MultiHeadSelfAttention::forward: x has shape [1, 3, 5]; expected [B, T, 4] with B, T >= 1",
                       ShapeError);
  const Mask2 mask = xt::ones<std::uint8_t>({1, 2});
  CHECK_THROWS_WITH_AS(mha.forward(Tensor3(xt::zeros<float>({1, 3, 4})), &mask, false, y, cache),
                       "MultiHeadSelfAttention::forward: key_padding has shape [1, 2] but x has shape [1, 3, 4]; "
                       "key_padding must be [B, T] = [1, 3]",
                       ShapeError);
  mha.forward(Tensor3(xt::zeros<float>({1, 3, 4})), nullptr, false, y, cache);
  Tensor3 dx;
  CHECK_THROWS_WITH_AS(mha.backward(Tensor3(xt::zeros<float>({1, 2, 4})), cache, dx),
                       "MultiHeadSelfAttention::backward: dy has shape [1, 2, 4] but forward produced [1, 3, 4]",
                       ShapeError);
}

TEST_CASE("multi_head_attention.attention_mask_given_by_the_caller") {
  // An attention mask [T, T] replaces `causal`: the causal pattern given as a mask gives the causal
  // numbers; any other pattern equals SDPA with that mask (AND the padding), and its gradients
  // (every parameter and x) match finite differences — hidden entries have P = 0, no gradient.
  const std::size_t nb = 2, nt = 4, d = 4;
  const Mask2 padding = {{1, 1, 1, 0}, {1, 1, 1, 1}};
  Rng rng(31);
  MultiHeadSelfAttention mha(d, 2, rng);
  randomise_biases(mha, rng);
  Tensor3 x = random_sequence(rng, nb, nt, d);
  Tensor3 y, y_causal;
  MultiHeadAttentionCache cache, causal_cache;
  const Mask2 causal = causal_mask(nt);
  mha.forward(x, &padding, true, y_causal, causal_cache);
  mha.forward(x, &padding, false, y, cache, &causal);
  CHECK(xt::allclose(y, y_causal, 0, 0));
  // Query t sees t and t + 1 (a decoder that peeks one position ahead); query 3 of row 0 then
  // sees only itself (key 4 does not exist, key 3 is padding for the others).
  Mask2 peek = xt::zeros<std::uint8_t>({nt, nt});
  for (std::size_t t = 0; t < nt; ++t) {
    peek(t, t) = 1;
    if (t + 1 < nt) peek(t, t + 1) = 1;
  }
  MultiHeadSelfAttention one(d, 1, rng);
  randomise_biases(one, rng);
  one.forward(x, &padding, false, y, cache, &peek);
  for (std::size_t b = 0; b < nb; ++b) {
    const Tensor2 xb = xt::view(x, b, xt::all(), xt::all());
    const Tensor2 q = matmul(xb, one.w_q) + one.b_q;
    const Tensor2 k = matmul(xb, one.w_k) + one.b_k;
    const Tensor2 v = matmul(xb, one.w_v) + one.b_v;
    Mask1 valid = xt::view(padding, b, xt::all());
    const AttentionResult r = scaled_dot_product_attention(q, k, v, combine_masks(padding_mask(nt, valid), peek));
    CHECK(xt::allclose(xt::view(y, b, xt::all(), xt::all()), matmul(r.output, one.w_o) + one.b_o, 1e-5, 1e-5));
    CHECK(xt::allclose(xt::view(cache.weights, b, 0, xt::all(), xt::all()), r.weights, 1e-5, 1e-6));
  }
  CHECK(cache.weights(0, 0, 2, 3) == 0.f);  // padding stays hidden
  CHECK(cache.weights(1, 0, 2, 3) > 0.f);   // the future the mask lets through is seen
  ParameterList params;
  mha.parameters(params, "mha.");
  mha.forward(x, &padding, false, y, cache, &peek);
  const Tensor3 r = attn::test::probe_weights(y, 4);
  Tensor3 dx;
  zero_grads(params);
  mha.backward(r, cache, dx);
  auto loss = [&] {
    Tensor3 out;
    MultiHeadAttentionCache c;
    mha.forward(x, &padding, false, out, c, &peek);
    return attn::test::probe_loss(out, r);
  };
  attn::test::check_parameter_gradients(params, loss, {1e-2, 2e-2, 2e-3, 40, 1});
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss, {1e-2, 2e-2, 2e-3, 32, 2});

  const Mask2 wrong = xt::ones<std::uint8_t>({nt, nt + 1});
  CHECK_THROWS_WITH_AS(mha.forward(x, &padding, false, y, cache, &wrong), doctest::Contains("attention_mask has shape"),
                       ShapeError);
  CHECK_THROWS_WITH_AS(mha.forward(x, &padding, true, y, cache, &peek), doctest::Contains("not both"),
                       std::invalid_argument);
}
