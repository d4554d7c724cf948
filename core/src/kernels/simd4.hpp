// Private to core/src/kernels: four float lanes with one spelling for three back ends, so the GEMM
// micro-kernel and the exp/tanh/sigmoid polynomials are written once and every build runs the
// same arithmetic in the same order (scalar wasm and SIMD wasm give bit-identical results).
//
//   __wasm_simd128__  wasm_simd128.h (checked first: the SIMD wasm build also defines __SSE2__,
//                     but Emscripten's SSE emulation adds nothing over the native intrinsics)
//   __SSE2__          SSE2 intrinsics (baseline x86-64)
//   otherwise         a struct of four floats with plain loops (the scalar wasm build)
//
// F4 holds floats, I4 holds int32 bit patterns; both are thin wrappers so overloads can tell
// them apart (wasm and SSE use one untyped register type for both).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define ATTN_SIMD4_NAME "wasm_simd128"
#elif defined(__SSE2__)
#include <emmintrin.h>
#define ATTN_SIMD4_NAME "sse2"
#else
#define ATTN_SIMD4_NAME "scalar"
#endif

// For the polynomial kernels, which GCC otherwise keeps out of line in each caller's loop.
#define ATTN_SIMD4_INLINE inline __attribute__((always_inline))

namespace attn::kernels::simd4 {

#if defined(__wasm_simd128__)

struct F4 {
  v128_t v;
};
struct I4 {
  v128_t v;
};

inline F4 load(const float* p) { return {wasm_v128_load(p)}; }
inline void store(float* p, F4 x) { wasm_v128_store(p, x.v); }
inline F4 splat(float x) { return {wasm_f32x4_splat(x)}; }
inline F4 operator+(F4 a, F4 b) { return {wasm_f32x4_add(a.v, b.v)}; }
inline F4 operator-(F4 a, F4 b) { return {wasm_f32x4_sub(a.v, b.v)}; }
inline F4 operator*(F4 a, F4 b) { return {wasm_f32x4_mul(a.v, b.v)}; }
inline F4 operator/(F4 a, F4 b) { return {wasm_f32x4_div(a.v, b.v)}; }
// min/max that return `x` when x is NaN (pmin/pmax are the "b < a ? b : a" forms).
inline F4 min_keep_nan(F4 x, F4 limit) { return {wasm_f32x4_pmin(x.v, limit.v)}; }
inline F4 max_keep_nan(F4 x, F4 limit) { return {wasm_f32x4_pmax(x.v, limit.v)}; }
// Comparisons give all-ones / all-zeros lanes, used as masks by the bit operations.
inline F4 less(F4 a, F4 b) { return {wasm_f32x4_lt(a.v, b.v)}; }
inline F4 bit_and(F4 a, F4 b) { return {wasm_v128_and(a.v, b.v)}; }
inline F4 bit_or(F4 a, F4 b) { return {wasm_v128_or(a.v, b.v)}; }
inline F4 bit_andnot(F4 a, F4 b) { return {wasm_v128_andnot(a.v, b.v)}; }  // a & ~b
inline F4 select(F4 mask, F4 if_set, F4 if_clear) { return {wasm_v128_bitselect(if_set.v, if_clear.v, mask.v)}; }
inline I4 as_int(F4 x) { return {x.v}; }
inline F4 as_float(I4 x) { return {x.v}; }
inline I4 operator+(I4 a, I4 b) { return {wasm_i32x4_add(a.v, b.v)}; }
inline I4 operator-(I4 a, I4 b) { return {wasm_i32x4_sub(a.v, b.v)}; }
inline I4 isplat(std::int32_t x) { return {wasm_i32x4_splat(x)}; }
inline I4 shift_left(I4 a, int s) { return {wasm_i32x4_shl(a.v, s)}; }
inline I4 shift_right_arith(I4 a, int s) { return {wasm_i32x4_shr(a.v, s)}; }

#elif defined(__SSE2__)

struct F4 {
  __m128 v;
};
struct I4 {
  __m128i v;
};

inline F4 load(const float* p) { return {_mm_loadu_ps(p)}; }
inline void store(float* p, F4 x) { _mm_storeu_ps(p, x.v); }
inline F4 splat(float x) { return {_mm_set1_ps(x)}; }
inline F4 operator+(F4 a, F4 b) { return {_mm_add_ps(a.v, b.v)}; }
inline F4 operator-(F4 a, F4 b) { return {_mm_sub_ps(a.v, b.v)}; }
inline F4 operator*(F4 a, F4 b) { return {_mm_mul_ps(a.v, b.v)}; }
inline F4 operator/(F4 a, F4 b) { return {_mm_div_ps(a.v, b.v)}; }
// _mm_min_ps(a, b) is "a < b ? a : b", so putting the limit first hands back a NaN `x`.
inline F4 min_keep_nan(F4 x, F4 limit) { return {_mm_min_ps(limit.v, x.v)}; }
inline F4 max_keep_nan(F4 x, F4 limit) { return {_mm_max_ps(limit.v, x.v)}; }
inline F4 less(F4 a, F4 b) { return {_mm_cmplt_ps(a.v, b.v)}; }
inline F4 bit_and(F4 a, F4 b) { return {_mm_and_ps(a.v, b.v)}; }
inline F4 bit_or(F4 a, F4 b) { return {_mm_or_ps(a.v, b.v)}; }
inline F4 bit_andnot(F4 a, F4 b) { return {_mm_andnot_ps(b.v, a.v)}; }  // a & ~b
inline F4 select(F4 mask, F4 if_set, F4 if_clear) {
  return {_mm_or_ps(_mm_and_ps(mask.v, if_set.v), _mm_andnot_ps(mask.v, if_clear.v))};
}
inline I4 as_int(F4 x) { return {_mm_castps_si128(x.v)}; }
inline F4 as_float(I4 x) { return {_mm_castsi128_ps(x.v)}; }
inline I4 operator+(I4 a, I4 b) { return {_mm_add_epi32(a.v, b.v)}; }
inline I4 operator-(I4 a, I4 b) { return {_mm_sub_epi32(a.v, b.v)}; }
inline I4 isplat(std::int32_t x) { return {_mm_set1_epi32(x)}; }
inline I4 shift_left(I4 a, int s) { return {_mm_slli_epi32(a.v, s)}; }
inline I4 shift_right_arith(I4 a, int s) { return {_mm_srai_epi32(a.v, s)}; }

#else

struct F4 {
  float v[4];
};
struct I4 {
  std::int32_t v[4];
};

#define ATTN_SIMD4_LANEWISE(T, expr)           \
  T r;                                         \
  for (int i = 0; i < 4; ++i) r.v[i] = (expr); \
  return r

inline F4 load(const float* p) { ATTN_SIMD4_LANEWISE(F4, p[i]); }
inline void store(float* p, F4 x) {
  for (int i = 0; i < 4; ++i) p[i] = x.v[i];
}
inline F4 splat(float x) { ATTN_SIMD4_LANEWISE(F4, x); }
inline F4 operator+(F4 a, F4 b) { ATTN_SIMD4_LANEWISE(F4, a.v[i] + b.v[i]); }
inline F4 operator-(F4 a, F4 b) { ATTN_SIMD4_LANEWISE(F4, a.v[i] - b.v[i]); }
inline F4 operator*(F4 a, F4 b) { ATTN_SIMD4_LANEWISE(F4, a.v[i] * b.v[i]); }
inline F4 operator/(F4 a, F4 b) { ATTN_SIMD4_LANEWISE(F4, a.v[i] / b.v[i]); }
inline F4 min_keep_nan(F4 x, F4 limit) { ATTN_SIMD4_LANEWISE(F4, limit.v[i] < x.v[i] ? limit.v[i] : x.v[i]); }
inline F4 max_keep_nan(F4 x, F4 limit) { ATTN_SIMD4_LANEWISE(F4, x.v[i] < limit.v[i] ? limit.v[i] : x.v[i]); }
inline I4 as_int(F4 x) {
  I4 r;
  std::memcpy(r.v, x.v, sizeof r.v);
  return r;
}
inline F4 as_float(I4 x) {
  F4 r;
  std::memcpy(r.v, x.v, sizeof r.v);
  return r;
}
inline F4 less(F4 a, F4 b) {
  I4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] < b.v[i] ? -1 : 0;
  return as_float(r);
}
// Bit operations go through the integer view: the scalar build has no float bitwise ops.
inline F4 bit_and(F4 a, F4 b) {
  I4 x = as_int(a), y = as_int(b);
  for (int i = 0; i < 4; ++i) x.v[i] &= y.v[i];
  return as_float(x);
}
inline F4 bit_or(F4 a, F4 b) {
  I4 x = as_int(a), y = as_int(b);
  for (int i = 0; i < 4; ++i) x.v[i] |= y.v[i];
  return as_float(x);
}
inline F4 bit_andnot(F4 a, F4 b) {  // a & ~b
  I4 x = as_int(a), y = as_int(b);
  for (int i = 0; i < 4; ++i) x.v[i] &= ~y.v[i];
  return as_float(x);
}
inline F4 select(F4 mask, F4 if_set, F4 if_clear) { return bit_or(bit_and(mask, if_set), bit_andnot(if_clear, mask)); }
// Wrapping int32 arithmetic done in uint32 (signed overflow would be undefined).
inline I4 operator+(I4 a, I4 b) {
  ATTN_SIMD4_LANEWISE(
      I4, static_cast<std::int32_t>(static_cast<std::uint32_t>(a.v[i]) + static_cast<std::uint32_t>(b.v[i])));
}
inline I4 operator-(I4 a, I4 b) {
  ATTN_SIMD4_LANEWISE(
      I4, static_cast<std::int32_t>(static_cast<std::uint32_t>(a.v[i]) - static_cast<std::uint32_t>(b.v[i])));
}
inline I4 isplat(std::int32_t x) { ATTN_SIMD4_LANEWISE(I4, x); }
inline I4 shift_left(I4 a, int s) {
  ATTN_SIMD4_LANEWISE(I4, static_cast<std::int32_t>(static_cast<std::uint32_t>(a.v[i]) << s));
}
inline I4 shift_right_arith(I4 a, int s) {
  // >> of a negative int is implementation-defined before C++20; GCC and Clang shift arithmetically.
  ATTN_SIMD4_LANEWISE(I4, a.v[i] >> s);
}

#undef ATTN_SIMD4_LANEWISE

#endif

}  // namespace attn::kernels::simd4
