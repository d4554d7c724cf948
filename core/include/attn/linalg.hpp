// Matrix products used by the attention maths.
// Shapes: a [M, K], b [K, N] -> [M, N] (matmul); a [M, K], b [N, K] -> [M, N] (matmul_nt, a·bᵀ).
// Plain cache-friendly loops for now; the training engine routes these through SIMD kernels.
#pragma once

#include "attn/tensor.hpp"

namespace attn {

// a [M, K] · b [K, N] -> [M, N]
Tensor2 matmul(const Tensor2& a, const Tensor2& b);
// a [M, K] · bᵀ where b is [N, K] -> [M, N]
Tensor2 matmul_nt(const Tensor2& a, const Tensor2& b);
// alpha · op(a) · op(b) -> [M, N], op(x) = xᵀ where trans_x: the GEMM kernel with every flag
// (the engine's matmul options, so the JS tests can reach each of its paths)
Tensor2 matmul_general(const Tensor2& a, const Tensor2& b, bool trans_a, bool trans_b, float alpha);
// a [M, K] · x [K] -> [M]
Tensor1 matvec(const Tensor2& a, const Tensor1& x);

}  // namespace attn
