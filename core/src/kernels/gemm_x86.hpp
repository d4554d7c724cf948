// Private to core/src/kernels: GEMM micro-kernels for x86-64 CPUs with AVX2 + FMA or AVX-512F,
// compiled with per-function target attributes so the binary still runs on any x86-64: gemm.cpp
// calls them only after cpu_has_avx2_fma() / cpu_has_avx512() said yes. Native builds only.
//
// Every tile function computes one tile of C from slivers read with unit stride along k:
//
//   C[r][j] = alpha · Σ_p a(r, p) · b(p, j) + beta · C[r][j]      r < rows ≤ kMr, j < cols ≤ kNr
//
//   a(r, p) = a[r·a_row + p·a_step]: (a_row, a_step) = (1, kMr) for a packed [kc][kMr] sliver
//             (the *_packed functions); for A read in place (*_strided), (lda, 1) when A is
//             untransposed and (1, lda) when it is transposed (the tile's rows are adjacent columns)
//   b(p, j) = b[p·b_step + j]: kNr contiguous floats per step (b_step = kNr when packed, ldb in place)
//
// The sums run in float, one fused multiply-add per (r, j, p) in increasing p, so a tile's result
// depends only on its inputs, never on the path that fed them. beta == 0 does not read C. Edge
// tiles (rows < kMr or cols < kNr) must still have kMr readable rows of a and kNr columns of b
// (gemm zero-pads its packed slivers); only C is cut to rows × cols.
#pragma once

#include <cstddef>

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
#define ATTN_GEMM_X86 1

#define ATTN_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define ATTN_TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))

namespace attn::kernels::x86 {

bool cpu_has_avx2_fma();
bool cpu_has_avx512();

// 6 rows × 16 columns: 12 ymm accumulators, 2 loads of B and 6 broadcasts of A per step.
ATTN_TARGET_AVX2 void tile_avx2_6x16_packed(std::size_t kc, const float* a, const float* b, std::size_t b_step,
                                            float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
                                            std::size_t cols);
ATTN_TARGET_AVX2 void tile_avx2_6x16_strided(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step,
                                             const float* b, std::size_t b_step, float alpha, float beta, float* c,
                                             std::size_t ldc, std::size_t rows, std::size_t cols);

// 8 rows × 32 columns: 16 zmm accumulators (of 32 registers), 2 loads of B and 8 broadcasts.
ATTN_TARGET_AVX512 void tile_avx512_8x32_packed(std::size_t kc, const float* a, const float* b, std::size_t b_step,
                                                float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
                                                std::size_t cols);
ATTN_TARGET_AVX512 void tile_avx512_8x32_strided(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step,
                                                 const float* b, std::size_t b_step, float alpha, float beta, float* c,
                                                 std::size_t ldc, std::size_t rows, std::size_t cols);

}  // namespace attn::kernels::x86

#endif
