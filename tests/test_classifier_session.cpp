#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "attn/data/builtin_reviews.hpp"
#include "attn/data/review_files.hpp"
#include "attn/train/classifier_session.hpp"
#include "support/parameter_values.hpp"

using namespace attn;

namespace {
SentimentModelConfig tiny_config() {
  return SentimentModelConfig::from_json(
      R"({"num_words": 200, "maxlen": 40, "embed_dim": 8, "units": 8, "attention_dim": 8, "seed": 3})");
}

TrainerConfig short_run() {
  return TrainerConfig::from_json(
      R"({"epochs": 4, "batch_size": 16, "learning_rate": 0.01, "validation_split": 0.25,
          "early_stopping_patience": 0, "seed": 9})");
}

}  // namespace

TEST_CASE("classifier_session.chunked_training_is_bit_identical_to_train_sentiment_model") {
  const std::vector<LabelledText> data = synthetic_labelled_texts(96, 5);
  const SentimentModelConfig config = tiny_config();
  std::vector<float> one_shot_losses;
  TrainingCallbacks callbacks;
  callbacks.on_step = [&](const StepProgress& p) {
    one_shot_losses.push_back(p.loss);
    return true;
  };
  const SentimentTraining one_shot =
      train_sentiment_model(data, config.pipeline, config.classifier, short_run(), config.seed, callbacks);

  SentimentSession session;
  session.set_data(data, {});
  session.create_model(config);
  session.start_training(short_run());
  std::vector<float> chunked_losses;
  std::vector<EpochProgress> epochs;
  // Chunks of 3 steps cut across epoch boundaries (72 training reviews / 16 = 5 batches); an
  // attention snapshot between chunks is inference only and must not disturb the numbers.
  while (session.training()) {
    const SessionProgress p = session.run_steps(3);
    chunked_losses.push_back(p.last.loss);
    epochs.insert(epochs.end(), p.epochs.begin(), p.epochs.end());
    CHECK(p.planned_steps == 20);
    CHECK(p.batches_per_epoch == 5);
    session.explain_all({"the acting was not good", "i loved it"});
  }
  REQUIRE(one_shot_losses.size() == 20);
  // Every third loss of the one-shot run, plus the last.
  std::vector<float> want;
  for (std::size_t i = 2; i < 20; i += 3) want.push_back(one_shot_losses[i]);
  want.push_back(one_shot_losses.back());
  CHECK(chunked_losses == want);
  REQUIRE(epochs.size() == one_shot.result.history.size());
  for (std::size_t e = 0; e < epochs.size(); ++e) {
    CHECK(epochs[e].train_loss == one_shot.result.history[e].train_loss);
    CHECK(epochs[e].validation.loss == one_shot.result.history[e].validation.loss);
  }
  CHECK(session.training_result().best_epoch == one_shot.result.best_epoch);
  CHECK(test::parameter_values(session.model().classifier->parameters()) ==
        test::parameter_values(one_shot.model.classifier->parameters()));
}

TEST_CASE("classifier_session.progress_counts_steps_examples_and_running_accuracy") {
  SentimentSession session;
  session.set_data(synthetic_labelled_texts(64, 2), {});
  session.create_model(tiny_config());
  TrainerConfig t = short_run();
  t.validation_split = 0;  // 64 training reviews: 4 batches of 16 per epoch
  session.start_training(t);
  const SessionProgress first = session.run_steps(3);
  CHECK(first.steps_run == 3);
  CHECK(first.last.step == 3);
  CHECK(first.last.epoch == 0);
  CHECK(first.last.examples_seen == 48);
  CHECK(first.last.running_accuracy >= 0.0);
  CHECK(first.last.running_accuracy <= 1.0);
  CHECK(first.epochs.empty());
  const SessionProgress second = session.run_steps(2);
  CHECK(second.last.step == 5);
  CHECK(second.last.epoch == 1);
  REQUIRE(second.epochs.size() == 1);
  CHECK_FALSE(second.epochs[0].has_validation);
  const SessionProgress rest = session.run_steps(1000);
  CHECK(rest.steps_run == 11);
  CHECK(rest.done);
  CHECK(session.run_steps(5).steps_run == 0);
}

TEST_CASE("classifier_session.cancel_restores_the_best_epoch") {
  SentimentSession session;
  session.set_data(synthetic_labelled_texts(96, 5), {});
  session.create_model(tiny_config());
  session.start_training(short_run());
  const SessionProgress p = session.run_steps(7);  // epoch 0 (5 steps) validated, 2 steps into epoch 1
  REQUIRE(p.epochs.size() == 1);
  CHECK(p.best_epoch == 0);
  auto weights = [&] { return test::parameter_values(session.model().classifier->parameters()); };
  const std::vector<std::vector<float>> after_epoch0 = weights();
  session.run_steps(2);
  CHECK(weights() != after_epoch0);
  session.cancel_training();
  CHECK_FALSE(session.training());
  CHECK(session.training_result().cancelled);
  CHECK(session.training_result().steps == 9);
  // The model holds epoch 0's parameters again: its validation loss is the recorded one.
  CHECK(session.evaluate("validation").loss == p.epochs[0].validation.loss);
}

