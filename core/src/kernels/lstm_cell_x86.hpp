// Private to core/src/kernels: the LSTM cell forward eight units at a time with AVX2, for native
// x86-64 builds (lstm_cell.cpp calls it only after x86::cpu_has_avx2_fma() said yes). The same
// lane_math.hpp maths as the four-lane path, without fused multiply-adds, so every unit's result
// is bit for bit the one the four-lane path gives.
#pragma once

#include <cstddef>

#include "gemm_x86.hpp"

#if defined(ATTN_GEMM_X86)
namespace attn::kernels::x86 {

// lstm_cell_forward (attn/kernels/lstm_cell.hpp) for units [0, 8·⌊U/8⌋); returns how many units
// it did, the rest are the caller's.
std::size_t lstm_cell_forward_avx2(float* gates, const float* c_prev, float* c, float* tanh_c, float* h,
                                   std::size_t units);

}  // namespace attn::kernels::x86
#endif
