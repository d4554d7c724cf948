#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attn/optim/clip.hpp"
#include "support/tensor_check.hpp"
#include "support/toy_parameters.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::ToyParameters;

TEST_CASE("clip.scales_all_gradients_by_one_global_factor") {
  // Grads [3, 4] and [12]: ‖g‖ = sqrt(9 + 16 + 144) = 13. max_norm 6.5 -> factor
  // 6.5 / (13 + 1e-6) = 0.49999996 -> [1.5, 2] and [6]; the norm before clipping is returned.
  ToyParameters toy({{0, 0}, {0}});
  toy.set_grad(0, {3, 4});
  toy.set_grad(1, {12});
  CHECK(grad_norm(toy.params) == 13.0);
  CHECK(clip_grad_norm(toy.params, 6.5f) == 13.f);
  check_close(toy.grads[0], {2}, {1.5f, 2.f}, 1e-6f);
  check_close(toy.grads[1], {1}, {6.f}, 1e-6f);
  CHECK(grad_norm(toy.params) == doctest::Approx(6.5).epsilon(1e-6));
  // Clipping each tensor on its own would have given [3, 4]·6.5/5 and [6.5]: a different direction.
}

TEST_CASE("clip.leaves_small_gradients_alone") {
  ToyParameters toy({{0, 0}, {0}});
  toy.set_grad(0, {3, 4});
  toy.set_grad(1, {12});
  CHECK(clip_grad_norm(toy.params, 13.f) == 13.f);  // equal is not greater
  CHECK(clip_grad_norm(toy.params, 20.f) == 13.f);
  check_close(toy.grads[0], {2}, {3.f, 4.f}, 0.f);
  check_close(toy.grads[1], {1}, {12.f}, 0.f);
}

TEST_CASE("clip.accumulates_in_double") {
  // 10^6 entries of 1e-4 sum their squares to 1e-2 (norm 0.1); a float running sum stalls once
  // the sum dwarfs each 1e-8 term.
  std::vector<float> value(1000000, 0.f), grad(1000000, 1e-4f);
  ParameterList params{{"big", {1000000}, value.data(), grad.data(), 1000000}};
  CHECK(grad_norm(params) == doctest::Approx(0.1).epsilon(1e-6));
}

TEST_CASE("clip.non_finite_norm_is_returned_without_scaling") {
  ToyParameters toy({{0, 0}});
  toy.set_grad(0, {std::numeric_limits<float>::infinity(), 1.f});
  CHECK(std::isinf(clip_grad_norm(toy.params, 1.f)));
  CHECK(toy.grads[0](1) == 1.f);
  toy.set_grad(0, {std::nanf(""), 1.f});
  CHECK(std::isnan(clip_grad_norm(toy.params, 1.f)));
  CHECK(toy.grads[0](1) == 1.f);
}

TEST_CASE("clip.rejects_bad_max_norm") {
  ToyParameters toy({{1}});
  CHECK_THROWS_WITH_AS(clip_grad_norm(toy.params, 0.f), "clip_grad_norm: max_norm must be finite and > 0, got 0",
                       std::invalid_argument);
  CHECK_THROWS_AS(clip_grad_norm(toy.params, std::nanf("")), std::invalid_argument);
  CHECK(clip_grad_norm(ParameterList{}, 1.f) == 0.f);
}
