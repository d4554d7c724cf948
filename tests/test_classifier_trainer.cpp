#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "attn/data/synthetic_reviews.hpp"
#include "attn/train/classifier_trainer.hpp"
#include "support/parameter_values.hpp"

using namespace attn;

namespace {
std::vector<LabelledText> synthetic_texts(std::size_t count, std::uint64_t seed) {
  std::vector<LabelledText> out;
  for (const SyntheticReview& r : generate_synthetic_reviews(count, seed))
    out.push_back({r.text, r.label, "synthetic"});
  return out;
}

ClassifierConfig tiny_model(std::size_t vocab) {
  ClassifierConfig c;
  c.vocab_size = vocab;
  c.embed_dim = 8;
  c.units = 8;
  c.attention_dim = 8;
  return c;
}

struct Fixture {
  TextPipeline pipeline;
  EncodedDataset train;
  Fixture(std::size_t count = 96) {
    TextPipelineConfig config;
    config.num_words = 200;
    config.maxlen = 40;
    pipeline = TextPipeline(config);
    const auto texts = synthetic_texts(count, 5);
    pipeline.fit(texts);
    train = encode_dataset(pipeline, texts);
  }
};

}  // namespace

TEST_CASE("classifier_trainer.config_errors_are_clear") {
  TrainerConfig c;
  CHECK_NOTHROW(c.validate());
  c.batch_size = 0;
  CHECK_THROWS_WITH_AS(c.validate(), "TrainerConfig: batch_size must be a whole number from 1 to 65536, got 0",
                       std::invalid_argument);
  c = {};
  c.learning_rate = 0;
  CHECK_THROWS_WITH_AS(c.validate(), "TrainerConfig: learning_rate must be finite and > 0, got 0",
                       std::invalid_argument);
  c = {};
  c.validation_split = 1;
  CHECK_THROWS_WITH_AS(c.validate(), "TrainerConfig: validation_split must be in [0, 1), got 1", std::invalid_argument);
  c = {};
  c.optimizer = "rmsprop";
  CHECK_THROWS_WITH_AS(c.validate(), "TrainerConfig: optimizer must be one of adam, adamw, sgd, got 'rmsprop'",
                       std::invalid_argument);
  c = {};
  c.schedule = "step";
  CHECK_THROWS_AS(c.validate(), std::invalid_argument);
  c = {};
  c.epochs = 0;
  CHECK_THROWS_AS(c.validate(), std::invalid_argument);
  c = {};
  c.weight_decay = -1;
  CHECK_THROWS_AS(c.validate(), std::invalid_argument);
}

TEST_CASE("classifier_trainer.config_json_round_trip") {
  TrainerConfig c;
  c.epochs = 9;
  c.optimizer = "adamw";
  c.schedule = "cosine";
  c.learning_rate = 0.25f;
  c.bucket_by_length = false;
  c.seed = 12345;
  const TrainerConfig d = TrainerConfig::from_json(c.to_json());
  CHECK(d.epochs == 9);
  CHECK(d.optimizer == "adamw");
  CHECK(d.schedule == "cosine");
  CHECK(d.learning_rate == 0.25f);
  CHECK_FALSE(d.bucket_by_length);
  CHECK(d.seed == 12345);
  CHECK_THROWS_WITH_AS(TrainerConfig::from_json("{\"epoch\": 3}"), "TrainerConfig: unknown setting 'epoch'",
                       std::invalid_argument);
}

TEST_CASE("classifier_trainer.metrics_from_a_hand_made_confusion_matrix") {
  // tp 3, fp 1, tn 4, fn 2: accuracy 7/10, precision 3/4, recall 3/5,
  // F1 = 2·0.75·0.6 / (0.75 + 0.6) = 0.9 / 1.35 = 2/3.
  const ClassificationMetrics m = metrics_from_counts(3, 1, 4, 2);
  CHECK(m.accuracy == doctest::Approx(0.7));
  CHECK(m.precision == doctest::Approx(0.75));
  CHECK(m.recall == doctest::Approx(0.6));
  CHECK(m.f1 == doctest::Approx(2.0 / 3.0));
  CHECK(m.count() == 10);
  // No predicted positives: precision and F1 are 0, not NaN.
  const ClassificationMetrics none = metrics_from_counts(0, 0, 5, 5);
  CHECK(none.precision == 0);
  CHECK(none.f1 == 0);
  // From probabilities: p > 0.5 is positive. [0.9 | 1] tp, [0.2 | 0] tn, [0.6 | 0] fp, [0.5 | 1] fn.
  // Loss = −(ln 0.9 + ln 0.8 + ln 0.4 + ln 0.5) / 4.
  const ClassificationMetrics p = classification_metrics({0.9f, 0.2f, 0.6f, 0.5f}, {1, 0, 0, 1});
  CHECK(p.tp == 1);
  CHECK(p.tn == 1);
  CHECK(p.fp == 1);
  CHECK(p.fn == 1);
  const double want = -(std::log(0.9) + std::log(0.8) + std::log(0.4) + std::log(0.5)) / 4;
  CHECK(p.loss == doctest::Approx(want).epsilon(1e-6));
  CHECK_THROWS_AS(classification_metrics({0.5f}, {1, 0}), std::invalid_argument);
}

