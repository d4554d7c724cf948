#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "attn/layers/layer_norm.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::matrix;

namespace {

void set_values(const Parameter& p, std::initializer_list<float> values) {
  REQUIRE(values.size() == p.size);
  std::copy(values.begin(), values.end(), p.value);
}

// Random γ and β, so their gradients and the input gradient through γ are all exercised.
void randomise_parameters(const ParameterList& params, Rng& rng) {
  for (const Parameter& p : params)
    for (std::size_t i = 0; i < p.size; ++i) p.value[i] = rng.uniform(0.5f, 1.5f) * (p.name == "beta" ? 0.5f : 1.f);
}

}  // namespace

TEST_CASE("layer_norm.forward_hand_computed") {
  LayerNorm layer(4);
  ParameterList params;
  layer.parameters(params, "ln.");
  REQUIRE(params.size() == 2);
  CHECK(params[0].name == "ln.gamma");
  CHECK(params[1].name == "ln.beta");
  CHECK(layer.gamma() == Tensor1(xt::ones<float>({4})));
  CHECK(layer.beta() == Tensor1(xt::zeros<float>({4})));
  set_values(params[0], {1, 2, 0.5f, 1});
  set_values(params[1], {0, 1, 0, -1});
  Tensor2 y;
  LayerNormCache cache;
  layer.forward(matrix({{1, 2, 3, 4}}), y, cache);
  // μ = 2.5, σ² = (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25, rstd = 1 / sqrt(1.25 + 1e-5) = 0.894424
  // x̂ = [-1.5, -0.5, 0.5, 1.5] · rstd = [-1.341635, -0.447212, 0.447212, 1.341635]
  // y = γ ⊙ x̂ + β = [-1.341635, -0.894424 + 1, 0.223606, 1.341635 − 1]
  check_close(cache.mean, {1}, {2.5f}, 0.f);
  check_close(cache.rstd, {1}, {0.894424f}, 1e-6f);
  check_close(cache.x_hat, {1, 4}, {-1.341635f, -0.447212f, 0.447212f, 1.341635f}, 1e-6f);
  check_close(y, {1, 4}, {-1.341635f, 0.105576f, 0.223606f, 0.341635f}, 1e-6f);
}

TEST_CASE("layer_norm.rows_have_zero_mean_and_unit_variance") {
  // Rows far from 0 (offset 100, scale 5) test the two-pass variance. Tolerances: mean 1e-5;
  // variance 1e-3 (eps = 1e-5 against σ² ≈ 8 shifts it by ~1e-6, float rounding by less).
  Rng rng(1);
  LayerNorm layer(16);
  Tensor2 x = random_uniform(rng, 6, 16, 95.f, 105.f);
  Tensor2 y;
  LayerNormCache cache;
  layer.forward(x, y, cache);
  for (std::size_t n = 0; n < 6; ++n) {
    double mean = 0, var = 0;
    for (std::size_t j = 0; j < 16; ++j) mean += cache.x_hat(n, j);
    mean /= 16;
    for (std::size_t j = 0; j < 16; ++j) var += (cache.x_hat(n, j) - mean) * (cache.x_hat(n, j) - mean);
    var /= 16;
    CAPTURE(n);
    CHECK(std::fabs(mean) < 1e-5);
    CHECK(std::fabs(var - 1.0) < 1e-3);
  }
  CHECK(y == cache.x_hat);  // γ = 1, β = 0 at init

  // A constant row normalises to zeros (eps keeps rstd finite), not NaN.
  Tensor2 flat = xt::ones<float>({1, 16}) * 3.f;
  layer.forward(flat, y, cache);
  for (float v : y) CHECK(v == 0.f);
}

TEST_CASE("layer_norm.gradient_check_rows") {
  // Tolerances: step 1e-3, rel 2e-2, abs 2e-3. x̂ is nonlinear in x, so the step is smaller
  // than the default; rows with spread ~1 keep rstd moderate.
  attn::test::GradCheckOptions opt;
  opt.step = 1e-3;
  Rng rng(2);
  LayerNorm layer(5);
  ParameterList params;
  layer.parameters(params, "");
  randomise_parameters(params, rng);
  Tensor2 x = random_uniform(rng, 4, 5, -2.f, 2.f);
  Tensor2 y, dx;
  LayerNormCache cache;
  layer.forward(x, y, cache);
  const Tensor2 r = attn::test::probe_weights(y, 3);
  zero_grads(params);
  layer.backward(r, cache, dx);
  auto loss = [&] {
    Tensor2 out;
    LayerNormCache c;
    layer.forward(x, out, c);
    return attn::test::probe_loss(out, r);
  };
  attn::test::check_parameter_gradients(params, loss, opt);
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss, opt);
}

TEST_CASE("layer_norm.gradient_check_sequence") {
  // Tolerances: as above.
  attn::test::GradCheckOptions opt;
  opt.step = 1e-3;
  Rng rng(3);
  LayerNorm layer(4);
  ParameterList params;
  layer.parameters(params, "");
  randomise_parameters(params, rng);
  Tensor3 x = xt::empty<float>({2, 3, 4});
  for (auto& v : x) v = rng.uniform(-2.f, 2.f);
  Tensor3 y, dx;
  LayerNormCache cache;
  layer.forward(x, y, cache);
  const Tensor3 r = attn::test::probe_weights(y, 4);
  zero_grads(params);
  layer.backward(r, cache, dx);
  auto loss = [&] {
    Tensor3 out;
    LayerNormCache c;
    layer.forward(x, out, c);
    return attn::test::probe_loss(out, r);
  };
  attn::test::check_parameter_gradients(params, loss, opt);
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss, opt);
}

TEST_CASE("layer_norm.rejects_bad_shapes_and_values") {
  LayerNorm layer(4);
  Tensor2 y;
  LayerNormCache cache;
  CHECK_THROWS_WITH_AS(layer.forward(Tensor2(xt::zeros<float>({2, 3})), y, cache),
                       "LayerNorm::forward: x has shape [2, 3]; x must be [N, 4]", ShapeError);
  layer.forward(Tensor2(xt::zeros<float>({2, 4})), y, cache);
  Tensor2 dx;
  CHECK_THROWS_WITH_AS(layer.backward(Tensor2(xt::zeros<float>({3, 4})), cache, dx),
                       "LayerNorm::backward: dy has shape [3, 4] but the cache holds 2 rows of 4; dy must have "
                       "2 rows of 4",
                       ShapeError);
  CHECK_THROWS_WITH_AS(LayerNorm(4, 0.f), "LayerNorm: eps 0 must be finite and > 0", std::invalid_argument);
  CHECK_THROWS_AS(LayerNorm(0), std::invalid_argument);
}
