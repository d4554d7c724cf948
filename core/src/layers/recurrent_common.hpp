// Shared argument checks of the recurrent layers (LSTM, GRU). Messages are built only on failure.
#pragma once

#include <algorithm>
#include <array>
#include <string>

#include "attn/tensor.hpp"

namespace attn::recurrent_detail {

inline std::string shape2(std::size_t a, std::size_t b) { return shape_string(std::array<std::size_t, 2>{a, b}); }

// A state argument (h0, c0, h_prev, ...) must be [B, U] when given.
inline void require_state(const Tensor2* s, std::size_t batch, std::size_t units, const char* where, const char* name) {
  if (s == nullptr) return;
  if (!(s->shape(0) == batch && s->shape(1) == units))
    throw_shape_error(
        where, std::string(name) + " has shape " + shape_string(s->shape()) + " but must be " + shape2(batch, units));
}

// x must be [B, T, D] with B, T >= 1, and mask (when given) [B, T].
inline void require_sequence(const char* where, const Tensor3& x, const Mask2* mask, std::size_t input_size) {
  if (!(x.shape(2) == input_size && x.shape(0) > 0 && x.shape(1) > 0))
    throw_shape_error(where, "x has shape " + shape_string(x.shape()) + " but must be [B, T, " +
                                 std::to_string(input_size) + "] with B, T >= 1");
  if (mask != nullptr && !(mask->shape(0) == x.shape(0) && mask->shape(1) == x.shape(1)))
    throw_shape_error(where, "mask has shape " + shape_string(mask->shape()) + " but x has shape " +
                                 shape_string(x.shape()) + "; mask must be " + shape2(x.shape(0), x.shape(1)));
}

// dst = *src, or zeros of `shape` when src is null (no initial state given).
inline void copy_or_zeros(Tensor2& dst, const Tensor2* src, const std::array<std::size_t, 2>& shape) {
  ensure_shape(dst, shape);
  if (src != nullptr) {
    copy_into(dst, *src);
  } else {
    std::fill(dst.begin(), dst.end(), 0.f);
  }
}

// Each of `rows` rows at `p` (rows `ld` floats apart) set to `bias` [n].
inline void fill_rows(float* p, std::size_t rows, std::size_t ld, const Tensor1& bias) {
  for (std::size_t r = 0; r < rows; ++r) std::copy(bias.data(), bias.data() + bias.size(), p + r * ld);
}

// bias [n] += column sums of the `rows` rows at `p` (rows `ld` floats apart): a bias gradient.
// Row by row, in increasing row order per column; raw pointers so the inner loop vectorises.
inline void add_column_sums(Tensor1& bias, const float* p, std::size_t rows, std::size_t ld) {
  float* out = bias.data();
  const std::size_t n = bias.size();
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = p + r * ld;
    for (std::size_t j = 0; j < n; ++j) out[j] += row[j];
  }
}

// dst [T, B, D] = src [B, T, D] with its first two axes swapped (time-major).
inline void time_major_copy(Tensor3& dst, const Tensor3& src) {
  const std::size_t batch = src.shape(0), steps = src.shape(1), d = src.shape(2);
  ensure_shape(dst, std::array<std::size_t, 3>{steps, batch, d});
  for (std::size_t r = 0; r < batch; ++r) {
    for (std::size_t t = 0; t < steps; ++t) {
      std::copy_n(src.data() + (r * steps + t) * d, d, dst.data() + (t * batch + r) * d);
    }
  }
}

// dst [B, T, D] = src [T, B, D] with its first two axes swapped (back to batch-major).
inline void batch_major_copy(Tensor3& dst, const Tensor3& src) {
  const std::size_t steps = src.shape(0), batch = src.shape(1), d = src.shape(2);
  ensure_shape(dst, std::array<std::size_t, 3>{batch, steps, d});
  for (std::size_t t = 0; t < steps; ++t) {
    for (std::size_t r = 0; r < batch; ++r) {
      std::copy_n(src.data() + (t * batch + r) * d, d, dst.data() + (r * steps + t) * d);
    }
  }
}

// The state each step of a recurrence read, for the weight gradient's single product over all
// steps: `h` holds `steps` blocks of `block` floats (the state after step t, in t order), h0 one
// block (the initial state). out[t] = h[t - 1] (out[0] = h0), or when `reverse` (steps ran
// t = T-1 … 0) out[t] = h[t + 1] (out[T-1] = h0).
inline void previous_states(const float* h, const float* h0, std::size_t steps, std::size_t block, bool reverse,
                            float* out) {
  if (reverse) {
    std::copy_n(h + block, (steps - 1) * block, out);
    std::copy_n(h0, block, out + (steps - 1) * block);
  } else {
    std::copy_n(h0, block, out);
    std::copy_n(h, (steps - 1) * block, out + block);
  }
}

// dst [C, R] = srcᵀ for src [R, C].
inline void transpose_into(Tensor2& dst, const Tensor2& src) {
  const std::size_t rows = src.shape(0), cols = src.shape(1);
  ensure_shape(dst, std::array<std::size_t, 2>{cols, rows});
  const float* in = src.data();
  float* out = dst.data();
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  }
}

}  // namespace attn::recurrent_detail
