// Training and evaluating any TrainableTranslator (models/translator.hpp; the RNN Seq2SeqModel of
// models/seq2seq.hpp is one): a held-out validation share (or an external validation
// set), per-epoch shuffling with length bucketing, Adam with global-norm clipping, scheduled
// teacher forcing, early stopping on validation exact match (best parameters restored) and
// divergence handling, with progress callbacks that can cancel. The batches, the run guard and the
// best-epoch bookkeeping are the training kit's (train/batching.hpp, train/run_guard.hpp), shared
// with the classifier's trainer.
//
// Legend: N examples, B batch, Tx / Ty the longest source / target of one batch (each batch is
// padded 'post' with PAD to its own longest sequence).
//
// Data: sources[i] are source ids (no BOS/EOS), targets[i] = BOS y1 .. yn EOS (ids < Vt).
// Determinism: the split, the shuffles and the teacher-forcing draws come from Rng(config.seed, ·)
// streams, so a model seed, the data and the config fix every number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"

namespace attn {

using Sequences = std::vector<std::vector<int>>;

struct Seq2SeqTrainerConfig {
  std::size_t epochs = 10;
  std::size_t batch = 64;
  float learning_rate = 0.002f;  // Adam; the schedule's base rate (optim/schedule.hpp)
  // Learning-rate schedule over the planned steps (epochs × batches per epoch): "constant",
  // "linear" or "cosine" (down to 0 at the last planned step), "inverse_sqrt"; each after a
  // linear warm-up from 0 over warmup_steps, at most half the planned steps (so a recipe
  // sized for a large file still trains a small one).
  std::string schedule = "constant";
  std::size_t warmup_steps = 0;
  float clip_norm = 5;  // global gradient norm; <= 0 disables clipping
  // Teacher-forcing ratio, linear from start (first epoch) to end (last epoch); 1 = always gold.
  float teacher_forcing_start = 1, teacher_forcing_end = 1;
  float validation_split = 0.1f;            // share held out when no validation set is given; 0 = none
  std::size_t early_stopping_patience = 3;  // epochs without a better validation score; 0 = off
  // At the end, put back the parameters of the best validation epoch (by validation exact match,
  // then free-running token accuracy, then loss); false keeps the last epoch's. A decoder that
  // peeks at later targets (the course's unmasked Transformer) scores best free-running in its
  // first epoch, long before its teacher-forced loss bottoms out: restoring would show that epoch.
  bool restore_best = true;
  std::size_t bucket_window = 16;  // batches per shuffled window sorted by source length; 1 = no bucketing
  std::size_t max_decode_len = 0;  // validation decoding steps; 0 = longest gold target + 2
  std::uint64_t seed = 1;

