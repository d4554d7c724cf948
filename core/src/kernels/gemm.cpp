#include "attn/kernels/gemm.hpp"

namespace attn::kernels {

void gemm_reference(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha,
                    const float* a, std::size_t lda, const float* b, std::size_t ldb, float beta, float* c,
                    std::size_t ldc) {
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (std::size_t p = 0; p < k; ++p) {
        const float av = trans_a ? a[p * lda + i] : a[i * lda + p];
        const float bv = trans_b ? b[j * ldb + p] : b[p * ldb + j];
        sum += static_cast<double>(av) * static_cast<double>(bv);
      }
      float& out = c[i * ldc + j];
      out = static_cast<float>(alpha * sum) + (beta == 0.f ? 0.f : beta * out);
    }
  }
}

// Placeholder until the SIMD micro-kernels land: same contract, plain loops in float.
void gemm(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha,
          const float* a, std::size_t lda, const float* b, std::size_t ldb, float beta, float* c,
          std::size_t ldc) {
  for (std::size_t i = 0; i < m; ++i) {
    float* crow = c + i * ldc;
    for (std::size_t j = 0; j < n; ++j) crow[j] = beta == 0.f ? 0.f : beta * crow[j];
    for (std::size_t p = 0; p < k; ++p) {
      const float av = alpha * (trans_a ? a[p * lda + i] : a[i * lda + p]);
      if (trans_b) {
        for (std::size_t j = 0; j < n; ++j) crow[j] += av * b[j * ldb + p];
      } else {
        const float* brow = b + p * ldb;
        for (std::size_t j = 0; j < n; ++j) crow[j] += av * brow[j];
      }
    }
  }
}

const char* gemm_implementation() { return "scalar"; }

}  // namespace attn::kernels
