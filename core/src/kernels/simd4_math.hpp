// exp, sigmoid and tanh over four float lanes: lane_math.hpp's templates for simd4::F4. Used by
// the element-wise kernels (vector_math.cpp), softmax_rows.cpp and the fused LSTM cell
// (lstm_cell.cpp). Accuracy: see attn/kernels/vector_math.hpp.
#pragma once

#include <cstdint>

#include "simd4.hpp"

namespace attn::kernels::simd4 {

// The constants and loads lane_math.hpp asks for.
ATTN_SIMD4_INLINE F4 splat_like(F4, float x) { return splat(x); }
ATTN_SIMD4_INLINE I4 isplat_like(I4, std::int32_t x) { return isplat(x); }
ATTN_SIMD4_INLINE F4 load_like(F4, const float* p) { return load(p); }

}  // namespace attn::kernels::simd4

#include "lane_math.hpp"

namespace attn::kernels::simd4 {

ATTN_SIMD4_INLINE F4 exp4(F4 x) { return lanes::exp(x); }
ATTN_SIMD4_INLINE F4 exp4_nonpositive(F4 x) { return lanes::exp_nonpositive(x); }
ATTN_SIMD4_INLINE F4 sigmoid4(F4 x) { return lanes::sigmoid(x); }
ATTN_SIMD4_INLINE F4 tanh4(F4 x) { return lanes::tanh(x); }

}  // namespace attn::kernels::simd4
