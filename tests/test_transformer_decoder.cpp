#include <doctest/doctest.h>

#include "attn/layers/transformer_decoder.hpp"
#include "support/grad_check.hpp"

using namespace attn;
using attn::test::check_gradient;
using attn::test::check_parameter_gradients;
using attn::test::GradCheckOptions;
using attn::test::probe_loss;
using attn::test::probe_weights;

namespace {
Tensor3 random_sequence(Rng& rng, std::size_t b, std::size_t t, std::size_t d) {
  Tensor3 x = xt::empty<float>({b, t, d});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  return x;
}
TransformerEncoderConfig small_config(float dropout, Activation act) {
  TransformerEncoderConfig c;
  c.d_model = 6;
  c.heads = 2;
  c.ff_dim = 8;
  c.dropout = dropout;
  c.activation = act;
  return c;
}
// Gives every bias and LayerNorm β a value, so their gradient paths are exercised.
void randomise_vectors(const ParameterList& params, Rng& rng) {
  for (const Parameter& p : params) {
    if (p.shape.size() == 1) {
      for (std::size_t i = 0; i < p.size; ++i) p.value[i] += rng.uniform(-0.3f, 0.3f);
    }
  }
}
}  // namespace

TEST_CASE("transformer_decoder.gradients_of_every_parameter_the_input_and_the_memory") {
  // B = 2, Ty = 4, Tx = 3, D = 6, H = 2, F = 8; target row 1 ends in padding, source row 0 too.
  for (Activation act : {Activation::gelu, Activation::relu}) {
    for (float dropout : {0.f, 0.3f}) {
      CAPTURE(activation_name(act));
      CAPTURE(dropout);
      Rng init(3);
      TransformerDecoderBlock block(small_config(dropout, act), init);
      ParameterList params;
      block.parameters(params, "block.");
      randomise_vectors(params, init);
      Tensor3 x = random_sequence(init, 2, 4, 6);
      Tensor3 memory = random_sequence(init, 2, 3, 6);
      const Mask2 target_mask = {{1, 1, 1, 1}, {1, 1, 1, 0}};
      const Mask2 source_mask = {{1, 1, 0}, {1, 1, 1}};
      TransformerDecoderCache cache;
      Tensor3 y, dx, dmemory;
      auto forward = [&] {
        Rng rng(99);  // the same dropout masks at every call
        block.forward(x, memory, &target_mask, &source_mask, true, rng, y, cache);
      };
      forward();
      const Tensor3 r = probe_weights(y, 5);
      zero_grads(params);
      block.backward(r, cache, dx, dmemory);
      auto loss = [&] {
        forward();
        return probe_loss(y, r);
      };
      GradCheckOptions opt;
      opt.max_probes = 16;
      if (act == Activation::relu) opt.step = 1e-3;  // fewer ReLU kinks crossed
      check_parameter_gradients(params, loss, opt);
      check_gradient("x", x.data(), dx.data(), x.size(), loss, opt);
      check_gradient("memory", memory.data(), dmemory.data(), memory.size(), loss, opt);
    }
  }
}

TEST_CASE("transformer_decoder.no_peeking") {
  // Changing the input at position t leaves every output before t bit for bit unchanged, and
  // changes the output at t.
  Rng init(4);
  TransformerDecoderBlock block(small_config(0.f, Activation::gelu), init);
  const Tensor3 x = random_sequence(init, 2, 5, 6);
  const Tensor3 memory = random_sequence(init, 2, 3, 6);
  Rng rng(1);
  TransformerDecoderCache cache;
  Tensor3 y;
  block.forward(x, memory, nullptr, nullptr, false, rng, y, cache);
  for (std::size_t t = 0; t < 5; ++t) {
    CAPTURE(t);
    Tensor3 changed = x;
    for (std::size_t j = 0; j < 6; ++j) changed(1, t, j) += 0.75f;
    Tensor3 y2;
    block.forward(changed, memory, nullptr, nullptr, false, rng, y2, cache);
    for (std::size_t s = 0; s < t; ++s) {
      for (std::size_t j = 0; j < 6; ++j) CHECK(y2(1, s, j) == y(1, s, j));
    }
    CHECK(y2(1, t, 0) != y(1, t, 0));
  }
}

