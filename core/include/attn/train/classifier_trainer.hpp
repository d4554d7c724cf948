// Training a SequenceClassifier on encoded reviews, end to end: a stratified validation split,
// per-epoch shuffling, length-bucketed minibatches padded per batch, the optimiser and schedule,
// early stopping on validation loss (best parameters restored), divergence handling, progress
// callbacks with cancellation, and evaluation metrics. One optimisation step is train_step
// (classifier_step.hpp); this file only decides what goes into each step.
//
// Legend: N examples, B batch, T time steps of one batch = min(longest review in it, maxlen).
//
// Determinism: everything random (split, shuffles, bucketing, dropout) is drawn from
// Rng(config.seed, ...) streams, so the same model seed, data and config give the same numbers
// on every run and platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attn/io/settings_schema.hpp"
#include "attn/models/sequence_classifier.hpp"
#include "attn/text/text_pipeline.hpp"

namespace attn {

// Encoded reviews: sequences[i] is ids [T_i] (ragged, already truncated to maxlen), labels[i] 0/1.
struct EncodedDataset {
  std::vector<std::vector<std::int32_t>> sequences;
  std::vector<int> labels;
  // Each review's group (LabelledText::group) when any is known, else empty: the validation
  // split then keeps each group on one side (data/splits.hpp, grouped_holdout).
  std::vector<std::string> groups;
  std::size_t size() const { return sequences.size(); }
};

// pipeline.encode of every example, with its label.
EncodedDataset encode_dataset(const TextPipeline& pipeline, const std::vector<LabelledText>& examples);

// Splits `data` into (train, validation): round(fraction · n_c) examples of each class c go to
// validation, chosen by a seeded shuffle; both parts keep the original relative order. fraction
// in [0, 1). Deterministic for a given (data, fraction, seed). When data.groups is not empty the
// split keeps each group on one side (grouped_holdout: at most round(fraction · n_c) per class).
std::pair<EncodedDataset, EncodedDataset> stratified_split(const EncodedDataset& data, float fraction,
                                                           std::uint64_t seed);

struct TrainerConfig {
  std::size_t epochs = 5;
  std::size_t batch_size = 32;
  float learning_rate = 1e-3f;
  std::string optimizer = "adam";     // adam | adamw | sgd (plain, no momentum)
  float weight_decay = 0;             // adam: L2; adamw: decoupled (matrices only); sgd: L2
  float clip_norm = 5;                // global gradient norm; <= 0 disables clipping
  std::string schedule = "constant";  // constant | linear | cosine | inverse_sqrt (decay to 0 over the run)
  std::size_t warmup_steps = 0;
  float validation_split = 0.1f;            // share of the training set held out (stratified); 0 = none
  std::size_t early_stopping_patience = 2;  // epochs without a better validation loss; 0 = off
  bool bucket_by_length = true;             // batches of similar lengths: less padding, faster epochs
  std::uint64_t seed = 1;

