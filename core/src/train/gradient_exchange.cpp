#include "attn/train/gradient_exchange.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attn {

void check_shard(const char* who, std::size_t shard, std::size_t shards) {
  if (shards == 0 || shard >= shards) {
    throw std::invalid_argument(std::string(who) + ": shard must be in [0, shards) with shards >= 1, got shard " +
                                std::to_string(shard) + " of " + std::to_string(shards));
  }
}

ShardRows shard_rows(const char* who, std::size_t shard, std::size_t shards, std::size_t batch) {
  check_shard(who, shard, shards);
  return {shard * batch / shards, (shard + 1) * batch / shards};
}

Rng shard_rng(std::uint64_t seed, std::uint64_t base, std::size_t step, std::size_t shard, std::size_t shards) {
  const std::uint64_t key = (static_cast<std::uint64_t>(step) << 24) ^ (static_cast<std::uint64_t>(shards) << 12) ^
                            static_cast<std::uint64_t>(shard);
  return Rng(seed, (base << 48) ^ key);
}

void check_exchange_size(const char* who, std::size_t size, std::size_t expected, const char* layout) {
  if (size != expected) {
    throw std::invalid_argument(std::string(who) + ": the gradient buffer holds " + std::to_string(size) +
                                " floats, this model exchanges " + std::to_string(expected) + " (" + layout + ")");
  }
}

float* pack_gradients(const ParameterList& params, float scale, float* out) {
  for (const Parameter& p : params) {
    if (scale == 1.f) {
      out = std::copy(p.grad, p.grad + p.size, out);
    } else {
      for (std::size_t i = 0; i < p.size; ++i) *out++ = p.grad[i] * scale;
    }
  }
  return out;
}

const float* unpack_gradients(const ParameterList& params, const float* sum, float divisor) {
  for (const Parameter& p : params) {
    for (std::size_t i = 0; i < p.size; ++i) p.grad[i] = sum[i] / divisor;
    sum += p.size;
  }
  return sum;
}

}  // namespace attn
