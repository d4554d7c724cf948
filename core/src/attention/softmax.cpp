#include "attn/attention/softmax.hpp"

#include <cmath>
#include <limits>

namespace attn::detail {

void softmax_strided(const float* x, const std::uint8_t* mask, float* y, std::size_t outer, std::size_t n,
                     std::size_t inner, float temperature) {
  if (!(temperature > 0.f) || !std::isfinite(temperature)) {
    throw std::invalid_argument("softmax: temperature must be a finite number > 0, got " + std::to_string(temperature));
  }
  const std::size_t total = outer * n * inner;
  for (std::size_t i = 0; i < total; ++i) {
    if (std::isnan(x[i]) || x[i] == std::numeric_limits<float>::infinity()) {
      throw std::invalid_argument("softmax: input has a non-finite value (" +
                                  std::string(std::isnan(x[i]) ? "NaN" : "+inf") + ") at flat index " +
                                  std::to_string(i) + "; scores must be numbers or -inf (a masked position)");
    }
  }
  const float inv_t = 1.f / temperature;
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t in = 0; in < inner; ++in) {
      const std::size_t base = o * n * inner + in;
      auto visible = [&](std::size_t j) {
        const std::size_t at = base + j * inner;
        return (mask == nullptr || mask[at] != 0) && x[at] != neg_inf;
      };
      float m = neg_inf;
      for (std::size_t j = 0; j < n; ++j) {
        if (visible(j)) m = std::max(m, x[base + j * inner]);
      }
      if (m == neg_inf) {  // every entry masked: no distribution to speak of, give zeros
        for (std::size_t j = 0; j < n; ++j) y[base + j * inner] = 0.f;
        continue;
      }
      float sum = 0.f;
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t at = base + j * inner;
        const float e = visible(j) ? std::exp((x[at] - m) * inv_t) : 0.f;
        y[at] = e;
        sum += e;
      }
      const float inv_sum = 1.f / sum;  // sum >= 1: the maximum contributes exp(0)
      for (std::size_t j = 0; j < n; ++j) y[base + j * inner] *= inv_sum;
    }
  }
}

}  // namespace attn::detail
