// Finite-difference gradient checks for layers, losses and whole models.
//
// Recipe (ggml's test-backend-ops grad mode, tiny-dnn's layer tests): small random shapes; a
// scalar probe loss L = Σ y ⊙ R with a fixed random R, so every output entry matters with a
// different weight; central differences (L(x + h) − L(x − h)) / 2h accumulated in double;
// pass when |analytic − numeric| <= abs_tol + rel_tol · max(|analytic|, |numeric|); a random
// subset of at most `max_probes` entries per tensor; entries at kinks or masked positions can be
// skipped with a predicate.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"

namespace attn::test {

struct GradCheckOptions {
  double step = 1e-2;     // h; float32 forward passes need a large-ish step
  double rel_tol = 2e-2;  // relative error bound
  double abs_tol = 2e-3;  // absolute floor, for gradients near zero
  std::size_t max_probes = 24;
  std::uint64_t seed = 1;
};

// R: same shape as `like`, entries from U(-1, 1), fixed by `seed`.
template <class T>
T probe_weights(const T& like, std::uint64_t seed) {
  Rng rng(seed, 77);
  T r = xt::empty<float>(like.shape());
  for (auto& x : r) x = rng.uniform(-1.f, 1.f);
  return r;
}

// L = Σ y ⊙ r, accumulated in double. dL/dy = r.
template <class A, class B>
double probe_loss(const A& y, const B& r) {
  REQUIRE(y.size() == r.size());
  double sum = 0.0;
  auto yi = y.begin();
  auto ri = r.begin();
  for (; yi != y.end(); ++yi, ++ri) sum += static_cast<double>(*yi) * static_cast<double>(*ri);
  return sum;
}

// Checks analytic[i] against central differences of `loss` w.r.t. values[i] for up to
// opt.max_probes indices (all of them when n is small). `values` is perturbed and restored.
inline void check_gradient(const std::string& what, float* values, const float* analytic, std::size_t n,
                           const std::function<double()>& loss, const GradCheckOptions& opt = {},
                           const std::function<bool(std::size_t)>& skip = nullptr) {
  const std::vector<float> expected(analytic, analytic + n);  // copy: loss() must not see changes
  std::vector<std::size_t> probes;
  if (n <= opt.max_probes) {
    for (std::size_t i = 0; i < n; ++i) probes.push_back(i);
  } else {
    Rng rng(opt.seed, 91);
    for (std::size_t i = 0; i < opt.max_probes; ++i) probes.push_back(rng.below(static_cast<std::uint32_t>(n)));
  }
  std::size_t checked = 0;
  for (std::size_t i : probes) {
    if (skip && skip(i)) continue;
    const float original = values[i];
    values[i] = static_cast<float>(original + opt.step);
    const double up = loss();
    values[i] = static_cast<float>(original - opt.step);
    const double down = loss();
    values[i] = original;
    // Divide by the step actually taken (float rounding of original ± h).
    const double taken = static_cast<double>(static_cast<float>(original + opt.step)) -
                         static_cast<double>(static_cast<float>(original - opt.step));
    const double numeric = (up - down) / taken;
    const double got = expected[i];
    const double bound = opt.abs_tol + opt.rel_tol * std::max(std::fabs(got), std::fabs(numeric));
    INFO(what << "[" << i << "]: analytic " << got << ", numeric " << numeric);
    CHECK(std::fabs(got - numeric) <= bound);
    ++checked;
  }
  INFO(what << ": every probed entry was skipped");
  CHECK(checked > 0);
}

// Runs check_gradient on every parameter of the list (values and grads from the layer).
inline void check_parameter_gradients(const ParameterList& params, const std::function<double()>& loss,
                                      const GradCheckOptions& opt = {}) {
  for (const Parameter& p : params) check_gradient(p.name, p.value, p.grad, p.size, loss, opt);
}

}  // namespace attn::test
