#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attn/attention/softmax.hpp"
#include "attn/attention/softmax_backward.hpp"
#include "attn/kernels/softmax_rows.hpp"
#include "attn/random.hpp"

namespace kernels = attn::kernels;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Row {
  std::vector<float> x, bias;
  std::vector<std::uint8_t> mask;  // the same keys as bias, as softmax_strided takes them
};

// Scores in [-spread, spread]; every third key hidden when `hide` (bias −inf).
Row random_row(attn::Rng& rng, std::size_t n, float spread, bool hide) {
  Row r;
  for (std::size_t j = 0; j < n; ++j) {
    r.x.push_back(rng.uniform(-spread, spread));
    const bool hidden = hide && j % 3 == 1;
    r.bias.push_back(hidden ? -kInf : 0.f);
    r.mask.push_back(hidden ? 0 : 1);
  }
  return r;
}

}  // namespace

TEST_CASE("softmax_rows.fast_matches_reference_and_softmax_strided") {
  attn::Rng rng(7);
  for (std::size_t n : {1u, 3u, 4u, 5u, 8u, 13u, 64u, 200u}) {
    for (bool hide : {false, true}) {
      for (std::size_t limit : {std::size_t{1}, n / 2 + 1, n, n + 3}) {
        // Spread 100: scores up to 200 below the maximum, past where the rows' exp (x ≤ 0 only)
        // stops scaling by 2^n (x < −87.3) and gives ~1e−38 instead of less.
        for (float spread : {1.f, 30.f, 100.f}) {
          CAPTURE(n);
          CAPTURE(hide);
          CAPTURE(limit);
          const Row r = random_row(rng, n, spread, hide);
          std::vector<float> fast = r.x, reference = r.x;
          const float* bias = hide ? r.bias.data() : nullptr;
          CHECK(kernels::softmax_row(fast.data(), n, limit, bias));
          CHECK(kernels::softmax_row_reference(reference.data(), n, limit, bias));
          // The library's masked softmax over the same visible keys (limit as a causal mask).
          std::vector<std::uint8_t> mask(n);
          for (std::size_t j = 0; j < n; ++j) mask[j] = (r.mask[j] != 0 && j < limit) ? 1 : 0;
          std::vector<float> strided(n);
          attn::detail::softmax_strided(r.x.data(), mask.data(), strided.data(), 1, n, 1, 1.f);
          for (std::size_t j = 0; j < n; ++j) {
            CHECK(fast[j] == doctest::Approx(reference[j]).epsilon(1e-5));
            // Relative accuracy too wherever the probability is a normal float.
            if (reference[j] > 1e-30f) CHECK(fast[j] == doctest::Approx(reference[j]).epsilon(1e-5).scale(0));
            CHECK(fast[j] <= 1e-37f + reference[j] * (1 + 1e-5f));
            CHECK(reference[j] == doctest::Approx(strided[j]).epsilon(1e-5));
            if (mask[j] == 0) CHECK(fast[j] == 0.f);
          }
        }
      }
    }
  }
}

TEST_CASE("softmax_rows.nothing_visible_gives_zeros_and_bad_scores_are_reported") {
  for (auto softmax : {kernels::softmax_row, kernels::softmax_row_reference}) {
    std::vector<float> x = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f};
    const std::vector<float> hidden(6, -kInf);
    CHECK(softmax(x.data(), 6, 6, hidden.data()));
    for (float v : x) CHECK(v == 0.f);
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), kInf}) {
      for (std::size_t at : {0u, 4u, 5u}) {
        std::vector<float> y = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f};
        y[at] = bad;
        CAPTURE(at);
        CHECK_FALSE(softmax(y.data(), 6, 6, nullptr));
      }
    }
    // Past the limit nothing is read: a NaN there is not an error and becomes 0.
    std::vector<float> z = {1.f, 2.f, std::numeric_limits<float>::quiet_NaN()};
    CHECK(softmax(z.data(), 3, 2, nullptr));
    CHECK(z[2] == 0.f);
    // −inf is a hidden score, not an error.
    std::vector<float> w = {0.f, -kInf, 0.f};
    CHECK(softmax(w.data(), 3, 3, nullptr));
    CHECK(w[0] == doctest::Approx(0.5f));
    CHECK(w[1] == 0.f);
  }
}

TEST_CASE("softmax_rows.backward_matches_reference_and_softmax_backward_strided") {
  attn::Rng rng(11);
  for (std::size_t n : {1u, 3u, 4u, 7u, 64u, 200u}) {
    for (std::size_t limit : {std::size_t{1}, n / 2 + 1, n}) {
      CAPTURE(n);
      CAPTURE(limit);
      Row r = random_row(rng, n, 4.f, true);
      std::vector<float> p = r.x;
      kernels::softmax_row_reference(p.data(), n, limit, r.bias.data());
      std::vector<float> dy(n);
      for (float& v : dy) v = rng.uniform(-1.f, 1.f);
      const float scale = 0.25f;
      std::vector<float> fast(n), reference(n), in_place = dy, strided(n);
      kernels::softmax_row_backward(p.data(), dy.data(), fast.data(), n, limit, scale);
      kernels::softmax_row_backward_reference(p.data(), dy.data(), reference.data(), n, limit, scale);
      kernels::softmax_row_backward(p.data(), in_place.data(), in_place.data(), n, limit, scale);
      std::vector<std::uint8_t> mask(n);
      for (std::size_t j = 0; j < n; ++j) mask[j] = (r.mask[j] != 0 && j < limit) ? 1 : 0;
      attn::detail::softmax_backward_strided(p.data(), dy.data(), mask.data(), strided.data(), 1, n, 1, 1.f);
      for (std::size_t j = 0; j < n; ++j) {
        CHECK(fast[j] == doctest::Approx(reference[j]).epsilon(1e-5).scale(1e-6));
        CHECK(in_place[j] == fast[j]);
        CHECK(reference[j] == doctest::Approx(scale * strided[j]).epsilon(1e-5).scale(1e-6));
      }
    }
  }
}
