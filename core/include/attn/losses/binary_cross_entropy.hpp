// Binary cross-entropy on logits, for two-class outputs (sentiment: positive vs negative).
//
// Legend: N examples (B sentences, or B·T positions flattened by the caller).
//
//   ℓ_i = −y_i log σ(z_i) − (1 − y_i) log(1 − σ(z_i))
//       = max(z_i, 0) − z_i y_i + log1p(exp(−|z_i|))
//
// The second form is the same number but never takes the log of a sigmoid that rounded to 0 or
// 1, so z = ±100 gives a finite loss (100 for a wrong answer) where the first gives inf. The loss
// is the mean over N, so the gradient is dL/dz_i = (σ(z_i) − y_i) / N. Targets may be soft (any
// value in [0, 1], e.g. label smoothing); anything else is a caller bug and throws. A NaN logit
// is passed through to a NaN loss so the training loop can report it.
#pragma once

#include "attn/tensor.hpp"

namespace attn {

// logits [N], targets [N] in [0, 1] -> mean loss. dlogits [N] (resized if needed) is
// OVERWRITTEN with dL/dz when not null. N must be >= 1.
float binary_cross_entropy_with_logits(const Tensor1& logits, const Tensor1& targets, Tensor1* dlogits);

// As above with per-example weights [N] (>= 0), PyTorch's `weight` semantics:
// L = (1/N) Σ w_i ℓ_i and dL/dz_i = w_i (σ(z_i) − y_i) / N. Weights that sum to N keep the
// loss on the same scale as the unweighted one (e.g. class re-balancing).
float binary_cross_entropy_with_logits(const Tensor1& logits, const Tensor1& targets, const Tensor1& weights,
                                       Tensor1* dlogits);

}  // namespace attn
