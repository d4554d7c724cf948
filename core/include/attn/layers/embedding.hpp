// Token embedding: a lookup table from token id to a learned vector.
//
// Shapes: B batch, T time, D model dim (embedding size), V vocabulary.
//
//   y[b, t, :] = weight[ids[b, t], :]
//
// The padding row (id `padding_index`, 0 by default like Keras' mask_zero) starts at zero and
// never receives gradient, so it stays exactly zero through training: padded positions feed
// zeros to the layers above no matter what the optimiser does (Adam with zero gradient leaves a
// zero row at zero).
#pragma once

#include <cstdint>
#include <string>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

struct EmbeddingCache {
  TokenIds ids;  // [B, T] copy of the forward ids: backward scatters dy into these rows
};

class Embedding {
 public:
  // vocab V >= 1, dim D >= 1; padding_index in [0, V), or -1 for no padding row.
  // weight [V, D] drawn from U(-0.05, 0.05) in row-major order (Keras' default embedding
  // initialiser), then the padding row is set to zero.
  Embedding(std::size_t vocab, std::size_t dim, Rng& rng, std::int32_t padding_index = 0);

  // ids [B, T] -> y [B, T, D]. An id outside [0, V) throws std::invalid_argument naming the id
  // and its position; nothing is written in that case.
  void forward(const TokenIds& ids, Tensor3& y, EmbeddingCache& cache) const;
  // dy [B, T, D]. Scatter-add: dweight[ids[b, t], :] += dy[b, t, :] for every non-padding id.
  // There is no input gradient (ids are integers).
  void backward(const Tensor3& dy, const EmbeddingCache& cache);

  // Appends "weight" [V, D].
  void parameters(ParameterList& out, const std::string& prefix);

  const Tensor2& weight() const { return weight_; }
  const Tensor2& weight_grad() const { return dweight_; }
  std::size_t vocab_size() const { return weight_.shape()[0]; }
  std::size_t dim() const { return weight_.shape()[1]; }
  std::int32_t padding_index() const { return padding_index_; }

 private:
  Tensor2 weight_;   // [V, D]
  Tensor2 dweight_;  // [V, D]
  std::int32_t padding_index_;
};

}  // namespace attn