  // Throws std::invalid_argument "Seq2SeqTrainerConfig: <field> must be <rule>, got <value>"
  // (seq2seq_trainer_settings()).
  void validate() const;
  // The ratio used in `epoch` (0-based).
  float teacher_forcing_at(std::size_t epoch) const;
};

// Seq2SeqTrainerConfig's fields (io/settings_schema.hpp): its checks, and the ones the seq2seq
// session's settings take (train/seq2seq_session.hpp).
const SettingsSchema<Seq2SeqTrainerConfig>& seq2seq_trainer_settings();

struct Seq2SeqLengthMetrics {
  std::size_t source_length = 0;
  std::size_t count = 0, exact = 0;
};

struct Seq2SeqMetrics {
  std::size_t count = 0;
  // Share of examples whose decoded tokens equal y1 .. yn exactly.
  double exact_match = 0;
  // Position-wise over y1 .. yn EOS: hits / Σ (n + 1), a hit being the decoded sequence (with its
  // EOS when it emitted one) holding the gold token at that position.
  double token_accuracy = 0;
  std::vector<Seq2SeqLengthMetrics> by_source_length;  // ascending source length
};

// Greedy-decodes every source with any translator (greedy_search, models/translator.hpp; batches
// of `batch`, at most max_len steps) and compares with targets [BOS y EOS]. Throws
// std::invalid_argument when the counts differ.
Seq2SeqMetrics evaluate_seq2seq(const Translator& translator, const Sequences& sources, const Sequences& targets,
                                std::size_t max_len, std::size_t batch = 256);

// Teacher-forced token accuracy: each target's gold prefix BOS y1 .. y_{t-1} is fed in and the
// step's best emittable token (never PAD / BOS) is compared with y_t, over y1 .. yn EOS. Not a
// translation quality (the decoder never sees its own mistakes): report it labelled as such.
// Batches of `batch` sources padded 'post'. std::invalid_argument when the counts differ.
double teacher_forced_accuracy(const Translator& translator, const Sequences& sources, const Sequences& targets,
                               std::size_t batch = 256);

// The same accuracy from the Transformer's teacher-forced forward — every position at once, with
// the model's own decoder self-attention mask: the computation training optimises. Under the
// causal mask it equals teacher_forced_accuracy; under a mask that lets a position see later
// ones it is what the model scores with the answer in view, while the step-by-step
// teacher_forced_accuracy (and decoding) cannot see later positions.
double parallel_teacher_forced_accuracy(TransformerSeq2Seq& model, const Sequences& sources, const Sequences& targets,
                                        std::size_t batch = 256);

struct Seq2SeqStepProgress {
  std::size_t step = 0, epoch = 0;  // step: 1-based optimiser steps; epoch: 0-based
  float loss = 0;                   // this batch's mean token cross-entropy
  float learning_rate = 0;          // the rate this step used (the schedule's)
  double elapsed = 0;               // seconds since training started
  double examples_per_second = 0;
  std::size_t examples_seen = 0;  // pairs stepped on so far
};

struct Seq2SeqEpochProgress {
  std::size_t epoch = 0;
  double train_loss = 0;      // mean over the epoch's target tokens
  float teacher_forcing = 1;  // the ratio this epoch used
  bool has_validation = false;
  double validation_loss = 0;  // teacher-forced
  Seq2SeqMetrics validation;   // greedy decoding
  // The run's epoch scorer's number (Seq2SeqTrainingRun::score_epochs_with; the page's session:
  // held-out BLEU), taken while the model holds this epoch's parameters.
  bool has_score = false;
  double score = 0;
  double seconds = 0;  // training and validation, without the scorer
};

// Return false to cancel: training stops after the current step / epoch, without throwing.
struct Seq2SeqCallbacks {
  std::function<bool(const Seq2SeqStepProgress&)> on_step;
  std::function<bool(const Seq2SeqEpochProgress&)> on_epoch;
};

struct Seq2SeqHistory {
  std::vector<Seq2SeqEpochProgress> epochs;
  std::size_t steps = 0;
  bool cancelled = false, early_stopped = false;
  // The best validation epoch; the model holds its parameters (restore_best) or the last epoch's
  // (restore_best false, or -1: no validation).
  int best_epoch = -1;
  std::size_t train_examples = 0, validation_examples = 0;
  double seconds = 0;
};

// Splits (sources, targets) into training and held-out validation parts as train_seq2seq does:
// the last round(share · N) of an Rng(seed, ·)-shuffled order are held out, each part keeps the
// original order. Throws std::invalid_argument when the counts differ.
struct Seq2SeqSplit {
  Sequences train_sources, train_targets, validation_sources, validation_targets;
};
Seq2SeqSplit split_seq2seq_validation(const Sequences& sources, const Sequences& targets, float share,
                                      std::uint64_t seed);

// One training run as a resumable state machine, so a caller can interleave steps with other
// work (the browser worker trains in chunks and answers pause / cancel messages between them).
// train_seq2seq below is exactly: construct, then step / end_epoch until finished, finish.
//   while (!run.finished()) { run.step(); if (run.epoch_complete()) run.end_epoch(); }  run.finish();
// The model and the four sequence sets are borrowed: they must outlive the run and stay unchanged.
class Seq2SeqTrainingRun {
 public:
  // Validates `config` and the data (exceptions as train_seq2seq); the
  // validation set may be empty.
  Seq2SeqTrainingRun(TrainableTranslator& model, const Sequences& sources, const Sequences& targets,
                     const Sequences& validation_sources, const Sequences& validation_targets,
                     const Seq2SeqTrainerConfig& config);
  ~Seq2SeqTrainingRun();
  Seq2SeqTrainingRun(const Seq2SeqTrainingRun&) = delete;
  Seq2SeqTrainingRun& operator=(const Seq2SeqTrainingRun&) = delete;

