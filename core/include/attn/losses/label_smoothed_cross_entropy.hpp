// Softmax cross-entropy against label-smoothed targets (Szegedy et al. 2016, §7; used by the
// Transformer, Vaswani et al. 2017 §5.4, with ε = 0.1). Same definition as PyTorch's
// nn.CrossEntropyLoss(label_smoothing=ε): the target distribution spreads ε uniformly over ALL
// V classes (the gold class included) and keeps 1 − ε on the gold class:
//
// Legend: N rows (B·T positions flattened by the caller), V classes, K rows not ignored.
//
//   q_nv = (1 − ε) [v = t_n] + ε / V
//   ℓ_n = −Σ_v q_nv log softmax(z_n)_v = lse(z_n) − (1 − ε) z_n,t_n − (ε / V) Σ_v z_nv
//   L = (1 / K) Σ_n ℓ_n                       over the rows whose target is not ignore_index
//   dL/dz_nv = (softmax(z_n)_v − q_nv) / K     (0 for ignored rows)
//
// lse(z) = m + log Σ_v exp(z_v − m) with m = max_v z_v. ε = 0 is softmax_cross_entropy exactly
// (the same loss and gradient). Note that ℓ_n > 0 even for a perfect model when ε > 0: its
// minimum is the entropy of q_n. Every row ignored: loss 0, zero gradient (as softmax_cross_entropy).
#pragma once

#include <cstdint>

#include "attn/losses/softmax_cross_entropy.hpp"

namespace attn {

// logits [N, V], targets [N] in [0, V) or == ignore_index, smoothing ε in [0, 1) (else
// std::invalid_argument) -> loss, counted K and correct (argmax == target, first on ties).
// dlogits [N, V] (resized if needed) is OVERWRITTEN with dL/dz when not null; it must not be
// `logits`. Targets outside [0, V) that are not ignore_index throw std::invalid_argument.
CrossEntropyResult label_smoothed_cross_entropy(const Tensor2& logits, const ClassIds& targets,
                                                std::int32_t ignore_index, float smoothing, Tensor2* dlogits);

}  // namespace attn