TEST_CASE("transformer_decoder.cached_steps_equal_the_full_forward") {
  // Stepping positions 0..T−1 one at a time through the key/value cache gives the full
  // (teacher-forced) forward's outputs and attention weights at every position.
  Rng init(5);
  TransformerDecoderBlock block(small_config(0.25f, Activation::gelu), init);
  ParameterList params;
  block.parameters(params, "");
  randomise_vectors(params, init);
  const std::size_t nb = 2, nt = 11, nx = 4, d = 6;  // 11 steps: the cache grows past its first 8 rows
  const Tensor3 x = random_sequence(init, nb, nt, d);
  const Tensor3 memory = random_sequence(init, nb, nx, d);
  const Mask2 source_mask = {{1, 1, 1, 0}, {1, 1, 1, 1}};
  Rng rng(1);
  TransformerDecoderCache cache;
  Tensor3 y;
  block.forward(x, memory, nullptr, &source_mask, false, rng, y, cache);

  Tensor2 bias = xt::zeros<float>({nb, nx});
  bias(0, 3) = -std::numeric_limits<float>::infinity();
  const Mask1 padded = {1, 0};
  TransformerDecoderLayerState state;
  block.start(memory, state);
  TransformerStepWeights weights;
  for (std::size_t t = 0; t < nt; ++t) {
    CAPTURE(t);
    Tensor3 xt_ = xt::view(x, xt::all(), xt::range(t, t + 1), xt::all());
    Tensor3 yt;
    block.step(xt_, bias, padded, state, yt, weights);
    CHECK(state.length == t + 1);
    REQUIRE(weights.self_weights.shape() == std::array<std::size_t, 4>{nb, 2, 1, t + 1});
    for (std::size_t b = 0; b < nb; ++b) {
      for (std::size_t j = 0; j < d; ++j) CHECK(yt(b, 0, j) == doctest::Approx(y(b, t, j)).epsilon(1e-4));
      for (std::size_t h = 0; h < 2; ++h) {
        for (std::size_t i = 0; i <= t; ++i) {
          CHECK(weights.self_weights(b, h, 0, i) ==
                doctest::Approx(cache.self_attention.weights(b, h, t, i)).epsilon(1e-4));
        }
        for (std::size_t i = 0; i < nx; ++i) {
          CHECK(weights.cross_weights(b, h, 0, i) ==
                doctest::Approx(cache.cross_attention.weights(b, h, t, i)).epsilon(1e-4));
        }
      }
    }
  }
  CHECK(weights.cross_weights(0, 1, 0, 3) == 0.f);  // padding: exactly 0
}

TEST_CASE("transformer_decoder.shape_errors") {
  Rng init(6);
  TransformerDecoderBlock block(small_config(0.f, Activation::relu), init);
  Rng rng(1);
  TransformerDecoderCache cache;
  Tensor3 y;
  const Tensor3 x = xt::zeros<float>({2, 3, 5});
  const Tensor3 memory = xt::zeros<float>({2, 4, 6});
  CHECK_THROWS_WITH_AS(block.forward(x, memory, nullptr, nullptr, false, rng, y, cache),
                       doctest::Contains("d_model = 6"), ShapeError);
  TransformerDecoderLayerState state;
  block.start(memory, state);
  const Tensor3 two_positions = xt::zeros<float>({2, 2, 6});
  const Tensor2 bias = xt::zeros<float>({2, 4});
  const Mask1 padded = {0, 0};
  TransformerStepWeights weights;
  CHECK_THROWS_AS(block.step(two_positions, bias, padded, state, y, weights), ShapeError);
  const Tensor2 wrong_bias = xt::zeros<float>({2, 3});
  const Tensor3 one = xt::zeros<float>({2, 1, 6});
  CHECK_THROWS_WITH_AS(block.step(one, wrong_bias, padded, state, y, weights), doctest::Contains("source_bias"),
                       ShapeError);
}

