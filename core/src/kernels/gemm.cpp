#include "attn/kernels/gemm.hpp"

#include <algorithm>
#include <vector>

#include "gemm_wasm_fma.hpp"
#include "gemm_x86.hpp"
#include "simd4.hpp"

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

// How gemm() runs one product. plan_gemm() decides everything from the shape once, before any
// work; the loops below only follow the plan.
//
//   path      when                  what runs
//   --------  --------------------  ------------------------------------------------------------
//   empty     m == 0 or n == 0      nothing
//   scale_c   k == 0                C = beta · C (op(A)·op(B) is the zero matrix)
//   direct    m·n·k <= 512          gemm_direct: the triple loop in float, no packing
//   row       m == 1, !trans_b      gemm_row: B streamed once, row by row, into C's one row
//   blocked   otherwise             gemm_blocked<Kernel>: Goto/BLIS cache blocks, micro-kernel tiles
//
//   flags of `blocked`
//   a_in_place     always: whole kMr-row slivers of op(A) are read in place, an untransposed A
//                  along its rows (a_row = lda, a_step = 1), a transposed one down its columns
//                  (a_row = 1, a_step = lda: the tile's kMr values of each step are adjacent);
//                  only the ragged last sliver is packed
//   b_in_place     !trans_b and m < kPackBMinRows: whole kNr-column slivers of B are read in
//                  place (row stride ldb); otherwise all of op(B) is packed
//   copy_b_sliver  b_in_place and ldb >= kCopyBSliverMinStride: each in-place sliver is copied
//                  to a contiguous buffer first
//
//   micro-kernel   (chosen once per process from the CPU; set_gemm_kernel overrides it)
//   avx512 8x32    x86-64 with AVX-512F, native builds (gemm_x86.cpp)
//   avx2+fma 6x16  x86-64 with AVX2 and FMA, native builds (gemm_x86.cpp)
//   simd4 4x8      everywhere else: SSE2 natively, wasm_simd128 or scalar code in wasm; in the
//                  SIMD wasm build on an engine with relaxed SIMD, the FMA module's functions
//                  replace its loop (gemm_wasm_fma.cpp), the panel function whole columns of tiles
namespace {

using namespace simd4;

// From this many rows of C on, B is packed even when it could be read in place. Measured in wasm
// (best of 30 interleaved runs): packing gained 9-23 % at 256×256×256 and 12-16 % at
// 6400×128×32, and lost 5-20 % at M = 32 and 64 (128: within the noise).
constexpr std::size_t kPackBMinRows = 256;

// From this row stride of B on (floats), a B sliver read in place is first copied to a contiguous
// buffer. The micro-kernel reads 8 floats from each of the sliver's kc rows; at a stride of 1 KB
// or more those rows fall into at most 4 sets of a 32 KB 8-way L1 (1 set at 4 KB), so they evict
// each other before the next tile of rows reuses them. Copying reads B once, as the kernel would,
// and every row tile then streams the copy from L1. Measured in Chromium (best of 20 interleaved
// runs): +10-35 % at 32×512×128, 64×512×128 and 128×512×128, up to 2× at 32×1024×64; within the
// noise at strides of 128 and 64 floats, so narrower B is still read in place.
constexpr std::size_t kCopyBSliverMinStride = 256;

// Below this many multiply-adds (e.g. 1×3·3×4, 8×8·8×8) packing costs more than it saves.
constexpr std::size_t kDirectMaxWork = 512;

struct GemmPlan {
  enum class Path { empty, scale_c, direct, row, blocked } path;
  bool a_in_place = false;
  bool b_in_place = false;
  bool copy_b_sliver = false;
};

GemmPlan plan_gemm(bool trans_b, std::size_t m, std::size_t n, std::size_t k, std::size_t ldb) {
  if (m == 0 || n == 0) return {GemmPlan::Path::empty};
  if (k == 0) return {GemmPlan::Path::scale_c};
  if (m * n * k <= kDirectMaxWork) return {GemmPlan::Path::direct};
  // One row of C (greedy decoding's output layer, x [1, K] · W [K, V]): a packed or copied sliver
  // of B would serve a single row, so B is read once, in place, row after row.
  if (m == 1 && !trans_b) return {GemmPlan::Path::row};
  GemmPlan plan{GemmPlan::Path::blocked};
  // A is read in place wherever a whole sliver exists: packing it would only copy values the
  // kernel can read with its two strides, and at our models' sizes (M = 32..64; the transposed
  // A of the weight gradients, [6400, 32]) that copy costs a fifth of the multiply. A transposed
  // B is always packed (a step's kNr values are ldb apart), and so is B when at least
  // kPackBMinRows rows of C reuse each of its slivers: then the copy is cheap next to the reads
  // it makes contiguous.
  plan.a_in_place = true;
  plan.b_in_place = !trans_b && m < kPackBMinRows;
  plan.copy_b_sliver = plan.b_in_place && ldb >= kCopyBSliverMinStride;
  return plan;
}

// The plain loop in float for products too small to pack.
void gemm_direct(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
                 std::size_t lda, const float* b, std::size_t ldb, float beta, float* c, std::size_t ldc) {
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      float sum = 0.f;
      for (std::size_t p = 0; p < k; ++p)
        sum += (trans_a ? a[p * lda + i] : a[i * lda + p]) * (trans_b ? b[j * ldb + p] : b[p * ldb + j]);
      float& out = c[i * ldc + j];
      out = beta == 0.f ? alpha * sum : alpha * sum + beta * out;
    }
  }
}

