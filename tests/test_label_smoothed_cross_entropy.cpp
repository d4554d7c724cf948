#include <doctest/doctest.h>

#include <cmath>

#include "attn/losses/label_smoothed_cross_entropy.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;

TEST_CASE("label_smoothed_cross_entropy.hand_computed") {
  // V = 3, ε = 0.3. Row 0: z = [0, 0, ln 2], target 2 -> softmax p = [0.25, 0.25, 0.5];
  // q = (1 − ε)[v = 2] + ε / 3 = [0.1, 0.1, 0.8];
  // ℓ = −Σ q log p = 0.1·ln 4 + 0.1·ln 4 + 0.8·ln 2 = 0.277259 + 0.554518 = 0.831777;
  // dℓ/dz = p − q = [0.15, 0.15, −0.3]. Row 1 has target 0 = ignore_index: no loss, zero
  // gradient, K = 1.
  const Tensor2 logits = {{0.f, 0.f, std::log(2.f)}, {3.f, -1.f, 2.f}};
  const ClassIds targets = {2, 0};
  Tensor2 dlogits;
  const CrossEntropyResult r = label_smoothed_cross_entropy(logits, targets, 0, 0.3f, &dlogits);
  CHECK(r.loss == doctest::Approx(0.831777f).epsilon(1e-5));
  CHECK(r.counted == 1);
  CHECK(r.correct == 1);
  check_close(dlogits, {2, 3}, {0.15f, 0.15f, -0.3f, 0.f, 0.f, 0.f}, 1e-6f);
  // Forward only gives the same loss.
  CHECK(label_smoothed_cross_entropy(logits, targets, 0, 0.3f, nullptr).loss == doctest::Approx(r.loss).epsilon(1e-6));
}

TEST_CASE("label_smoothed_cross_entropy.zero_smoothing_is_softmax_cross_entropy") {
  Rng rng(1);
  Tensor2 logits = xt::empty<float>({5, 7});
  for (auto& v : logits) v = rng.uniform(-3.f, 3.f);
  const ClassIds targets = {1, 0, 6, 3, 0};
  Tensor2 d_smoothed, d_plain;
  const float smoothed = label_smoothed_cross_entropy(logits, targets, 0, 0.f, &d_smoothed).loss;
  const float plain = softmax_cross_entropy(logits, targets, 0, &d_plain);
  CHECK(smoothed == plain);
  CHECK(d_smoothed == d_plain);
  // And smoothing changes both.
  Tensor2 d_eps;
  CHECK(label_smoothed_cross_entropy(logits, targets, 0, 0.1f, &d_eps).loss != plain);
  CHECK(d_eps != d_plain);
}

TEST_CASE("label_smoothed_cross_entropy.gradient_matches_finite_differences") {
  Rng rng(2);
  Tensor2 logits = xt::empty<float>({4, 6});
  for (auto& v : logits) v = rng.uniform(-2.f, 2.f);
  const ClassIds targets = {5, 0, 2, 1};  // row 1 ignored
  Tensor2 dlogits;
  label_smoothed_cross_entropy(logits, targets, 0, 0.2f, &dlogits);
  auto loss = [&] { return static_cast<double>(label_smoothed_cross_entropy(logits, targets, 0, 0.2f, nullptr).loss); };
  attn::test::check_gradient("logits", logits.data(), dlogits.data(), logits.size(), loss, {1e-2, 2e-2, 1e-4, 24, 1});
}

TEST_CASE("label_smoothed_cross_entropy.rejects_bad_arguments") {
  const Tensor2 logits = xt::zeros<float>({2, 3});
  const ClassIds targets = {1, 2};
  CHECK_THROWS_WITH_AS(label_smoothed_cross_entropy(logits, targets, 0, 1.f, nullptr),
                       doctest::Contains("smoothing must be in [0, 1)"), std::invalid_argument);
  CHECK_THROWS_AS(label_smoothed_cross_entropy(logits, targets, 0, -0.1f, nullptr), std::invalid_argument);
  const ClassIds outside = {1, 3};
  CHECK_THROWS_WITH_AS(label_smoothed_cross_entropy(logits, outside, 0, 0.1f, nullptr),
                       doctest::Contains("target 3 at row 1"), std::invalid_argument);
  // Every row ignored: loss 0, zero gradient.
  const ClassIds pads = {0, 0};
  Tensor2 d;
  CHECK(label_smoothed_cross_entropy(logits, pads, 0, 0.1f, &d).loss == 0.f);
  CHECK(xt::all(xt::equal(d, 0.f)));
}
