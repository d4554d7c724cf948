#include <doctest/doctest.h>

#include "attn/optim/adam.hpp"
#include "support/tensor_check.hpp"
#include "support/toy_parameters.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::ToyParameters;

// Kingma & Ba, Algorithm 1, with lr = 0.1, β1 = 0.9, β2 = 0.999, ε = 1e-8, p = [1, −2],
// g1 = [0.5, 1], g2 = [−0.25, 2].
//
// t = 1: m = 0.1·g1 = [0.05, 0.1]; v = 0.001·g1² = [0.00025, 0.001]
//        m̂ = m / (1 − 0.9) = [0.5, 1]; v̂ = v / (1 − 0.999) = [0.25, 1]
//        p −= 0.1·m̂ / (√v̂ + ε) = 0.1·[0.5/0.5, 1/1] -> p1 = [0.9, −2.1]
// t = 2: m = 0.9·[0.05, 0.1] + 0.1·[−0.25, 2] = [0.045 − 0.025, 0.09 + 0.2] = [0.02, 0.29]
//        v = 0.999·[0.00025, 0.001] + 0.001·[0.0625, 4] = [0.00031225, 0.004999]
//        bias corrections 1 − 0.9² = 0.19 and 1 − 0.999² = 0.001999:
//        m̂ = [0.105263, 1.526316]; v̂ = [0.156203, 2.500750]; √v̂ = [0.395225, 1.581376]
//        step = 0.1·m̂ / √v̂ = [0.026634, 0.096518] -> p2 = [0.873366, −2.196518]
// (ConvNetJS' old bias correction, which did not use t, gives other numbers at t = 2.)
TEST_CASE("adam.first_two_steps_match_algorithm_1") {
  ToyParameters toy({{1, -2}});
  Adam adam(0.1f);
  toy.set_grad(0, {0.5f, 1.f});
  adam.step(toy.params);
  check_close(toy.values[0], {2}, {0.9f, -2.1f}, 1e-6f);
  toy.set_grad(0, {-0.25f, 2.f});
  adam.step(toy.params);
  check_close(toy.values[0], {2}, {0.873366f, -2.196518f}, 1e-6f);

  const OptimizerState& s = adam.state();
  CHECK(s.step == 2);
  REQUIRE(s.buffers.size() == 2);
  CHECK(s.buffers[0].name == "m");
  CHECK(s.buffers[1].name == "v");
  check_close(test::vector({s.buffers[0].slots[0][0], s.buffers[0].slots[0][1]}), {2}, {0.02f, 0.29f}, 1e-7f);
  check_close(test::vector({s.buffers[1].slots[0][0], s.buffers[1].slots[0][1]}), {2}, {0.00031225f, 0.004999f},
              1e-7f);  // float32 1 − 0.999f is 0.000999987: 1.3e-5 relative
}

TEST_CASE("adam.first_step_moves_by_lr_whatever_the_gradient_scale") {
  // m̂ = g and v̂ = g² on step 1, so every entry moves by lr·g/(|g| + ε) ≈ ±lr; for |g| = 1e-3
  // the ε makes it 0.01·(1 − 1e-5), hence the tolerance.
  ToyParameters toy({{0, 0, 0}});
  Adam adam(0.01f);
  toy.set_grad(0, {1e-3f, -50.f, 7.f});
  adam.step(toy.params);
  check_close(toy.values[0], {3}, {-0.01f, 0.01f, -0.01f}, 2e-7f);
}

TEST_CASE("adam.weight_decay_is_l2_in_the_gradient") {
  // λ = 0.5: g1' = g1 + 0.5·p = [0.5 + 0.5, 1 − 1] = [1, 0]. Step 1 then moves entry 0 by
  // 0.1·1/1 = 0.1 and entry 1 by 0 (m̂ = 0): p1 = [0.9, −2].
  ToyParameters toy({{1, -2}});
  Adam adam(0.1f, 0.9f, 0.999f, 1e-8f, 0.5f);
  toy.set_grad(0, {0.5f, 1.f});
  adam.step(toy.params);
  check_close(toy.values[0], {2}, {0.9f, -2.f}, 1e-6f);
}

