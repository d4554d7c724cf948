#include "attn/layers/positional_encoding.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attn {
namespace {

// PE[pos, j]: column pair (2i, 2i + 1) shares the angle pos / 10000^(2i / D).
float sinusoid(std::size_t pos, std::size_t j, std::size_t dim) {
  const double two_i = static_cast<double>(j - j % 2);
  const double angle = static_cast<double>(pos) / std::pow(10000.0, two_i / static_cast<double>(dim));
  return static_cast<float>(j % 2 == 0 ? std::sin(angle) : std::cos(angle));
}

}  // namespace

Tensor2 sinusoidal_positional_encoding(std::size_t max_len, std::size_t dim) {
  if (dim == 0) throw std::invalid_argument("sinusoidal_positional_encoding: dim must be >= 1");
  Tensor2 pe = xt::empty<float>({max_len, dim});
  for (std::size_t pos = 0; pos < max_len; ++pos)
    for (std::size_t j = 0; j < dim; ++j) pe(pos, j) = sinusoid(pos, j, dim);
  return pe;
}

void sequence_starts(const Mask2& mask, std::vector<std::size_t>& starts) {
  const std::size_t batch = mask.shape()[0], time = mask.shape()[1];
  starts.resize(batch);
  for (std::size_t b = 0; b < batch; ++b) {
    std::size_t t = 0;
    while (t < time && mask(b, t) == 0) ++t;
    starts[b] = t;
  }
}

namespace {
void check_starts(const char* where, const std::vector<std::size_t>* starts, std::size_t batch, std::size_t time) {
  if (!starts) return;
  ATTN_REQUIRE(starts->size() == batch, where,
               "starts has " + std::to_string(starts->size()) + " entries for a batch of " + std::to_string(batch));
  for (std::size_t b = 0; b < batch; ++b) {
    ATTN_REQUIRE((*starts)[b] <= time, where,
                 "starts[" + std::to_string(b) + "] = " + std::to_string((*starts)[b]) + " is past the " +
                     std::to_string(time) + " time steps");
  }
}
}  // namespace

void add_sinusoidal_positional_encoding(Tensor3& x, const std::vector<std::size_t>* starts, Tensor2* table) {
  const std::size_t batch = x.shape()[0], time = x.shape()[1], dim = x.shape()[2];
  check_starts("add_sinusoidal_positional_encoding", starts, batch, time);
  float* data = x.data();
  if (table != nullptr) {
    if (table->shape()[0] < time || table->shape()[1] != dim) *table = sinusoidal_positional_encoding(time, dim);
    // Row b's real tokens read PE rows 0, 1, … from t = s_b on: one contiguous run per row.
    for (std::size_t b = 0; b < batch; ++b) {
      const std::size_t start = starts ? (*starts)[b] : 0;
      float* row = data + (b * time + start) * dim;
      const float* pe = table->data();
      const std::size_t n = (time - start) * dim;
      for (std::size_t i = 0; i < n; ++i) row[i] += pe[i];
    }
    return;
  }
  // Position p of row b sits at t = s_b + p.
  for (std::size_t p = 0; p < time; ++p) {
    for (std::size_t j = 0; j < dim; ++j) {
      const float pe = sinusoid(p, j, dim);
      for (std::size_t b = 0; b < batch; ++b) {
        const std::size_t t = p + (starts ? (*starts)[b] : 0);
        if (t < time) data[(b * time + t) * dim + j] += pe;
      }
    }
  }
}

LearnedPositionalEncoding::LearnedPositionalEncoding(std::size_t max_len, std::size_t dim, Rng& rng) {
  if (max_len == 0 || dim == 0)
    throw std::invalid_argument("LearnedPositionalEncoding: max_len and dim must be >= 1 (got max_len " +
                                std::to_string(max_len) + ", dim " + std::to_string(dim) + ")");
  position_ = xt::empty<float>({max_len, dim});
  for (auto& p : position_) p = rng.uniform(-0.05f, 0.05f);
  dposition_ = xt::zeros<float>({max_len, dim});
}

void LearnedPositionalEncoding::check(const char* where, const char* name, const Tensor3& x,
                                      const std::vector<std::size_t>* starts) const {
  ATTN_REQUIRE(x.shape()[2] == dim(), where,
               std::string(name) + " has shape " + shape_string(x.shape()) + "; it must be [B, T, " +
                   std::to_string(dim()) + "]");
  ATTN_REQUIRE(x.shape()[1] <= max_len(), where,
               std::string(name) + " has " + std::to_string(x.shape()[1]) + " time steps but max_len is " +
                   std::to_string(max_len()) + "; build the encoding with a larger max_len");
  check_starts(where, starts, x.shape()[0], x.shape()[1]);
}

void LearnedPositionalEncoding::forward(const Tensor3& x, Tensor3& y, const std::vector<std::size_t>* starts) const {
  check("LearnedPositionalEncoding::forward", "x", x, starts);
  if (y.shape() != x.shape()) y.resize(x.shape());
  const std::size_t batch = x.shape()[0], time = x.shape()[1], row = time * dim();
  // P's rows 0 .. T − s_b − 1 are contiguous, so each batch entry adds one flat block of
  // (T − s_b)·D, starting at its first real token; the leading padding is copied.
  const float* p = position_.data();
  for (std::size_t b = 0; b < batch; ++b) {
    const std::size_t skip = (starts ? (*starts)[b] : 0) * dim();
    const float* xb = x.data() + b * row;
    float* yb = y.data() + b * row;
    for (std::size_t i = 0; i < skip; ++i) yb[i] = xb[i];
    for (std::size_t i = skip; i < row; ++i) yb[i] = xb[i] + p[i - skip];
  }
}

void LearnedPositionalEncoding::backward(const Tensor3& dy, Tensor3& dx, const std::vector<std::size_t>* starts) {
  check("LearnedPositionalEncoding::backward", "dy", dy, starts);
  if (dx.shape() != dy.shape()) dx.resize(dy.shape());
  const std::size_t batch = dy.shape()[0], row = dy.shape()[1] * dim();
  // y[b, t] = x[b, t] + P[t − s_b]  ->  dx = dy,  dP[t − s_b] += dy[b, t] for t >= s_b
  float* dp = dposition_.data();
  for (std::size_t b = 0; b < batch; ++b) {
    const std::size_t skip = (starts ? (*starts)[b] : 0) * dim();
    const float* g = dy.data() + b * row;
    for (std::size_t i = skip; i < row; ++i) dp[i - skip] += g[i];
  }
  if (dx.data() != dy.data()) std::copy(dy.data(), dy.data() + dy.size(), dx.data());
}

void LearnedPositionalEncoding::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "position", position_, dposition_);
}

}  // namespace attn
