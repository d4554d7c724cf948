#include <doctest/doctest.h>

#include <chrono>
#include <cstring>

#include "attn/data/builtin_reviews.hpp"
#include "attn/data/synthetic_reviews.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/train/sentiment_training.hpp"

using namespace attn;

namespace {
// Model (a) at the size the course uses for the built-in corpus.
ClassifierConfig bilstm_attention() {
  ClassifierConfig c;
  c.embed_dim = 32;
  c.units = 32;
  c.attention_dim = 32;
  c.pooling = PoolingKind::attention;
  c.score = ScoreKind::additive;
  return c;
}

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
}  // namespace

TEST_CASE("sentiment_model.builtin_split_has_both_halves") {
  const auto train = builtin_split(false), test = builtin_split(true);
  CHECK(train.size() == 528);
  CHECK(test.size() == 132);
  std::size_t positive = 0;
  for (const auto& r : test) positive += r.label == 1;
  CHECK(positive > 0);
  CHECK(positive < test.size());
  CHECK(train[0].origin.rfind("builtin:", 0) == 0);
}

TEST_CASE("sentiment_model.save_load_round_trip_predicts_bit_for_bit") {
  TextPipelineConfig pipeline_config;
  pipeline_config.num_words = 300;
  pipeline_config.maxlen = 60;
  pipeline_config.padding = PadMode::post;
  TrainerConfig trainer;
  trainer.epochs = 1;
  ClassifierConfig classifier = bilstm_attention();
  classifier.embed_dim = 8;
  classifier.units = 8;
  SentimentTraining trained = train_sentiment_model(builtin_split(false), pipeline_config, classifier, trainer, 11);
  const std::vector<std::uint8_t> bytes = save_sentiment_model(trained.model);
  const SentimentModel loaded = load_sentiment_model(bytes);
  CHECK(loaded.pipeline.config().padding == PadMode::post);
  CHECK(loaded.pipeline.vocabulary().words() == trained.model.pipeline.vocabulary().words());
  CHECK(loaded.classifier->config().vocab_size == 300);
  std::vector<std::string> texts;
  for (const auto& r : builtin_split(true)) texts.push_back(r.text);
  texts.push_back("a word never seen: zyzzyva");
  const std::vector<float> before = predict(trained.model, texts), after = predict(loaded, texts);
  REQUIRE(before.size() == after.size());
  for (std::size_t i = 0; i < before.size(); ++i) REQUIRE(bits(before[i]) == bits(after[i]));
  const Explanation a = explain(trained.model, texts[0]), b = explain(loaded, texts[0]);
  CHECK(a.tokens == b.tokens);
  CHECK(a.weights == b.weights);
  CHECK(save_sentiment_model(loaded) == bytes);
}

TEST_CASE("sentiment_model.rejects_a_bare_classifier_and_other_models") {
  ClassifierConfig c = bilstm_attention();
  c.vocab_size = 20;
  c.embed_dim = 4;
  c.units = 4;
  SequenceClassifier bare(c, 1);
  CHECK_THROWS_WITH_AS(load_sentiment_model(save_classifier(bare)),
                       "this file holds a bare sequence classifier without its text pipeline (vocabulary), so it "
                       "cannot read text; save it with save_sentiment_model instead",
                       ModelFileError);
  CHECK_THROWS_WITH_AS(load_sentiment_model(save_model("{\"model\": \"seq2seq\"}", {})),
                       "this file holds a 'seq2seq' model, not a sentiment model", ModelFileError);
  // A sentiment file whose vocabulary outgrows its classifier.
  TextPipelineConfig pc;
  pc.num_words = 30;
  TextPipeline pipeline(pc);
  pipeline.fit(builtin_split(false));
  FlatJson j;
  j.set("model", "sentiment_model")
      .set("format", 1.0)
      .set("classifier", c.to_json())
      .set("pipeline", pipeline.to_json());
  CHECK_THROWS_AS(load_sentiment_model(save_model(j.dump(), bare.parameters())), ModelFileError);
  SentimentModel empty;
  CHECK_THROWS_AS(save_sentiment_model(empty), std::invalid_argument);
}

