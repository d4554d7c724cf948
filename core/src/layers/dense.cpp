#include "attn/layers/dense.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "attn/kernels/gemm.hpp"

namespace attn {

Dense::Dense(std::size_t in, std::size_t out, Rng& rng, bool bias) : has_bias_(bias) {
  if (in == 0 || out == 0)
    throw std::invalid_argument("Dense: in and out must be >= 1 (got in " + std::to_string(in) + ", out " +
                                std::to_string(out) + ")");
  // Glorot & Bengio (2010): keeps the variance of activations and gradients roughly equal
  // across layers; Keras' Dense default.
  const float limit = static_cast<float>(std::sqrt(6.0 / static_cast<double>(in + out)));
  w_ = xt::empty<float>({in, out});
  for (auto& w : w_) w = rng.uniform(-limit, limit);
  dw_ = xt::zeros<float>({in, out});
  b_ = xt::zeros<float>({out});
  db_ = xt::zeros<float>({out});
}

void Dense::forward_rows(const float* x, std::size_t rows, float* y) const {
  const std::size_t in = input_size(), out = output_size();
  // y = x · W
  kernels::gemm(false, false, rows, out, in, 1.f, x, in, w_.data(), out, 0.f, y, out);
  // y += b (broadcast over rows)
  if (has_bias_) {
    const float* b = b_.data();
    for (std::size_t r = 0; r < rows; ++r) {
      float* row = y + r * out;
      for (std::size_t j = 0; j < out; ++j) row[j] += b[j];
    }
  }
}

void Dense::backward_rows(const float* x, const float* dy, std::size_t rows, float* dx) {
  const std::size_t in = input_size(), out = output_size();
  // y += b  ->  db += Σ_rows dy
  if (has_bias_) {
    float* db = db_.data();
    for (std::size_t r = 0; r < rows; ++r) {
      const float* row = dy + r * out;
      for (std::size_t j = 0; j < out; ++j) db[j] += row[j];
    }
  }
  // y = x · W  ->  dW += xᵀ · dy (beta = 1 accumulates),  dx = dy · Wᵀ (beta = 0 overwrites)
  kernels::gemm(true, false, in, out, rows, 1.f, x, in, dy, out, 1.f, dw_.data(), out);
  if (dx != nullptr) kernels::gemm(false, true, rows, in, out, 1.f, dy, out, w_.data(), out, 0.f, dx, in);
}

void Dense::forward(const Tensor2& x, Tensor2& y, DenseCache& cache) const {
  const std::size_t rows = x.shape()[0], in = input_size();
  ATTN_REQUIRE(x.shape()[1] == in, "Dense::forward",
               "x has shape " + shape_string(x.shape()) + "; x must be [N, " + std::to_string(in) + "]");
  const std::array<std::size_t, 2> y_shape{rows, output_size()};
  if (y.shape() != y_shape) y.resize(y_shape);
  if (cache.x.shape() != x.shape()) cache.x.resize(x.shape());
  std::copy(x.data(), x.data() + x.size(), cache.x.data());
  forward_rows(x.data(), rows, y.data());
}

void Dense::forward(const Tensor3& x, Tensor3& y, DenseCache& cache) const {
  const std::size_t batch = x.shape()[0], time = x.shape()[1], in = input_size();
  ATTN_REQUIRE(x.shape()[2] == in, "Dense::forward",
               "x has shape " + shape_string(x.shape()) + "; x must be [B, T, " + std::to_string(in) + "]");
  const std::array<std::size_t, 3> y_shape{batch, time, output_size()};
  if (y.shape() != y_shape) y.resize(y_shape);
  const std::array<std::size_t, 2> cache_shape{batch * time, in};
  if (cache.x.shape() != cache_shape) cache.x.resize(cache_shape);
  std::copy(x.data(), x.data() + x.size(), cache.x.data());
  forward_rows(x.data(), batch * time, y.data());
}

std::size_t Dense::check_backward(const char* where, std::size_t dy_rows, std::size_t dy_cols,
                                  const std::string& dy_shape, const DenseCache& cache) const {
  const std::size_t rows = cache.x.shape()[0];
  ATTN_REQUIRE(cache.x.shape()[1] == input_size(), where,
               "the cache holds x of shape " + shape_string(cache.x.shape()) + "; run forward first");
  ATTN_REQUIRE(dy_rows == rows && dy_cols == output_size(), where,
               "dy has shape " + dy_shape + " but forward saw " + std::to_string(rows) + " rows; dy must have " +
                   std::to_string(rows) + " rows of " + std::to_string(output_size()));
  return rows;
}

void Dense::backward(const Tensor2& dy, const DenseCache& cache, Tensor2& dx) {
  const std::size_t rows =
      check_backward("Dense::backward", dy.shape()[0], dy.shape()[1], shape_string(dy.shape()), cache);
  if (dx.shape() != cache.x.shape()) dx.resize(cache.x.shape());
  backward_rows(cache.x.data(), dy.data(), rows, dx.data());
}

void Dense::backward(const Tensor3& dy, const DenseCache& cache, Tensor3& dx) {
  const std::size_t rows =
      check_backward("Dense::backward", dy.shape()[0] * dy.shape()[1], dy.shape()[2], shape_string(dy.shape()), cache);
  const std::array<std::size_t, 3> dx_shape{dy.shape()[0], dy.shape()[1], input_size()};
  if (dx.shape() != dx_shape) dx.resize(dx_shape);
  backward_rows(cache.x.data(), dy.data(), rows, dx.data());
}

void Dense::backward(const Tensor2& dy, const DenseCache& cache) {
  const std::size_t rows =
      check_backward("Dense::backward", dy.shape()[0], dy.shape()[1], shape_string(dy.shape()), cache);
  backward_rows(cache.x.data(), dy.data(), rows, nullptr);
}

void Dense::backward(const Tensor3& dy, const DenseCache& cache) {
  const std::size_t rows =
      check_backward("Dense::backward", dy.shape()[0] * dy.shape()[1], dy.shape()[2], shape_string(dy.shape()), cache);
  backward_rows(cache.x.data(), dy.data(), rows, nullptr);
}

void Dense::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "w", w_, dw_);
  if (has_bias_) add_parameter(out, prefix, "b", b_, db_);
}

}  // namespace attn
