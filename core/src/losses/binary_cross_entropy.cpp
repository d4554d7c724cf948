#include "attn/losses/binary_cross_entropy.hpp"

#include <cmath>

#include "attn/kernels/vector_math.hpp"

namespace attn {
namespace {

void check_arguments(const Tensor1& logits, const Tensor1& targets, const Tensor1* weights) {
  const char* where = "binary_cross_entropy_with_logits";
  ATTN_REQUIRE(logits.size() >= 1, where, "logits is empty; the mean loss over 0 examples is undefined");
  ATTN_REQUIRE(targets.shape() == logits.shape(), where,
               "targets has shape " + shape_string(targets.shape()) + " but logits has shape " +
                   shape_string(logits.shape()) + "; they must match");
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (!(targets(i) >= 0.f && targets(i) <= 1.f)) {
      throw std::invalid_argument(std::string(where) + ": target " + std::to_string(targets(i)) + " at index " +
                                  std::to_string(i) + " is outside [0, 1]");
    }
  }
  if (weights == nullptr) return;
  ATTN_REQUIRE(weights->shape() == logits.shape(), where,
               "weights has shape " + shape_string(weights->shape()) + " but logits has shape " +
                   shape_string(logits.shape()) + "; they must match");
  for (std::size_t i = 0; i < weights->size(); ++i) {
    if (!((*weights)(i) >= 0.f) || !std::isfinite((*weights)(i))) {
      throw std::invalid_argument(std::string(where) + ": weight " + std::to_string((*weights)(i)) + " at index " +
                                  std::to_string(i) + " must be finite and >= 0");
    }
  }
}

// weights may be null (all ones).
float bce(const Tensor1& logits, const Tensor1& targets, const float* weights, Tensor1* dlogits) {
  const std::size_t n = logits.size();
  const float* z = logits.data();
  const float* y = targets.data();
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double zi = z[i];
    const double li = std::max(zi, 0.0) - zi * y[i] + std::log1p(std::exp(-std::fabs(zi)));
    sum += weights ? weights[i] * li : li;
  }
  if (dlogits != nullptr) {
    if (dlogits->shape() != logits.shape()) dlogits->resize(logits.shape());
    float* dz = dlogits->data();
    // dℓ_i/dz_i = σ(z_i) − y_i for either form of ℓ_i; the mean divides by N.
    kernels::sigmoid(z, dz, n);
    const float inv_n = 1.f / static_cast<float>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const float scale = weights ? weights[i] * inv_n : inv_n;
      dz[i] = (dz[i] - y[i]) * scale;
    }
  }
  return static_cast<float>(sum / static_cast<double>(n));
}

}  // namespace

float binary_cross_entropy_with_logits(const Tensor1& logits, const Tensor1& targets, Tensor1* dlogits) {
  check_arguments(logits, targets, nullptr);
  return bce(logits, targets, nullptr, dlogits);
}

float binary_cross_entropy_with_logits(const Tensor1& logits, const Tensor1& targets, const Tensor1& weights,
                                       Tensor1* dlogits) {
  check_arguments(logits, targets, &weights);
  return bce(logits, targets, weights.data(), dlogits);
}

}  // namespace attn
