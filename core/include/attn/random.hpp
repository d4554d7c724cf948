// A small deterministic random generator (PCG32, O'Neill 2014). std::uniform_real_distribution
// and friends are implementation-defined, so libstdc++ (native) and libc++ (wasm) would draw
// different numbers from the same seed; this generator gives the same stream on both.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "attn/tensor.hpp"

namespace attn {

class Rng {
 public:
  explicit Rng(std::uint64_t seed, std::uint64_t stream = 0x9e3779b97f4a7c15ULL);

  std::uint32_t next_u32();
  // Uniform in [0, 1) with 24 random bits (exactly representable in float32).
  float uniform();
  // Uniform in [lo, hi).
  float uniform(float lo, float hi);
  // Standard normal (Box–Muller, both values used).
  float normal();
  // Uniform integer in [0, n), n >= 1, without modulo bias.
  std::uint32_t below(std::uint32_t n);
  // Fisher–Yates from the back: for i = n .. 2, swap v[i-1] with v[below(i)]. Every shuffle in
  // the engine is this one, so a seed gives the same order (and the same later draws) everywhere.
  // n = 0 or 1 draws nothing.
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(static_cast<std::uint32_t>(i))]);
  }

 private:
  std::uint64_t state_;
  std::uint64_t increment_;
  bool has_spare_ = false;
  float spare_ = 0.f;
};

// Tensors filled from U(lo, hi), drawn in row-major order.
Tensor1 random_uniform(Rng& rng, std::size_t n, float lo, float hi);
Tensor2 random_uniform(Rng& rng, std::size_t rows, std::size_t cols, float lo, float hi);

}  // namespace attn
