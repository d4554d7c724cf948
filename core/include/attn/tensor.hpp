// The one header that includes xtensor. Everything else in attn includes this, so a move of
// xtensor's headers (or a switch of container type) touches only this file.
//
// Conventions used throughout the library:
//   * float32 everywhere; tensors are row-major, fixed rank (xt::xtensor<float, N>).
//   * Masks are uint8 tensors of the same shape as what they mask: 1 = visible, 0 = masked.
//   * Functions check the shapes of their arguments and throw attn::ShapeError (an
//     std::invalid_argument) whose message names the function, the argument and both shapes.
//   * Nothing returns a lazy xtensor expression: results are evaluated containers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <xtensor/xadapt.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

namespace attn {

using Tensor1 = xt::xtensor<float, 1>;
using Tensor2 = xt::xtensor<float, 2>;
using Tensor3 = xt::xtensor<float, 3>;
using Tensor4 = xt::xtensor<float, 4>;
using Mask1 = xt::xtensor<std::uint8_t, 1>;
using Mask2 = xt::xtensor<std::uint8_t, 2>;
using Mask3 = xt::xtensor<std::uint8_t, 3>;

// A shape mismatch or an invalid size. Its message is meant for the person who passed the
// arguments (e.g. "dot_scores: keys has shape [4, 2] but query has shape [3]; keys must be [T, 3]").
class ShapeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// "[4, 3]" for any xtensor shape (or any container of sizes).
template <class S>
std::string shape_string(const S& shape) {
  std::string out = "[";
  bool first = true;
  for (auto extent : shape) {
    if (!first) out += ", ";
    out += std::to_string(extent);
    first = false;
  }
  return out + "]";
}

// Throws ShapeError("<where>: <what>").
[[noreturn]] inline void throw_shape_error(const std::string& where, const std::string& what) {
  throw ShapeError(where + ": " + what);
}

// Throws ShapeError("<where>: <what>") when `condition` is false. A macro so that `what` (usually
// a string built from shapes) is evaluated only on failure: checks on the per-step path of a
// training loop must not allocate (layers/README.md rule 4).
#define ATTN_REQUIRE(condition, where, what)                      \
  do {                                                            \
    if (!(condition)) ::attn::throw_shape_error((where), (what)); \
  } while (false)

// Resizes `t` only when its shape differs, so a loop at fixed shapes reuses its buffers.
template <class T, class S>
void ensure_shape(T& t, const S& shape) {
  if (!std::equal(t.shape().begin(), t.shape().end(), std::begin(shape), std::end(shape))) t.resize(shape);
}

// dst = src, reusing dst's buffer when the shapes already agree.
template <class T>
void copy_into(T& dst, const T& src) {
  ensure_shape(dst, src.shape());
  std::copy(src.data(), src.data() + src.size(), dst.data());
}

// out = *mask, or all ones [rows, cols] when mask is null ("every position is real").
inline void copy_mask_or_ones(const Mask2* mask, std::size_t rows, std::size_t cols, Mask2& out) {
  ensure_shape(out, std::array<std::size_t, 2>{rows, cols});
  if (mask != nullptr) {
    std::copy(mask->data(), mask->data() + mask->size(), out.data());
  } else {
    std::fill(out.begin(), out.end(), std::uint8_t{1});
  }
}

// dst += src element-wise, same shape, in place. Unlike xtensor's `+=`, which may evaluate into a
// temporary and swap buffers (moving the data pointer that parameter lists and caches hold),
// this never reallocates.
template <class T, std::size_t N>
void add_to(xt::xtensor<T, N>& dst, const xt::xtensor<T, N>& src) {
  ATTN_REQUIRE(dst.shape() == src.shape(), "add_to",
               "dst has shape " + shape_string(dst.shape()) + " but src has shape " + shape_string(src.shape()));
  T* d = dst.data();
  const T* s = src.data();
  for (std::size_t i = 0, n = dst.size(); i < n; ++i) d[i] += s[i];
}

}  // namespace attn