// AdamW, λ = 0.5, same run: each step first shrinks p by (1 − lr·λ) = 0.95, then takes the Adam
// step computed above from the raw gradients (the moments never see p).
//   step 1: [1, −2]·0.95 = [0.95, −1.9];  − [0.1, 0.1]·sign(g)   -> [0.85, −2.0]
//   step 2: [0.85, −2.0]·0.95 = [0.8075, −1.9];  − [0.026634, 0.096518] -> [0.780866, −1.996518]
TEST_CASE("adam.adamw_first_two_steps") {
  ToyParameters toy({{1, -2}});
  AdamW adamw(0.1f, 0.9f, 0.999f, 1e-8f, 0.5f);
  toy.set_grad(0, {0.5f, 1.f});
  adamw.step(toy.params);
  check_close(toy.values[0], {2}, {0.85f, -2.f}, 1e-6f);
  toy.set_grad(0, {-0.25f, 2.f});
  adamw.step(toy.params);
  check_close(toy.values[0], {2}, {0.780866f, -1.996518f}, 1e-6f);
  CHECK(adamw.weight_decay() == 0.5f);
}

TEST_CASE("adam.adamw_is_not_adam_with_l2") {
  // Zero gradients, p = [1, 100], lr = 0.1, λ = 0.01.
  // Adam + L2: g' = λ·p = [0.01, 1]; step 1 normalises it away: both entries move by lr = 0.1
  //   -> [0.9, 99.9]. The small weight loses 10%, the large one 0.1%.
  // AdamW: p·(1 − lr·λ) = p·0.999 -> [0.999, 99.9]; the Adam term is 0/(0 + ε) = 0. Every weight
  //   loses the same 0.1%.
  ToyParameters l2({{1, 100}});
  Adam adam(0.1f, 0.9f, 0.999f, 1e-8f, 0.01f);
  adam.step(l2.params);
  check_close(l2.values[0], {2}, {0.9f, 99.9f}, 1e-4f);

  ToyParameters decoupled({{1, 100}});
  AdamW adamw(0.1f, 0.9f, 0.999f, 1e-8f, 0.01f);
  adamw.step(decoupled.params);
  check_close(decoupled.values[0], {2}, {0.999f, 99.9f}, 1e-4f);
}

TEST_CASE("adam.adamw_predicate_skips_vectors") {
  // decay_matrices_only: the [2, 2] weight shrinks by 1 − 0.1·0.5 = 0.95, the [2] bias does not
  // (zero gradients, so the Adam term is 0).
  Tensor2 w = test::matrix({{1, 2}, {3, 4}});
  Tensor2 dw = xt::zeros<float>({2, 2});
  Tensor1 b = test::vector({1, 2});
  Tensor1 db = xt::zeros<float>({2});
  ParameterList params;
  add_parameter(params, "dense.", "w", w, dw);
  add_parameter(params, "dense.", "b", b, db);
  AdamW adamw(0.1f, 0.9f, 0.999f, 1e-8f, 0.5f, decay_matrices_only);
  adamw.step(params);
  check_close(w, {2, 2}, {0.95f, 1.9f, 2.85f, 3.8f}, 1e-6f);
  check_close(b, {2}, {1.f, 2.f}, 0.f);
  // Default: everything decays.
  AdamW all(0.1f, 0.9f, 0.999f, 1e-8f, 0.5f);
  all.step(params);
  check_close(b, {2}, {0.95f, 1.9f}, 1e-6f);
}

TEST_CASE("adam.rejects_bad_hyperparameters") {
  CHECK_THROWS_WITH_AS(Adam(1e-3f, 1.f), "Adam: beta1 must be in [0, 1), got 1", std::invalid_argument);
  CHECK_THROWS_AS(Adam(1e-3f, 0.9f, -0.1f), std::invalid_argument);
  CHECK_THROWS_AS(Adam(1e-3f, 0.9f, 0.999f, 0.f), std::invalid_argument);
  CHECK_THROWS_WITH_AS(AdamW(1e-3f, 0.9f, 0.999f, 1e-8f, -1.f), "AdamW: weight_decay must be finite and >= 0, got -1",
                       std::invalid_argument);
}
