#include "gemm_wasm_fma.hpp"

#include "attn/kernels/gemm.hpp"

#if defined(ATTN_RELAXED_SIMD_KERNEL)
#include <emscripten.h>

#include <cstdint>
#include <string_view>

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
namespace wasm_fma {
namespace {

Kernels install() {
#if defined(ATTN_RELAXED_SIMD_KERNEL)
  const std::string_view code = relaxed_simd_kernel_wasm();
  const int first =
      attn_install_fma_kernel(reinterpret_cast<const unsigned char*>(code.data()), static_cast<int>(code.size()));
  if (first > 0)
    return {reinterpret_cast<TileKernel>(static_cast<std::uintptr_t>(first)),
            reinterpret_cast<PanelKernel>(static_cast<std::uintptr_t>(first + 1))};
#endif
  return {};
}

// set_gemm_fma's A/B switch.
bool allowed = true;

}  // namespace

const Kernels& kernels() {
  static const Kernels installed = install();
  static const Kernels none;
  return allowed ? installed : none;
}

}  // namespace wasm_fma

bool set_gemm_fma(bool allowed) {
  wasm_fma::allowed = allowed;
  return wasm_fma::kernels().packed != nullptr;
}

}  // namespace attn::kernels
