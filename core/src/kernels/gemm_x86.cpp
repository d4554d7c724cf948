#include "gemm_x86.hpp"

#if defined(ATTN_GEMM_X86)
#include <immintrin.h>

namespace attn::kernels::x86 {

bool cpu_has_avx2_fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool cpu_has_avx512() { return cpu_has_avx2_fma() && __builtin_cpu_supports("avx512f"); }

namespace {

// The two kernels share one shape: kMr rows × 2 vectors of V (kNr = 2·lanes columns), each step
// one broadcast of a(r, p) per row and two fused multiply-adds. The accumulators are named
// variables, not an array: GCC 12 kept an array's copy on the stack up to date in every step
// (24 stores per step; 44 GFLOP/s instead of ~100 for the AVX-512 one).
#define ATTN_GEMM_STEP(r)                     \
  {                                           \
    const auto ar = BROADCAST(a + (r)*a_row); \
    c##r##0 = FMADD(ar, b0, c##r##0);         \
    c##r##1 = FMADD(ar, b1, c##r##1);         \
  }

// An edge tile (rows < kMr or cols < kNr): C = sums + beta · C over rows × cols, from the
// kernel's alpha-scaled sums stored row-major with kNr floats per row.
inline void store_edge(const float* sums, std::size_t nr, float beta, float* c, std::size_t ldc, std::size_t rows,
                       std::size_t cols) {
  for (std::size_t r = 0; r < rows; ++r, c += ldc)
    for (std::size_t j = 0; j < cols; ++j) c[j] = beta == 0.f ? sums[r * nr + j] : sums[r * nr + j] + beta * c[j];
}

#define BROADCAST _mm256_broadcast_ss
#define FMADD _mm256_fmadd_ps
ATTN_TARGET_AVX2 inline void tile_avx2(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step,
                                       const float* b, std::size_t b_step, float alpha, float beta, float* c,
                                       std::size_t ldc, std::size_t rows, std::size_t cols) {
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00,
         c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  for (std::size_t p = 0; p < kc; ++p, a += a_step, b += b_step) {
    const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    ATTN_GEMM_STEP(0);
    ATTN_GEMM_STEP(1);
    ATTN_GEMM_STEP(2);
    ATTN_GEMM_STEP(3);
    ATTN_GEMM_STEP(4);
    ATTN_GEMM_STEP(5);
  }
  const __m256 acc[] = {c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51};
  // C = alpha · acc + beta · C, a multiply and a separate add as in every other kernel.
  const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
  if (rows == 6 && cols == 16) {
    for (int i = 0; i < 12; ++i) {
      float* const out = c + (i / 2) * ldc + (i % 2) * 8;
      const __m256 ab = _mm256_mul_ps(va, acc[i]);
      _mm256_storeu_ps(out, beta == 0.f ? ab : _mm256_add_ps(ab, _mm256_mul_ps(vb, _mm256_loadu_ps(out))));
    }
    return;
  }
  alignas(32) float sums[6 * 16];
  for (int i = 0; i < 12; ++i) _mm256_store_ps(sums + 8 * i, _mm256_mul_ps(va, acc[i]));
  store_edge(sums, 16, beta, c, ldc, rows, cols);
}
#undef BROADCAST
#undef FMADD

#define BROADCAST(p) _mm512_set1_ps(*(p))
#define FMADD _mm512_fmadd_ps
ATTN_TARGET_AVX512 inline void tile_avx512(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step,
                                           const float* b, std::size_t b_step, float alpha, float beta, float* c,
                                           std::size_t ldc, std::size_t rows, std::size_t cols) {
  __m512 c00 = _mm512_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00,
         c40 = c00, c41 = c00, c50 = c00, c51 = c00, c60 = c00, c61 = c00, c70 = c00, c71 = c00;
  for (std::size_t p = 0; p < kc; ++p, a += a_step, b += b_step) {
    const __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
    ATTN_GEMM_STEP(0);
    ATTN_GEMM_STEP(1);
    ATTN_GEMM_STEP(2);
    ATTN_GEMM_STEP(3);
    ATTN_GEMM_STEP(4);
    ATTN_GEMM_STEP(5);
    ATTN_GEMM_STEP(6);
    ATTN_GEMM_STEP(7);
  }
  const __m512 acc[] = {c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51, c60, c61, c70, c71};
  const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
  if (rows == 8 && cols == 32) {
    for (int i = 0; i < 16; ++i) {
      float* const out = c + (i / 2) * ldc + (i % 2) * 16;
      const __m512 ab = _mm512_mul_ps(va, acc[i]);
      _mm512_storeu_ps(out, beta == 0.f ? ab : _mm512_add_ps(ab, _mm512_mul_ps(vb, _mm512_loadu_ps(out))));
    }
    return;
  }
  alignas(64) float sums[8 * 32];
  for (int i = 0; i < 16; ++i) _mm512_store_ps(sums + 16 * i, _mm512_mul_ps(va, acc[i]));
  store_edge(sums, 32, beta, c, ldc, rows, cols);
}
#undef BROADCAST
#undef FMADD
#undef ATTN_GEMM_STEP

}  // namespace

void tile_avx2_6x16_packed(std::size_t kc, const float* a, const float* b, std::size_t b_step, float alpha, float beta,
                           float* c, std::size_t ldc, std::size_t rows, std::size_t cols) {
  tile_avx2(kc, a, 1, 6, b, b_step, alpha, beta, c, ldc, rows, cols);
}
void tile_avx2_6x16_strided(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step, const float* b,
                            std::size_t b_step, float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
                            std::size_t cols) {
  tile_avx2(kc, a, a_row, a_step, b, b_step, alpha, beta, c, ldc, rows, cols);
}
void tile_avx512_8x32_packed(std::size_t kc, const float* a, const float* b, std::size_t b_step, float alpha,
                             float beta, float* c, std::size_t ldc, std::size_t rows, std::size_t cols) {
  tile_avx512(kc, a, 1, 8, b, b_step, alpha, beta, c, ldc, rows, cols);
}
void tile_avx512_8x32_strided(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step, const float* b,
                              std::size_t b_step, float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
                              std::size_t cols) {
  tile_avx512(kc, a, a_row, a_step, b, b_step, alpha, beta, c, ldc, rows, cols);
}

}  // namespace attn::kernels::x86

#endif
