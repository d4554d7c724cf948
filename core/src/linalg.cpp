#include "attn/linalg.hpp"

#include <cmath>
#include <string>

#include "attn/kernels/gemm.hpp"

namespace attn {

Tensor2 matmul(const Tensor2& a, const Tensor2& b) {
  const std::size_t m = a.shape(0), k = a.shape(1), n = b.shape(1);
  ATTN_REQUIRE(b.shape(0) == k, "matmul",
               "a has shape " + shape_string(a.shape()) + " and b has shape " + shape_string(b.shape()) +
                   "; b must have " + std::to_string(k) + " rows");
  Tensor2 c = xt::empty<float>({m, n});
  kernels::gemm(false, false, m, n, k, 1.f, a.data(), k, b.data(), n, 0.f, c.data(), n);
  return c;
}

Tensor2 matmul_nt(const Tensor2& a, const Tensor2& b) {
  const std::size_t m = a.shape(0), k = a.shape(1), n = b.shape(0);
  ATTN_REQUIRE(b.shape(1) == k, "matmul_nt",
               "a has shape " + shape_string(a.shape()) + " and b has shape " + shape_string(b.shape()) +
                   "; b must have " + std::to_string(k) + " columns");
  Tensor2 c = xt::empty<float>({m, n});
  kernels::gemm(false, true, m, n, k, 1.f, a.data(), k, b.data(), k, 0.f, c.data(), n);
  return c;
}

Tensor2 matmul_general(const Tensor2& a, const Tensor2& b, bool trans_a, bool trans_b, float alpha) {
  const std::size_t m = a.shape(trans_a ? 1 : 0), k = a.shape(trans_a ? 0 : 1);
  const std::size_t n = b.shape(trans_b ? 0 : 1), kb = b.shape(trans_b ? 1 : 0);
  ATTN_REQUIRE(kb == k, "matmul",
               "op(a) has shape [" + std::to_string(m) + ", " + std::to_string(k) + "] and op(b) has shape [" +
                   std::to_string(kb) + ", " + std::to_string(n) + "]; op(b) must have " + std::to_string(k) + " rows");
  ATTN_REQUIRE(std::isfinite(alpha), "matmul", "alpha must be a finite number");
  Tensor2 c = xt::empty<float>({m, n});
  kernels::gemm(trans_a, trans_b, m, n, k, alpha, a.data(), a.shape(1), b.data(), b.shape(1), 0.f, c.data(), n);
  return c;
}

Tensor1 matvec(const Tensor2& a, const Tensor1& x) {
  const std::size_t m = a.shape(0), k = a.shape(1);
  ATTN_REQUIRE(x.shape(0) == k, "matvec",
               "a has shape " + shape_string(a.shape()) + " and x has shape " + shape_string(x.shape()) +
                   "; x must have " + std::to_string(k) + " entries");
  Tensor1 y = xt::empty<float>({m});
  for (std::size_t i = 0; i < m; ++i) {
    float sum = 0.f;
    for (std::size_t p = 0; p < k; ++p) sum += a(i, p) * x(p);
    y(i) = sum;
  }
  return y;
}

}  // namespace attn
