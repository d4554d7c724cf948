#include "attn/train/classifier_session.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

#include "attn/io/flat_json.hpp"

namespace attn {

SentimentModelConfig SentimentModelConfig::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  static const std::set<std::string> known = {
      "num_words", "maxlen",    "padding",    "truncating", "lowercase",    "strip_html",    "keep_punctuation",
      "encoder",   "embed_dim", "units",      "pooling",    "score",        "attention_dim", "layers",
      "heads",     "ff_dim",    "positional", "dropout",    "word_dropout", "causal",        "seed"};
  for (const std::string& key : j.keys()) {
    if (!known.count(key)) throw std::invalid_argument("SentimentModelConfig: unknown setting '" + key + "'");
  }
  SentimentModelConfig c;
  TextPipelineConfig& p = c.pipeline;
  if (j.has("num_words")) p.num_words = j.get_size("num_words");
  if (j.has("maxlen")) p.maxlen = j.get_size("maxlen");
  if (j.has("padding")) p.padding = pad_mode_from_name(j.get_string("padding"));
  if (j.has("truncating")) p.truncating = pad_mode_from_name(j.get_string("truncating"));
  if (j.has("lowercase")) p.tokenizer.lowercase = j.get_bool("lowercase");
  if (j.has("strip_html")) p.tokenizer.strip_html = j.get_bool("strip_html");
  if (j.has("keep_punctuation")) p.tokenizer.keep_punctuation = j.get_bool("keep_punctuation");
  p.validate();
  ClassifierConfig& m = c.classifier;
  m.vocab_size = p.num_words;
  m.max_len = std::max(m.max_len, p.maxlen);
  if (j.has("encoder")) m.encoder = encoder_kind_from_name(j.get_string("encoder"));
  if (j.has("embed_dim")) m.embed_dim = j.get_size("embed_dim");
  if (j.has("units")) m.units = j.get_size("units");
  if (j.has("pooling")) m.pooling = pooling_kind_from_name(j.get_string("pooling"));
  if (j.has("score")) m.score = score_kind_from_name(j.get_string("score"));
  if (j.has("attention_dim")) m.attention_dim = j.get_size("attention_dim");
  if (j.has("layers")) m.layers = j.get_size("layers");
  if (j.has("heads")) m.heads = j.get_size("heads");
  if (j.has("ff_dim")) m.ff_dim = j.get_size("ff_dim");
  if (j.has("positional")) {
    const std::string positional = j.get_string("positional");
    if (positional != "learned" && positional != "sinusoidal") {
      throw std::invalid_argument("SentimentModelConfig: positional must be sinusoidal or learned, got '" + positional +
                                  "'");
    }
    m.positional = positional == "learned" ? PositionalKind::learned : PositionalKind::sinusoidal;
  }
  if (j.has("dropout")) m.dropout = static_cast<float>(j.get_number("dropout"));
  if (j.has("word_dropout")) m.word_dropout = static_cast<float>(j.get_number("word_dropout"));
  if (j.has("causal")) m.causal = j.get_bool("causal");
  m.validate();
  if (j.has("seed")) c.seed = j.get_size("seed", std::numeric_limits<std::uint32_t>::max());
  return c;
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
}

SessionProgress SentimentSession::run_steps(std::size_t max_steps) {
  if (!run_) throw std::logic_error("SentimentSession::run_steps: start training first");
  return run_step_chunk(*run_, max_steps, &ClassifierTrainingRun::result);
}

std::size_t SentimentSession::exchange_size() const {
  if (!run_) throw std::logic_error("SentimentSession::exchange_size: start training first");
  return run_->exchange_size();
}

void SentimentSession::shard_gradient(std::size_t shard, std::size_t shards, std::vector<float>& out) {
  if (!run_) throw std::logic_error("SentimentSession::shard_gradient: start training first");
  out.resize(run_->exchange_size());
  run_->shard_gradient(shard, shards, out.data(), out.size());
}

SessionProgress SentimentSession::apply_gradient(const std::vector<float>& sum) {
  if (!run_) throw std::logic_error("SentimentSession::apply_gradient: start training first");
  if (run_->finished()) throw std::logic_error("SentimentSession::apply_gradient: the run has finished");
  return run_step_chunk(*run_, 1, &ClassifierTrainingRun::result,
                        [&] { return run_->apply_gradient(sum.data(), sum.size()); });
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
