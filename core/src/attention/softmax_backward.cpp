#include "attn/attention/softmax_backward.hpp"

#include <cmath>

namespace attn::detail {

void softmax_backward_strided(const float* y, const float* dy, const std::uint8_t* mask, float* dx, std::size_t outer,
                              std::size_t n, std::size_t inner, float temperature) {
  if (!(temperature > 0.f) || !std::isfinite(temperature)) {
    throw std::invalid_argument("softmax_backward: temperature must be a finite number > 0, got " +
                                std::to_string(temperature));
  }
  const float inv_t = 1.f / temperature;
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t in = 0; in < inner; ++in) {
      const std::size_t base = o * n * inner + in;
      // Σ_j y_j dy_j over the visible entries (masked y are 0, but dy there may be anything).
      float dot = 0.f;
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t at = base + j * inner;
        if (mask == nullptr || mask[at] != 0) dot += y[at] * dy[at];
      }
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t at = base + j * inner;
        dx[at] = (mask == nullptr || mask[at] != 0) ? y[at] * (dy[at] - dot) * inv_t : 0.f;
      }
    }
  }
}

}  // namespace attn::detail
