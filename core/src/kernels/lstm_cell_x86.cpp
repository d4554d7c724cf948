#include "lstm_cell_x86.hpp"

#if defined(ATTN_GEMM_X86)
// Everything below is compiled for AVX2 (no FMA: a fused multiply-add would round differently
// from the four-lane path). Only this file's own functions and lane_math.hpp's templates, whose
// instantiations here are internal to this file (F8 lives in an anonymous namespace), get the
// target: no inline function shared with the baseline code is compiled with it.
#pragma GCC push_options
#pragma GCC target("avx2")
#include <immintrin.h>

#include <cstdint>

#include "lane_math.hpp"

namespace attn::kernels::x86 {
namespace {

struct F8 {
  __m256 v;
};
struct I8 {
  __m256i v;
};

inline F8 operator+(F8 a, F8 b) { return {_mm256_add_ps(a.v, b.v)}; }
inline F8 operator-(F8 a, F8 b) { return {_mm256_sub_ps(a.v, b.v)}; }
inline F8 operator*(F8 a, F8 b) { return {_mm256_mul_ps(a.v, b.v)}; }
inline F8 operator/(F8 a, F8 b) { return {_mm256_div_ps(a.v, b.v)}; }
// As the SSE2 F4: min/max return the second operand (x) when either is NaN.
inline F8 min_keep_nan(F8 x, F8 limit) { return {_mm256_min_ps(limit.v, x.v)}; }
inline F8 max_keep_nan(F8 x, F8 limit) { return {_mm256_max_ps(limit.v, x.v)}; }
inline F8 less(F8 a, F8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ)}; }
inline F8 bit_and(F8 a, F8 b) { return {_mm256_and_ps(a.v, b.v)}; }
inline F8 bit_or(F8 a, F8 b) { return {_mm256_or_ps(a.v, b.v)}; }
inline F8 bit_andnot(F8 a, F8 b) { return {_mm256_andnot_ps(b.v, a.v)}; }  // a & ~b
inline F8 select(F8 mask, F8 if_set, F8 if_clear) { return {_mm256_blendv_ps(if_clear.v, if_set.v, mask.v)}; }
inline I8 as_int(F8 x) { return {_mm256_castps_si256(x.v)}; }
inline F8 as_float(I8 x) { return {_mm256_castsi256_ps(x.v)}; }
inline I8 operator+(I8 a, I8 b) { return {_mm256_add_epi32(a.v, b.v)}; }
inline I8 operator-(I8 a, I8 b) { return {_mm256_sub_epi32(a.v, b.v)}; }
inline I8 shift_left(I8 a, int s) { return {_mm256_slli_epi32(a.v, s)}; }
inline I8 shift_right_arith(I8 a, int s) { return {_mm256_srai_epi32(a.v, s)}; }
inline F8 splat_like(F8, float x) { return {_mm256_set1_ps(x)}; }
inline I8 isplat_like(I8, std::int32_t x) { return {_mm256_set1_epi32(x)}; }
inline F8 load_like(F8, const float* p) { return {_mm256_loadu_ps(p)}; }
inline void store(float* p, F8 x) { _mm256_storeu_ps(p, x.v); }

}  // namespace

std::size_t lstm_cell_forward_avx2(float* gates, const float* c_prev, float* c, float* tanh_c, float* h,
                                   std::size_t units) {
  const std::size_t u = units;
  std::size_t j = 0;
  for (; j + 8 <= u; j += 8) {
    float* const g8[4] = {gates + j, gates + u + j, gates + 2 * u + j, gates + 3 * u + j};
    lanes::lstm_cell_forward(F8{}, g8, c_prev + j, c + j, tanh_c + j, h + j);
  }
  return j;
}

}  // namespace attn::kernels::x86

#pragma GCC pop_options
#endif
