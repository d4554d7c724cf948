#include <doctest/doctest.h>

#include <limits>

#include "attn/optim/sgd.hpp"
#include "support/tensor_check.hpp"
#include "support/toy_parameters.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::ToyParameters;

// Every test: p = [1, −2], lr = 0.1, g1 = [0.5, 1] on step 1, g2 = [−0.25, 2] on step 2.
namespace {
void two_steps(SGD& sgd, ToyParameters& toy, std::vector<float> after1, std::vector<float> after2) {
  toy.set_grad(0, {0.5f, 1.f});
  sgd.step(toy.params);
  check_close(toy.values[0], {2}, after1, 1e-6f);
  toy.set_grad(0, {-0.25f, 2.f});
  sgd.step(toy.params);
  check_close(toy.values[0], {2}, after2, 1e-6f);
}
}  // namespace

TEST_CASE("sgd.plain_two_steps") {
  // p1 = [1 − 0.05, −2 − 0.1] = [0.95, −2.1]; p2 = [0.95 + 0.025, −2.1 − 0.2] = [0.975, −2.3].
  ToyParameters toy({{1, -2}});
  SGD sgd(0.1f);
  two_steps(sgd, toy, {0.95f, -2.1f}, {0.975f, -2.3f});
  CHECK(sgd.state().buffers.empty());
  CHECK(sgd.step_count() == 2);
}

TEST_CASE("sgd.momentum_two_steps") {
  // μ = 0.9. v1 = g1 = [0.5, 1]; p1 = [0.95, −2.1].
  // v2 = 0.9·[0.5, 1] + [−0.25, 2] = [0.2, 2.9]; p2 = [0.95 − 0.02, −2.1 − 0.29] = [0.93, −2.39].
  ToyParameters toy({{1, -2}});
  SGD sgd(0.1f, 0.9f);
  two_steps(sgd, toy, {0.95f, -2.1f}, {0.93f, -2.39f});
  REQUIRE(sgd.state().buffers.size() == 1);
  CHECK(sgd.state().buffers[0].name == "velocity");
  const std::vector<float>& v = sgd.state().buffers[0].slots[0];
  CHECK(v[0] == doctest::Approx(0.2f));
  CHECK(v[1] == doctest::Approx(2.9f));
}

TEST_CASE("sgd.nesterov_two_steps") {
  // μ = 0.9, d = g + μ·v.
  // Step 1: v1 = [0.5, 1]; d = [0.5 + 0.45, 1 + 0.9] = [0.95, 1.9]; p1 = [0.905, −2.19].
  // Step 2: v2 = [0.2, 2.9]; d = [−0.25 + 0.18, 2 + 2.61] = [−0.07, 4.61];
  //         p2 = [0.905 + 0.007, −2.19 − 0.461] = [0.912, −2.651].
  ToyParameters toy({{1, -2}});
  SGD sgd(0.1f, 0.9f, true);
  two_steps(sgd, toy, {0.905f, -2.19f}, {0.912f, -2.651f});
}

TEST_CASE("sgd.weight_decay_is_added_to_the_gradient") {
  // λ = 0.1, no momentum. g1' = [0.5 + 0.1, 1 − 0.2] = [0.6, 0.8]; p1 = [0.94, −2.08].
  // g2' = [−0.25 + 0.094, 2 − 0.208] = [−0.156, 1.792]; p2 = [0.9556, −2.2592].
  ToyParameters toy({{1, -2}});
  SGD sgd(0.1f, 0.f, false, 0.1f);
  two_steps(sgd, toy, {0.94f, -2.08f}, {0.9556f, -2.2592f});
}

TEST_CASE("sgd.learning_rate_change_applies_at_once") {
  // PyTorch's form keeps lr out of the velocity: v2 = [0.2, 2.9] either way, and with lr = 1 on
  // step 2 the move is the whole velocity: p2 = [0.95 − 0.2, −2.1 − 2.9] = [0.75, −5].
  ToyParameters toy({{1, -2}});
  SGD sgd(0.1f, 0.9f);
  toy.set_grad(0, {0.5f, 1.f});
  sgd.step(toy.params);
  sgd.set_learning_rate(1.f);
  CHECK(sgd.learning_rate() == 1.f);
  toy.set_grad(0, {-0.25f, 2.f});
  sgd.step(toy.params);
  check_close(toy.values[0], {2}, {0.75f, -5.f}, 1e-6f);
}

TEST_CASE("sgd.rejects_bad_hyperparameters") {
  CHECK_THROWS_WITH_AS(SGD(-0.1f), "SGD: learning rate must be finite and >= 0, got -0.1", std::invalid_argument);
  CHECK_THROWS_AS(SGD(0.1f, -0.5f), std::invalid_argument);
  CHECK_THROWS_AS(SGD(0.1f, 0.f, true), std::invalid_argument);
  CHECK_THROWS_AS(SGD(0.1f, 0.f, false, -1.f), std::invalid_argument);
  SGD sgd(0.1f);
  CHECK_THROWS_AS(sgd.set_learning_rate(std::numeric_limits<float>::quiet_NaN()), std::invalid_argument);
}
