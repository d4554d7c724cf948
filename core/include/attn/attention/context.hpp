// Applying attention weights to annotations.
// Legend: Q queries, T annotations (keys/values), D annotation size.
#pragma once

#include "attn/tensor.hpp"

namespace attn {

// weights [T], annotations [T, D] -> [T, D]: row t is weights[t] · annotations[t].
Tensor2 weighted_annotations(const Tensor1& weights, const Tensor2& annotations);
// weights [T], annotations [T, D] -> [D]: c = Σ_t weights[t] · annotations[t].
Tensor1 context_vector(const Tensor1& weights, const Tensor2& annotations);
// weights [Q, T], annotations [T, D] -> [Q, D]: one context vector per query.
Tensor2 context_vectors(const Tensor2& weights, const Tensor2& annotations);

}  // namespace attn