  // Throws std::invalid_argument "TrainerConfig: <field> must be <rule>, got <value>".
  void validate() const;
  // Flat JSON with every field; from_json starts from the defaults, rejects unknown keys and
  // validates. Both follow trainer_settings().
  std::string to_json() const;
  static TrainerConfig from_json(const std::string& json);
};

// TrainerConfig's fields: names, ranges, help and the CLI's flags (io/settings_schema.hpp).
const SettingsSchema<TrainerConfig>& trainer_settings();

struct ClassificationMetrics {
  double loss = 0;                                         // mean binary cross-entropy
  double accuracy = 0, precision = 0, recall = 0, f1 = 0;  // positive class = 1; 0 when undefined
  std::size_t tp = 0, fp = 0, tn = 0, fn = 0;
  std::size_t count() const { return tp + fp + tn + fn; }
};

// Accuracy, precision, recall and F1 from a confusion matrix; `loss` is copied as is.
ClassificationMetrics metrics_from_counts(std::size_t tp, std::size_t fp, std::size_t tn, std::size_t fn,
                                          double loss = 0);
// probabilities [N] in [0, 1], labels [N] -> metrics at threshold 0.5 (p > 0.5 is positive); loss
// is the mean BCE with p clamped to [1e-7, 1 - 1e-7]. Throws std::invalid_argument for N mismatch.
ClassificationMetrics classification_metrics(const std::vector<float>& probabilities, const std::vector<int>& labels);

// Metrics of `model` on `data` (inference mode, batches of batch_size padded on the pipeline's
// padding side to min(longest, maxlen)).
ClassificationMetrics evaluate_classifier(SequenceClassifier& model, const TextPipeline& pipeline,
                                          const EncodedDataset& data, std::size_t batch_size = 64);

struct StepProgress {
  std::size_t step = 0;                           // optimiser steps so far, this one included (1-based)
  std::size_t epoch = 0;                          // 0-based
  float loss = 0;                                 // this batch's mean loss
  double running_loss = 0, running_accuracy = 0;  // means over this epoch's batches so far
  std::size_t examples_seen = 0;                  // training examples consumed since the start
  double examples_per_second = 0;                 // training throughput since training started
  double elapsed = 0;                             // seconds spent training (a paused run does not count)
};

struct EpochProgress {
  std::size_t epoch = 0;                      // 0-based
  double train_loss = 0, train_accuracy = 0;  // means over the epoch's batches (training mode)
  bool has_validation = false;
  ClassificationMetrics validation;  // zeros without validation
  double seconds = 0;                // this epoch's wall time, validation included
};

// Return false to cancel: training stops after the current step/epoch and returns normally with
// TrainingResult::cancelled set (nothing is thrown).
struct TrainingCallbacks {
  std::function<bool(const StepProgress&)> on_step;
  std::function<bool(const EpochProgress&)> on_epoch;
};

struct TrainingResult {
  std::vector<EpochProgress> history;  // completed epochs
  std::size_t steps = 0;
  bool cancelled = false;
  bool early_stopped = false;
  // Epoch whose parameters the model holds at the end (the best validation loss); -1 when there
  // was no validation (the model then holds the last parameters).
  int best_epoch = -1;
  ClassificationMetrics best_validation;
  std::size_t train_examples = 0, validation_examples = 0;
  double seconds = 0;
};

// One training run as a resumable state machine, so a caller can interleave steps with other
// work (the browser worker trains in chunks and answers pause/cancel messages between them).
// train_classifier below is exactly: construct, then step / end_epoch until finished, finish.
//   while (!run.finished()) { run.step(); if (run.epoch_complete()) run.end_epoch(); }  run.finish();
// The model and the datasets are borrowed: they must outlive the run and stay unchanged.
class ClassifierTrainingRun {
 public:
  // Validates `config` and both datasets (exceptions as train_classifier). `validation` may be
  // empty: then there is no early stopping.
  ClassifierTrainingRun(SequenceClassifier& model, const TextPipeline& pipeline, const EncodedDataset& train,
                        const EncodedDataset& validation, const TrainerConfig& config);
  ~ClassifierTrainingRun();
  ClassifierTrainingRun(const ClassifierTrainingRun&) = delete;
  ClassifierTrainingRun& operator=(const ClassifierTrainingRun&) = delete;

  // True after the last epoch, early stopping or finish().
  bool finished() const;
  // True when every batch of the current epoch has been stepped and end_epoch() is due.
  bool epoch_complete() const;
  // One optimiser step on the next batch. Requires !finished() && !epoch_complete(). On
  // divergence restores the last finite parameters, finishes the run and throws
  // std::runtime_error (see train_classifier).
  StepProgress step();
  // Validation metrics, best-parameter snapshot and early stopping for the completed epoch.
  // Requires epoch_complete(). The run is finished afterwards when that was the last epoch or
  // patience ran out; the model still holds this epoch's parameters until finish().
  const EpochProgress& end_epoch();
  // Ends the run (`cancelled` marks an early stop by the caller) and puts the best validation
  // epoch's parameters back into the model. Idempotent; returns the final result.
  const TrainingResult& finish(bool cancelled = false);