// Held-out accuracy of model (a) on the built-in corpus (528 training reviews, 132 test; many
// of them negation, contrast or sarcasm, which a model this small learns only partly).
// Configuration: num_words 500, maxlen 100, pre padding/truncation; Embedding 32 -> BiLSTM 32
// -> additive attention (A = 32) -> Dense; Adam lr 3e-3, batch 16, clip 5, 10 epochs, no
// validation split (so no early stopping: 53 validation reviews proved too noisy to pick an
// epoch), bucketing on, model seed 1, trainer seed 1.
// Measured (native test build, XTENSOR_ENABLE_ASSERT on, Release): 0.674 test accuracy in
// ~1.5 s. Model seeds 2 and 3 gave 0.689 and 0.682; the bound sits a few points below.
TEST_CASE("sentiment_model.builtin_corpus_reaches_held_out_accuracy") {
  TextPipelineConfig pipeline;
  pipeline.num_words = 500;
  pipeline.maxlen = 100;
  TrainerConfig trainer;
  trainer.epochs = 10;
  trainer.batch_size = 16;
  trainer.learning_rate = 3e-3f;
  trainer.validation_split = 0;
  const auto start = std::chrono::steady_clock::now();
  SentimentTraining t = train_sentiment_model(builtin_split(false), pipeline, bilstm_attention(), trainer, 1);
  const ClassificationMetrics m = evaluate(t.model, builtin_split(true));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("builtin test accuracy " << m.accuracy << " f1 " << m.f1 << " in " << seconds << " s");
  CHECK(m.count() == 132);
  CHECK(t.result.history.size() == 10);
  CHECK(m.accuracy >= 0.62);
}

// Attention on synthetic reviews. Trained on all four patterns; 300 held-out reviews.
// Configuration: 2000 training reviews (seed 21), 300 held out (seed 22), num_words 500, maxlen
// 80; Embedding 16 -> BiLSTM 16 -> additive attention (A = 16) -> Dense; Adam lr 5e-3, batch 32,
// 4 epochs, no validation split, model seed 2.
// Measured: test accuracy 0.997. The most-attended token is decisive for 1.00 of the plain and
// 1.00 of the intensifier reviews (asserted >= 0.9), but for 0.00 of the negation reviews and
// 0.71 of the contrast ones (0.68 overall): in "the jokes were not weak" the weight goes to
// "were", whose backward LSTM state has already read "not weak" — a BiLSTM's attention points
// at a summary of the decisive words, not necessarily at them. Allowing one token either side,
// the rate is 0.97 overall (asserted >= 0.9).
TEST_CASE("sentiment_model.attention_concentrates_on_decisive_tokens") {
  auto as_texts = [](const std::vector<SyntheticReview>& reviews) {
    std::vector<LabelledText> out;
    for (const SyntheticReview& r : reviews) out.push_back({r.text, r.label, "synthetic"});
    return out;
  };
  const auto train = generate_synthetic_reviews(2000, 21);
  const auto test = generate_synthetic_reviews(300, 22);
  TextPipelineConfig pipeline;
  pipeline.num_words = 500;
  pipeline.maxlen = 80;
  ClassifierConfig model = bilstm_attention();
  model.embed_dim = 16;
  model.units = 16;
  model.attention_dim = 16;
  TrainerConfig trainer;
  trainer.epochs = 4;
  trainer.learning_rate = 5e-3f;
  trainer.validation_split = 0;
  SentimentTraining t = train_sentiment_model(as_texts(train), pipeline, model, trainer, 2);
  std::size_t direct = 0, direct_hits = 0, near_hits = 0, exact_hits = 0;
  for (const SyntheticReview& r : test) {
    const Explanation e = explain(t.model, r.text);
    // The pipeline's tokens are the generator's tokens behind the start token.
    REQUIRE(e.tokens.size() == r.tokens.size() + 1);
    REQUIRE(e.tokens[1] == r.tokens[0]);
    std::size_t best = 0;
    for (std::size_t k = 1; k < e.weights.size(); ++k) {
      if (e.weights[k] > e.weights[best]) best = k;
    }
    const bool exact = best > 0 && r.decisive[best - 1];
    bool near = false;
    for (std::size_t k = best > 1 ? best - 1 : 1; k <= best + 1 && k < e.weights.size(); ++k) {
      near = near || (best > 0 && r.decisive[k - 1]);
    }
    exact_hits += exact ? 1 : 0;
    near_hits += near ? 1 : 0;
    if (r.pattern == "plain" || r.pattern == "intensifier") {
      ++direct;
      direct_hits += exact ? 1 : 0;
    }
  }
  const double n = static_cast<double>(test.size());
  const double direct_rate = static_cast<double>(direct_hits) / static_cast<double>(direct);
  const ClassificationMetrics m = evaluate(t.model, as_texts(test));
  MESSAGE("argmax decisive: plain+intensifier " << direct_rate << ", all " << exact_hits / n << ", within one token "
                                                << near_hits / n << "; test accuracy " << m.accuracy);
  CHECK(m.accuracy >= 0.95);
  CHECK(direct >= 100);
  CHECK(direct_rate >= 0.9);
  CHECK(near_hits / n >= 0.9);
}
