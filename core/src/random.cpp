#include "attn/random.hpp"

#include <cmath>

namespace attn {

Rng::Rng(std::uint64_t seed, std::uint64_t stream) : state_(0), increment_((stream << 1u) | 1u) {
  next_u32();
  state_ += seed;
  next_u32();
}

std::uint32_t Rng::next_u32() {
  const std::uint64_t old = state_;
  state_ = old * 6364136223846793005ULL + increment_;
  const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
  const auto rot = static_cast<std::uint32_t>(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

float Rng::uniform() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }

float Rng::uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }

float Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // u1 in (0, 1] so log(u1) is finite. Computed in double so both runtimes round alike.
  const double u1 = 1.0 - static_cast<double>(uniform());
  const double u2 = static_cast<double>(uniform());
  const double radius = std::sqrt(-2.0 * std::log(u1));
  const double angle = 6.283185307179586 * u2;
  spare_ = static_cast<float>(radius * std::sin(angle));
  has_spare_ = true;
  return static_cast<float>(radius * std::cos(angle));
}

std::uint32_t Rng::below(std::uint32_t n) {
  if (n == 0) throw std::invalid_argument("Rng::below: n must be >= 1");
  const std::uint32_t threshold = (0u - n) % n;
  for (;;) {
    const std::uint32_t r = next_u32();
    if (r >= threshold) return r % n;
  }
}

Tensor1 random_uniform(Rng& rng, std::size_t n, float lo, float hi) {
  Tensor1 out = xt::empty<float>({n});
  for (auto& x : out) x = rng.uniform(lo, hi);
  return out;
}

Tensor2 random_uniform(Rng& rng, std::size_t rows, std::size_t cols, float lo, float hi) {
  Tensor2 out = xt::empty<float>({rows, cols});
  for (auto& x : out) x = rng.uniform(lo, hi);
  return out;
}

}  // namespace attn
