#include "attn/train/classifier_session.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

#include "attn/io/flat_json.hpp"

namespace attn {

const SettingsSchema<SentimentModelConfig>& sentiment_model_settings() {
  using C = SentimentModelConfig;
  static const SettingsSchema<C> schema = [] {
    std::vector<SettingField<C>> fields =
        nested_settings<C>(text_pipeline_settings(), [](C& c) -> TextPipelineConfig& { return c.pipeline; });
    for (SettingField<C>& f :
         nested_settings<C>(classifier_settings(), [](C& c) -> ClassifierConfig& { return c.classifier; })) {
      if (f.spec.name != "vocab_size" && f.spec.name != "max_len") fields.push_back(std::move(f));
    }
    fields.push_back(whole_setting<C>(
        "seed", [](C & c) -> auto& { return c.seed; }, seed_range(),
        "fixes initialisation, shuffling, dropout and the validation split", "seed"));
    return SettingsSchema<C>("SentimentModelConfig", std::move(fields), [](C& c) {
      c.pipeline.validate();
      c.classifier.vocab_size = c.pipeline.num_words;
      c.classifier.max_len = c.pipeline.maxlen;  // the positional encoding reaches the longest review
      c.classifier.validate();
    });
  }();
  return schema;
}

SentimentModelConfig SentimentModelConfig::from_json(const std::string& json) {
  return sentiment_model_settings().read(json);
}

std::vector<LabelledText> synthetic_labelled_texts(std::size_t count, std::uint64_t seed,
                                                   const SyntheticOptions& options) {
  std::vector<LabelledText> out;
  const std::vector<SyntheticReview> reviews = generate_synthetic_reviews(count, seed, options);
  out.reserve(reviews.size());
  for (std::size_t i = 0; i < reviews.size(); ++i) {
    out.push_back({reviews[i].text, reviews[i].label, "synthetic:" + std::to_string(i), {}});
  }
  return out;
}

SentimentSession::SentimentSession() = default;
SentimentSession::~SentimentSession() = default;

SequenceClassifier& SentimentSession::classifier(const char* who) const {
  if (!model_.classifier) throw std::logic_error(std::string(who) + ": no model yet; create or load one first");
  return *model_.classifier;
}

const SentimentModel& SentimentSession::model() const {
  classifier("SentimentSession::model");
  return model_;
}

void SentimentSession::end_run() {
  if (run_) run_->finish(true);
}

void SentimentSession::set_data(std::vector<LabelledText> train, std::vector<LabelledText> test) {
  check_two_classes(train, "the training data");
  end_run();
  train_ = std::move(train);
  test_ = std::move(test);
}

void SentimentSession::create_model(const SentimentModelConfig& config) {
  if (train_.empty()) throw std::logic_error("SentimentSession::create_model: load training data first");
  TextPipeline pipeline(config.pipeline);
  pipeline.fit(train_);
  SentimentModel fresh = make_sentiment_model(std::move(pipeline), config.classifier, config.seed);
  end_run();
  run_.reset();  // it borrows the old model
  model_ = std::move(fresh);
}

void SentimentSession::load_model(const std::uint8_t* data, std::size_t size) {
  SentimentModel loaded = load_sentiment_model(data, size);
  end_run();
  run_.reset();
  model_ = std::move(loaded);
}

std::vector<std::uint8_t> SentimentSession::save_model() const {
  classifier("SentimentSession::save_model");
  return save_sentiment_model(model_);
}

void SentimentSession::start_training(const TrainerConfig& config) {
  SequenceClassifier& model = classifier("SentimentSession::start_training");
  config.validate();
  if (train_.empty()) throw std::logic_error("SentimentSession::start_training: load training data first");
  run_.reset();
  // As train_classifier's split overload does, so the numbers match train_sentiment_model.
  auto parts = stratified_split(encode_dataset(model_.pipeline, train_), config.validation_split, config.seed);
  run_train_ = std::move(parts.first);
  run_validation_ = std::move(parts.second);
  run_ = std::make_unique<ClassifierTrainingRun>(model, model_.pipeline, run_train_, run_validation_, config);
  shard_buffers_ = ShardBuffers();
}

SessionProgress SentimentSession::run_steps(std::size_t max_steps) {
  if (!run_) throw std::logic_error("SentimentSession::run_steps: start training first");
  return run_step_chunk(*run_, max_steps, &ClassifierTrainingRun::result);
}

std::size_t SentimentSession::exchange_size() const {
  if (!run_) throw std::logic_error("SentimentSession::exchange_size: start training first");
  return run_->exchange_size();
}

const std::vector<float>& SentimentSession::shard_gradient(std::size_t shard, std::size_t shards) {
  return shard_gradient_into(run_.get(), shard_buffers_, "SentimentSession", shard, shards);
}

SessionProgress SentimentSession::apply_gradient(const std::vector<std::vector<float>>& others) {
  return apply_shard_gradients(run_.get(), shard_buffers_, "SentimentSession", others, &ClassifierTrainingRun::result);
}

void SentimentSession::cancel_training() {
  if (!run_) throw std::logic_error("SentimentSession::cancel_training: no training run");
  run_->finish(true);
}

bool SentimentSession::training() const { return run_ && !run_->finished(); }

const TrainingResult& SentimentSession::training_result() const {
  if (!run_) throw std::logic_error("SentimentSession::training_result: no training run");
  return run_->result();
}

ClassificationMetrics SentimentSession::evaluate(const std::string& which) const {
  SequenceClassifier& model = classifier("SentimentSession::evaluate");
  if (which == "test") return evaluate_classifier(model, model_.pipeline, encode_dataset(model_.pipeline, test_));
  if (which == "all-train") {
    return evaluate_classifier(model, model_.pipeline, encode_dataset(model_.pipeline, train_));
  }
  if (which == "train" || which == "validation") {
    if (!run_) throw std::logic_error("SentimentSession::evaluate: '" + which + "' needs a training run");
    return evaluate_classifier(model, model_.pipeline, which == "train" ? run_train_ : run_validation_);
  }
  throw std::invalid_argument("SentimentSession::evaluate: which must be test, train, validation or all-train, got '" +
                              which + "'");
}

void SentimentSession::train_baseline(const BagOfNgramsConfig& config, const BagOfNgramsProgressFn& progress) {
  if (train_.empty()) throw std::logic_error("SentimentSession::train_baseline: load data first");
  baseline_ = train_bag_of_ngrams(train_, config, progress);
}

ClassificationMetrics SentimentSession::evaluate_baseline(const std::string& which) const {
  if (!has_baseline()) throw std::logic_error("SentimentSession::evaluate_baseline: train the baseline first");
  if (which == "test") return evaluate_bag_of_ngrams(baseline_, test_);
  if (which == "all-train") return evaluate_bag_of_ngrams(baseline_, train_);
  throw std::invalid_argument("SentimentSession::evaluate_baseline: which must be test or all-train, got '" + which +
                              "'");
}

BagOfNgramsExplanation SentimentSession::explain_baseline(const std::string& text) const {
  if (!has_baseline()) throw std::logic_error("SentimentSession::explain_baseline: train the baseline first");
  return explain_bag_of_ngrams(baseline_, text);
}

std::vector<float> SentimentSession::predict(const std::vector<std::string>& texts) const {
  return attn::predict(classifier("SentimentSession::predict"), model_.pipeline, texts);
}

Explanation SentimentSession::explain(const std::string& text) const {
  return attn::explain(classifier("SentimentSession::explain"), model_.pipeline, text);
}

std::vector<Explanation> SentimentSession::explain_all(const std::vector<std::string>& texts) const {
  SequenceClassifier& model = classifier("SentimentSession::explain_all");
  std::vector<Explanation> out;
  out.reserve(texts.size());
  for (const std::string& text : texts) out.push_back(attn::explain(model, model_.pipeline, text));
  return out;
}

ReviewStats SentimentSession::data_stats(bool test, std::size_t bins) const {
  const TokenizerOptions tokenizer = model_.classifier ? model_.pipeline.config().tokenizer : TokenizerOptions{};
  return review_stats(test ? test_ : train_, tokenizer, bins);
}

VocabularyCoverage SentimentSession::coverage(bool test) const {
  classifier("SentimentSession::coverage");
  return vocabulary_coverage(model_.pipeline, test ? test_ : train_);
}

}  // namespace attn