  // Data-parallel steps (docs/data-parallel.md). K replicas — runs built from identical models,
  // data and config, e.g. one per worker — split each batch into K contiguous shards (shard r
  // holds examples [floor(r·B/K), floor((r+1)·B/K)) of the batch, so sizes differ by at most
  // one); each computes its shard's gradient, the buffers are exchanged, and every replica adds
  // the K of them in shard order and applies the sum: their parameters stay bit-identical. An exchange buffer holds
  // exchange_size() floats: the SUM over the shard's examples of the loss gradient of every parameter, flat in
  // parameters() order (dense, the embedding table included), then the shard's loss sum and its count of correct
  // predictions.
  std::size_t exchange_size() const;
  // Fills out[0..exchange_size()) for shard `shard` of `shards` of the next batch; the model's
  // parameters do not change. Dropout masks come from Rng(config.seed, stream) with the stream
  // keyed by (step, shard, shards): deterministic for a given seed and K, but they differ from
  // step()'s. A shard whose forward rejects non-finite values reports NaN, so apply_gradient
  // diverges on every replica alike. A shard may be empty (K > B): its buffer is all zeros.
  // Requires !finished() && !epoch_complete(); throws std::invalid_argument when shards is 0,
  // shard >= shards, or `size` is not exchange_size().
  void shard_gradient(std::size_t shard, std::size_t shards, float* out, std::size_t size);
  // One optimiser step on the next batch from the exchange buffers of all its shards (`parts`, K
  // pointers to `size` floats, in shard order; added in that order): gradient / B, then step()'s
  // clipping, schedule, optimiser and bookkeeping. Divergence (a non-finite loss or gradient
  // norm) as step(). Same requirements and size check as shard_gradient.
  StepProgress apply_gradient(const std::vector<const float*>& parts, std::size_t size);

  const TrainingResult& result() const;
  // Steps the full schedule would take (epochs × batches per epoch); early stopping may end sooner.
  std::size_t planned_steps() const;
  std::size_t batches_per_epoch() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Trains `model` in place on `train`, holding out config.validation_split of it (stratified) for
// validation. At the end, including after cancellation, the model holds the parameters of the
// epoch with the lowest validation loss (when there was a validation set). When a loss or
// gradient norm becomes NaN/Inf (or a layer rejects NaN/Inf activations), the parameters of the
// last step with a finite loss are restored and std::runtime_error is thrown ("training diverged
// at epoch E, step S (...)"). Throws std::invalid_argument for a bad config, an empty training
// set, labels other than 0/1 or ids outside the model's vocabulary.
// Batches are padded on pipeline.config().padding's side to min(longest in the batch, maxlen).
TrainingResult train_classifier(SequenceClassifier& model, const TextPipeline& pipeline, const EncodedDataset& train,
                                const TrainerConfig& config, const TrainingCallbacks& callbacks = {});
// The same with an explicit validation set (config.validation_split is ignored; `validation`
// may be empty: then there is no early stopping).
TrainingResult train_classifier(SequenceClassifier& model, const TextPipeline& pipeline, const EncodedDataset& train,
                                const EncodedDataset& validation, const TrainerConfig& config,
                                const TrainingCallbacks& callbacks = {});

// P(positive) for each text, in order (inference mode).
std::vector<float> predict(SequenceClassifier& model, const TextPipeline& pipeline,
                           const std::vector<std::string>& texts);

struct Explanation {
  float probability = 0;            // P(positive)
  std::vector<std::string> tokens;  // [T] "<start>" then the words as tokenised (unknown ones too)
  std::vector<std::int32_t> ids;    // [T] what the model saw
  std::vector<float> weights;       // [T] attention-pooling weights (sum 1); empty without attention pooling
};
Explanation explain(SequenceClassifier& model, const TextPipeline& pipeline, const std::string& text);

}  // namespace attn