// C [1, n] = alpha · op(A) [1, k] · B [k, n] + beta · C: C's row is scaled once, then every row of B
// is added into it with its factor alpha · a_p, in order p = 0 .. k − 1 (the compiler vectorises
// the inner loop). B and C are each touched once per row of B: the minimum traffic for a matrix
// too large for the cache (the RNN decoder's output layer, 512 × 6,000 floats, is 12 MB).
void gemm_row(bool trans_a, std::size_t n, std::size_t k, float alpha, const float* a, std::size_t lda, const float* b,
              std::size_t ldb, float beta, float* c) {
  for (std::size_t j = 0; j < n; ++j) c[j] = beta == 0.f ? 0.f : beta * c[j];
  for (std::size_t p = 0; p < k; ++p) {
    const float f = alpha * (trans_a ? a[p * lda] : a[p]);
    const float* __restrict row = b + p * ldb;
    float* __restrict out = c;
    for (std::size_t j = 0; j < n; ++j) out[j] += f * row[j];
  }
}

// --- the simd4 4×8 kernel (every build) -------------------------------------------------------

constexpr std::size_t kSimd4Mr = 4;
constexpr std::size_t kSimd4Nr = 8;

// C tile [rows, cols] (row stride ldc) = alpha · acc + beta · C; beta == 0 does not read C.
void store_tile(const F4 (&acc)[kSimd4Mr][2], float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
                std::size_t cols) {
  const F4 va = splat(alpha);
  if (rows == kSimd4Mr && cols == kSimd4Nr) {
    const F4 vb = splat(beta);
    for (std::size_t r = 0; r < kSimd4Mr; ++r, c += ldc) {
      for (std::size_t h = 0; h < 2; ++h) {
        const F4 ab = va * acc[r][h];
        store(c + 4 * h, beta == 0.f ? ab : ab + vb * load(c + 4 * h));
      }
    }
    return;
  }
  float tile[kSimd4Mr * kSimd4Nr];
  for (std::size_t r = 0; r < kSimd4Mr; ++r)
    for (std::size_t h = 0; h < 2; ++h) store(tile + r * kSimd4Nr + 4 * h, va * acc[r][h]);
  for (std::size_t r = 0; r < rows; ++r, c += ldc)
    for (std::size_t j = 0; j < cols; ++j)
      c[j] = beta == 0.f ? tile[r * kSimd4Nr + j] : tile[r * kSimd4Nr + j] + beta * c[j];
}

