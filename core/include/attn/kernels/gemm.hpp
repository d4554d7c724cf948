// General matrix multiply, the hot kernel of every layer:
//
//   C[M, N] = alpha · op(A)[M, K] · op(B)[K, N] + beta · C
//
// Row-major with leading dimensions (the distance between rows), op(X) = X or Xᵀ:
//   trans_a == false: A is stored [M, K] (lda >= K);  true: A is stored [K, M] (lda >= M).
//   trans_b == false: B is stored [K, N] (ldb >= N);  true: B is stored [N, K] (ldb >= K).
// beta == 0 overwrites C without reading it (NaNs in C do not propagate).
//
// `gemm` is the fast path: a register-blocked micro-kernel over slivers of op(A) and op(B) that
// it reads with unit stride along K: untransposed operands in place (only a ragged last sliver is
// copied), transposed ones packed into contiguous panels first. Which kernel runs is decided once
// per process (core/src/kernels/gemm.cpp has the table of paths and kernels):
//   - natively on x86-64, an AVX-512 8×32 or AVX2 + FMA 6×16 kernel where the CPU has it
//     (selected at run time, so the binary still runs on any x86-64);
//   - otherwise a 4×8 kernel written once over four float lanes: wasm_simd128 in the SIMD wasm
//     build, SSE2 natively, plain scalar code in the scalar wasm build (ATTN_SIMD=OFF). Where the
//     wasm engine has relaxed SIMD (Chromium, Firefox), the SIMD build runs a hand-written
//     micro-kernel with fused multiply-adds instead (core/src/kernels/micro_kernel_fma.wat).
// FMA kernels round once per multiply-add, so their sums can differ from the mul + add kernel's in
// the last bits; for one build on one CPU the result is always the same. Products of at most 512
// multiply-adds skip the packing. It sums in float in another order than `gemm_reference` (the
// plain triple loop, summing in double, that tests compare it against); the two agree within the
// rounding bound of a length-K float dot product. Packing buffers are thread_local and reused, so
// calls allocate only when a larger block than ever before is seen.
#pragma once

#include <cstddef>
#include <string_view>

namespace attn {
// The assembled micro_kernel_fma.wat, embedded by CMakeLists.txt (SIMD wasm builds only).
std::string_view relaxed_simd_kernel_wasm();
}  // namespace attn

namespace attn::kernels {

void gemm(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
          std::size_t lda, const float* b, std::size_t ldb, float beta, float* c, std::size_t ldc);

void gemm_reference(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha,
                    const float* a, std::size_t lda, const float* b, std::size_t ldb, float beta, float* c,
                    std::size_t ldc);

// Name of the implementation `gemm` uses now (e.g. "avx512 8x32", "avx2+fma 6x16", "sse2 4x8",
// "wasm_simd128 4x8", "wasm relaxed-simd fma 4x8", "scalar 4x8").
const char* gemm_implementation();

// Whether `gemm` may use the relaxed-SIMD FMA micro-kernel (default: yes). Returns whether it now
// does: false in builds without it and where the engine lacks relaxed SIMD. For A/B benchmarks.
bool set_gemm_fma(bool allowed);

// The micro-kernels `gemm` can run: `best` is the fastest this build and CPU have (the default),
// `simd4` the 4×8 kernel of every build, `avx2_fma` / `avx512` the x86-64 ones (native builds).
enum class GemmKernel { best, simd4, avx2_fma, avx512 };

// Makes `gemm` use `kernel` from now on, process-wide (for tests and benchmarks; not to be called
// while another thread multiplies). Returns false, changing nothing, where this build or CPU
// cannot run it.
bool set_gemm_kernel(GemmKernel kernel);

}  // namespace attn::kernels
