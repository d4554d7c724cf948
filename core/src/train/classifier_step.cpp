#include "attn/train/classifier_step.hpp"

#include <cmath>
#include <stdexcept>

#include "attn/losses/binary_cross_entropy.hpp"
#include "attn/optim/clip.hpp"

namespace attn {
namespace {
std::size_t count_correct(const Tensor1& logits, const Tensor1& labels) {
  std::size_t correct = 0;
  for (std::size_t b = 0; b < logits.shape(0); ++b) correct += ((logits(b) > 0.f) == (labels(b) > 0.5f)) ? 1 : 0;
  return correct;
}
}  // namespace

BatchStats train_step(SequenceClassifier& model, Optimizer& optimizer, const ClassifierBatch& batch, float clip_norm,
                      Rng& rng, StepBuffers& buffers) {
  zero_grads(model.parameters());
  model.forward(batch.ids, batch.mask, true, rng, buffers.logits);
  BatchStats stats;
  stats.loss = binary_cross_entropy_with_logits(buffers.logits, batch.labels, &buffers.dlogits);
  if (!std::isfinite(stats.loss)) throw std::runtime_error("training diverged: the loss is not finite");
  model.backward(buffers.dlogits);
  // clip_grad_norm insists on a finite bound, so "no clipping" only measures the norm.
  stats.grad_norm = clip_norm > 0.f ? clip_grad_norm(model.parameters(), clip_norm)
                                    : static_cast<float>(grad_norm(model.parameters()));
  if (!std::isfinite(stats.grad_norm)) throw std::runtime_error("training diverged: the gradient norm is not finite");
  optimizer.step(model.parameters());
  stats.correct = count_correct(buffers.logits, batch.labels);
  stats.count = batch.labels.shape(0);
  return stats;
}

BatchStats evaluate_batch(SequenceClassifier& model, const ClassifierBatch& batch, Rng& rng, StepBuffers& buffers) {
  model.forward(batch.ids, batch.mask, false, rng, buffers.logits);
  BatchStats stats;
  stats.loss = binary_cross_entropy_with_logits(buffers.logits, batch.labels, nullptr);
  stats.correct = count_correct(buffers.logits, batch.labels);
  stats.count = batch.labels.shape(0);
  return stats;
}

}  // namespace attn
