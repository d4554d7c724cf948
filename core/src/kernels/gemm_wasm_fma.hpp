// Private to core/src/kernels: the relaxed-SIMD FMA micro-kernels of the SIMD wasm build
// (micro_kernel_fma.wat), a second wasm module instantiated on the engine's memory and reached
// through the function table. Everything wasm-specific about them (the EM_JS installer, the table
// indices, the A/B switch set_gemm_fma) lives in gemm_wasm_fma.cpp; gemm.cpp only sees two
// function pointers that are null where there are no such kernels (native builds, the scalar
// wasm build, engines without relaxed SIMD, or after set_gemm_fma(false)).
#pragma once

#include <cstddef>

namespace attn::kernels::wasm_fma {

// The signatures micro_kernel_fma.wat declares; offsets and strides are in bytes.
// packed: a 4×8 tile of sums into `tile` (32 floats) from a packed [kc][4] A sliver.
using TileKernel = void (*)(std::size_t kc, const float* ap, std::size_t a_row, std::size_t a_step, const float* bp,
                            std::size_t b_step, float* tile);
// strided_panel: `tiles` 4×8 tiles down a column of C from A read in place (a(r, p) at
// ap + r·a_row + p·a_step), C = alpha · sums (+ C when accumulate != 0).
using PanelKernel = void (*)(std::size_t kc, const float* ap, std::size_t a_row, std::size_t a_step, const float* bp,
                             std::size_t b_step, float* c, std::size_t ldc_bytes, std::size_t tiles, int accumulate,
                             float alpha);

struct Kernels {
  TileKernel packed = nullptr;
  PanelKernel strided_panel = nullptr;
};

// The kernels gemm may use now: installed at the first call, null where there are none or
// set_gemm_fma(false) turned them off.
const Kernels& kernels();

}  // namespace attn::kernels::wasm_fma
