#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "attn/layers/activations.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::vector;

namespace {
const Activation kAll[] = {Activation::identity, Activation::tanh, Activation::sigmoid, Activation::relu,
                           Activation::gelu};
}

TEST_CASE("activations.names_round_trip") {
  for (Activation a : kAll) CHECK(activation_from_name(activation_name(a)) == a);
  CHECK(std::string(activation_name(Activation::gelu)) == "gelu");
  CHECK(activation_from_name("linear") == Activation::identity);
  CHECK_THROWS_WITH_AS(activation_from_name("swish"),
                       "activation_from_name: unknown activation 'swish' (expected identity, linear, tanh, "
                       "sigmoid, relu or gelu)",
                       std::invalid_argument);
}

TEST_CASE("activations.forward_hand_computed") {
  const Tensor1 x = vector({-1, 0, 2});
  check_close(activate(Activation::identity, x), {3}, {-1, 0, 2}, 0.f);
  // tanh(1) = 0.761594, tanh(2) = 0.964028
  check_close(activate(Activation::tanh, x), {3}, {-0.761594f, 0, 0.964028f}, 1e-6f);
  // 1 / (1 + e) = 0.268941, 1 / (1 + e^-2) = 0.880797
  check_close(activate(Activation::sigmoid, x), {3}, {0.268941f, 0.5f, 0.880797f}, 1e-6f);
  check_close(activate(Activation::relu, x), {3}, {0, 0, 2}, 0.f);
  // GELU (tanh form), u = 0.797885 (x + 0.044715 x³):
  //   x = -1: u = -0.833562, tanh u = -0.682384, y = ½ · -1 · 0.317616 = -0.158808
  //   x =  2: u = 1.881188,  tanh u = 0.954598,  y = ½ · 2 · 1.954598 = 1.954598
  // (the erf form would give -0.158655 and 1.954500, so this also pins the approximation)
  check_close(activate(Activation::gelu, x), {3}, {-0.158808f, 0, 1.954598f}, 2e-6f);
}

TEST_CASE("activations.backward_hand_computed") {
  const Tensor1 x = vector({-1, 0, 2});
  const Tensor1 dy = vector({1, 1, 1});
  Tensor1 dx;
  Tensor1 y = activate(Activation::gelu, x);
  activation_backward(Activation::gelu, x, y, dy, dx);
  // ½ (1 + t) + ½ x (1 − t²) · 0.797885 (1 + 0.134145 x²):
  //   x = -1: 0.158808 − ½ · 0.534352 · 0.904918 = -0.082964;  x = 0: ½;
  //   x =  2: 0.977299 + 0.088743 · 1.226015 = 1.086099
  check_close(dx, {3}, {-0.082964f, 0.5f, 1.086099f}, 2e-6f);
  y = activate(Activation::relu, x);
  activation_backward(Activation::relu, x, y, dy, dx);
  check_close(dx, {3}, {0, 0, 1}, 0.f);  // the kink at 0 takes gradient 0
  y = activate(Activation::sigmoid, x);
  activation_backward(Activation::sigmoid, x, y, dy, dx);
  // y (1 − y): 0.268941 · 0.731059 = 0.196612; ¼; 0.880797 · 0.119203 = 0.104994
  check_close(dx, {3}, {0.196612f, 0.25f, 0.104994f}, 1e-6f);
}

TEST_CASE("activations.gradient_check") {
  // Tolerances: step 1e-3, rel 1e-2, abs 1e-3; x in (-3, 3) covers both tails of tanh/sigmoid
  // and GELU's dip. ReLU entries with |x| < step straddle the kink and are skipped.
  attn::test::GradCheckOptions opt;
  opt.step = 1e-3;
  opt.rel_tol = 1e-2;
  opt.abs_tol = 1e-3;
  opt.max_probes = 40;
  Rng rng(7);
  Tensor2 x = random_uniform(rng, 5, 8, -3.f, 3.f);
  x(0, 0) = 0.f;  // the ReLU kink itself is present (and skipped)
  const Tensor2 r = attn::test::probe_weights(x, 3);
  for (Activation a : kAll) {
    CAPTURE(activation_name(a));
    Tensor2 y, dx;
    activation_forward(a, x, y);
    activation_backward(a, x, y, r, dx);
    auto loss = [&] { return attn::test::probe_loss(activate(a, x), r); };
    auto skip = [&](std::size_t i) { return a == Activation::relu && std::fabs(x.data()[i]) < opt.step; };
    attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss, opt, skip);
  }
}

TEST_CASE("activations.in_place_and_null_unused_inputs") {
  Rng rng(8);
  const Tensor1 x = random_uniform(rng, 300, -2.f, 2.f);  // > one 256-entry GELU block
  for (Activation a : kAll) {
    CAPTURE(activation_name(a));
    const Tensor1 y = activate(a, x);
    Tensor1 inplace = x;
    activation_forward(a, inplace.data(), inplace.data(), inplace.size());
    CHECK(inplace == y);
    const Tensor1 dy = attn::test::probe_weights(x, 2);
    Tensor1 dx;
    activation_backward(a, x, y, dy, dx);
    // Documented: tanh/sigmoid read only y, relu/gelu only x, identity neither.
    const bool needs_x = a == Activation::relu || a == Activation::gelu;
    const bool needs_y = a == Activation::tanh || a == Activation::sigmoid;
    Tensor1 dx2 = dy;  // dx == dy in place
    activation_backward(a, needs_x ? x.data() : nullptr, needs_y ? y.data() : nullptr, dx2.data(), dx2.data(),
                        dx2.size());
    CHECK(dx2 == dx);
  }
}

TEST_CASE("activations.backward_rejects_mismatched_shapes") {
  Tensor1 dx;
  CHECK_THROWS_WITH_AS(activation_backward(Activation::tanh, vector({1, 2}), vector({1, 2}), vector({1}), dx),
                       "activation_backward: x has shape [2], y has shape [2] and dy has shape [1]; all three "
                       "must match",
                       ShapeError);
}

TEST_CASE("activations.gelu_keeping_tanh_matches_gelu") {
  // Past one 256-element block of activation_forward, with a ragged tail.
  std::vector<float> x(613), y(x.size()), t(x.size()), want(x.size()), dy(x.size()), dx(x.size()), want_dx(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = -6.f + 12.f * static_cast<float>(i) / static_cast<float>(x.size());
    dy[i] = std::cos(static_cast<float>(i));
  }
  attn::gelu_forward_keep_tanh(x.data(), y.data(), t.data(), x.size());
  attn::activation_forward(attn::Activation::gelu, x.data(), want.data(), x.size());
  attn::gelu_backward_with_tanh(x.data(), t.data(), dy.data(), dx.data(), x.size());
  attn::activation_backward(attn::Activation::gelu, x.data(), nullptr, dy.data(), want_dx.data(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    CHECK(y[i] == want[i]);
    CHECK(t[i] == doctest::Approx(std::tanh(0.7978845608028654 * (x[i] + 0.044715 * x[i] * x[i] * x[i]))));
    CHECK(dx[i] == want_dx[i]);
  }
}
