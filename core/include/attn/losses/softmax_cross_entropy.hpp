// Softmax cross-entropy over V classes, for next-token prediction and multi-class heads.
//
// Legend: N rows (B·T positions flattened by the caller), V vocabulary / classes.
//
//   ℓ_n = log Σ_v exp(z_nv) − z_n,t_n = (m_n + log Σ_v exp(z_nv − m_n)) − z_n,t_n,  m_n = max_v z_nv
//
// Subtracting the row maximum keeps every exponent <= 0, so logits of 1000 do not overflow.
// Rows whose target equals `ignore_index` (e.g. 0 = padding) count for nothing: the loss is the
// mean over the remaining K rows and dL/dz_nv = (softmax(z_n)_v − [v = t_n]) / K for those rows,
// 0 for ignored ones. When every row is ignored the loss is 0 with a zero gradient (a batch of
// padding teaches nothing, and must not produce NaN). A negative ignore_index means no row is
// ignored. NaN or inf logits are passed through to a NaN loss for the training loop to report.
#pragma once

#include <cstdint>

#include "attn/tensor.hpp"

namespace attn {

using ClassIds = xt::xtensor<std::int32_t, 1>;  // [N]

// logits [N, V], targets [N] with values in [0, V) or == ignore_index -> mean loss over the
// rows not ignored. dlogits [N, V] (resized if needed) is OVERWRITTEN with dL/dz when not null;
// it must not be `logits` itself (ShapeError).
// A target outside [0, V) that is not ignore_index throws std::invalid_argument naming the row.
float softmax_cross_entropy(const Tensor2& logits, const ClassIds& targets, std::int32_t ignore_index,
                            Tensor2* dlogits);

struct CrossEntropyResult {
  float loss = 0.f;         // as returned by softmax_cross_entropy
  std::size_t counted = 0;  // K: rows not ignored
  std::size_t correct = 0;  // counted rows whose argmax (first one on ties) equals the target
};

// Same loss and gradient, plus what token accuracy needs: correct / counted (when counted > 0).
CrossEntropyResult softmax_cross_entropy_with_accuracy(const Tensor2& logits, const ClassIds& targets,
                                                       std::int32_t ignore_index, Tensor2* dlogits);

}  // namespace attn
