#include "gemm_x86.hpp"

#if defined(ATTN_GEMM_X86)
#include <immintrin.h>

namespace attn::kernels::x86 {

bool cpu_has_avx2_fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool cpu_has_avx512() { return cpu_has_avx2_fma() && __builtin_cpu_supports("avx512f"); }

namespace {

// One kernel body per vector width: V is the register type, kLanes its floats, kMr × (2·kLanes)
// the tile. The accumulators are a fixed-size array indexed by constants after unrolling, so GCC
// keeps all of them in registers.
template <int kMr>
ATTN_TARGET_AVX2 inline void tile_avx2(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step,
                                       const float* b, std::size_t b_step, float alpha, float beta, float* c,
                                       std::size_t ldc, std::size_t rows, std::size_t cols) {
  constexpr int kNr = 16;
  __m256 acc[kMr][2];
  for (int r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
  for (std::size_t p = 0; p < kc; ++p, a += a_step, b += b_step) {
    const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    for (int r = 0; r < kMr; ++r) {
      const __m256 ar = _mm256_broadcast_ss(a + r * a_row);
      acc[r][0] = _mm256_fmadd_ps(ar, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(ar, b1, acc[r][1]);
    }
  }
  // Epilogue: alpha · acc (+ beta · C), a multiply and a separate add as in every other kernel.
  const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
  if (rows == kMr && cols == kNr) {
    for (int r = 0; r < kMr; ++r, c += ldc)
      for (int h = 0; h < 2; ++h) {
        const __m256 ab = _mm256_mul_ps(va, acc[r][h]);
        _mm256_storeu_ps(c + 8 * h,
                         beta == 0.f ? ab : _mm256_add_ps(ab, _mm256_mul_ps(vb, _mm256_loadu_ps(c + 8 * h))));
      }
    return;
  }
  alignas(32) float tile[kMr * kNr];
  for (int r = 0; r < kMr; ++r)
    for (int h = 0; h < 2; ++h) _mm256_store_ps(tile + r * kNr + 8 * h, _mm256_mul_ps(va, acc[r][h]));
  for (std::size_t r = 0; r < rows; ++r, c += ldc)
    for (std::size_t j = 0; j < cols; ++j) c[j] = beta == 0.f ? tile[r * kNr + j] : tile[r * kNr + j] + beta * c[j];
}

template <int kMr>
ATTN_TARGET_AVX512 inline void tile_avx512(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step,
                                           const float* b, std::size_t b_step, float alpha, float beta, float* c,
                                           std::size_t ldc, std::size_t rows, std::size_t cols) {
  constexpr int kNr = 32;
  __m512 acc[kMr][2];
  for (int r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (std::size_t p = 0; p < kc; ++p, a += a_step, b += b_step) {
    const __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
    for (int r = 0; r < kMr; ++r) {
      const __m512 ar = _mm512_set1_ps(a[r * a_row]);
      acc[r][0] = _mm512_fmadd_ps(ar, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(ar, b1, acc[r][1]);
    }
  }
  const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
  if (rows == kMr && cols == kNr) {
    for (int r = 0; r < kMr; ++r, c += ldc)
      for (int h = 0; h < 2; ++h) {
        const __m512 ab = _mm512_mul_ps(va, acc[r][h]);
        _mm512_storeu_ps(c + 16 * h,
                         beta == 0.f ? ab : _mm512_add_ps(ab, _mm512_mul_ps(vb, _mm512_loadu_ps(c + 16 * h))));
      }
    return;
  }
  alignas(64) float tile[kMr * kNr];
  for (int r = 0; r < kMr; ++r)
    for (int h = 0; h < 2; ++h) _mm512_store_ps(tile + r * kNr + 16 * h, _mm512_mul_ps(va, acc[r][h]));
  for (std::size_t r = 0; r < rows; ++r, c += ldc)
    for (std::size_t j = 0; j < cols; ++j) c[j] = beta == 0.f ? tile[r * kNr + j] : tile[r * kNr + j] + beta * c[j];
}

}  // namespace

void tile_avx2_6x16_packed(std::size_t kc, const float* a, const float* b, std::size_t b_step, float alpha, float beta,
                           float* c, std::size_t ldc, std::size_t rows, std::size_t cols) {
  tile_avx2<6>(kc, a, 1, 6, b, b_step, alpha, beta, c, ldc, rows, cols);
}
void tile_avx2_6x16_strided(std::size_t kc, const float* a, std::size_t lda, const float* b, std::size_t b_step,
                            float alpha, float beta, float* c, std::size_t ldc, std::size_t rows, std::size_t cols) {
  tile_avx2<6>(kc, a, lda, 1, b, b_step, alpha, beta, c, ldc, rows, cols);
}
void tile_avx512_8x32_packed(std::size_t kc, const float* a, const float* b, std::size_t b_step, float alpha,
                             float beta, float* c, std::size_t ldc, std::size_t rows, std::size_t cols) {
  tile_avx512<8>(kc, a, 1, 8, b, b_step, alpha, beta, c, ldc, rows, cols);
}
void tile_avx512_8x32_strided(std::size_t kc, const float* a, std::size_t lda, const float* b, std::size_t b_step,
                              float alpha, float beta, float* c, std::size_t ldc, std::size_t rows, std::size_t cols) {
  tile_avx512<8>(kc, a, lda, 1, b, b_step, alpha, beta, c, ldc, rows, cols);
}

}  // namespace attn::kernels::x86

#endif
