// One optimisation step of a SequenceClassifier and its evaluation on a batch.
//   zero grads → forward → BCE with logits → backward → clip by global norm → optimiser step
#pragma once

#include "attn/data/toy_tasks.hpp"
#include "attn/models/sequence_classifier.hpp"
#include "attn/optim/optimizer.hpp"

namespace attn {

struct BatchStats {
  float loss = 0.f;         // mean binary cross-entropy over the batch
  float grad_norm = 0.f;    // global gradient norm before clipping (0 for evaluation)
  std::size_t correct = 0;  // predictions (logit > 0) that match the label
  std::size_t count = 0;
};

// Scratch reused across steps so a training loop allocates nothing at steady state.
struct StepBuffers {
  Tensor1 logits, dlogits;
};

// clip_norm <= 0 disables clipping. Throws std::runtime_error when the loss or the gradient norm
// is not finite (the caller decides how to recover), before the optimiser touches the weights.
BatchStats train_step(SequenceClassifier& model, Optimizer& optimizer, const ClassifierBatch& batch, float clip_norm,
                      Rng& rng, StepBuffers& buffers);
// The two halves of train_step, for data-parallel training (docs/data-parallel.md):
// batch_gradient zeroes the gradients, runs forward and backward and leaves the loss gradient in
// the parameters' grad buffers — the MEAN over the batch (sum = false, as train_step) or the SUM
// over its examples (sum = true, so shards of one batch add up). It checks nothing for
// finiteness. apply_gradients clips by global norm (clip_norm <= 0: only measures it), throws
// std::runtime_error when the norm is not finite, then steps the optimiser; returns the norm.
BatchStats batch_gradient(SequenceClassifier& model, const ClassifierBatch& batch, bool sum, Rng& rng,
                          StepBuffers& buffers);
float apply_gradients(SequenceClassifier& model, Optimizer& optimizer, float clip_norm);
BatchStats evaluate_batch(SequenceClassifier& model, const ClassifierBatch& batch, Rng& rng, StepBuffers& buffers);

}  // namespace attn