// C tile [rows ≤ kSimd4Mr, cols ≤ kSimd4Nr] (row stride ldc) = alpha · op(A)·op(B) + beta · C over one
// sliver of each, read with unit stride along k:
//   op(A): kPackedA: a packed [kc][kSimd4Mr] sliver; otherwise op(A) read in place, a(r, p) at
//          ap[r·a_row + p·a_step] ((lda, 1) for an untransposed A, (1, lda) for a transposed
//          one), which saves packing A when every row of the tile exists.
//   op(B): row p of the sliver (kSimd4Nr values) at bp + p·b_step: kSimd4Nr for a packed sliver, ldb for an
//          untransposed B read in place.
// Eight accumulators (4 rows × 2 vectors of 4) keep the adders busy; clang 14 has no wasm FMA, so
// mul + add here (the relaxed-SIMD kernel fuses them). beta == 0 writes C without reading it.
//
// The FMA kernel (micro_kernel_fma.wat) is a second wasm module on the engine's memory, reached
// through the function table with byte offsets: its packed-A function, or its in-place panel
// function run for one tile into a 32-float buffer, stores the tile's sums for the same epilogue
// (gemm calls the panel function for whole columns of tiles when alpha and beta allow).
template <bool kPackedA>
void simd4_micro_kernel(const wasm_fma::Kernels& fma, std::size_t kc, const float* ap, std::size_t a_row,
                        std::size_t a_step_in, const float* bp, std::size_t b_step, float alpha, float beta, float* c,
                        std::size_t ldc, std::size_t rows, std::size_t cols) {
  if (kPackedA ? fma.packed != nullptr : fma.strided_panel != nullptr) {
    alignas(16) float sums[kSimd4Mr * kSimd4Nr];
    if constexpr (kPackedA)
      fma.packed(kc, ap, sizeof(float), kSimd4Mr * sizeof(float), bp, b_step * sizeof(float), sums);
    else
      fma.strided_panel(kc, ap, a_row * sizeof(float), a_step_in * sizeof(float), bp, b_step * sizeof(float), sums,
                        kSimd4Nr * sizeof(float), 1, 0, 1.f);
    const F4 acc[kSimd4Mr][2] = {{load(sums), load(sums + 4)},
                                 {load(sums + 8), load(sums + 12)},
                                 {load(sums + 16), load(sums + 20)},
                                 {load(sums + 24), load(sums + 28)}};
    store_tile(acc, alpha, beta, c, ldc, rows, cols);
    return;
  }
  F4 c00 = splat(0.f), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  // Offsets of the tile's rows and the step along k: constants for a packed sliver, so its loads
  // keep immediate offsets.
  const std::size_t r1 = kPackedA ? 1 : a_row, r2 = 2 * r1, r3 = 3 * r1;
  const std::size_t a_step = kPackedA ? kSimd4Mr : a_step_in;
  // One rank-1 update of the tile per step: row r of C += a(r, p) · (the 8 values of B's row p).
  // Not unrolled: V8's optimising tier turns a 4× unrolled body (which LLVM schedules with all
  // 16 broadcasts up front) into stack spills and runs it ~1.5× slower; this plain loop compiles
  // to 2 loads, 4 broadcast loads, 8 mul and 8 add with all accumulators in registers.
  for (std::size_t p = 0; p < kc; ++p, ap += a_step, bp += b_step) {
    const F4 b0 = load(bp);
    const F4 b1 = load(bp + 4);
    const F4 a0 = splat(ap[0]);
    c00 = c00 + a0 * b0;
    c01 = c01 + a0 * b1;
    const F4 a1 = splat(ap[r1]);
    c10 = c10 + a1 * b0;
    c11 = c11 + a1 * b1;
    const F4 a2 = splat(ap[r2]);
    c20 = c20 + a2 * b0;
    c21 = c21 + a2 * b1;
    const F4 a3 = splat(ap[r3]);
    c30 = c30 + a3 * b0;
    c31 = c31 + a3 * b1;
  }
  const F4 acc[kSimd4Mr][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  store_tile(acc, alpha, beta, c, ldc, rows, cols);
}

struct Simd4Kernel {
  // Goto/BLIS blocking for a 4×8 tile:
  //   kKc: one B sliver (kKc·kNr·4 B = 8 KB) plus one A sliver (4 KB) sit in a 32 KB L1.
  //   kMc: the packed A block (kMc·kKc·4 B = 128 KB) stays in a 256 KB L2 while every B sliver
  //        of the current column block streams past it.
  //   kNc: bounds the packed B block (kKc·kNc·4 B = 2 MB, L3); our models never reach it.
  //   kKcTransposedA: the K block when A is transposed and read in place. Each step of every
  //        row tile then reads the same row of A (its own 16 bytes of it), so the row block's
  //        A takes a cache line or two per step: 128 steps of A ([K, 32..64] in the weight
  //        gradients: 16-32 KB) and of the B sliver (8 KB of lines) stay in L1 where 256 did
  //        not. Measured in node with relaxed SIMD (attn_bench gemm-transformer): +8-15 % on
  //        32×32×6400, 64×32×6400 and 16×200×200; 256 everywhere else (K = 200 unchanged).
  static constexpr std::size_t kMr = kSimd4Mr, kNr = kSimd4Nr, kKc = 256, kKcTransposedA = 128, kMc = 128, kNc = 2048;
  static constexpr const char* kName = ATTN_SIMD4_NAME " 4x8";
  const wasm_fma::Kernels& fma;

  void packed(std::size_t kc, const float* ap, const float* bp, std::size_t b_step, float alpha, float beta, float* c,
              std::size_t ldc, std::size_t rows, std::size_t cols) const {
    simd4_micro_kernel<true>(fma, kc, ap, 0, 0, bp, b_step, alpha, beta, c, ldc, rows, cols);
  }
  void strided(std::size_t kc, const float* ap, std::size_t a_row, std::size_t a_step, const float* bp,
               std::size_t b_step, float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
               std::size_t cols) const {
    simd4_micro_kernel<false>(fma, kc, ap, a_row, a_step, bp, b_step, alpha, beta, c, ldc, rows, cols);
  }
  // The FMA module's panel function runs `tiles` whole tiles down a column of C from A in place
  // in one call and writes C itself (alpha · sums, plus C when beta is 1), when beta adds C or
  // ignores it (the models' products). Returns the number of tiles done (0: the caller does them).
  std::size_t panel(std::size_t kc, const float* a, std::size_t a_row, std::size_t a_step, const float* bp,
                    std::size_t b_step, float alpha, float beta, float* c, std::size_t ldc, std::size_t tiles) const {
    if (fma.strided_panel == nullptr || (beta != 0.f && beta != 1.f)) return 0;
    fma.strided_panel(kc, a, a_row * sizeof(float), a_step * sizeof(float), bp, b_step * sizeof(float), c,
                      ldc * sizeof(float), tiles, beta == 1.f, alpha);
    return tiles;
  }
};

#if defined(ATTN_GEMM_X86)
// --- the x86-64 kernels (native builds; gemm_x86.cpp) -----------------------------------------

// An x86 kernel: its two tile functions (A packed, A in place) and its blocking.
template <std::size_t Mr, std::size_t Nr, std::size_t Kc, std::size_t Mc, decltype(&x86::tile_avx2_6x16_packed) Packed,
          decltype(&x86::tile_avx2_6x16_strided) Strided>
struct X86Kernel {
  static constexpr std::size_t kMr = Mr, kNr = Nr, kKc = Kc, kKcTransposedA = Kc, kMc = Mc, kNc = 2048;
  void packed(std::size_t kc, const float* ap, const float* bp, std::size_t b_step, float alpha, float beta, float* c,
              std::size_t ldc, std::size_t rows, std::size_t cols) const {
    Packed(kc, ap, bp, b_step, alpha, beta, c, ldc, rows, cols);
  }
  void strided(std::size_t kc, const float* ap, std::size_t a_row, std::size_t a_step, const float* bp,
               std::size_t b_step, float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
               std::size_t cols) const {
    Strided(kc, ap, a_row, a_step, bp, b_step, alpha, beta, c, ldc, rows, cols);
  }
  std::size_t panel(std::size_t, const float*, std::size_t, std::size_t, const float*, std::size_t, float, float,
                    float*, std::size_t, std::size_t) const {
    return 0;
  }
};

// AVX2: B sliver 256·16·4 B = 16 KB + A sliver 6 KB in a 32 KB L1; kMc a multiple of 6, A block
// 120 KB in L2.
using Avx2Kernel = X86Kernel<6, 16, 256, 120, x86::tile_avx2_6x16_packed, x86::tile_avx2_6x16_strided>;
// AVX-512: B sliver 128·32·4 B = 16 KB + A sliver 4 KB in a 32 KB L1; A block 64 KB in L2.
using Avx512Kernel = X86Kernel<8, 32, 128, 128, x86::tile_avx512_8x32_packed, x86::tile_avx512_8x32_strided>;
#endif

// --- packing and the blocked driver (any kernel) ----------------------------------------------

// Rows [i0, i0 + mc) × columns [p0, p0 + kc) of op(A), as ceil(mc / kMr) slivers of [kc][kMr];
// rows past mc are zero so edge tiles run the same kernel.
template <std::size_t kMr>
void pack_a(bool trans_a, const float* a, std::size_t lda, std::size_t i0, std::size_t mc, std::size_t p0,
            std::size_t kc, float* out) {
  for (std::size_t ir = 0; ir < mc; ir += kMr, out += kMr * kc) {
    const std::size_t rows = std::min(kMr, mc - ir);
    if (trans_a) {
      // A stored [K, M]: op(A)(i, p) = a[p·lda + i], the sliver's rows are adjacent in memory.
      for (std::size_t p = 0; p < kc; ++p) {
        const float* src = a + (p0 + p) * lda + i0 + ir;
        float* dst = out + p * kMr;
        for (std::size_t r = 0; r < rows; ++r) dst[r] = src[r];
        for (std::size_t r = rows; r < kMr; ++r) dst[r] = 0.f;
      }
    } else {
      // A stored [M, K]: walk each row contiguously and scatter with stride kMr.
      for (std::size_t r = 0; r < rows; ++r) {
        const float* src = a + (i0 + ir + r) * lda + p0;
        for (std::size_t p = 0; p < kc; ++p) out[p * kMr + r] = src[p];
      }
      for (std::size_t r = rows; r < kMr; ++r)
        for (std::size_t p = 0; p < kc; ++p) out[p * kMr + r] = 0.f;
    }
  }
}

// Rows [p0, p0 + kc) × columns [j0, j0 + nc) of op(B), as ceil(nc / kNr) slivers of [kc][kNr].
template <std::size_t kNr>
void pack_b(bool trans_b, const float* b, std::size_t ldb, std::size_t p0, std::size_t kc, std::size_t j0,
            std::size_t nc, float* out) {
  for (std::size_t jr = 0; jr < nc; jr += kNr, out += kNr * kc) {
    const std::size_t cols = std::min(kNr, nc - jr);
    if (trans_b) {
      // B stored [N, K]: op(B)(p, j) = b[j·ldb + p]; each column of the sliver is a row of b.
      for (std::size_t col = 0; col < cols; ++col) {
        const float* src = b + (j0 + jr + col) * ldb + p0;
        for (std::size_t p = 0; p < kc; ++p) out[p * kNr + col] = src[p];
      }
      for (std::size_t col = cols; col < kNr; ++col)
        for (std::size_t p = 0; p < kc; ++p) out[p * kNr + col] = 0.f;
    } else if (cols == kNr) {
      // A whole sliver: kNr / 4 vector copies per row.
      const float* src = b + p0 * ldb + j0 + jr;
      for (std::size_t p = 0; p < kc; ++p, src += ldb)
        for (std::size_t v = 0; v < kNr; v += 4) store(out + p * kNr + v, load(src + v));
    } else {
      for (std::size_t p = 0; p < kc; ++p) {
        const float* src = b + (p0 + p) * ldb + j0 + jr;
        float* dst = out + p * kNr;
        for (std::size_t col = 0; col < cols; ++col) dst[col] = src[col];
        for (std::size_t col = cols; col < kNr; ++col) dst[col] = 0.f;
      }
    }
  }
}

// Grown to the largest block seen, then reused: no allocation per call at steady state.
thread_local std::vector<float> packed_a;
thread_local std::vector<float> packed_b;

// The `blocked` path: C is cut into kMr × kNr tiles computed by the kernel from slivers of op(A)
// (kMr rows, read along k) and op(B) (kNr columns, one row of them per k), packed or in place as
// the plan says, in Goto/BLIS order: column blocks of kNc, K blocks of kKc (B's block packed
// once), row blocks of kMc (A's block packed once), then slivers.
template <class Kernel>
void gemm_blocked(const Kernel& kernel, const GemmPlan& plan, bool trans_a, bool trans_b, std::size_t m, std::size_t n,
                  std::size_t k, float alpha, const float* a, std::size_t lda, const float* b, std::size_t ldb,
                  float beta, float* c, std::size_t ldc) {
  constexpr std::size_t kMr = Kernel::kMr, kNr = Kernel::kNr, kMc = Kernel::kMc, kNc = Kernel::kNc;
  const std::size_t k_block = trans_a && plan.a_in_place ? Kernel::kKcTransposedA : Kernel::kKc;
  const auto round_up = [](std::size_t x, std::size_t to) { return (x + to - 1) / to * to; };
  const std::size_t a_need = round_up(std::min(m, kMc), kMr) * std::min(k, k_block);
  const std::size_t b_need = round_up(std::min(n, kNc), kNr) * std::min(k, k_block);
  if (packed_a.size() < a_need) packed_a.resize(a_need);
  // One more sliver at the end: the copy of an in-place sliver (copy_b_sliver).
  const std::size_t b_sliver = b_need;
  if (packed_b.size() < b_need + kNr * k_block) packed_b.resize(b_need + kNr * k_block);
  // Plain pointers: stores through c could alias the vectors' internals as far as the compiler
  // knows, which would reload them (and the thread_local guard) in every tile.
  float* const pa = packed_a.data();
  float* const pb = packed_b.data();
  const bool direct_a = plan.a_in_place, direct_b = plan.b_in_place, copy_b_sliver = plan.copy_b_sliver;
  // A in place: op(A)(i, p) at a[i·a_row + p·a_step].
  const std::size_t a_row = trans_a ? 1 : lda, a_step = trans_a ? lda : 1;

  for (std::size_t jc = 0; jc < n; jc += kNc) {
    const std::size_t nc = std::min(kNc, n - jc);
    const std::size_t nc_full = nc / kNr * kNr;
    for (std::size_t pc = 0; pc < k; pc += k_block) {
      const std::size_t kc = std::min(k_block, k - pc);
      // The first K block applies the caller's beta; later ones add onto what it wrote.
      const float beta_block = pc == 0 ? beta : 1.f;
      // B in place: only the ragged last sliver is packed (zero-padded), so edge tiles run the
      // same kernel.
      if (!direct_b) {
        pack_b<kNr>(trans_b, b, ldb, pc, kc, jc, nc, pb);
      } else if (nc_full < nc) {
        pack_b<kNr>(false, b, ldb, pc, kc, jc + nc_full, nc - nc_full, pb);
      }
      for (std::size_t ic = 0; ic < m; ic += kMc) {
        const std::size_t mc = std::min(kMc, m - ic);
        const std::size_t mc_full = mc / kMr * kMr;
        if (!direct_a) {
          pack_a<kMr>(trans_a, a, lda, ic, mc, pc, kc, pa);
        } else if (mc_full < mc) {
          pack_a<kMr>(trans_a, a, lda, ic + mc_full, mc - mc_full, pc, kc, pa);
        }
        for (std::size_t jr = 0; jr < nc; jr += kNr) {
          const bool b_in_place = direct_b && jr < nc_full && !copy_b_sliver;
          const float* bp = b_in_place ? b + pc * ldb + jc + jr : pb + (direct_b ? 0 : jr * kc);
          const std::size_t b_step = b_in_place ? ldb : kNr;
          if (copy_b_sliver && jr < nc_full) {
            pack_b<kNr>(false, b, ldb, pc, kc, jc + jr, kNr, pb + b_sliver);
            bp = pb + b_sliver;
          }
          const std::size_t cols = std::min(kNr, nc - jr);
          std::size_t ir_start = 0;
          if (direct_a && cols == kNr && mc_full > 0)
            ir_start = kMr * kernel.panel(kc, a + ic * a_row + pc * a_step, a_row, a_step, bp, b_step, alpha,
                                          beta_block, c + ic * ldc + jc + jr, ldc, mc_full / kMr);
          for (std::size_t ir = ir_start; ir < mc; ir += kMr) {
            float* const ct = c + (ic + ir) * ldc + jc + jr;
            const std::size_t rows = std::min(kMr, mc - ir);
            if (direct_a && ir < mc_full) {
              kernel.strided(kc, a + (ic + ir) * a_row + pc * a_step, a_row, a_step, bp, b_step, alpha, beta_block, ct,
                             ldc, rows, cols);
            } else {
              kernel.packed(kc, pa + (direct_a ? 0 : ir * kc), bp, b_step, alpha, beta_block, ct, ldc, rows, cols);
            }
          }
        }
      }
    }
  }
}

// --- the kernel in use --------------------------------------------------------------------------

bool kernel_available(GemmKernel kernel) {
  switch (kernel) {
    case GemmKernel::best:
    case GemmKernel::simd4:
      return true;
#if defined(ATTN_GEMM_X86)
    case GemmKernel::avx2_fma:
      return x86::cpu_has_avx2_fma();
    case GemmKernel::avx512:
      return x86::cpu_has_avx512();
#else
    case GemmKernel::avx2_fma:
    case GemmKernel::avx512:
      return false;
#endif
  }
  return false;
}

GemmKernel best_kernel() {
  if (kernel_available(GemmKernel::avx512)) return GemmKernel::avx512;
  if (kernel_available(GemmKernel::avx2_fma)) return GemmKernel::avx2_fma;
  return GemmKernel::simd4;
}

// Asked of the CPU once, at the first GEMM; set_gemm_kernel replaces it.
GemmKernel& active_kernel() {
  static GemmKernel kernel = best_kernel();
  return kernel;
}

}  // namespace