TEST_CASE("classifier_trainer.stratified_split_is_deterministic_and_keeps_class_shares") {
  EncodedDataset data;
  for (int i = 0; i < 100; ++i) {
    data.sequences.push_back({1, 4 + i % 7});
    data.labels.push_back(i < 30 ? 1 : 0);  // 30 positive, 70 negative
  }
  const auto a = stratified_split(data, 0.2f, 3);
  const auto b = stratified_split(data, 0.2f, 3);
  CHECK(a.second.size() == 20);
  CHECK(std::count(a.second.labels.begin(), a.second.labels.end(), 1) == 6);  // 20% of 30
  CHECK(a.first.size() == 80);
  CHECK(a.second.sequences == b.second.sequences);
  const auto c = stratified_split(data, 0.f, 3);
  CHECK(c.second.size() == 0);
  CHECK_THROWS_AS(stratified_split(data, 1.f, 3), std::invalid_argument);
}

TEST_CASE("classifier_trainer.same_seed_gives_the_same_metrics") {
  Fixture f;
  TrainerConfig config;
  config.epochs = 2;
  config.batch_size = 16;
  config.validation_split = 0.25f;
  auto run = [&](std::uint64_t seed) {
    config.seed = seed;
    SequenceClassifier model(tiny_model(200), 7);
    return train_classifier(model, f.pipeline, f.train, config);
  };
  const TrainingResult a = run(1), b = run(1), c = run(2);
  REQUIRE(a.history.size() == 2);
  CHECK(a.validation_examples == 24);
  CHECK(a.history[1].train_loss == b.history[1].train_loss);
  CHECK(a.history[1].validation.loss == b.history[1].validation.loss);
  CHECK(a.best_validation.accuracy == b.best_validation.accuracy);
  CHECK(a.history[1].train_loss != c.history[1].train_loss);  // the seed matters
}

TEST_CASE("classifier_trainer.early_stopping_restores_the_best_parameters") {
  Fixture f;
  // Validation labels are the training labels flipped: the better the model learns, the worse
  // its validation loss, so the best epoch comes early and training stops `patience` later.
  EncodedDataset flipped = f.train;
  for (int& label : flipped.labels) label = 1 - label;
  TrainerConfig config;
  config.epochs = 20;
  config.batch_size = 16;
  config.learning_rate = 1e-2f;
  config.early_stopping_patience = 2;
  SequenceClassifier model(tiny_model(200), 3);
  std::vector<std::vector<std::vector<float>>> after_epoch;
  TrainingCallbacks callbacks;
  callbacks.on_epoch = [&](const EpochProgress&) {
    after_epoch.push_back(test::parameter_values(model.parameters()));
    return true;
  };
  const TrainingResult r = train_classifier(model, f.pipeline, f.train, flipped, config, callbacks);
  CHECK(r.early_stopped);
  REQUIRE(r.best_epoch >= 0);
  REQUIRE(r.history.size() == static_cast<std::size_t>(r.best_epoch) + 3);  // best, then 2 worse epochs
  double lowest = INFINITY;
  for (const EpochProgress& e : r.history) lowest = std::min(lowest, e.validation.loss);
  CHECK(r.best_validation.loss == lowest);
  // The model holds the best epoch's parameters, not the last ones.
  CHECK(test::parameter_values(model.parameters()) == after_epoch[static_cast<std::size_t>(r.best_epoch)]);
  CHECK(test::parameter_values(model.parameters()) != after_epoch.back());
  CHECK(evaluate_classifier(model, f.pipeline, flipped).loss == r.best_validation.loss);
}

