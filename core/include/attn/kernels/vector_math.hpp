// Element-wise maths over contiguous float arrays, used by the recurrent gates, activations and
// softmax. In-place calls (y == x) are allowed. The fast versions may use polynomial
// approximations; each stays within 2e-6 relative (or 1e-7 absolute near 0) of the std:: value,
// and tests compare them with the `_reference` loops.
#pragma once

#include <cstddef>

namespace attn::kernels {

// y = 1 / (1 + exp(-x))
void sigmoid(const float* x, float* y, std::size_t n);
// y = tanh(x)
void tanh(const float* x, float* y, std::size_t n);
// y = exp(x)
void exp(const float* x, float* y, std::size_t n);

void sigmoid_reference(const float* x, float* y, std::size_t n);
void tanh_reference(const float* x, float* y, std::size_t n);
void exp_reference(const float* x, float* y, std::size_t n);

}  // namespace attn::kernels
