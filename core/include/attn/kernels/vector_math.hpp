// Element-wise maths over contiguous float arrays, used by the recurrent gates, activations and
// softmax. In-place calls (y == x) are allowed. The fast versions may use polynomial
// approximations; each stays within 2e-6 relative (or 1e-7 absolute near 0) of the std:: value,
// and tests compare them with the `_reference` loops.
//
// The fast versions share one exp: n = round(x / ln 2), a degree-6 polynomial for exp(r) on
// |r| <= ln2/2 (Cephes expf), times 2^n applied in two halves so it overflows to +inf and
// underflows to 0 where std::exp does. sigmoid uses e = exp(-|x|) (1/(1+e) or e/(1+e), never
// overflowing); tanh uses (1-e)/(1+e) with e = exp(-2|x|) and, for |x| < 0.625 where that
// cancels, Cephes' odd polynomial; its sign is restored last (tanh(-0) = -0). NaN gives NaN.
// Measured over [-100, 100]: worst relative error 1.2e-7 (exp), 2.4e-7 (sigmoid), 2.1e-7 (tanh).
// Four lanes at a time (wasm_simd128, SSE2, or plain scalar code); the last n % 4 elements go
// through the same code in a padded block, so results do not depend on an element's position.
#pragma once

#include <cstddef>

namespace attn::kernels {

// y = 1 / (1 + exp(-x))
void sigmoid(const float* x, float* y, std::size_t n);
// y = tanh(x)
void tanh(const float* x, float* y, std::size_t n);
// y = exp(x)
void exp(const float* x, float* y, std::size_t n);

// Reductions over 8 independent lanes (the compiler vectorises them, and no add waits on the
// previous one), the lanes combined in double at the end: at V = 6,000 (an output layer's row) or
// over a whole gradient (millions of floats) a plain double loop is one long dependency chain.
// The order of the additions differs from a sequential loop (rounding differs in the last bits).
// Σ x[0..n)
double lane_sum(const float* x, std::size_t n);
// Σ x[i]², each square and lane sum in double
double lane_sum_squares(const float* x, std::size_t n);
// max x[0..n) (n >= 1); NaN entries are skipped like std::max_element's comparisons
float lane_max(const float* x, std::size_t n);

void sigmoid_reference(const float* x, float* y, std::size_t n);
void tanh_reference(const float* x, float* y, std::size_t n);
void exp_reference(const float* x, float* y, std::size_t n);

}  // namespace attn::kernels
