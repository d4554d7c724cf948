#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attn/attention/softmax_backward.hpp"
#include "attn/random.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::matrix;
using attn::test::vector;

TEST_CASE("softmax_backward.hand_computed") {
  // x = [0, ln 3] -> y = [1/4, 3/4]. dy = [1, 0]: Σ y dy = 0.25,
  // dx = [0.25 (1 − 0.25), 0.75 (0 − 0.25)] = [0.1875, −0.1875] (a softmax gradient sums to 0).
  const Tensor1 y = softmax(vector({0.f, std::log(3.f)}));
  check_close(y, {2}, {0.25f, 0.75f}, 1e-6f);
  check_close(softmax_backward(y, vector({1, 0})), {2}, {0.1875f, -0.1875f}, 1e-6f);
  // τ = 2 divides the gradient by 2.
  check_close(softmax_backward(y, vector({1, 0}), 0, 2.f), {2}, {0.09375f, -0.09375f}, 1e-6f);
  // A constant dy changes nothing: softmax is shift invariant.
  check_close(softmax_backward(y, vector({5, 5})), {2}, {0, 0}, 1e-6f);
}

TEST_CASE("softmax_backward.matches_finite_differences_along_every_axis") {
  // Tolerances: step 1e-2, rel 2e-2, abs 2e-3 (grad_check defaults; float32 forward).
  Rng rng(11);
  Tensor3 x = xt::empty<float>({2, 3, 4});
  for (auto& v : x) v = rng.uniform(-2.f, 2.f);
  const Tensor3 r = attn::test::probe_weights(x, 5);
  for (std::size_t axis = 0; axis < 3; ++axis) {
    for (float tau : {1.f, 0.5f}) {
      const Tensor3 y = softmax(x, axis, tau);
      const Tensor3 dx = softmax_backward(y, r, axis, tau);
      auto loss = [&] { return attn::test::probe_loss(softmax(x, axis, tau), r); };
      attn::test::check_gradient("x (axis " + std::to_string(axis) + ")", x.data(), dx.data(), x.size(), loss,
                                 {1e-2, 2e-2, 2e-3, 24, 3});
    }
  }
}

TEST_CASE("softmax_backward.masked_entries_get_exactly_zero") {
  Rng rng(12);
  Tensor2 x = matrix({{0.3f, -1.2f, 2.f, 0.5f}, {1.f, 2.f, 3.f, 4.f}, {0.1f, 0.2f, 0.3f, 0.4f}});
  const Mask2 mask = {{1, 0, 1, 1}, {0, 0, 0, 0}, {0, 1, 1, 0}};
  Tensor2 r = attn::test::probe_weights(x, 9);
  const Tensor2 y = masked_softmax(x, mask, 1);
  Tensor2 dy = r;
  dy(0, 1) = std::numeric_limits<float>::quiet_NaN();  // must not leak from a masked position
  const Tensor2 dx = masked_softmax_backward(y, dy, mask, 1);
  for (std::size_t i = 0; i < x.shape(0); ++i) {
    for (std::size_t j = 0; j < x.shape(1); ++j) {
      if (mask(i, j) == 0) CHECK(dx(i, j) == 0.f);  // includes the fully masked row 1
      CHECK_FALSE(std::isnan(dx(i, j)));
    }
  }
  // Visible entries match finite differences (grad_check defaults: step 1e-2, rel 2e-2, abs 2e-3).
  const Tensor2 dx_r = masked_softmax_backward(y, r, mask, 1);
  auto loss = [&] { return attn::test::probe_loss(masked_softmax(x, mask, 1), r); };
  attn::test::check_gradient("x", x.data(), dx_r.data(), x.size(), loss, {},
                             [&](std::size_t i) { return mask.data()[i] == 0; });
}

TEST_CASE("softmax_backward.in_place_on_raw_buffers") {
  // dx may alias dy: y = [0.25, 0.75], dy = [1, 0] -> [0.1875, −0.1875] written over dy.
  const float y[2] = {0.25f, 0.75f};
  float buffer[2] = {1.f, 0.f};
  detail::softmax_backward_strided(y, buffer, nullptr, buffer, 1, 2, 1, 1.f);
  CHECK(buffer[0] == doctest::Approx(0.1875f));
  CHECK(buffer[1] == doctest::Approx(-0.1875f));
}

TEST_CASE("softmax_backward.rejects_bad_arguments") {
  CHECK_THROWS_WITH_AS(softmax_backward(vector({0.5f, 0.5f}), vector({1, 2, 3})),
                       "softmax_backward: dy has shape [3] but y has shape [2]; they must match", ShapeError);
  Mask1 short_mask = {1};
  CHECK_THROWS_WITH_AS(masked_softmax_backward(vector({0.5f, 0.5f}), vector({1, 2}), short_mask),
                       "masked_softmax_backward: mask has shape [1] but y has shape [2]; they must match", ShapeError);
  CHECK_THROWS_WITH_AS(softmax_backward(vector({0.5f, 0.5f}), vector({1, 2}), 0, 0.f),
                       doctest::Contains("softmax_backward: temperature must be a finite number > 0"),
                       std::invalid_argument);
}