TEST_CASE("transformer_decoder.self_mask_given_by_the_caller") {
  // forward with the caller's mask: gradients still match finite differences (a mask that lets
  // position t see t + 1, the "no peeking" mistake), and a mask inside the causal one (t sees
  // t − 1 and t) is what step() gives with the same rows.
  Rng init(7);
  TransformerDecoderBlock block(small_config(0.f, Activation::gelu), init);
  ParameterList params;
  block.parameters(params, "block.");
  randomise_vectors(params, init);
  const std::size_t nb = 2, nt = 4, nx = 3, d = 6;
  Tensor3 x = random_sequence(init, nb, nt, d);
  Tensor3 memory = random_sequence(init, nb, nx, d);
  const Mask2 target_mask = {{1, 1, 1, 1}, {1, 1, 1, 0}};
  const Mask2 source_mask = {{1, 1, 0}, {1, 1, 1}};
  const Mask2 peek = {{1, 1, 0, 0}, {1, 1, 1, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}};
  TransformerDecoderCache cache;
  Tensor3 y, dx, dmemory;
  Rng rng(1);
  block.forward(x, memory, &target_mask, &source_mask, false, rng, y, cache, &peek);
  const Tensor3 r = probe_weights(y, 5);
  zero_grads(params);
  block.backward(r, cache, dx, dmemory);
  auto loss = [&] {
    block.forward(x, memory, &target_mask, &source_mask, false, rng, y, cache, &peek);
    return probe_loss(y, r);
  };
  GradCheckOptions opt;
  opt.max_probes = 16;
  check_parameter_gradients(params, loss, opt);
  check_gradient("x", x.data(), dx.data(), x.size(), loss, opt);
  check_gradient("memory", memory.data(), dmemory.data(), memory.size(), loss, opt);
  // Position 0 now reads position 1: changing x_1 moves y_0 (it would not under the causal mask).
  block.forward(x, memory, nullptr, nullptr, false, rng, y, cache, &peek);
  const Tensor3 before = y;
  Tensor3 changed = x;
  for (std::size_t j = 0; j < d; ++j) changed(0, 1, j) += 0.75f;
  block.forward(changed, memory, nullptr, nullptr, false, rng, y, cache, &peek);
  CHECK(y(0, 0, 0) != before(0, 0, 0));

  const Mask2 window = {{1, 0, 0, 0}, {1, 1, 0, 0}, {0, 1, 1, 0}, {0, 0, 1, 1}};
  block.forward(x, memory, nullptr, &source_mask, false, rng, y, cache, &window);
  Tensor2 bias = xt::zeros<float>({nb, nx});
  bias(0, 2) = -std::numeric_limits<float>::infinity();
  const Mask1 padded = {1, 0};
  TransformerDecoderLayerState state;
  block.start(memory, state);
  TransformerStepWeights weights;
  for (std::size_t t = 0; t < nt; ++t) {
    CAPTURE(t);
    Tensor3 xt_ = xt::view(x, xt::all(), xt::range(t, t + 1), xt::all());
    Tensor3 yt;
    block.step(xt_, bias, padded, state, yt, weights, window.data() + t * nt);
    for (std::size_t b = 0; b < nb; ++b) {
      for (std::size_t j = 0; j < d; ++j) CHECK(yt(b, 0, j) == doctest::Approx(y(b, t, j)).epsilon(1e-4));
      for (std::size_t i = 0; i <= t; ++i) {
        CHECK(weights.self_weights(b, 0, 0, i) ==
              doctest::Approx(cache.self_attention.weights(b, 0, t, i)).epsilon(1e-4));
      }
    }
  }
  CHECK(weights.self_weights(0, 1, 0, 0) == 0.f);  // row 3 of the window hides position 0
}
