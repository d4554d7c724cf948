// Fully connected (affine) layer.
//
// Shapes: B batch, T time, N rows (any leading extent; N = B·T for sequences), and the layer's
// own sizes `in` and `out`.
//
//   y = x · W + b        x [N, in], W [in, out], b [out], y [N, out]
//
// W is stored [in, out] (Keras' kernel layout) so the forward product needs no transpose.
// A sequence [B, T, in] is treated as [B·T, in] in place: both overloads run the same raw-pointer
// core (forward_rows / backward_rows), and every product goes through kernels::gemm.
#pragma once

#include <string>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

struct DenseCache {
  Tensor2 x;  // [N, in] copy of the forward input (a sequence is stored as [B·T, in])
};

class Dense {
 public:
  // in, out >= 1. W from Glorot-uniform U(-l, l), l = sqrt(6 / (in + out)), drawn row-major;
  // b = 0. With bias == false there is no "b" parameter and y = x · W.
  Dense(std::size_t in, std::size_t out, Rng& rng, bool bias = true);

  // x [N, in] -> y [N, out].
  void forward(const Tensor2& x, Tensor2& y, DenseCache& cache) const;
  // x [B, T, in] -> y [B, T, out].
  void forward(const Tensor3& x, Tensor3& y, DenseCache& cache) const;

  // dy [N, out] -> dx [N, in]; adds into dW and db.
  void backward(const Tensor2& dy, const DenseCache& cache, Tensor2& dx);
  // dy [B, T, out] -> dx [B, T, in]; adds into dW and db.
  void backward(const Tensor3& dy, const DenseCache& cache, Tensor3& dx);
  // Parameter gradients only: for a first layer whose input is data, dx would be discarded, so
  // these skip its [N, out] x [out, in] product.
  void backward(const Tensor2& dy, const DenseCache& cache);
  void backward(const Tensor3& dy, const DenseCache& cache);

  // Appends "w" [in, out] then, with a bias, "b" [out].
  void parameters(ParameterList& out, const std::string& prefix);

  // The raw core both overloads share. x [rows, in], y [rows, out], dy [rows, out],
  // dx [rows, in] or nullptr to skip it. No shape checks: callers pass consistent buffers.
  void forward_rows(const float* x, std::size_t rows, float* y) const;
  void backward_rows(const float* x, const float* dy, std::size_t rows, float* dx);

  std::size_t input_size() const { return w_.shape()[0]; }
  std::size_t output_size() const { return w_.shape()[1]; }
  bool has_bias() const { return has_bias_; }
  const Tensor2& weight() const { return w_; }  // [in, out]
  const Tensor1& bias() const { return b_; }    // [out] (zeros and unused without a bias)
  const Tensor2& weight_grad() const { return dw_; }
  const Tensor1& bias_grad() const { return db_; }

 private:
  // Checks dy [rows, out] against the cached input and returns rows.
  std::size_t check_backward(const char* where, std::size_t dy_rows, std::size_t dy_cols, const std::string& dy_shape,
                             const DenseCache& cache) const;

  Tensor2 w_, dw_;  // [in, out]
  Tensor1 b_, db_;  // [out]
  bool has_bias_;
};

}  // namespace attn
