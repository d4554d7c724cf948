#include "attn/optim/adam.hpp"

#include <cmath>

namespace attn {

Adam::Adam(float lr, float beta1, float beta2, float eps, float weight_decay)
    : Adam("Adam", lr, beta1, beta2, eps, weight_decay) {}

Adam::Adam(std::string name, float lr, float beta1, float beta2, float eps, float weight_decay)
    : Optimizer(name, lr, {"m", "v"}), beta1_(beta1), beta2_(beta2), eps_(eps), weight_decay_(weight_decay) {
  check_hyperparameter(beta1 >= 0.f && beta1 < 1.f, name, "beta1", "in [0, 1)", beta1);
  check_hyperparameter(beta2 >= 0.f && beta2 < 1.f, name, "beta2", "in [0, 1)", beta2);
  check_hyperparameter(std::isfinite(eps) && eps > 0.f, name, "eps", "finite and > 0", eps);
  check_hyperparameter(std::isfinite(weight_decay) && weight_decay >= 0.f, name, "weight_decay", "finite and >= 0",
                       weight_decay);
}

void Adam::step(const ParameterList& params) {
  prepare(params);
  adam_update(params);
}

void Adam::adam_update(const ParameterList& params) {
  const std::uint64_t t = ++state_.step;
  const double correction1 = 1.0 - std::pow(static_cast<double>(beta1_), static_cast<double>(t));
  const double correction2 = 1.0 - std::pow(static_cast<double>(beta2_), static_cast<double>(t));
  // p −= lr·(m / c1) / (√(v / c2) + ε), written as step_size·m / (√v·inv_sqrt_c2 + ε).
  const float step_size = static_cast<float>(lr_ / correction1);
  const float inv_sqrt_c2 = static_cast<float>(1.0 / std::sqrt(correction2));
  const float b1 = beta1_, b2 = beta2_, eps = eps_, wd = weight_decay_;
  for (std::size_t i = 0; i < params.size(); ++i) {
    // Four distinct arrays (a parameter's value and gradient, its two slots): restrict lets the
    // compiler vectorise the loop without run-time overlap checks.
    float* __restrict p = params[i].value;
    const float* __restrict grad = params[i].grad;
    float* __restrict m = slot(0, i);
    float* __restrict v = slot(1, i);
    for (std::size_t j = 0, n = params[i].size; j < n; ++j) {
      const float g = grad[j] + wd * p[j];
      m[j] = b1 * m[j] + (1.f - b1) * g;
      v[j] = b2 * v[j] + (1.f - b2) * g * g;
      p[j] -= step_size * m[j] / (std::sqrt(v[j]) * inv_sqrt_c2 + eps);
    }
  }
}

bool decay_matrices_only(const Parameter& p) { return p.shape.size() >= 2; }

AdamW::AdamW(float lr, float beta1, float beta2, float eps, float weight_decay, DecayPredicate decays)
    : Adam("AdamW", lr, beta1, beta2, eps, 0.f), decoupled_decay_(weight_decay), decays_(std::move(decays)) {
  check_hyperparameter(std::isfinite(weight_decay) && weight_decay >= 0.f, "AdamW", "weight_decay", "finite and >= 0",
                       weight_decay);
}

void AdamW::step(const ParameterList& params) {
  prepare(params);  // before the decay, so a mismatched list changes nothing
  // p = p − lr·λ·p uses the old p; the Adam step that follows does not read p, so decaying first
  // is the same as decaying alongside.
  const float shrink = 1.f - lr_ * decoupled_decay_;
  if (decoupled_decay_ != 0.f) {
    for (const Parameter& param : params) {
      if (decays_ && !decays_(param)) continue;
      for (std::size_t j = 0; j < param.size; ++j) param.value[j] *= shrink;
    }
  }
  adam_update(params);
}

}  // namespace attn
