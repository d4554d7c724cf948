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
//
// Positions count from each sequence's first real token, not from the start of the padded array:
// with starts s [B] (s_b = index of row b's first real token, see sequence_starts), row b gets
// PE[t − s_b] at t >= s_b and nothing before s_b (its leading padding). A review then reads the
// same positions alone, 'pre'-padded (real tokens at the end of the row) or 'post'-padded in a
// batch with longer reviews. Without starts (null) every row starts at 0.
#pragma once

#include <string>
#include <vector>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

// -> PE [max_len, dim]. dim >= 1.
Tensor2 sinusoidal_positional_encoding(std::size_t max_len, std::size_t dim);

// mask [B, T] (1 = real token) -> starts [B]: the index of each row's first real token, T for a
// row without one (it then gets no positional term at all). Reuses `starts`' storage.
void sequence_starts(const Mask2& mask, std::vector<std::size_t>& starts);

// x [B, T, D], starts [B] (each <= T) or null, in place: x[b, t, :] += PE[t − s_b, :] for
// t >= s_b. It has no parameters and is an addition, so its backward is the identity: pass dy
// straight through as dx; there is no backward function.
// table: null, or a cache the caller keeps between calls. Without it each PE[p, d] is computed
// (sin / cos / pow) once per call and added to every batch row, allocating nothing; with it the
// table is filled with sinusoidal_positional_encoding(T, D) when its shape does not fit x (the
// first call, or another T or D) and only read otherwise. The sums are the same either way.
void add_sinusoidal_positional_encoding(Tensor3& x, const std::vector<std::size_t>* starts = nullptr,
                                        Tensor2* table = nullptr);

class LearnedPositionalEncoding {
 public:
  // max_len L >= 1, dim D >= 1. P [L, D] from U(-0.05, 0.05), row-major (like Embedding).
  LearnedPositionalEncoding(std::size_t max_len, std::size_t dim, Rng& rng);

  // x [B, T, D], starts [B] (each <= T) or null -> y [B, T, D], y[b, t] = x[b, t] + P[t − s_b]
  // for t >= s_b, y[b, t] = x[b, t] before. T > L throws ShapeError; y == x is allowed.
  // No cache: the addition's backward needs only the same starts.
  void forward(const Tensor3& x, Tensor3& y, const std::vector<std::size_t>* starts = nullptr) const;
  // dy [B, T, D], the forward's starts -> dx [B, T, D]: dx = dy, and
  // dP[t − s_b, :] += dy[b, t, :] for every b and t >= s_b (each row scatters to its own rows of P).
  void backward(const Tensor3& dy, Tensor3& dx, const std::vector<std::size_t>* starts = nullptr);

  // Appends "position" [L, D].
  void parameters(ParameterList& out, const std::string& prefix);

  std::size_t max_len() const { return position_.shape()[0]; }
  std::size_t dim() const { return position_.shape()[1]; }
  const Tensor2& position() const { return position_; }

 private:
  void check(const char* where, const char* name, const Tensor3& x, const std::vector<std::size_t>* starts) const;

  Tensor2 position_, dposition_;  // [L, D]
};

}  // namespace attn
