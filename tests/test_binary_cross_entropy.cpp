#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attn/losses/binary_cross_entropy.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::vector;

TEST_CASE("binary_cross_entropy.known_answer_and_gradient") {
  // ℓ = max(z, 0) − z·y + log1p(exp(−|z|)):
  //   z = 0,  y = 1:   0 − 0 + log 2              = 0.693147
  //   z = 2,  y = 0:   2 − 0 + log(1 + e^-2)      = 2 + 0.126928 = 2.126928
  //   z = −1, y = 0.5: 0 + 0.5 + log(1 + e^-1)    = 0.5 + 0.313262 = 0.813262
  //   mean = 3.633337 / 3 = 1.211112
  // dL/dz = (σ(z) − y) / 3: (0.5 − 1)/3 = −0.166667; (0.880797 − 0)/3 = 0.293599;
  //   (0.268941 − 0.5)/3 = −0.077020.
  Tensor1 dz;
  const float loss = binary_cross_entropy_with_logits(vector({0, 2, -1}), vector({1, 0, 0.5f}), &dz);
  CHECK(loss == doctest::Approx(1.211112).epsilon(1e-6));
  check_close(dz, {3}, {-0.166667f, 0.293599f, -0.077020f}, 1e-6f);
  // Without a gradient the loss is the same.
  CHECK(binary_cross_entropy_with_logits(vector({0, 2, -1}), vector({1, 0, 0.5f}), nullptr) == loss);
}

TEST_CASE("binary_cross_entropy.large_logits_stay_finite") {
  // A confident wrong answer costs |z|; a confident right one costs ~e^-100 ≈ 0. The naive
  // −y log σ(z) form gives log(0) = −inf for the first.
  Tensor1 dz;
  const float loss = binary_cross_entropy_with_logits(vector({100, -100, -100}), vector({0, 0, 1}), &dz);
  CHECK(loss == doctest::Approx(200.0 / 3.0).epsilon(1e-6));
  // σ(100) − 0 = 1, σ(−100) − 0 ≈ 0, σ(−100) − 1 ≈ −1, each over N = 3.
  check_close(dz, {3}, {1 / 3.f, 0.f, -1 / 3.f}, 1e-6f);
}

TEST_CASE("binary_cross_entropy.gradient_matches_finite_differences") {
  // Tolerances: GradCheckOptions defaults (h = 1e-2, rel 2e-2, abs 2e-3). The loss is smooth, so
  // central differences are accurate to O(h²).
  Rng rng(3);
  Tensor1 z = random_uniform(rng, 7, -3.f, 3.f);
  const Tensor1 y = vector({0, 1, 0.25f, 1, 0, 0.9f, 0.5f});
  const Tensor1 w = vector({1, 2, 0.5f, 0, 1, 3, 1});
  Tensor1 dz;
  binary_cross_entropy_with_logits(z, y, &dz);
  test::check_gradient("z", z.data(), dz.data(), z.size(),
                       [&] { return static_cast<double>(binary_cross_entropy_with_logits(z, y, nullptr)); });
  binary_cross_entropy_with_logits(z, y, w, &dz);
  test::check_gradient("z (weighted)", z.data(), dz.data(), z.size(),
                       [&] { return static_cast<double>(binary_cross_entropy_with_logits(z, y, w, nullptr)); });
}

TEST_CASE("binary_cross_entropy.weights_scale_each_example") {
  // Weights [2, 0]: L = (2·log 2 + 0·ℓ_2) / 2 = log 2; dz = [2·(0.5 − 1)/2, 0] = [−0.5, 0].
  Tensor1 dz;
  const float loss = binary_cross_entropy_with_logits(vector({0, 5}), vector({1, 0}), vector({2, 0}), &dz);
  CHECK(loss == doctest::Approx(std::log(2.0)).epsilon(1e-6));
  check_close(dz, {2}, {-0.5f, 0.f}, 1e-6f);
}

TEST_CASE("binary_cross_entropy.overwrites_and_resizes_dlogits") {
  Tensor1 dz = xt::zeros<float>({5});
  dz.fill(42.f);
  binary_cross_entropy_with_logits(vector({0}), vector({0}), &dz);
  check_close(dz, {1}, {0.5f}, 1e-6f);
}

TEST_CASE("binary_cross_entropy.rejects_bad_arguments") {
  CHECK_THROWS_WITH_AS(binary_cross_entropy_with_logits(vector({0, 1}), vector({1}), nullptr),
                       "binary_cross_entropy_with_logits: targets has shape [1] but logits has shape [2]; they "
                       "must match",
                       ShapeError);
  CHECK_THROWS_WITH_AS(binary_cross_entropy_with_logits(vector({0, 1}), vector({1, 2}), nullptr),
                       doctest::Contains("target 2.000000 at index 1 is outside [0, 1]"), std::invalid_argument);
  CHECK_THROWS_AS(binary_cross_entropy_with_logits(vector({0}), vector({std::nanf("")}), nullptr),
                  std::invalid_argument);
  CHECK_THROWS_AS(binary_cross_entropy_with_logits(Tensor1{}, Tensor1{}, nullptr), ShapeError);
  CHECK_THROWS_AS(binary_cross_entropy_with_logits(vector({0}), vector({1}), vector({-1}), nullptr),
                  std::invalid_argument);
  // A NaN logit is the training loop's business: it comes back as a NaN loss.
  CHECK(std::isnan(binary_cross_entropy_with_logits(vector({std::nanf("")}), vector({1}), nullptr)));
}
