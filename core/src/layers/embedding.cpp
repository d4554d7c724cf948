#include "attn/layers/embedding.hpp"

#include <algorithm>
#include <array>

namespace attn {

Embedding::Embedding(std::size_t vocab, std::size_t dim, Rng& rng, std::int32_t padding_index)
    : padding_index_(padding_index) {
  if (vocab == 0 || dim == 0)
    throw std::invalid_argument("Embedding: vocab and dim must be >= 1 (got vocab " + std::to_string(vocab) + ", dim " +
                                std::to_string(dim) + ")");
  if (padding_index < -1 || (padding_index >= 0 && static_cast<std::size_t>(padding_index) >= vocab))
    throw std::invalid_argument("Embedding: padding_index " + std::to_string(padding_index) + " must be in [0, " +
                                std::to_string(vocab) + ") or -1 for none");
  weight_ = xt::empty<float>({vocab, dim});
  for (auto& w : weight_) w = rng.uniform(-0.05f, 0.05f);
  if (padding_index_ >= 0) xt::view(weight_, padding_index_, xt::all()) = 0.f;
  dweight_ = xt::zeros<float>({vocab, dim});
}

void Embedding::forward(const TokenIds& ids, Tensor3& y, EmbeddingCache& cache) const {
  const std::size_t batch = ids.shape()[0], time = ids.shape()[1];
  const std::size_t vocab = vocab_size(), d = dim();
  // Validate every id before writing anything, so a bad batch leaves y and the cache untouched.
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t t = 0; t < time; ++t) {
      const std::int32_t id = ids(b, t);
      if (id < 0 || static_cast<std::size_t>(id) >= vocab)
        throw std::invalid_argument("Embedding: id " + std::to_string(id) + " at position [" + std::to_string(b) +
                                    ", " + std::to_string(t) + "] is outside [0, " + std::to_string(vocab) + ")");
    }
  }
  const std::array<std::size_t, 3> y_shape{batch, time, d};
  if (y.shape() != y_shape) y.resize(y_shape);
  if (cache.ids.shape() != ids.shape()) cache.ids.resize(ids.shape());
  std::copy(ids.data(), ids.data() + ids.size(), cache.ids.data());

  const float* table = weight_.data();
  float* out = y.data();
  for (std::size_t i = 0; i < batch * time; ++i) {
    const float* row = table + static_cast<std::size_t>(ids.data()[i]) * d;
    std::copy(row, row + d, out + i * d);
  }
}

void Embedding::backward(const Tensor3& dy, const EmbeddingCache& cache) {
  const std::size_t batch = cache.ids.shape()[0], time = cache.ids.shape()[1], d = dim();
  const std::array<std::size_t, 3> want{batch, time, d};
  ATTN_REQUIRE(dy.shape() == want, "Embedding::backward",
               "dy has shape " + shape_string(dy.shape()) + " but the cached ids are " +
                   shape_string(cache.ids.shape()) + "; dy must be " + shape_string(want));
  // y[b, t, :] = weight[id, :]  ->  dweight[id, :] += dy[b, t, :]  (rows repeat, so accumulate)
  float* grad = dweight_.data();
  const float* g = dy.data();
  for (std::size_t i = 0; i < batch * time; ++i) {
    const std::int32_t id = cache.ids.data()[i];
    if (id == padding_index_) continue;
    float* row = grad + static_cast<std::size_t>(id) * d;
    const float* src = g + i * d;
    for (std::size_t j = 0; j < d; ++j) row[j] += src[j];
  }
}

void Embedding::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "weight", weight_, dweight_);
}

}  // namespace attn
