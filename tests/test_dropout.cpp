#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attn/layers/dropout.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::vector;

TEST_CASE("dropout.rejects_rates_outside_0_1") {
  CHECK_THROWS_WITH_AS(Dropout(1.f), "Dropout: rate 1 must be in [0, 1)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(Dropout(-0.25f), "Dropout: rate -0.25 must be in [0, 1)", std::invalid_argument);
  CHECK_THROWS_AS(Dropout{std::numeric_limits<float>::quiet_NaN()},
                  std::invalid_argument);  // braces: clang reads Dropout(...) as a declaration
  CHECK_NOTHROW(Dropout(0.f));
  CHECK_NOTHROW(Dropout(0.999f));
}

TEST_CASE("dropout.forward_hand_computed") {
  // rate ½: each unit is kept when its draw u >= ½ and then doubled (1 / (1 − ½) = 2).
  Rng draws(42);
  bool keep[4];
  for (bool& k : keep) k = draws.uniform() >= 0.5f;
  Rng rng(42);
  Dropout dropout(0.5f);
  DropoutCache cache;
  Tensor1 y;
  dropout.forward(vector({1, 2, 3, 4}), y, true, rng, cache);
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(y(i) == (keep[i] ? 2.f * static_cast<float>(i + 1) : 0.f));
  }
  CHECK(cache.scale == 2.f);
  // It consumed exactly one draw per unit: both generators are in step.
  CHECK(rng.next_u32() == draws.next_u32());
}

TEST_CASE("dropout.identity_at_inference_and_rate_zero") {
  const Tensor1 x = vector({1, -2, 3});
  for (bool training : {false, true}) {
    const Dropout dropout(training ? 0.f : 0.5f);
    Rng rng(3), untouched(3);
    DropoutCache cache;
    Tensor1 y, dx;
    dropout.forward(x, y, training, rng, cache);
    CHECK(y == x);
    CHECK_FALSE(cache.active);
    CHECK(rng.next_u32() == untouched.next_u32());  // no draws
    dropout.backward(vector({4, 5, 6}), cache, dx);
    check_close(dx, {3}, {4, 5, 6}, 0.f);
  }
}

TEST_CASE("dropout.same_seed_same_mask") {
  const Dropout dropout(0.4f);
  Rng rng(9);
  Tensor2 x = random_uniform(rng, 8, 16, 0.5f, 1.f);  // no zeros, so y = 0 means dropped
  Tensor2 a, b, c;
  DropoutCache ca, cb, cc;
  Rng r1(123), r2(123), r3(124);
  dropout.forward(x, a, true, r1, ca);
  dropout.forward(x, b, true, r2, cb);
  dropout.forward(x, c, true, r3, cc);
  CHECK(a == b);
  CHECK(ca.keep == cb.keep);
  CHECK_FALSE(ca.keep == cc.keep);  // 128 units: a different seed is all but certain to differ
}

TEST_CASE("dropout.keep_fraction_and_scale") {
  // n = 100000, rate 0.3: the kept count is Binomial(n, 0.7), σ = sqrt(n · 0.21) / n = 0.00145;
  // the tolerance 0.01 is ~7σ. Kept units are x / 0.7.
  const std::size_t n = 100000;
  const Dropout dropout(0.3f);
  std::vector<float> x(n, 1.f), y(n);
  Rng rng(11);
  DropoutCache cache;
  dropout.forward(x.data(), y.data(), n, true, rng, cache);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (cache.keep(i)) {
      ++kept;
      if (y[i] != 1.f / 0.7f) FAIL("kept unit ", i, " is ", y[i]);
    } else if (y[i] != 0.f) {
      FAIL("dropped unit ", i, " is ", y[i]);
    }
  }
  CHECK(std::fabs(static_cast<double>(kept) / n - 0.7) < 0.01);
}

TEST_CASE("dropout.gradient_flows_only_through_kept_units") {
  const Dropout dropout(0.5f);
  Rng init(12);
  Tensor2 x = random_uniform(init, 4, 6, -1.f, 1.f);
  Tensor2 y;
  DropoutCache cache;
  Rng rng(77);
  dropout.forward(x, y, true, rng, cache);
  const Tensor2 r = attn::test::probe_weights(y, 13);
  Tensor2 dx;
  dropout.backward(r, cache, dx);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    kept += cache.keep(i);
    CHECK(dx.data()[i] == (cache.keep(i) ? 2.f * r.data()[i] : 0.f));
  }
  CHECK(kept > 0);
  CHECK(kept < x.size());
  // Finite differences with the mask held fixed (same seed every call).
  // Tolerances: the defaults (step 1e-2, rel 2e-2, abs 2e-3); y is linear in x.
  auto loss = [&] {
    Rng again(77);
    Tensor2 out;
    DropoutCache c;
    dropout.forward(x, out, true, again, c);
    return attn::test::probe_loss(out, r);
  };
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss);
}

TEST_CASE("dropout.backward_checks_the_unit_count") {
  const Dropout dropout(0.5f);
  Rng rng(1);
  DropoutCache cache;
  Tensor1 y, dx;
  dropout.forward(vector({1, 2, 3}), y, true, rng, cache);
  CHECK_THROWS_WITH_AS(dropout.backward(vector({1, 2}), cache, dx),
                       "Dropout::backward: dy has 2 units but forward saw 3", ShapeError);
}

TEST_CASE("dropout.grouped_units_share_one_draw") {
  // x [4 tokens, 3 features] with group 3: a token is kept or dropped as a whole (word dropout),
  // and one uniform is drawn per token, so the 4 masks follow the first 4 draws of the same seed.
  const Dropout dropout(0.5f);
  Rng init(3);
  const Tensor2 x = random_uniform(init, 4, 3, 1.f, 2.f);  // no zeros, so y == 0 means dropped
  Tensor2 y = x;
  DropoutCache cache;
  Rng rng(21);
  dropout.forward(x.data(), y.data(), x.size(), true, rng, cache, 3);
  Rng same(21);
  std::size_t kept_tokens = 0;
  for (std::size_t t = 0; t < 4; ++t) {
    const bool kept = same.uniform() >= 0.5f;
    kept_tokens += kept ? 1 : 0;
    for (std::size_t d = 0; d < 3; ++d) {
      CHECK(cache.keep(t * 3 + d) == (kept ? 1 : 0));
      CHECK(y(t, d) == (kept ? 2.f * x(t, d) : 0.f));
    }
  }
  CHECK(kept_tokens > 0);
  CHECK(kept_tokens < 4);
  CHECK_THROWS_WITH_AS(dropout.forward(x.data(), y.data(), x.size(), true, rng, cache, 5),
                       "Dropout::forward: group 5 must be >= 1 and divide the 12 units", ShapeError);
}
