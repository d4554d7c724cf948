#include <doctest/doctest.h>

#include "attn/layers/transformer_encoder.hpp"
#include "support/grad_check.hpp"

using namespace attn;
using attn::test::check_gradient;
using attn::test::check_parameter_gradients;
using attn::test::GradCheckOptions;
using attn::test::probe_loss;
using attn::test::probe_weights;

namespace {
// B = 2, T = 4, D = 6, H = 2, F = 8; the second sequence has one padded (post) position.
struct Fixture {
  TransformerEncoderConfig config;
  Rng init{3};
  Tensor3 x;
  Mask2 mask = {{1, 1, 1, 1}, {1, 1, 1, 0}};
  Fixture(float dropout, Activation act) {
    config.d_model = 6;
    config.heads = 2;
    config.ff_dim = 8;
    config.dropout = dropout;
    config.activation = act;
    Rng rng(4);
    x = xt::empty<float>({2, 4, 6});
    for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  }
};
}  // namespace

TEST_CASE("transformer_encoder.gradients_of_every_parameter_and_the_input") {
  for (Activation act : {Activation::gelu, Activation::relu}) {
    for (float dropout : {0.f, 0.3f}) {
      CAPTURE(activation_name(act));
      CAPTURE(dropout);
      Fixture f(dropout, act);
      TransformerEncoderBlock block(f.config, f.init);
      ParameterList params;
      block.parameters(params, "block.");
      TransformerEncoderCache cache;
      Tensor3 y, dx;
      // Dropout masks are fixed by re-seeding the generator before every forward.
      auto forward = [&]() {
        Rng rng(99);
        block.forward(f.x, &f.mask, false, true, rng, y, cache);
      };
      forward();
      const Tensor3 r = probe_weights(y, 5);
      zero_grads(params);
      block.backward(r, cache, dx);
      auto loss = [&]() {
        forward();
        return probe_loss(y, r);
      };
      // tolerance: |analytic - numeric| <= 2e-3 + 2e-2 · max(|analytic|, |numeric|), h = 1e-2.
      GradCheckOptions opt;
      opt.max_probes = 16;
      // ReLU kinks: skip input entries whose perturbation could flip a pre-activation sign is
      // impractical to predict here, so the ReLU case uses a smaller step.
      if (act == Activation::relu) opt.step = 1e-3;
      check_parameter_gradients(params, loss, opt);
      check_gradient("x", f.x.data(), dx.data(), f.x.size(), loss, opt);
    }
  }
}

TEST_CASE("transformer_encoder.residual_identity_when_branches_are_zero") {
  // With every weight of both branches' output projections at zero, y = x exactly.
  Fixture f(0.f, Activation::gelu);
  TransformerEncoderBlock block(f.config, f.init);
  ParameterList params;
  block.parameters(params, "");
  for (const Parameter& p : params) {
    if (p.name.rfind("attention.w_o", 0) == 0 || p.name.rfind("attention.b_o", 0) == 0 ||
        p.name.rfind("ff2.", 0) == 0) {
      std::fill(p.value, p.value + p.size, 0.f);
    }
  }
  Rng rng(1);
  TransformerEncoderCache cache;
  Tensor3 y;
  block.forward(f.x, &f.mask, false, false, rng, y, cache);
  CHECK(xt::allclose(y, f.x, 0.0, 1e-7));
}

TEST_CASE("transformer_encoder.padding_and_causality") {
  Fixture f(0.f, Activation::gelu);
  TransformerEncoderBlock block(f.config, f.init);
  Rng rng(1);
  TransformerEncoderCache cache;
  Tensor3 y1, y2;
  block.forward(f.x, &f.mask, true, false, rng, y1, cache);
  // Changing the last position (padding in sequence 1, the future for everyone in causal mode)
  // leaves every earlier output of both sequences unchanged.
  Tensor3 x2 = f.x;
  xt::view(x2, xt::all(), 3, xt::all()) = 7.f;
  block.forward(x2, &f.mask, true, false, rng, y2, cache);
  CHECK(xt::allclose(xt::view(y1, xt::all(), xt::range(0, 3), xt::all()),
                     xt::view(y2, xt::all(), xt::range(0, 3), xt::all()), 1e-6, 1e-6));
  CHECK(cache.attention.weights.shape() == std::array<std::size_t, 4>{2, 2, 4, 4});
}

TEST_CASE("transformer_encoder.shape_errors") {
  Fixture f(0.f, Activation::gelu);
  TransformerEncoderBlock block(f.config, f.init);
  Rng rng(1);
  TransformerEncoderCache cache;
  Tensor3 y;
  Tensor3 wrong = xt::zeros<float>({1, 2, 5});
  CHECK_THROWS_WITH_AS(block.forward(wrong, nullptr, false, false, rng, y, cache),
                       "TransformerEncoderBlock::forward: x has shape [1, 2, 5]; its last axis must be d_model = 6",
                       ShapeError);
}