TEST_CASE("classifier_session.save_load_explain_and_evaluate") {
  SentimentSession session;
  session.set_data(builtin_split(false), builtin_split(true));
  session.create_model(tiny_config());
  session.start_training(short_run());
  session.run_steps(30);
  const std::vector<std::string> texts = {"a wonderful, moving film", "dull and far too long"};
  const std::vector<float> before = session.predict(texts);
  const Explanation e = session.explain(texts[0]);
  REQUIRE(e.weights.size() == e.tokens.size());
  CHECK(e.tokens[0] == "<start>");
  CHECK(std::accumulate(e.weights.begin(), e.weights.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(e.probability == doctest::Approx(before[0]).epsilon(1e-5));  // predict pads the shorter text
  const ClassificationMetrics test = session.evaluate("test");
  CHECK(test.count() == 132);

  SentimentSession other;
  const std::vector<std::uint8_t> bytes = session.save_model();
  other.load_model(bytes.data(), bytes.size());
  CHECK(other.predict(texts) == before);
  CHECK(other.save_model() == bytes);
}

TEST_CASE("classifier_session.errors_name_what_is_missing") {
  SentimentSession session;
  CHECK_THROWS_WITH_AS(session.create_model(tiny_config()), "SentimentSession::create_model: load training data first",
                       std::logic_error);
  CHECK_THROWS_WITH_AS(session.explain("x"), "SentimentSession::explain: no model yet; create or load one first",
                       std::logic_error);
  std::vector<LabelledText> positives = {{"good", 1, "a:1"}, {"great", 1, "a:2"}};
  CHECK_THROWS_AS(session.set_data(positives, {}), DataError);
  session.set_data(synthetic_labelled_texts(20, 1), {});
  session.create_model(tiny_config());
  CHECK_THROWS_WITH_AS(session.run_steps(1), "SentimentSession::run_steps: start training first", std::logic_error);
  CHECK_THROWS_WITH_AS(session.evaluate("dev"),
                       "SentimentSession::evaluate: which must be test, train, validation or all-train, got 'dev'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(SentimentModelConfig::from_json(R"({"units": 4, "layerz": 2})"),
                       "SentimentModelConfig: unknown setting 'layerz'", std::invalid_argument);
  CHECK_THROWS_AS(SentimentModelConfig::from_json(R"({"encoder": "rnn"})"), std::invalid_argument);
}

TEST_CASE("classifier_session.model_config_defaults_and_keys") {
  const SentimentModelConfig d = SentimentModelConfig::from_json("{}");
  CHECK(d.pipeline.num_words == 5000);
  CHECK(d.classifier.encoder == EncoderKind::bilstm);
  CHECK(d.seed == 1);
  const SentimentModelConfig c = SentimentModelConfig::from_json(
      R"({"encoder": "transformer", "embed_dim": 16, "heads": 4, "maxlen": 900, "padding": "post", "seed": 7})");
  CHECK(c.classifier.encoder == EncoderKind::transformer);
  CHECK(c.classifier.heads == 4);
  CHECK(c.classifier.max_len == 900);  // follows maxlen so the positional encoding reaches it
  CHECK(c.pipeline.padding == PadMode::post);
  CHECK(c.seed == 7);
  CHECK(d.classifier.word_dropout == 0.f);
  CHECK(SentimentModelConfig::from_json(R"({"word_dropout": 0.2})").classifier.word_dropout == 0.2f);
}

TEST_CASE("classifier_session.loads_csv_bytes_and_reports_the_bad_line") {
  const std::string csv = "review,sentiment\n\"A fine, warm film\",positive\nboring,negative\n";
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(csv.data());
  const std::vector<LabelledText> rows = load_review_bytes("mine.csv", bytes, csv.size(), "train");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].text == "A fine, warm film");
  CHECK(rows[1].label == 0);
  const std::string bad = "review,sentiment\ngood,positive\nmeh,maybe\n";
  CHECK_THROWS_WITH_AS(
      load_review_bytes("bad.csv", reinterpret_cast<const std::uint8_t*>(bad.data()), bad.size(), "train"),
      "bad.csv:3: label 'maybe' is not one of positive, negative, pos, neg, 1, 0", DataError);
}

TEST_CASE("classifier_session.baseline_trains_beside_the_model_and_explains") {
  SentimentSession session;
  BagOfNgramsConfig config;
  CHECK_THROWS_WITH_AS(session.train_baseline(config), "SentimentSession::train_baseline: load data first",
                       std::logic_error);
  session.set_data(builtin_split(false), builtin_split(true));
  CHECK_FALSE(session.has_baseline());
  CHECK_THROWS_AS(session.explain_baseline("good"), std::logic_error);
  session.train_baseline(config);
  REQUIRE(session.has_baseline());
  // The same model as the CLI's `attn train --model bow` on the same data.
  const BagOfNgramsClassifier direct = train_bag_of_ngrams(builtin_split(false), config);
  const ClassificationMetrics test = session.evaluate_baseline("test");
  CHECK(test.count() == builtin_split(true).size());
  CHECK(test.accuracy == evaluate_bag_of_ngrams(direct, builtin_split(true)).accuracy);
  CHECK(test.accuracy > 0.6);  // above chance (0.5) on 132 reviews
  CHECK(session.evaluate_baseline("all-train").count() == builtin_split(false).size());
  CHECK_THROWS_AS(session.evaluate_baseline("validation"), std::invalid_argument);
  const BagOfNgramsExplanation e = session.explain_baseline("A wonderful film, not boring at all.");
  CHECK(e.tokens == std::vector<std::string>{"a", "wonderful", "film", "not", "boring", "at", "all"});
  CHECK(e.probability == direct.predict_proba(e.tokens));
  // A model and the baseline live side by side: creating a model keeps the baseline.
  session.create_model(tiny_config());
  CHECK(session.has_baseline());
}
