#include "attn/kernels/gemm.hpp"

#include <algorithm>
#include <vector>

#include "simd4.hpp"

#if defined(ATTN_RELAXED_SIMD_KERNEL)
#include <emscripten.h>

#include <cstdint>

// Compiles the FMA kernel module (a few hundred bytes, so synchronously, even on a page's main
// thread), instantiates it on this module's memory and appends its two functions to the table.
// Returns the first table index, or 0 where the engine refuses it (no relaxed SIMD) or the table
// cannot grow.
// clang-format off
EM_JS(int, attn_install_fma_kernel, (const unsigned char* bytes, int size), {
  try {
    const code = HEAPU8.slice(bytes, bytes + size);
    if (!WebAssembly.validate(code)) return 0;
    const kernel = new WebAssembly.Instance(new WebAssembly.Module(code), {env: {memory: wasmMemory}});
    const first = wasmTable.length;
    wasmTable.grow(2);
    wasmTable.set(first, kernel.exports.packed);
    wasmTable.set(first + 1, kernel.exports.strided_panel);
    return first;
  } catch (error) {
    return 0;
  }
});
// clang-format on
#endif

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

// Goto/BLIS blocking. C is cut into kMr × kNr tiles computed by the micro-kernel from packed
// panels: a kMr-row sliver of op(A) stored column by column ([kc][kMr]) and a kNr-column sliver
// of op(B) stored row by row ([kc][kNr]), so its inner loop reads both with unit stride whatever
// the transposes and leading dimensions were.
//   kKc: one B sliver (kKc·kNr·4 B = 8 KB) plus one A sliver (4 KB) sit in a 32 KB L1.
//   kMc: the packed A block (kMc·kKc·4 B = 128 KB) stays in a 256 KB L2 while every B sliver
//        of the current column block streams past it.
//   kNc: bounds the packed B block (kKc·kNc·4 B = 2 MB, L3); our models never reach it.
namespace {

using namespace simd4;

constexpr std::size_t kMr = 4;
constexpr std::size_t kNr = 8;
constexpr std::size_t kKc = 256;
constexpr std::size_t kMc = 128;
constexpr std::size_t kNc = 2048;

// Rows [i0, i0 + mc) × columns [p0, p0 + kc) of op(A), as ceil(mc / kMr) slivers of [kc][kMr];
// rows past mc are zero so edge tiles run the same kernel.
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
      // A whole sliver: two vector copies per row.
      const float* src = b + p0 * ldb + j0 + jr;
      for (std::size_t p = 0; p < kc; ++p, src += ldb) {
        store(out + p * kNr, load(src));
        store(out + p * kNr + 4, load(src + 4));
      }
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

// C tile [rows, cols] (row stride ldc) = alpha · acc + beta · C; beta == 0 does not read C.
void store_tile(const F4 (&acc)[kMr][2], float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
                std::size_t cols) {
  const F4 va = splat(alpha);
  if (rows == kMr && cols == kNr) {
    const F4 vb = splat(beta);
    for (std::size_t r = 0; r < kMr; ++r, c += ldc) {
      for (std::size_t h = 0; h < 2; ++h) {
        const F4 ab = va * acc[r][h];
        store(c + 4 * h, beta == 0.f ? ab : ab + vb * load(c + 4 * h));
      }
    }
    return;
  }
  float tile[kMr * kNr];
  for (std::size_t r = 0; r < kMr; ++r)
    for (std::size_t h = 0; h < 2; ++h) store(tile + r * kNr + 4 * h, va * acc[r][h]);
  for (std::size_t r = 0; r < rows; ++r, c += ldc)
    for (std::size_t j = 0; j < cols; ++j) c[j] = beta == 0.f ? tile[r * kNr + j] : tile[r * kNr + j] + beta * c[j];
}

// The relaxed-SIMD FMA kernels, as function pointers (in wasm, indices into the table); null
// where there are none. Their signatures are the ones micro_kernel_fma.wat declares.
using WasmTileKernel = void (*)(std::size_t kc, const float* ap, std::size_t a_row, std::size_t a_step, const float* bp,
                                std::size_t b_step, float* tile);
using WasmPanelKernel = void (*)(std::size_t kc, const float* ap, std::size_t a_row, std::size_t a_step,
                                 const float* bp, std::size_t b_step, float* c, std::size_t ldc_bytes,
                                 std::size_t tiles, int accumulate);
struct FmaKernels {
  WasmTileKernel packed = nullptr;
  WasmPanelKernel strided_panel = nullptr;
};

FmaKernels install_fma_kernels() {
#if defined(ATTN_RELAXED_SIMD_KERNEL)
  const std::string_view code = relaxed_simd_kernel_wasm();
  const int first =
      attn_install_fma_kernel(reinterpret_cast<const unsigned char*>(code.data()), static_cast<int>(code.size()));
  if (first > 0)
    return {reinterpret_cast<WasmTileKernel>(static_cast<std::uintptr_t>(first)),
            reinterpret_cast<WasmPanelKernel>(static_cast<std::uintptr_t>(first + 1))};
#endif
  return {};
}

// Installed at the first GEMM; `fma_allowed` is set_gemm_fma's A/B switch.
bool fma_allowed = true;
const FmaKernels& fma_kernels() {
  static const FmaKernels installed = install_fma_kernels();
  static const FmaKernels none;
  return fma_allowed ? installed : none;
}

// C tile [rows ≤ kMr, cols ≤ kNr] (row stride ldc) = alpha · op(A)·op(B) + beta · C over one
// sliver of each, read with unit stride along k:
//   op(A): kPackedA: a packed [kc][kMr] sliver; otherwise op(A) read in place from an
//          untransposed A (row r of the tile at ap + r·lda, step 1 along k), which saves packing
//          A when every row of the tile exists.
//   op(B): row p of the sliver (kNr values) at bp + p·b_step: kNr for a packed sliver, ldb for an
//          untransposed B read in place.
// Eight accumulators (4 rows × 2 vectors of 4) keep the adders busy; clang 14 has no wasm FMA, so
// mul + add here (the relaxed-SIMD kernel fuses them). beta == 0 writes C without reading it.
//
// The FMA kernel (micro_kernel_fma.wat) is a second wasm module on the engine's memory, reached
// through the function table with byte offsets: its packed-A function, or its in-place panel
// function run for one tile into a 32-float buffer, stores the tile's sums for the same epilogue
// (gemm calls the panel function for whole columns of tiles when alpha and beta allow).
template <bool kPackedA>
void micro_kernel(const FmaKernels& fma, std::size_t kc, const float* ap, std::size_t lda, const float* bp,
                  std::size_t b_step, float alpha, float beta, float* c, std::size_t ldc, std::size_t rows,
                  std::size_t cols) {
  if (kPackedA ? fma.packed != nullptr : fma.strided_panel != nullptr) {
    alignas(16) float sums[kMr * kNr];
    if constexpr (kPackedA)
      fma.packed(kc, ap, sizeof(float), kMr * sizeof(float), bp, b_step * sizeof(float), sums);
    else
      fma.strided_panel(kc, ap, lda * sizeof(float), sizeof(float), bp, b_step * sizeof(float), sums,
                        kNr * sizeof(float), 1, 0);
    const F4 acc[kMr][2] = {{load(sums), load(sums + 4)},
                            {load(sums + 8), load(sums + 12)},
                            {load(sums + 16), load(sums + 20)},
                            {load(sums + 24), load(sums + 28)}};
    store_tile(acc, alpha, beta, c, ldc, rows, cols);
    return;
  }
  F4 c00 = splat(0.f), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  // Offsets of the tile's rows and the step along k: constants for a packed sliver, so its loads
  // keep immediate offsets.
  const std::size_t r1 = kPackedA ? 1 : lda, r2 = 2 * r1, r3 = 3 * r1;
  const std::size_t a_step = kPackedA ? kMr : 1;
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
  const F4 acc[kMr][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  store_tile(acc, alpha, beta, c, ldc, rows, cols);
}

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

// Grown to the largest block seen, then reused: no allocation per call at steady state.
thread_local std::vector<float> packed_a;
thread_local std::vector<float> packed_b;

}  // namespace

void gemm(bool trans_a, bool trans_b, std::size_t m, std::size_t n, std::size_t k, float alpha, const float* a,
          std::size_t lda, const float* b, std::size_t ldb, float beta, float* c, std::size_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    // op(A)·op(B) is the zero matrix: only the beta term remains.
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) c[i * ldc + j] = beta == 0.f ? 0.f : beta * c[i * ldc + j];
    return;
  }
  if (m * n * k <= kDirectMaxWork) {
    gemm_direct(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  const auto round_up = [](std::size_t x, std::size_t to) { return (x + to - 1) / to * to; };
  const std::size_t a_need = round_up(std::min(m, kMc), kMr) * std::min(k, kKc);
  const std::size_t b_need = round_up(std::min(n, kNc), kNr) * std::min(k, kKc);
  if (packed_a.size() < a_need) packed_a.resize(a_need);
  // One more sliver at the end: the copy of an in-place sliver (kCopyBSliverMinStride).
  const std::size_t b_sliver = b_need;
  if (packed_b.size() < b_need + kNr * kKc) packed_b.resize(b_need + kNr * kKc);
  // Plain pointers: stores through c could alias the vectors' internals as far as the compiler
  // knows, which would reload them (and the thread_local guard) in every tile.
  float* const pa = packed_a.data();
  float* const pb = packed_b.data();

  // Untransposed operands are read in place wherever a whole sliver exists: packing them would
  // only copy rows that are already contiguous along the kernel's unit-stride direction, and at
  // our models' sizes (M = 32..64) that copy costs a fifth of the multiply. Only the ragged last
  // sliver (fewer than kMr rows / kNr columns) is packed, zero-padded, so edge tiles run the same
  // kernel. Transposed operands are always packed, and so is B when at least kPackBMinRows rows
  // of C reuse each of its slivers: then the copy is cheap next to the reads it makes contiguous.
  const bool direct_a = !trans_a, direct_b = !trans_b && m < kPackBMinRows;
  const bool copy_b_sliver = direct_b && ldb >= kCopyBSliverMinStride;
  const FmaKernels& fma = fma_kernels();
  for (std::size_t jc = 0; jc < n; jc += kNc) {
    const std::size_t nc = std::min(kNc, n - jc);
    const std::size_t nc_full = nc / kNr * kNr;
    for (std::size_t pc = 0; pc < k; pc += kKc) {
      const std::size_t kc = std::min(kKc, k - pc);
      // The first K block applies the caller's beta; later ones add onto what it wrote.
      const float beta_block = pc == 0 ? beta : 1.f;
      if (!direct_b) {
        pack_b(trans_b, b, ldb, pc, kc, jc, nc, pb);
      } else if (nc_full < nc) {
        pack_b(false, b, ldb, pc, kc, jc + nc_full, nc - nc_full, pb);
      }
      for (std::size_t ic = 0; ic < m; ic += kMc) {
        const std::size_t mc = std::min(kMc, m - ic);
        const std::size_t mc_full = mc / kMr * kMr;
        if (!direct_a) {
          pack_a(trans_a, a, lda, ic, mc, pc, kc, pa);
        } else if (mc_full < mc) {
          pack_a(false, a, lda, ic + mc_full, mc - mc_full, pc, kc, pa);
        }
        for (std::size_t jr = 0; jr < nc; jr += kNr) {
          const bool b_in_place = direct_b && jr < nc_full && !copy_b_sliver;
          const float* bp = b_in_place ? b + pc * ldb + jc + jr : pb + (direct_b ? 0 : jr * kc);
          const std::size_t b_step = b_in_place ? ldb : kNr;
          if (copy_b_sliver && jr < nc_full) {
            pack_b(false, b, ldb, pc, kc, jc + jr, kNr, pb + b_sliver);
            bp = pb + b_sliver;
          }
          const std::size_t cols = std::min(kNr, nc - jr);
          // The FMA module's panel function runs the whole rows of A's tiles under this sliver in
          // one call and writes C itself, when there is no alpha to apply and beta adds C or
          // ignores it (the models' products); the rest go tile by tile.
          std::size_t ir_start = 0;
          if (fma.strided_panel != nullptr && direct_a && cols == kNr && mc_full > 0 && alpha == 1.f &&
              (beta_block == 0.f || beta_block == 1.f)) {
            fma.strided_panel(kc, a + ic * lda + pc, lda * sizeof(float), sizeof(float), bp, b_step * sizeof(float),
                              c + ic * ldc + jc + jr, ldc * sizeof(float), mc_full / kMr, beta_block == 1.f);
            ir_start = mc_full;
          }
          for (std::size_t ir = ir_start; ir < mc; ir += kMr) {
            float* const ct = c + (ic + ir) * ldc + jc + jr;
            const std::size_t rows = std::min(kMr, mc - ir);
            if (direct_a && ir < mc_full) {
              micro_kernel<false>(fma, kc, a + (ic + ir) * lda + pc, lda, bp, b_step, alpha, beta_block, ct, ldc, rows,
                                  cols);
            } else {
              micro_kernel<true>(fma, kc, pa + (direct_a ? 0 : ir * kc), lda, bp, b_step, alpha, beta_block, ct, ldc,
                                 rows, cols);
            }
          }
        }
      }
    }
  }
}

const char* gemm_implementation() {
  return fma_kernels().packed != nullptr ? "wasm relaxed-simd fma 4x8" : ATTN_SIMD4_NAME " 4x8";
}

bool set_gemm_fma(bool allowed) {
  fma_allowed = allowed;
  return fma_kernels().packed != nullptr;
}

}  // namespace attn::kernels
