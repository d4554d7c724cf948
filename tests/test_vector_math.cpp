#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attn/kernels/vector_math.hpp"
#include "attn/random.hpp"

namespace kernels = attn::kernels;

namespace {

using Kernel = void (*)(const float*, float*, std::size_t);

struct Errors {
  double max_relative = 0.0;  // over references that are normal floats
  double max_absolute = 0.0;  // over references with |y| < 1 (where absolute error is meaningful)
  std::size_t failures = 0;
};

// The header's contract: within 2e-6 relative, or within 1e-7 absolute (which only matters near
// 0, e.g. for subnormal results); infinities and NaNs must match exactly.
Errors compare(Kernel fast, Kernel reference, const std::vector<float>& x) {
  std::vector<float> y(x.size()), want(x.size());
  fast(x.data(), y.data(), x.size());
  reference(x.data(), want.data(), x.size());
  Errors e;
  for (std::size_t i = 0; i < x.size(); ++i) {
    bool ok;
    if (std::isnan(want[i]) || std::isinf(want[i])) {
      ok = std::isnan(want[i]) ? std::isnan(y[i]) : y[i] == want[i];
    } else {
      const double abs_err = std::fabs(static_cast<double>(y[i]) - want[i]);
      const double rel_err = abs_err / std::fabs(static_cast<double>(want[i]));
      if (std::fabs(want[i]) >= FLT_MIN) e.max_relative = std::max(e.max_relative, rel_err);
      if (std::fabs(want[i]) < 1.f) e.max_absolute = std::max(e.max_absolute, abs_err);
      ok = std::isfinite(y[i]) && (rel_err <= 2e-6 || abs_err <= 1e-7);
    }
    if (!ok) {
      if (e.failures < 5) {
        INFO("x = " << x[i] << " fast " << y[i] << " reference " << want[i]);
        CHECK(ok);
      }
      ++e.failures;
    }
  }
  return e;
}

std::vector<float> sweep() {
  // [-100, 100] every 1e-4 (2·10^6 points), which crosses exp's overflow (88.72) and underflow.
  std::vector<float> x;
  for (long i = -1000000; i <= 1000000; ++i) x.push_back(static_cast<float>(i * 1e-4));
  return x;
}

std::vector<float> special_values() {
  const float inf = std::numeric_limits<float>::infinity();
  return {0.f,      -0.f,      88.7f,     -88.7f,     1e-30f,
          -1e-30f,  88.72283f, 88.72284f, -87.33655f, -103.9f,
          -104.f,   -200.f,    1e-45f,    FLT_MIN,    FLT_MAX,
          -FLT_MAX, inf,       -inf,      0.625f,     -0.625f,
          0.6249f,  9.f,       -9.f,      1e-4f,      std::numeric_limits<float>::quiet_NaN()};
}

void check_kernel(const std::string& name, Kernel fast, Kernel reference) {
  const Errors dense = compare(fast, reference, sweep());
  const Errors special = compare(fast, reference, special_values());
  MESSAGE(name << ": max relative error " << dense.max_relative << ", max absolute error (|y| < 1) "
               << dense.max_absolute << " over [-100, 100]; special values: relative " << special.max_relative);
  CHECK(dense.failures == 0);
  CHECK(special.failures == 0);
}

}  // namespace

TEST_CASE("vector_math.exp_matches_reference") { check_kernel("exp", kernels::exp, kernels::exp_reference); }
TEST_CASE("vector_math.sigmoid_matches_reference") {
  check_kernel("sigmoid", kernels::sigmoid, kernels::sigmoid_reference);
}
TEST_CASE("vector_math.tanh_matches_reference") { check_kernel("tanh", kernels::tanh, kernels::tanh_reference); }

TEST_CASE("vector_math.exact_values") {
  // exp(0) = 1, sigmoid(0) = 1/2, tanh keeps the sign of zero, saturated ends are exact.
  const float x[] = {0.f, -0.f, 50.f, -50.f};
  float y[4];
  kernels::exp(x, y, 4);
  CHECK(y[0] == 1.f);
  CHECK(y[1] == 1.f);
  kernels::sigmoid(x, y, 4);
  CHECK(y[0] == 0.5f);
  CHECK(y[2] == 1.f);
  CHECK(y[3] > 0.f);
  CHECK(y[3] < 2e-22f);
  kernels::tanh(x, y, 4);
  CHECK(y[0] == 0.f);
  CHECK_FALSE(std::signbit(y[0]));
  CHECK(std::signbit(y[1]));
  CHECK(y[2] == 1.f);
  CHECK(y[3] == -1.f);
}

TEST_CASE("vector_math.tails_and_in_place") {
  // Lengths 1..19 cover the 8-wide body, the 4-wide step and the padded tail; every element must
  // equal the one computed in a long run, and y == x must work.
  std::vector<float> x(19);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = -3.f + 0.37f * static_cast<float>(i);
  for (Kernel f : {Kernel(kernels::exp), Kernel(kernels::sigmoid), Kernel(kernels::tanh)}) {
    std::vector<float> full(x.size());
    f(x.data(), full.data(), x.size());
    for (std::size_t n = 1; n <= x.size(); ++n) {
      std::vector<float> part(x.begin(), x.begin() + static_cast<long>(n));
      f(part.data(), part.data(), n);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(part[i] == full[i]);
    }
  }
}

TEST_CASE("vector_math.lane_reductions_match_plain_loops") {
  // Every tail length (n % 8) and a long row, against plain double loops.
  attn::Rng rng(17);
  for (std::size_t n : {1u, 3u, 7u, 8u, 9u, 15u, 16u, 6000u, 100003u}) {
    CAPTURE(n);
    std::vector<float> x(n);
    for (float& v : x) v = rng.uniform(-3.f, 3.f);
    double sum = 0, squares = 0;
    float top = x[0];
    for (float v : x) {
      sum += v;
      squares += static_cast<double>(v) * v;
      top = std::max(top, v);
    }
    CHECK(kernels::lane_sum(x.data(), n) == doctest::Approx(sum).epsilon(1e-5));
    CHECK(kernels::lane_sum_squares(x.data(), n) == doctest::Approx(squares).epsilon(1e-12));
    CHECK(kernels::lane_max(x.data(), n) == top);
  }
  // The maximum skips NaN entries, as std::max_element's comparisons do.
  const std::vector<float> with_nan = {1.f, std::nanf(""), 5.f, 2.f, 0.f, 0.f, 0.f, 0.f, 4.f};
  CHECK(kernels::lane_max(with_nan.data(), with_nan.size()) == 5.f);
}