void gemm(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
          std::size_t lda, const float* b, std::size_t ldb, float beta, float* c, std::size_t ldc) {
  const GemmPlan plan = plan_gemm(trans_b, m, n, k, ldb);
  switch (plan.path) {
    case GemmPlan::Path::empty:
      return;
    case GemmPlan::Path::scale_c:
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) c[i * ldc + j] = beta == 0.f ? 0.f : beta * c[i * ldc + j];
      return;
    case GemmPlan::Path::direct:
      gemm_direct(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      return;
    case GemmPlan::Path::row:
      gemm_row(trans_a, n, k, alpha, a, lda, b, ldb, beta, c);
      return;
    case GemmPlan::Path::blocked:
      break;
  }
  switch (active_kernel()) {
#if defined(ATTN_GEMM_X86)
    case GemmKernel::avx512:
      gemm_blocked(Avx512Kernel{}, plan, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      return;
    case GemmKernel::avx2_fma:
      gemm_blocked(Avx2Kernel{}, plan, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      return;
#endif
    default:
      gemm_blocked(Simd4Kernel{wasm_fma::kernels()}, plan, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                   ldc);
      return;
  }
}

const char* gemm_implementation() {
  switch (active_kernel()) {
#if defined(ATTN_GEMM_X86)
    case GemmKernel::avx512:
      return "avx512 8x32";
    case GemmKernel::avx2_fma:
      return "avx2+fma 6x16";
#endif
    default:
      return wasm_fma::kernels().packed != nullptr ? "wasm relaxed-simd fma 4x8" : Simd4Kernel::kName;
  }
}

bool set_gemm_kernel(GemmKernel kernel) {
  if (!kernel_available(kernel)) return false;
  active_kernel() = kernel == GemmKernel::best ? best_kernel() : kernel;
  return true;
}

}  // namespace attn::kernels
