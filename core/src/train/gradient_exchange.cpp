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

std::size_t unpack_gradients(const ParameterList& params, const std::vector<const float*>& parts, float divisor) {
  std::size_t at = 0;
  for (const Parameter& p : params) {
    float* grad = p.grad;
    if (parts.size() == 1) {
      const float* a = parts[0] + at;
      for (std::size_t i = 0; i < p.size; ++i) grad[i] = a[i] / divisor;
    } else if (parts.size() == 2) {  // the page's case: one pass
      const float *a = parts[0] + at, *b = parts[1] + at;
      for (std::size_t i = 0; i < p.size; ++i) grad[i] = (a[i] + b[i]) / divisor;
    } else {
      std::copy(parts[0] + at, parts[0] + at + p.size, grad);
      for (std::size_t k = 1; k < parts.size(); ++k) {
        const float* c = parts[k] + at;
        for (std::size_t i = 0; i < p.size; ++i) grad[i] += c[i];
      }
      for (std::size_t i = 0; i < p.size; ++i) grad[i] /= divisor;
    }
    at += p.size;
  }
  return at;
}

float sum_in_order(const std::vector<const float*>& parts, std::size_t at) {
  float sum = parts[0][at];
  for (std::size_t k = 1; k < parts.size(); ++k) sum += parts[k][at];
  return sum;
}

std::vector<float>& ShardBuffers::fill(std::size_t size) {
  ready_ = false;
  own_.resize(size);
  return own_;
}

void ShardBuffers::filled(std::size_t shard, std::size_t shards) {
  shard_ = shard;
  shards_ = shards;
  ready_ = true;
}

std::vector<const float*> ShardBuffers::in_order(const char* who, const std::vector<std::vector<float>>& others) const {
  if (!ready_) {
    throw std::logic_error(std::string(who) + ": compute this replica's shard gradient for the step first");
  }
  if (others.size() + 1 != shards_) {
    throw std::invalid_argument(std::string(who) + ": this replica computed shard " + std::to_string(shard_) + " of " +
                                std::to_string(shards_) + ", so it needs the other " + std::to_string(shards_ - 1) +
                                " shards' buffers, got " + std::to_string(others.size()));
  }
  std::vector<const float*> parts;
  parts.reserve(shards_);
  for (std::size_t r = 0, k = 0; r < shards_; ++r) {
    if (r == shard_) {
      parts.push_back(own_.data());
      continue;
    }
    const std::vector<float>& other = others[k++];
    if (other.size() != own_.size()) {
      throw std::invalid_argument(std::string(who) + ": the gradient buffer of shard " + std::to_string(r) + " holds " +
                                  std::to_string(other.size()) + " floats, this model exchanges " +
                                  std::to_string(own_.size()));
    }
    parts.push_back(other.data());
  }
  return parts;
}

}  // namespace attn
