#include "attn/layers/layer_norm.hpp"

#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace attn {

LayerNorm::LayerNorm(std::size_t dim, float eps) : eps_(eps) {
  if (dim == 0) throw std::invalid_argument("LayerNorm: dim must be >= 1");
  if (!(eps > 0.f) || !std::isfinite(eps)) {
    std::ostringstream message;
    message << "LayerNorm: eps " << eps << " must be finite and > 0";
    throw std::invalid_argument(message.str());
  }
  gamma_ = xt::ones<float>({dim});
  dgamma_ = xt::zeros<float>({dim});
  beta_ = xt::zeros<float>({dim});
  dbeta_ = xt::zeros<float>({dim});
}

namespace {

// Σ_j f(j) over j < d in float, as four interleaved partial sums (lanes j % 4) added pairwise at
// the end: the compilers turn the four into one SIMD register (wasm SIMD, SSE) where a single
// float sum would have to stay in order.
template <class F>
float row_sum(std::size_t d, F&& f) {
  float lanes[4] = {0.f, 0.f, 0.f, 0.f};
  std::size_t j = 0;
  for (; j + 4 <= d; j += 4) {
    for (std::size_t l = 0; l < 4; ++l) lanes[l] += f(j + l);
  }
  for (; j < d; ++j) lanes[j % 4] += f(j);
  return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

}  // namespace

void LayerNorm::forward_rows(const float* x, std::size_t rows, float* y, LayerNormCache& cache) const {
  const std::size_t d = dim();
  const std::array<std::size_t, 2> hat_shape{rows, d};
  if (cache.x_hat.shape() != hat_shape) cache.x_hat.resize(hat_shape);
  if (cache.mean.size() != rows) cache.mean.resize({rows});
  if (cache.rstd.size() != rows) cache.rstd.resize({rows});
  const float* gamma = gamma_.data();
  const float* beta = beta_.data();
  const float inv_d = 1.f / static_cast<float>(d);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * d;
    float* hat = cache.x_hat.data() + r * d;
    float* yr = y + r * d;
    // Two passes (the variance of the centred values): a one-pass E[x²] − E[x]² cancels badly
    // when |μ| >> σ.
    const float mean = row_sum(d, [&](std::size_t j) { return xr[j]; }) * inv_d;
    const float squares = row_sum(d, [&](std::size_t j) { return (xr[j] - mean) * (xr[j] - mean); });
    const float rstd = 1.f / std::sqrt(squares * inv_d + eps_);
    cache.mean(r) = mean;
    cache.rstd(r) = rstd;
    for (std::size_t j = 0; j < d; ++j) {
      hat[j] = (xr[j] - mean) * rstd;
      yr[j] = gamma[j] * hat[j] + beta[j];
    }
  }
}

void LayerNorm::backward_rows(const float* dy, std::size_t rows, const LayerNormCache& cache, float* dx) {
  const std::size_t d = dim();
  const float* gamma = gamma_.data();
  float* dgamma = dgamma_.data();
  float* dbeta = dbeta_.data();
  const float inv_d = 1.f / static_cast<float>(d);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* dyr = dy + r * d;
    const float* hat = cache.x_hat.data() + r * d;
    float* dxr = dx + r * d;
    // y = γ ⊙ x̂ + β  ->  dβ += dy,  dγ += dy ⊙ x̂,  dx̂ = dy ⊙ γ
    for (std::size_t j = 0; j < d; ++j) {
      dbeta[j] += dyr[j];
      dgamma[j] += dyr[j] * hat[j];
    }
    const float mean_dhat = row_sum(d, [&](std::size_t j) { return dyr[j] * gamma[j]; }) * inv_d;
    const float mean_dhat_hat = row_sum(d, [&](std::size_t j) { return dyr[j] * gamma[j] * hat[j]; }) * inv_d;
    // x̂ = (x − μ) · rstd, with μ and rstd functions of the whole row
    //   ->  dx = rstd · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂))
    const float rstd = cache.rstd(r);
    for (std::size_t j = 0; j < d; ++j) dxr[j] = rstd * (dyr[j] * gamma[j] - mean_dhat - hat[j] * mean_dhat_hat);
  }
}

void LayerNorm::forward(const Tensor2& x, Tensor2& y, LayerNormCache& cache) const {
  ATTN_REQUIRE(x.shape()[1] == dim(), "LayerNorm::forward",
               "x has shape " + shape_string(x.shape()) + "; x must be [N, " + std::to_string(dim()) + "]");
  if (y.shape() != x.shape()) y.resize(x.shape());
  forward_rows(x.data(), x.shape()[0], y.data(), cache);
}

void LayerNorm::forward(const Tensor3& x, Tensor3& y, LayerNormCache& cache) const {
  ATTN_REQUIRE(x.shape()[2] == dim(), "LayerNorm::forward",
               "x has shape " + shape_string(x.shape()) + "; x must be [B, T, " + std::to_string(dim()) + "]");
  if (y.shape() != x.shape()) y.resize(x.shape());
  forward_rows(x.data(), x.shape()[0] * x.shape()[1], y.data(), cache);
}

std::size_t LayerNorm::check_backward(std::size_t dy_rows, std::size_t dy_cols, const std::string& dy_shape,
                                      const LayerNormCache& cache) const {
  const std::size_t rows = cache.x_hat.shape()[0];
  ATTN_REQUIRE(dy_rows == rows && dy_cols == dim() && cache.x_hat.shape()[1] == dim(), "LayerNorm::backward",
               "dy has shape " + dy_shape + " but the cache holds " + std::to_string(rows) + " rows of " +
                   std::to_string(cache.x_hat.shape()[1]) + "; dy must have " + std::to_string(rows) + " rows of " +
                   std::to_string(dim()));
  return rows;
}

void LayerNorm::backward(const Tensor2& dy, const LayerNormCache& cache, Tensor2& dx) {
  const std::size_t rows = check_backward(dy.shape()[0], dy.shape()[1], shape_string(dy.shape()), cache);
  if (dx.shape() != dy.shape()) dx.resize(dy.shape());
  backward_rows(dy.data(), rows, cache, dx.data());
}

void LayerNorm::backward(const Tensor3& dy, const LayerNormCache& cache, Tensor3& dx) {
  const std::size_t rows =
      check_backward(dy.shape()[0] * dy.shape()[1], dy.shape()[2], shape_string(dy.shape()), cache);
  if (dx.shape() != dy.shape()) dx.resize(dy.shape());
  backward_rows(dy.data(), rows, cache, dx.data());
}

void LayerNorm::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "gamma", gamma_, dgamma_);
  add_parameter(out, prefix, "beta", beta_, dbeta_);
}

}  // namespace attn
