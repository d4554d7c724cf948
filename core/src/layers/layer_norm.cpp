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

void LayerNorm::forward_rows(const float* x, std::size_t rows, float* y, LayerNormCache& cache) const {
  const std::size_t d = dim();
  const std::array<std::size_t, 2> hat_shape{rows, d};
  if (cache.x_hat.shape() != hat_shape) cache.x_hat.resize(hat_shape);
  if (cache.mean.size() != rows) cache.mean.resize({rows});
  if (cache.rstd.size() != rows) cache.rstd.resize({rows});
  const float* gamma = gamma_.data();
  const float* beta = beta_.data();
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * d;
    float* hat = cache.x_hat.data() + r * d;
    float* yr = y + r * d;
    // Two passes in double: a one-pass E[x²] − E[x]² cancels badly when |μ| >> σ.
    double sum = 0.0;
    for (std::size_t j = 0; j < d; ++j) sum += xr[j];
    const double mean = sum / static_cast<double>(d);
    double squares = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
      const double c = xr[j] - mean;
      squares += c * c;
    }
    const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(d) + static_cast<double>(eps_));
    cache.mean(r) = static_cast<float>(mean);
    cache.rstd(r) = static_cast<float>(rstd);
    for (std::size_t j = 0; j < d; ++j) {
      hat[j] = static_cast<float>((xr[j] - mean) * rstd);
      yr[j] = gamma[j] * hat[j] + beta[j];
    }
  }
}

void LayerNorm::backward_rows(const float* dy, std::size_t rows, const LayerNormCache& cache, float* dx) {
  const std::size_t d = dim();
  const float* gamma = gamma_.data();
  float* dgamma = dgamma_.data();
  float* dbeta = dbeta_.data();
  for (std::size_t r = 0; r < rows; ++r) {
    const float* dyr = dy + r * d;
    const float* hat = cache.x_hat.data() + r * d;
    float* dxr = dx + r * d;
    // y = γ ⊙ x̂ + β  ->  dβ += dy,  dγ += dy ⊙ x̂,  dx̂ = dy ⊙ γ
    double mean_dhat = 0.0, mean_dhat_hat = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
      dbeta[j] += dyr[j];
      dgamma[j] += dyr[j] * hat[j];
      const double dhat = static_cast<double>(dyr[j]) * gamma[j];
      mean_dhat += dhat;
      mean_dhat_hat += dhat * hat[j];
    }
    mean_dhat /= static_cast<double>(d);
    mean_dhat_hat /= static_cast<double>(d);
    // x̂ = (x − μ) · rstd, with μ and rstd functions of the whole row
    //   ->  dx = rstd · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂))
    const double rstd = cache.rstd(r);
    for (std::size_t j = 0; j < d; ++j) {
      const double dhat = static_cast<double>(dyr[j]) * gamma[j];
      dxr[j] = static_cast<float>(rstd * (dhat - mean_dhat - hat[j] * mean_dhat_hat));
    }
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
