// Shared fixtures of the recurrent-layer tests (LSTM, GRU, Bidirectional).
#pragma once

#include <array>

#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

namespace attn::test {

// Float32 forward passes, central differences with h = 1e-2 accumulated in double; every entry
// of every tensor is probed; pass when |analytic - numeric| <= 1e-3 + 1e-2 · max(|a|, |n|).
inline const GradCheckOptions kRecurrentGrad{1e-2, 1e-2, 1e-3, 100000, 1};

// A random [batch, units] state.
inline Tensor2 random_state(std::size_t batch, std::size_t units, Rng& rng) {
  return random_tensor<Tensor2>(std::array<std::size_t, 2>{batch, units}, rng);
}

// Row 0 all real, row 1 pre-padded (Keras 'pre'), row 2 post-padded.
inline Mask2 mixed_mask() { return Mask2{{1, 1, 1, 1, 1}, {0, 0, 1, 1, 1}, {1, 1, 1, 0, 0}}; }

}  // namespace attn::test
