#include <doctest/doctest.h>

#include <cmath>

#include "attn/losses/softmax_cross_entropy.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::matrix;

TEST_CASE("softmax_cross_entropy.known_answer_with_ignored_row") {
  // ignore_index 0: row 1 (target 0) is padding, so K = 2.
  //   row 0, z = [1, 2, 3], t = 2: log(e^-2 + e^-1 + 1) = log 1.503214 = 0.407606
  //   row 2, z = [5, 1, 1], t = 1: 5 + log(1 + 2e^-4) − 1 = 5 + 0.035976 − 1 = 4.035976
  //   L = (0.407606 + 4.035976) / 2 = 2.221791
  // dL/dz = (softmax − onehot) / 2:
  //   row 0: softmax = [0.090031, 0.244728, 0.665241] -> [0.045015, 0.122364, −0.167380]
  //   row 2: softmax = [0.964663, 0.017668, 0.017668] -> [0.482332, −0.491166, 0.008834]
  // Accuracy: row 0's argmax 2 is right, row 2's argmax 0 is wrong.
  const Tensor2 z = matrix({{1, 2, 3}, {0, 0, 0}, {5, 1, 1}});
  const ClassIds t = {2, 0, 1};
  Tensor2 dz;
  const CrossEntropyResult r = softmax_cross_entropy_with_accuracy(z, t, 0, &dz);
  CHECK(r.loss == doctest::Approx(2.221791).epsilon(1e-6));
  CHECK(r.counted == 2);
  CHECK(r.correct == 1);
  check_close(dz, {3, 3}, {0.045015f, 0.122364f, -0.167380f, 0, 0, 0, 0.482332f, -0.491166f, 0.008834f}, 2e-6f);
  CHECK(softmax_cross_entropy(z, t, 0, nullptr) == r.loss);
  // With nothing ignored (negative ignore_index) row 1 counts: log 3 = 1.098612 joins the mean.
  CHECK(softmax_cross_entropy(z, t, -1, nullptr) ==
        doctest::Approx((0.407606 + 1.098612 + 4.035976) / 3).epsilon(1e-5));
}

TEST_CASE("softmax_cross_entropy.large_logits_do_not_overflow") {
  // [1000, 1001], t = 0: log(1 + e^1) − ... = 1001 + log(1 + e^-1) − 1000 = 1.313262.
  const ClassIds t = {0};
  CHECK(softmax_cross_entropy(matrix({{1000, 1001}}), t, -1, nullptr) == doctest::Approx(1.313262).epsilon(1e-6));
}

TEST_CASE("softmax_cross_entropy.all_ignored_gives_zero_not_nan") {
  Tensor2 dz = xt::zeros<float>({2, 3});
  dz.fill(7.f);
  const ClassIds t = {0, 0};
  const CrossEntropyResult r = softmax_cross_entropy_with_accuracy(matrix({{1, 2, 3}, {3, 2, 1}}), t, 0, &dz);
  CHECK(r.loss == 0.f);
  CHECK(r.counted == 0);
  CHECK(r.correct == 0);
  check_close(dz, {2, 3}, {0, 0, 0, 0, 0, 0});
}

TEST_CASE("softmax_cross_entropy.gradient_matches_finite_differences") {
  // Tolerances: GradCheckOptions defaults (h = 1e-2, rel 2e-2, abs 2e-3); the loss is smooth.
  Rng rng(5);
  Tensor2 z = random_uniform(rng, 5, 4, -2.f, 2.f);
  const ClassIds t = {3, 0, 1, 2, 0};  // rows 1 and 4 are ignored
  Tensor2 dz;
  softmax_cross_entropy(z, t, 0, &dz);
  test::check_gradient("logits", z.data(), dz.data(), z.size(),
                       [&] { return static_cast<double>(softmax_cross_entropy(z, t, 0, nullptr)); });
}

TEST_CASE("softmax_cross_entropy.ties_count_the_first_maximum") {
  const ClassIds first = {0};
  const ClassIds second = {1};
  CHECK(softmax_cross_entropy_with_accuracy(matrix({{2, 2}}), first, -1, nullptr).correct == 1);
  CHECK(softmax_cross_entropy_with_accuracy(matrix({{2, 2}}), second, -1, nullptr).correct == 0);
}

TEST_CASE("softmax_cross_entropy.rejects_bad_targets_and_shapes") {
  const Tensor2 z = matrix({{1, 2, 3}, {3, 2, 1}});
  const ClassIds out_of_range = {1, 3};
  CHECK_THROWS_WITH_AS(softmax_cross_entropy(z, out_of_range, 0, nullptr),
                       "softmax_cross_entropy: target 3 at row 1 is outside [0, 3) and is not ignore_index (0)",
                       std::invalid_argument);
  const ClassIds negative = {-1, 0};
  CHECK_THROWS_AS(softmax_cross_entropy(z, negative, -1, nullptr), std::invalid_argument);
  const ClassIds short_targets = {1};
  CHECK_THROWS_WITH_AS(softmax_cross_entropy(z, short_targets, 0, nullptr),
                       "softmax_cross_entropy: targets has shape [1] but logits has shape [2, 3]; targets must be [2]",
                       ShapeError);
  Tensor2 same = z;
  const ClassIds fine = {1, 2};
  CHECK_THROWS_AS(softmax_cross_entropy(same, fine, 0, &same), ShapeError);
}