TEST_CASE("classifier_trainer.callbacks_report_progress_and_cancel_cleanly") {
  Fixture f;
  TrainerConfig config;
  config.epochs = 3;
  config.batch_size = 16;
  config.validation_split = 0;
  SequenceClassifier model(tiny_model(200), 3);
  std::vector<StepProgress> steps;
  TrainingCallbacks callbacks;
  callbacks.on_step = [&](const StepProgress& p) {
    steps.push_back(p);
    return p.step < 3;  // cancel after the third step
  };
  const TrainingResult r = train_classifier(model, f.pipeline, f.train, config, callbacks);
  CHECK(r.cancelled);
  CHECK(r.steps == 3);
  CHECK(r.history.empty());
  REQUIRE(steps.size() == 3);
  CHECK(steps[2].step == 3);
  CHECK(steps[2].epoch == 0);
  CHECK(std::isfinite(steps[2].loss));
  CHECK(steps[2].elapsed >= steps[0].elapsed);

  // Cancelling from the epoch callback: one epoch of 96 / 16 = 6 steps, then stop.
  TrainingCallbacks after_one;
  after_one.on_epoch = [](const EpochProgress&) { return false; };
  SequenceClassifier other(tiny_model(200), 3);
  const TrainingResult e = train_classifier(other, f.pipeline, f.train, config, after_one);
  CHECK(e.cancelled);
  CHECK(e.history.size() == 1);
  CHECK(e.steps == 6);
}

TEST_CASE("classifier_trainer.divergence_restores_the_last_good_parameters") {
  Fixture f;
  TrainerConfig config;
  config.epochs = 5;
  config.batch_size = 16;
  config.optimizer = "sgd";
  config.learning_rate = 1e30f;  // the first update sends the weights to ~1e29: the next loss is not finite
  config.clip_norm = 0;
  config.validation_split = 0;
  SequenceClassifier model(tiny_model(200), 3);
  // P_0 = the initial parameters, P_k = after k steps.
  std::vector<std::vector<std::vector<float>>> history{test::parameter_values(model.parameters())};
  TrainingCallbacks callbacks;
  callbacks.on_step = [&](const StepProgress&) {
    history.push_back(test::parameter_values(model.parameters()));
    return true;
  };
  std::string message;
  try {
    train_classifier(model, f.pipeline, f.train, config, callbacks);
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  REQUIRE(message.find("training diverged at epoch 1, step ") == 0);
  CHECK(message.find("the parameters of the last step with a finite loss were restored") != std::string::npos);
  // k steps succeeded and step k + 1 (on P_k) failed: P_{k-1}, the parameters that last gave a
  // finite loss, are back (P_0 when the very first step failed).
  const std::size_t succeeded = history.size() - 1;
  REQUIRE(succeeded >= 1);
  CHECK(test::parameter_values(model.parameters()) == history[succeeded - 1]);
  for (const Parameter& p : model.parameters()) {
    for (std::size_t i = 0; i < p.size; ++i) REQUIRE(std::isfinite(p.value[i]));
  }
}

TEST_CASE("classifier_trainer.rejects_bad_data") {
  Fixture f;
  TrainerConfig config;
  SequenceClassifier model(tiny_model(50), 3);  // the pipeline's ids go up to 199
  CHECK_THROWS_AS(train_classifier(model, f.pipeline, f.train, config), std::invalid_argument);
  SequenceClassifier ok(tiny_model(200), 3);
  CHECK_THROWS_WITH_AS(train_classifier(ok, f.pipeline, EncodedDataset{}, config),
                       "train_classifier: the training set is empty", std::invalid_argument);
}

TEST_CASE("classifier_trainer.explain_returns_one_weight_per_token") {
  Fixture f;
  SequenceClassifier model(tiny_model(200), 3);
  const Explanation e = explain(model, f.pipeline, "the plot was gripping");
  CHECK(e.tokens == std::vector<std::string>{"<start>", "the", "plot", "was", "gripping"});
  REQUIRE(e.weights.size() == 5);
  float sum = 0;
  for (float w : e.weights) sum += w;
  CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
  // Alone, predict runs the very same forward as explain: equal bit for bit.
  CHECK(predict(model, f.pipeline, {"the plot was gripping"})[0] == e.probability);
  // In a batch with a shorter (masked, pre-padded) review the result stays the same up to rounding.
  const std::vector<float> p = predict(model, f.pipeline, {"the plot was gripping", "i hated it"});
  CHECK(p[0] == doctest::Approx(e.probability).epsilon(1e-5));
  ClassifierConfig mean = tiny_model(200);
  mean.pooling = PoolingKind::mean;
  SequenceClassifier no_attention(mean, 3);
  CHECK(explain(no_attention, f.pipeline, "the plot").weights.empty());
}
