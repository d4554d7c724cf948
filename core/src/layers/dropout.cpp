#include "attn/layers/dropout.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace attn {

Dropout::Dropout(float rate) : rate_(rate) {
  // The negated test also rejects NaN.
  if (!(rate >= 0.f && rate < 1.f)) {
    std::ostringstream message;
    message << "Dropout: rate " << rate << " must be in [0, 1)";
    throw std::invalid_argument(message.str());
  }
}

void Dropout::forward(const float* x, float* y, std::size_t n, bool training, Rng& rng, DropoutCache& cache,
                      std::size_t group) const {
  ATTN_REQUIRE(group >= 1 && n % group == 0, "Dropout::forward",
               "group " + std::to_string(group) + " must be >= 1 and divide the " + std::to_string(n) + " units");
  cache.n = n;
  cache.active = training && rate_ > 0.f;
  if (!cache.active) {
    cache.scale = 1.f;
    if (y != x) std::copy(x, x + n, y);
    return;
  }
  cache.scale = 1.f / (1.f - rate_);
  if (cache.keep.size() != n) cache.keep.resize({n});
  std::uint8_t* keep = cache.keep.data();
  for (std::size_t start = 0; start < n; start += group) {
    const std::uint8_t kept = rng.uniform() >= rate_ ? 1 : 0;
    for (std::size_t i = start; i < start + group; ++i) {
      keep[i] = kept;
      y[i] = kept ? x[i] * cache.scale : 0.f;
    }
  }
}

void Dropout::backward(const float* dy, float* dx, std::size_t n, const DropoutCache& cache) const {
  ATTN_REQUIRE(n == cache.n, "Dropout::backward",
               "dy has " + std::to_string(n) + " units but forward saw " + std::to_string(cache.n));
  // y = x  (identity pass)
  if (!cache.active) {
    if (dx != dy) std::copy(dy, dy + n, dx);
    return;
  }
  // y = keep · x · scale  ->  dx = keep · dy · scale
  const std::uint8_t* keep = cache.keep.data();
  for (std::size_t i = 0; i < n; ++i) dx[i] = keep[i] ? dy[i] * cache.scale : 0.f;
}

}  // namespace attn
