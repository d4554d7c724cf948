// Stochastic gradient descent with optional momentum, Nesterov momentum and L2 weight decay,
// with PyTorch's torch.optim.SGD semantics (dampening 0), per parameter entry:
//
//   g = grad + λ·p                     (weight_decay λ: L2, added to the gradient)
//   v = μ·v + g                        (momentum μ > 0 only; v starts at 0, so v_1 = g_1)
//   d = g + μ·v   (nesterov)   or   d = v   (classic)   or   d = g   (μ = 0)
//   p = p − lr·d
//
// Note this is not Sutskever et al.'s v = μv − lr·g: with a constant lr the two agree, but
// PyTorch's form keeps lr outside the velocity, so a schedule changes the step at once.
// State: one buffer "velocity" when μ > 0, none otherwise.
//
// Shapes: a parameter is seen flat, n_i = params[i].size floats in its own row-major layout;
// state buffers mirror that (one slot of n_i floats per parameter).
#pragma once

#include "attn/optim/optimizer.hpp"

namespace attn {

class SGD : public Optimizer {
 public:
  // lr >= 0, momentum >= 0, weight_decay >= 0 (all finite); nesterov needs momentum > 0.
  explicit SGD(float lr, float momentum = 0.f, bool nesterov = false, float weight_decay = 0.f);

  void step(const ParameterList& params) override;

  float momentum() const { return momentum_; }
  bool nesterov() const { return nesterov_; }
  float weight_decay() const { return weight_decay_; }

 private:
  float momentum_;
  bool nesterov_;
  float weight_decay_;
};

}  // namespace attn
