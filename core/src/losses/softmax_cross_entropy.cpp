#include "attn/losses/softmax_cross_entropy.hpp"

#include <algorithm>
#include <cmath>

#include "attn/kernels/vector_math.hpp"

namespace attn {

CrossEntropyResult softmax_cross_entropy_with_accuracy(const Tensor2& logits, const ClassIds& targets,
                                                       std::int32_t ignore_index, Tensor2* dlogits) {
  const char* where = "softmax_cross_entropy";
  const std::size_t rows = logits.shape()[0];
  const std::size_t classes = logits.shape()[1];
  ATTN_REQUIRE(classes >= 1, where, "logits has shape " + shape_string(logits.shape()) + "; V must be >= 1");
  ATTN_REQUIRE(targets.size() == rows, where,
               "targets has shape " + shape_string(targets.shape()) + " but logits has shape " +
                   shape_string(logits.shape()) + "; targets must be [" + std::to_string(rows) + "]");
  ATTN_REQUIRE(static_cast<const Tensor2*>(dlogits) != &logits, where,
               "dlogits must not be the logits tensor (the logits are read after dlogits is written)");
  auto ignored = [&](std::int32_t t) { return ignore_index >= 0 && t == ignore_index; };
  for (std::size_t n = 0; n < rows; ++n) {
    const std::int32_t t = targets(n);
    if (ignored(t)) continue;
    if (t < 0 || static_cast<std::size_t>(t) >= classes) {
      throw std::invalid_argument(std::string(where) + ": target " + std::to_string(t) + " at row " +
                                  std::to_string(n) + " is outside [0, " + std::to_string(classes) +
                                  ") and is not ignore_index (" + std::to_string(ignore_index) + ")");
    }
  }

  CrossEntropyResult result;
  for (std::size_t n = 0; n < rows; ++n) result.counted += ignored(targets(n)) ? 0 : 1;
  if (dlogits != nullptr && dlogits->shape() != logits.shape()) dlogits->resize(logits.shape());
  const float inv_count = result.counted > 0 ? 1.f / static_cast<float>(result.counted) : 0.f;

  double sum = 0.0;
  for (std::size_t n = 0; n < rows; ++n) {
    const float* z = logits.data() + n * classes;
    float* dz = dlogits != nullptr ? dlogits->data() + n * classes : nullptr;
    const std::int32_t t = targets(n);
    if (ignored(t)) {
      if (dz != nullptr) std::fill(dz, dz + classes, 0.f);
      continue;
    }
    // The maximum and the sum over 8 lanes (kernels::lane_max / lane_sum): at V = 6,000 the plain
    // loops were one long dependency chain each.
    const float m = kernels::lane_max(z, classes);
    if (std::find(z, z + classes, m) - z == t) ++result.correct;  // the first maximum: ties favour lower ids
    // Σ_v exp(z_v − m): with a gradient to fill, the exponentials go into dz and are reused.
    double denom = 0.0;
    if (dz != nullptr) {
      for (std::size_t v = 0; v < classes; ++v) dz[v] = z[v] - m;
      kernels::exp(dz, dz, classes);
      denom = kernels::lane_sum(dz, classes);
    } else {
      for (std::size_t v = 0; v < classes; ++v) denom += std::exp(z[v] - m);
    }
    sum += static_cast<double>(m) + std::log(denom) - static_cast<double>(z[t]);
    if (dz != nullptr) {
      // ℓ = log Σ exp(z) − z_t  ->  dℓ/dz_v = softmax_v − [v = t]; the mean divides by K.
      const float scale = static_cast<float>(1.0 / denom) * inv_count;
      for (std::size_t v = 0; v < classes; ++v) dz[v] *= scale;
      dz[t] -= inv_count;
    }
  }
  result.loss = result.counted > 0 ? static_cast<float>(sum / static_cast<double>(result.counted)) : 0.f;
  return result;
}

float softmax_cross_entropy(const Tensor2& logits, const ClassIds& targets, std::int32_t ignore_index,
                            Tensor2* dlogits) {
  return softmax_cross_entropy_with_accuracy(logits, targets, ignore_index, dlogits).loss;
}

}  // namespace attn
