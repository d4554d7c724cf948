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
BatchStats evaluate_batch(SequenceClassifier& model, const ClassifierBatch& batch, Rng& rng, StepBuffers& buffers);

}  // namespace attn
