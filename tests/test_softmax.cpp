#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attn/attention/softmax.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::matrix;
using attn::test::vector;

TEST_CASE("softmax.known_answer_from_course_scores") {
  // exp(927 - 929) = e^-2 = 0.135335; 0.135335 / 1.135335 = 0.119203; 1 / 1.135335 = 0.880797.
  // 397 and 148 are 532 and 781 below the max: exp underflows to exactly 0 in float32.
  const Tensor1 w = softmax(vector({927, 397, 148, 929}));
  check_close(w, {4}, {0.119203f, 0.f, 0.f, 0.880797f}, 1e-6f);
}

TEST_CASE("softmax.large_inputs_do_not_overflow") {
  // e^-1 / (1 + e^-1) = 0.268941; 1 / (1 + e^-1) = 0.731059.
  check_close(softmax(vector({1000, 1001})), {2}, {0.268941f, 0.731059f}, 1e-6f);
  check_close(softmax(vector({-1000, -1001})), {2}, {0.731059f, 0.268941f}, 1e-6f);
  check_close(softmax(vector({3.0e38f, 3.0e38f})), {2}, {0.5f, 0.5f}, 1e-6f);
}

TEST_CASE("softmax.rows_sum_to_one_along_chosen_axis") {
  const Tensor2 x = matrix({{1, 2, 3}, {4, 4, 4}});
  const Tensor2 by_row = softmax(x, 1);
  const Tensor2 by_col = softmax(x, 0);
  check_close(xt::eval(xt::sum(by_row, {1})), {2}, {1, 1}, 1e-6f);
  check_close(xt::eval(xt::sum(by_col, {0})), {3}, {1, 1, 1}, 1e-6f);
  // Equal entries give equal weights.
  check_close(xt::eval(xt::view(by_row, 1, xt::all())), {3}, {1 / 3.f, 1 / 3.f, 1 / 3.f}, 1e-6f);
  // Column 0: softmax([1, 4]) = [e^-3 / (1 + e^-3), 1 / (1 + e^-3)] = [0.047426, 0.952574].
  check_close(xt::eval(xt::view(by_col, xt::all(), 0)), {2}, {0.047426f, 0.952574f}, 1e-6f);
}

TEST_CASE("softmax.temperature_sharpens_and_flattens") {
  // τ = 0.5 doubles the gap: softmax([0, 2]) = [0.119203, 0.880797].
  check_close(softmax(vector({0, 1}), 0, 0.5f), {2}, {0.119203f, 0.880797f}, 1e-6f);
  // τ = 2 halves it: softmax([0, 0.5]) = [0.377541, 0.622459].
  check_close(softmax(vector({0, 1}), 0, 2.f), {2}, {0.377541f, 0.622459f}, 1e-6f);
  CHECK_THROWS_AS(softmax(vector({0, 1}), 0, 0.f), std::invalid_argument);
  CHECK_THROWS_AS(softmax(vector({0, 1}), 0, -1.f), std::invalid_argument);
  CHECK_THROWS_AS(softmax(vector({0, 1}), 0, std::numeric_limits<float>::infinity()), std::invalid_argument);
}

TEST_CASE("softmax.masked_entries_get_exactly_zero") {
  // Visible: 1 and 3 -> softmax([1, 3]) = [0.119203, 0.880797]; masked 5 would have dominated.
  Mask1 mask = {1, 0, 1};
  const Tensor1 w = masked_softmax(vector({1, 5, 3}), mask);
  CHECK(w(1) == 0.f);
  check_close(w, {3}, {0.119203f, 0.f, 0.880797f}, 1e-6f);
}

TEST_CASE("softmax.all_masked_row_gives_zeros_not_nan") {
  Mask2 mask = {{0, 0, 0}, {1, 1, 0}};
  const Tensor2 w = masked_softmax(matrix({{1, 2, 3}, {0, 0, 9}}), mask, 1);
  check_close(w, {2, 3}, {0, 0, 0, 0.5f, 0.5f, 0});
  for (float x : w) CHECK_FALSE(std::isnan(x));
}

TEST_CASE("softmax.minus_infinity_counts_as_masked") {
  const float ninf = -std::numeric_limits<float>::infinity();
  check_close(softmax(vector({ninf, 0, 0})), {3}, {0, 0.5f, 0.5f});
  check_close(softmax(vector({ninf, ninf})), {2}, {0, 0});
}

TEST_CASE("softmax.minus_infinity_is_masked_with_a_mask_and_temperature_too") {
  // -inf and a mask entry of 0 mean the same thing, and they combine: [-inf, 1, 2, 3] with the
  // last entry masked -> softmax of [1, 2] at τ = 2: e^(-0.5) / (e^(-0.5) + 1) = 0.377541.
  const float ninf = -std::numeric_limits<float>::infinity();
  Mask1 mask = {1, 1, 1, 0};
  check_close(masked_softmax(vector({ninf, 1, 2, 3}), mask, 0, 2.f), {4}, {0, 0.377541f, 0.622459f, 0});
  // A rank-2 row of -inf gives zeros, the other row is unaffected.
  check_close(softmax(matrix({{ninf, ninf}, {0, 0}})), {2, 2}, {0, 0, 0.5f, 0.5f});
}

TEST_CASE("softmax.rejects_nan_and_bad_shapes") {
  CHECK_THROWS_WITH_AS(softmax(vector({1, std::nanf(""), 2})),
                       "softmax: input has a non-finite value (NaN) at flat index 1; scores must be numbers or -inf "
                       "(a masked position)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(softmax(vector({1, std::numeric_limits<float>::infinity()})),
                       "softmax: input has a non-finite value (+inf) at flat index 1; scores must be numbers or -inf "
                       "(a masked position)",
                       std::invalid_argument);
  Mask1 short_mask = {1, 1};
  CHECK_THROWS_WITH_AS(masked_softmax(vector({1, 2, 3}), short_mask),
                       "masked_softmax: mask has shape [2] but x has shape [3]; they must match", ShapeError);
  CHECK_THROWS_WITH_AS(softmax(vector({1, 2}), 1), "softmax: axis 1 is out of range for a rank-1 tensor", ShapeError);
}
