// Adam (Kingma & Ba 2015, Algorithm 1) and AdamW (Loshchilov & Hutter 2019, Algorithm 2).
//
// Adam, per parameter entry, with t = the step number starting at 1:
//
//   g = grad + λ·p                          (optional L2 weight_decay λ, PyTorch's Adam)
//   m = β1·m + (1 − β1)·g                   (first moment, starts at 0)
//   v = β2·v + (1 − β2)·g²                  (second moment, starts at 0)
//   m̂ = m / (1 − β1^t),  v̂ = v / (1 − β2^t)  (bias correction: undoes the pull towards 0)
//   p = p − lr·m̂ / (√v̂ + ε)
//
// The bias corrections use the step count t, computed in double; on step 1 they make m̂ = g and
// v̂ = g², so the first step moves every entry by lr·g/(|g| + ε) ≈ ±lr.
//
// AdamW decouples the weight decay from the gradient: p = p − lr·λ·p, then the Adam step above
// with no L2 term (PyTorch's AdamW; the paper's schedule multiplier η_t is our lr·schedule).
// With Adam+L2 the decay λ·p is divided by √v̂ like any gradient, so weights with large gradients
// are barely decayed; AdamW shrinks every decayed weight by the same factor (1 − lr·λ).
//
// State: buffers "m" and "v".
//
// Shapes: a parameter is seen flat, n_i = params[i].size floats in its own row-major layout;
// state buffers mirror that (one slot of n_i floats per parameter).
#pragma once

#include <functional>

#include "attn/optim/optimizer.hpp"

namespace attn {

class Adam : public Optimizer {
 public:
  // lr >= 0; β1, β2 in [0, 1); ε > 0; weight_decay >= 0 (L2, coupled; prefer AdamW).
  explicit Adam(float lr = 1e-3f, float beta1 = 0.9f, float beta2 = 0.999f, float eps = 1e-8f,
                float weight_decay = 0.f);

  void step(const ParameterList& params) override;

  float beta1() const { return beta1_; }
  float beta2() const { return beta2_; }
  float eps() const { return eps_; }

 protected:
  Adam(std::string name, float lr, float beta1, float beta2, float eps, float weight_decay);
  // The Adam update of every entry (assumes prepare() was called).
  void adam_update(const ParameterList& params);

 private:
  float beta1_, beta2_, eps_, weight_decay_;
};

// Which parameters AdamW decays. The default decays all of them (PyTorch's default).
using DecayPredicate = std::function<bool(const Parameter&)>;

// Decays only parameters of rank >= 2 (weight matrices, embeddings): biases, LayerNorm gains and
// shifts and other vectors are left alone, as in GPT-2 / nanoGPT training.
bool decay_matrices_only(const Parameter& p);

class AdamW : public Adam {
 public:
  // weight_decay λ >= 0 (default 0.01 as in PyTorch); decays(p) selects the decayed parameters
  // (null: all of them).
  explicit AdamW(float lr = 1e-3f, float beta1 = 0.9f, float beta2 = 0.999f, float eps = 1e-8f,
                 float weight_decay = 1e-2f, DecayPredicate decays = nullptr);

  void step(const ParameterList& params) override;

  float weight_decay() const { return decoupled_decay_; }

 private:
  float decoupled_decay_;
  DecayPredicate decays_;
};

}  // namespace attn