  // True after the last epoch, early stopping, divergence or finish().
  bool finished() const;
  // True when every batch of the current epoch has been stepped and end_epoch()
  // is due.
  bool epoch_complete() const;
  // One optimiser step on the next batch. Requires !finished() &&
  // !epoch_complete() (else std::logic_error). On divergence restores the last
  // finite parameters, finishes the run and throws std::runtime_error (see
  // train_seq2seq).
  Seq2SeqStepProgress step();
  // Data-parallel steps (docs/data-parallel.md, as ClassifierTrainingRun's): K replicas (runs
  // built from the same model seed, data and config) each compute shard r of the next batch
  // (rows [⌊r·B/K⌋, ⌊(r+1)·B/K⌋), padded to the whole batch's widths), the buffers are exchanged
  // and every replica adds the K of them in shard order and applies the sum, so the replicas stay
  // bit-identical.
  // A buffer holds exchange_size() floats: the SUM over the shard's target tokens of the loss
  // gradient of every parameter (flat, parameters() order), then the shard's loss sum and its
  // target-token count. Dropout and scheduled-sampling draws come from a stream keyed by (step,
  // shard, K): deterministic for a seed and K. A shard whose forward rejects non-finite values
  // (or whose loss is not finite) reports NaN, so apply_gradient diverges on every replica.
  std::size_t exchange_size() const;
  // Fills out[0..exchange_size()); the parameters do not change. std::invalid_argument for a bad
  // shard or size; std::logic_error as step() for a finished run or a due end_epoch().
  void shard_gradient(std::size_t shard, std::size_t shards, float* out, std::size_t size);
  // The optimiser step of the next batch from the K buffers (`parts`, `size` floats each, in shard
  // order; added in that order): gradient ÷ the batch's token count, then step()'s clipping, Adam,
  // divergence handling and bookkeeping.
  Seq2SeqStepProgress apply_gradient(const std::vector<const float*>& parts, std::size_t size);
  // Validation, best-parameter snapshot and early stopping for the completed
  // epoch. Requires epoch_complete(). The run is finished afterwards when that
  // was the last epoch or patience ran out; the model holds this epoch's
  // parameters until finish().
  const Seq2SeqEpochProgress& end_epoch();
  // Ends the run (`cancelled` marks a stop by the caller) and puts the best
  // validation epoch's parameters back into the model. Idempotent; returns the
  // final history.
  const Seq2SeqHistory& finish(bool cancelled = false);

  const Seq2SeqHistory& history() const;
  // Called by every end_epoch() after validation, with the model holding that epoch's parameters;
  // its result is the epoch's `score` (it does not rank epochs). Null: no score.
  void score_epochs_with(std::function<double(const Translator&)> scorer);
  // epochs × batches per epoch; early stopping may end sooner.
  std::size_t planned_steps() const;
  std::size_t batches_per_epoch() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Trains in place, holding out config.validation_split of the data for validation. The best
// epoch ranks by validation exact match, then token accuracy, then lower validation loss; the
// model ends with its parameters (also after cancelling). A non-finite loss or gradient norm
// restores the parameters of the last finite step and throws std::runtime_error ("training
// diverged at epoch E, step S ..."). Throws std::invalid_argument for a bad config, no training
// examples, a target that is not BOS .. EOS, or ids outside the model's vocabularies.
Seq2SeqHistory train_seq2seq(TrainableTranslator& model, const Sequences& sources, const Sequences& targets,
                             const Seq2SeqTrainerConfig& config, const Seq2SeqCallbacks& callbacks = {});
// The same with an explicit validation set (validation_split is ignored; it may be empty).
Seq2SeqHistory train_seq2seq(TrainableTranslator& model, const Sequences& sources, const Sequences& targets,
                             const Sequences& validation_sources, const Sequences& validation_targets,
                             const Seq2SeqTrainerConfig& config, const Seq2SeqCallbacks& callbacks = {});

}  // namespace attn
