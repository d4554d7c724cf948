// Gradient clipping by global norm (Pascanu et al. 2013; torch.nn.utils.clip_grad_norm_):
//
//   ‖g‖ = sqrt(Σ over every gradient entry of every parameter of g²)   (accumulated in double)
//   if ‖g‖ > max_norm:  g = g · max_norm / (‖g‖ + 1e-6)
//
// One norm over all parameters keeps the direction of the whole update, unlike clipping each
// tensor on its own. Recurrent nets need it: one exploding step can undo a whole run.
//
// Shapes: a parameter is seen flat, n_i = params[i].size floats in its own row-major layout;
// state buffers mirror that (one slot of n_i floats per parameter).
#pragma once

#include "attn/layers/parameter.hpp"

namespace attn {

// The global L2 norm of all gradients in the list (0 for an empty list).
double grad_norm(const ParameterList& params);

// Scales every gradient so the global norm is at most max_norm (finite, > 0) and returns the
// norm BEFORE clipping. A non-finite norm (NaN or inf gradients) is returned as is and nothing is
// scaled: scaling would turn every gradient into NaN; the caller decides (e.g. skip the step).
float clip_grad_norm(const ParameterList& params, float max_norm);

}  // namespace attn
