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

BatchStats batch_gradient(SequenceClassifier& model, const ClassifierBatch& batch, bool sum, Rng& rng,
                          StepBuffers& buffers) {
  zero_grads(model.parameters());
  model.forward(batch.ids, batch.mask, true, rng, buffers.logits);
  BatchStats stats;
  stats.loss = binary_cross_entropy_with_logits(buffers.logits, batch.labels, &buffers.dlogits);
  stats.count = batch.labels.shape(0);
  // dL/dz of the mean is (σ(z) - y) / N; times N gives the gradient of the sum.
  if (sum) buffers.dlogits *= static_cast<float>(stats.count);
  model.backward(buffers.dlogits);
  stats.correct = count_correct(buffers.logits, batch.labels);
  return stats;
}

float apply_gradients(SequenceClassifier& model, Optimizer& optimizer, float clip_norm) {
  // clip_grad_norm insists on a finite bound, so "no clipping" only measures the norm.
  const float norm = clip_norm > 0.f ? clip_grad_norm(model.parameters(), clip_norm)
                                     : static_cast<float>(grad_norm(model.parameters()));
  if (!std::isfinite(norm)) throw std::runtime_error("training diverged: the gradient norm is not finite");
  optimizer.step(model.parameters());
  return norm;
}

BatchStats train_step(SequenceClassifier& model, Optimizer& optimizer, const ClassifierBatch& batch, float clip_norm,
                      Rng& rng, StepBuffers& buffers) {
  BatchStats stats = batch_gradient(model, batch, false, rng, buffers);
  if (!std::isfinite(stats.loss)) throw std::runtime_error("training diverged: the loss is not finite");
  stats.grad_norm = apply_gradients(model, optimizer, clip_norm);
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
