// Layer normalisation (Ba, Kiros & Hinton 2016) over the last axis.
//
// Shapes: B batch, T time, D model dim, N rows (N = B·T for sequences).
//
//   μ = mean(x[n, :]),  σ² = mean((x[n, :] − μ)²)   (biased, as in the paper and PyTorch)
//   rstd = 1 / sqrt(σ² + eps)
//   x̂ = (x − μ) · rstd
//   y = γ ⊙ x̂ + β                                     γ, β [D]
//
// Backward (per row, with dx̂ = dy ⊙ γ):
//   dβ += Σ_n dy,  dγ += Σ_n dy ⊙ x̂
//   dx = rstd · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂))
#pragma once

#include <string>

#include "attn/layers/parameter.hpp"
#include "attn/tensor.hpp"

namespace attn {

struct LayerNormCache {
  Tensor2 x_hat;  // [N, D] normalised input (before γ, β)
  Tensor1 mean;   // [N]
  Tensor1 rstd;   // [N] 1 / sqrt(σ² + eps)
};

class LayerNorm {
 public:
  // dim D >= 1; eps > 0 keeps rstd finite for constant rows. γ = 1, β = 0.
  explicit LayerNorm(std::size_t dim, float eps = 1e-5f);

  // x [N, D] -> y [N, D].
  void forward(const Tensor2& x, Tensor2& y, LayerNormCache& cache) const;
  // x [B, T, D] -> y [B, T, D], normalising each of the B·T rows.
  void forward(const Tensor3& x, Tensor3& y, LayerNormCache& cache) const;
  // dy [N, D] -> dx [N, D]; adds into dγ and dβ.
  void backward(const Tensor2& dy, const LayerNormCache& cache, Tensor2& dx);
  // dy [B, T, D] -> dx [B, T, D].
  void backward(const Tensor3& dy, const LayerNormCache& cache, Tensor3& dx);

  // Appends "gamma" [D] then "beta" [D].
  void parameters(ParameterList& out, const std::string& prefix);

  // The raw core: x, y, dy, dx are [rows, D].
  void forward_rows(const float* x, std::size_t rows, float* y, LayerNormCache& cache) const;
  void backward_rows(const float* dy, std::size_t rows, const LayerNormCache& cache, float* dx);

  std::size_t dim() const { return gamma_.size(); }
  float eps() const { return eps_; }
  const Tensor1& gamma() const { return gamma_; }
  const Tensor1& beta() const { return beta_; }

 private:
  std::size_t check_backward(std::size_t dy_rows, std::size_t dy_cols, const std::string& dy_shape,
                             const LayerNormCache& cache) const;

  Tensor1 gamma_, dgamma_;  // [D]
  Tensor1 beta_, dbeta_;    // [D]
  float eps_;
};

}  // namespace attn
