#include "attn/optim/sgd.hpp"

#include <cmath>

namespace attn {
namespace {
std::vector<std::string> sgd_buffers(float momentum) {
  if (momentum > 0.f) return {"velocity"};
  return {};
}
}  // namespace

SGD::SGD(float lr, float momentum, bool nesterov, float weight_decay)
    : Optimizer("SGD", lr, sgd_buffers(momentum)),
      momentum_(momentum),
      nesterov_(nesterov),
      weight_decay_(weight_decay) {
  check_hyperparameter(std::isfinite(momentum) && momentum >= 0.f, "SGD", "momentum", "finite and >= 0", momentum);
  check_hyperparameter(std::isfinite(weight_decay) && weight_decay >= 0.f, "SGD", "weight_decay", "finite and >= 0",
                       weight_decay);
  check_hyperparameter(!nesterov || momentum > 0.f, "SGD", "momentum", "> 0 with nesterov", momentum);
}

void SGD::step(const ParameterList& params) {
  prepare(params);
  ++state_.step;
  const float lr = lr_, mu = momentum_, wd = weight_decay_;
  for (std::size_t i = 0; i < params.size(); ++i) {
    float* p = params[i].value;
    const float* grad = params[i].grad;
    const std::size_t n = params[i].size;
    if (mu == 0.f) {
      for (std::size_t j = 0; j < n; ++j) p[j] -= lr * (grad[j] + wd * p[j]);
      continue;
    }
    float* v = slot(0, i);
    for (std::size_t j = 0; j < n; ++j) {
      const float g = grad[j] + wd * p[j];
      v[j] = mu * v[j] + g;
      const float d = nesterov_ ? g + mu * v[j] : v[j];
      p[j] -= lr * d;
    }
  }
}

}  // namespace attn
