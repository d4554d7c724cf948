#include "attn/optim/clip.hpp"

#include <cmath>

#include "attn/kernels/vector_math.hpp"
#include "attn/optim/optimizer.hpp"

namespace attn {

double grad_norm(const ParameterList& params) {
  // Over 8 lanes per parameter (kernels::lane_sum_squares): over millions of gradient entries a
  // plain double loop is one long dependency chain (4 % of a translation model's step natively).
  double sum = 0.0;
  for (const Parameter& p : params) sum += kernels::lane_sum_squares(p.grad, p.size);
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
