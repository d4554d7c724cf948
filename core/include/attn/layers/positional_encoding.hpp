// Positional encodings: how a model that sees a sequence as a set learns where tokens are.
//
// Shapes: B batch, T time, D model dim, L max_len (the longest sequence supported).
//
// Sinusoidal (Vaswani et al. 2017, §3.5), fixed:
//   PE[pos, 2i]     = sin(pos / 10000^(2i / D))
//   PE[pos, 2i + 1] = cos(pos / 10000^(2i / D))
// For odd D the last column (index D − 1 = 2i) is a sine with its own frequency and has no cosine
// partner. Values are computed in double and rounded once.
//
// Learned: a trainable table P [L, D] added to the input, y[b, t, :] = x[b, t, :] + P[t, :].
#pragma once

#include <string>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

// -> PE [max_len, dim]. dim >= 1.
Tensor2 sinusoidal_positional_encoding(std::size_t max_len, std::size_t dim);

// x [B, T, D], in place: x[b, t, :] += PE[t, :]. Allocates nothing (each PE[t, d] is computed
// once and added to every batch row). It has no parameters and is an addition, so its backward
// is the identity: pass dy straight through as dx; there is no backward function.
void add_sinusoidal_positional_encoding(Tensor3& x);

class LearnedPositionalEncoding {
 public:
  // max_len L >= 1, dim D >= 1. P [L, D] from U(-0.05, 0.05), row-major (like Embedding).
  LearnedPositionalEncoding(std::size_t max_len, std::size_t dim, Rng& rng);

  // x [B, T, D] -> y [B, T, D], y = x + P[t]. T > L throws ShapeError; y == x is allowed.
  // No cache: the addition's backward needs nothing from the forward pass.
  void forward(const Tensor3& x, Tensor3& y) const;
  // dy [B, T, D] -> dx [B, T, D]: dx = dy, and dP[t, :] += Σ_b dy[b, t, :].
  void backward(const Tensor3& dy, Tensor3& dx);

  // Appends "position" [L, D].
  void parameters(ParameterList& out, const std::string& prefix);

  std::size_t max_len() const { return position_.shape()[0]; }
  std::size_t dim() const { return position_.shape()[1]; }
  const Tensor2& position() const { return position_; }

 private:
  void check(const char* where, const char* name, const Tensor3& x) const;

  Tensor2 position_, dposition_;  // [L, D]
};

}  // namespace attn
