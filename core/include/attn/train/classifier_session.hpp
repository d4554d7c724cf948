// A sentiment-model workspace that trains step by step: it owns the data (train and test
// LabelledText), the fitted text pipeline and the classifier, and runs training in chunks of
// optimiser steps so a caller (the browser worker) can pause, resume or cancel between chunks.
// Training follows train_sentiment_model exactly — same pipeline fit, stratified validation
// split, shuffles, early stopping with best-parameter restore and divergence handling — because
// both drive the same ClassifierTrainingRun (classifier_trainer.hpp): chunked training gives
// bit-identical parameters to one uninterrupted run.
//
// Legend: T tokens of one review (the explained text), N examples.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/data/review_stats.hpp"
#include "attn/data/synthetic_reviews.hpp"
#include "attn/train/baseline_training.hpp"
#include "attn/train/gradient_exchange.hpp"
#include "attn/train/sentiment_training.hpp"
#include "attn/train/step_chunks.hpp"

namespace attn {

// What make_sentiment_model needs, from one flat JSON object (every key optional; defaults are
// TextPipelineConfig's and ClassifierConfig's, seed 1): the fields of sentiment_model_settings().
//   pipeline:   num_words, maxlen, padding, truncating ("pre" | "post"), lowercase, strip_html,
//               keep_punctuation
//   classifier: encoder (bilstm | bigru | transformer), embed_dim, units, pooling, score,
//               attention_dim, layers, heads, ff_dim, positional (sinusoidal | learned), dropout,
//               word_dropout, causal
//   seed:       parameter initialisation
// vocab_size and max_len follow the pipeline (num_words, maxlen). Unknown keys throw
// std::invalid_argument "SentimentModelConfig: unknown setting 'x'".
struct SentimentModelConfig {
  TextPipelineConfig pipeline;
  ClassifierConfig classifier;
  std::uint64_t seed = 1;

  static SentimentModelConfig from_json(const std::string& json);
};

// SentimentModelConfig's fields: the pipeline's and the classifier's (but vocab_size and max_len,
// which follow the pipeline) and the seed. Its finish step sets those two and validates.
const SettingsSchema<SentimentModelConfig>& sentiment_model_settings();

// The synthetic generator's reviews as labelled texts, origins "synthetic:<index>".
std::vector<LabelledText> synthetic_labelled_texts(std::size_t count, std::uint64_t seed,
                                                   const SyntheticOptions& options = {});

// What one run_steps call did.
using SessionProgress = ChunkProgress<StepProgress, EpochProgress>;  // see train/step_chunks.hpp

class SentimentSession {
 public:
  SentimentSession();
  ~SentimentSession();
  SentimentSession(const SentimentSession&) = delete;
  SentimentSession& operator=(const SentimentSession&) = delete;

  // Replaces the data; a training run in progress ends (its parameters stay in the model). The
  // model, if any, is kept: it can be evaluated on the new test set or trained further.
  // Throws DataError (check_two_classes) unless `train` holds both labels.
  void set_data(std::vector<LabelledText> train, std::vector<LabelledText> test);
  const std::vector<LabelledText>& train_set() const { return train_; }
  const std::vector<LabelledText>& test_set() const { return test_; }

  // A fresh model whose pipeline is fitted on the training texts. Throws std::logic_error
  // without data, std::invalid_argument for a bad configuration. Ends any training run.
  void create_model(const SentimentModelConfig& config);
  // A model file as save_model writes it (ModelFileError for anything else). Ends any run.
  void load_model(const std::uint8_t* data, std::size_t size);
  std::vector<std::uint8_t> save_model() const;
  bool has_model() const { return model_.classifier != nullptr; }
  const SentimentModel& model() const;

  // Starts a run from the model's current parameters: encodes the training set with the
  // model's pipeline and holds out config.validation_split of it (stratified, config.seed).
  // Replaces a previous run. Exceptions as train_classifier.
  void start_training(const TrainerConfig& config);
  // Up to max_steps optimiser steps; an epoch that completes is validated at once (possibly
  // ending the run early). After divergence (std::runtime_error, parameters restored) the run is
  // over. Throws std::logic_error when no run was started.
  SessionProgress run_steps(std::size_t max_steps);
  // Data-parallel training (ClassifierTrainingRun::shard_gradient, docs/data-parallel.md): the
  // run's exchange buffer size; shard `shard` of `shards` of the next batch (the buffer is kept
  // until the step is applied: send a copy to the other replicas); and one step from this
  // replica's buffer and `others` (the other K - 1 shards', in shard order), added in shard order,
  // closing the epoch if it completes, as run_steps(1) would. Throw std::logic_error when no run
  // was started, it has finished or no shard gradient was computed for the step;
  // std::invalid_argument for another count or length of buffers (ShardBuffers::in_order).
  std::size_t exchange_size() const;
  const std::vector<float>& shard_gradient(std::size_t shard, std::size_t shards);
  SessionProgress apply_gradient(const std::vector<std::vector<float>>& others);
  // Ends the run now; the model gets the best validation epoch's parameters (if one completed).
  void cancel_training();
  // A run exists and has steps left.
  bool training() const;
  // The current or last run's result (throws std::logic_error when none was started).
  const TrainingResult& training_result() const;

  // Metrics on the test set ("test"), the training examples the run trains on ("train"), its
  // validation part ("validation"), or all loaded training data ("all-train" = before the split).
  ClassificationMetrics evaluate(const std::string& which) const;
  std::vector<float> predict(const std::vector<std::string>& texts) const;
  Explanation explain(const std::string& text) const;
  // explain() of every watched text: the attention snapshot shown while training. Inference only,
  // so interleaving it with run_steps does not change the training numbers.
  std::vector<Explanation> explain_all(const std::vector<std::string>& texts) const;

  // The bag-of-n-grams baseline, kept beside the neural model so the two can be compared on the
  // same reviews: trained on all the training data (baseline_training.hpp), in one call (seconds
  // on 25,000 reviews). New data keeps it, as it keeps the model. Throws std::logic_error without
  // data, exceptions as BagOfNgramsClassifier::fit otherwise (the previous baseline stays).
  void train_baseline(const BagOfNgramsConfig& config, const BagOfNgramsProgressFn& progress = {});
  bool has_baseline() const { return baseline_.fitted(); }
  const BagOfNgramsClassifier& baseline() const { return baseline_; }
  // Metrics on the test set ("test") or all training data ("all-train"); std::logic_error
  // without a baseline.
  ClassificationMetrics evaluate_baseline(const std::string& which) const;
  BagOfNgramsExplanation explain_baseline(const std::string& text) const;

  // Balance and lengths of the training (test = false) or test set.
  ReviewStats data_stats(bool test, std::size_t bins = 20) const;
  // Coverage by the model's vocabulary (requires a model).
  VocabularyCoverage coverage(bool test) const;

 private:
  SequenceClassifier& classifier(const char* who) const;
  void end_run();

  std::vector<LabelledText> train_, test_;
  SentimentModel model_;
  // The run's datasets live here because the run borrows them.
  EncodedDataset run_train_, run_validation_;
  std::unique_ptr<ClassifierTrainingRun> run_;
  ShardBuffers shard_buffers_;  // this replica's side of a data-parallel step
  BagOfNgramsClassifier baseline_;
};

}  // namespace attn
