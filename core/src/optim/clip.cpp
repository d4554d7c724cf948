#include "attn/optim/clip.hpp"

#include <cmath>

#include "attn/optim/optimizer.hpp"

namespace attn {

double grad_norm(const ParameterList& params) {
  double sum = 0.0;
  for (const Parameter& p : params) {
    for (std::size_t j = 0; j < p.size; ++j) sum += static_cast<double>(p.grad[j]) * p.grad[j];
  }
  return std::sqrt(sum);
}

float clip_grad_norm(const ParameterList& params, float max_norm) {
  check_hyperparameter(std::isfinite(max_norm) && max_norm > 0.f, "clip_grad_norm", "max_norm", "finite and > 0",
                       max_norm);
  const double norm = grad_norm(params);
  if (!std::isfinite(norm) || norm <= max_norm) return static_cast<float>(norm);
  const float scale = static_cast<float>(max_norm / (norm + 1e-6));
  for (const Parameter& p : params) {
    for (std::size_t j = 0; j < p.size; ++j) p.grad[j] *= scale;
  }
  return static_cast<float>(norm);
}

}  // namespace attn
