#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/analysis/explanations.hpp"
#include "attn/train/classifier_session.hpp"
#include "support/parameter_values.hpp"

using namespace attn;

namespace {

std::vector<LabelledText> train_texts() { return synthetic_labelled_texts(120, 5); }

// A small model fitted on synthetic reviews and trained briefly, so attention
// is not uniform.
SentimentModel small_model(const std::string &pooling = "attention", const std::string &encoder = "bilstm") {
  SentimentSession session;
  session.set_data(train_texts(), synthetic_labelled_texts(60, 77));
  session.create_model(SentimentModelConfig::from_json(
      R"({"num_words": 200, "maxlen": 40, "embed_dim": 8, "units": 6, "attention_dim": 6, "heads": 2, "ff_dim": 8, "seed": 3, "pooling": ")" +
      pooling + R"(", "encoder": ")" + encoder + R"("})"));
  session.start_training(TrainerConfig::from_json(
      R"({"epochs": 2, "batch_size": 16, "learning_rate": 0.02, "validation_split": 0, "seed": 4})"));
  while (session.training()) session.run_steps(50);
  return load_sentiment_model(session.save_model());
}

// A review of distinct in-vocabulary words (so one embedding row = one
// position).
const std::string kReview = "the acting was great but the plot felt dull";

float logit_of(SequenceClassifier &model, const std::vector<std::int32_t> &ids) {
  TokenIds batch({std::size_t{1}, ids.size()});
  for (std::size_t t = 0; t < ids.size(); ++t) batch(0, t) = ids[t];
  Mask2 mask = xt::ones<std::uint8_t>(batch.shape());
  Tensor1 logits;
  Rng rng(0);
  model.forward(batch, mask, false, rng, logits);
  return logits(0);
}

std::vector<std::string> distinct_words_review(const SentimentModel &model) {
  // The synthetic generator's words: keep the first 8 distinct in-vocabulary
  // ones.
  std::vector<std::string> words;
  for (const std::string &w : model.pipeline.vocabulary().words()) {
    if (words.size() == 8) break;
    words.push_back(w);
  }
  return words;
}

std::string join(const std::vector<std::string> &words) {
  std::string out;
  for (const std::string &w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

TEST_CASE("explanations.logit_contributions_and_scores_reproduce_the_forward") {
  const SentimentModel model = small_model();
  const ReviewAnalysis a = analyze_review(model, kReview);
  const std::size_t T = a.explanation.ids.size();
  REQUIRE(T == 10);  // <start> + 9 words
  REQUIRE(a.explanation.weights.size() == T);
  REQUIRE(a.scores.size() == T);
  REQUIRE(a.contributions.size() == T);
  CHECK(a.explanation.probability == doctest::Approx(1.f / (1.f + std::exp(-a.logit))).epsilon(1e-6));
  // logit = Σ_t w_outᵀ(α_t h_t) + b: no dropout at inference, so only float
  // rounding (1e-5).
  double sum = a.output_bias;
  for (float c : a.contributions) sum += c;
  CHECK(sum == doctest::Approx(a.logit).epsilon(1e-5).scale(1));
  // α = softmax(e): exp(e_t − max) / Σ exp(e_s − max), to 1e-6.
  const float top = *std::max_element(a.scores.begin(), a.scores.end());
  double denominator = 0;
  for (float e : a.scores) denominator += std::exp(e - top);
  for (std::size_t t = 0; t < T; ++t) {
    CHECK(a.explanation.weights[t] == doctest::Approx(std::exp(a.scores[t] - top) / denominator).epsilon(1e-6));
  }
  // The same numbers as the existing explain().
  const Explanation plain = explain(model, kReview);
  CHECK(plain.probability == a.explanation.probability);
  CHECK(plain.weights == a.explanation.weights);
}

TEST_CASE("explanations.gradient_times_input_matches_finite_differences") {
  for (const char *encoder : {"bilstm", "transformer"}) {
    CAPTURE(encoder);
    const SentimentModel model = small_model("attention", encoder);
    const std::string text = join(distinct_words_review(model));
    const ReviewAnalysis a = analyze_review(model, text);
    SequenceClassifier &classifier = *model.classifier;
    const std::vector<std::int32_t> &ids = a.explanation.ids;
    REQUIRE(a.saliency.size() == ids.size());
    CHECK(logit_of(classifier, ids) == a.logit);
    Parameter &table = classifier.parameters()[0];
    REQUIRE(table.name == "embedding.weight");
    const std::size_t E = table.shape[1];
    // Σ_d (∂logit/∂x_{t,d}) x_{t,d} is the derivative of logit(x_t · (1 + ε))
    // at ε = 0: a central difference scaling the (distinct) embedding row of
    // token t, ε = 1e-2 (truncation O(ε²)). Tolerance 2e-3 absolute + 2%
    // relative: float32 logits differenced over 2ε.
    const double eps = 1e-2;
    double largest = 0;
    for (std::size_t t = 0; t < ids.size(); ++t) {
      float *row = table.value + static_cast<std::size_t>(ids[t]) * E;
      const std::vector<float> kept(row, row + E);
      for (std::size_t d = 0; d < E; ++d) row[d] = static_cast<float>(kept[d] * (1 + eps));
      const double up = logit_of(classifier, ids);
      for (std::size_t d = 0; d < E; ++d) row[d] = static_cast<float>(kept[d] * (1 - eps));
      const double down = logit_of(classifier, ids);
      std::copy(kept.begin(), kept.end(), row);
      const double numeric = (up - down) / (2 * eps);
      CAPTURE(t);
      CHECK(std::fabs(numeric - a.saliency[t]) <= 2e-3 + 0.02 * std::fabs(numeric));
      largest = std::max(largest, std::fabs(numeric));
    }
    CHECK(largest > 1e-2);  // the check compared real gradients, not zeros
  }
}

TEST_CASE("explanations.leave_one_out_equals_separate_predictions") {
  const SentimentModel model = small_model();
  const std::vector<std::string> words = distinct_words_review(model);
  const ReviewAnalysis a = analyze_review(model, join(words));
  REQUIRE(a.leave_one_out.size() == words.size() + 1);
  CHECK(a.leave_one_out[0] == 0.f);  // <start> is not a word
  bool moved = false;
  for (std::size_t t = 1; t <= words.size(); ++t) {
    // The text with word t swapped for a word the vocabulary does not know,
    // through the pipeline.
    std::vector<std::string> edited = words;
    edited[t - 1] = "zzzunknownzzz";
    const float separate = explain(model, join(edited)).probability - a.explanation.probability;
    CAPTURE(t);
    CHECK(a.leave_one_out[t] == doctest::Approx(separate).epsilon(1e-5).scale(1));
    // And the counterfactual API masking the same token.
    std::vector<std::string> tokens = a.explanation.tokens;
    tokens[t] = "<mask>";
    CHECK(
        a.leave_one_out[t] ==
        doctest::Approx(predict_tokens(model, tokens).probability - a.explanation.probability).epsilon(1e-5).scale(1));
    moved = moved || std::fabs(separate) > 1e-4;
  }
  CHECK(moved);
}

TEST_CASE("explanations.forward_with_attention_reproduces_the_forward") {
  ClassifierConfig config;
  config.vocab_size = 20;
  config.embed_dim = 4;
  config.units = 3;
  config.attention_dim = 5;
  SequenceClassifier model(config, 11);
  Rng rng(0);
  Tensor1 plain, given;
  // One token: softmax over one score is 1, so uniform attention (1/T = 1) is
  // the plain forward.
  TokenIds one = {{7}};
  Mask2 one_mask = {{1}};
  model.forward(one, one_mask, false, rng, plain);
  const Tensor2 single = {{1.f}};
  model.forward_with_attention(one, one_mask, single, given);
  CHECK(given(0) == plain(0));
  // A padded batch with the model's own weights gives the model's own logits.
  TokenIds ids = {{1, 5, 6, 9}, {0, 0, 1, 8}};
  Mask2 mask = {{1, 1, 1, 1}, {0, 0, 1, 1}};
  model.forward(ids, mask, false, rng, plain);
  const Tensor2 own = model.pooling_weights();
  model.forward_with_attention(ids, mask, own, given);
  CHECK(given(0) == doctest::Approx(plain(0)).epsilon(1e-6));
  CHECK(given(1) == doctest::Approx(plain(1)).epsilon(1e-6));
  // One-hot weights on t = 2 of row 0: pooled = h_2, so logit = Σ_d w_d h[0, 2,
  // d] + b.
  Tensor2 hot = xt::zeros<float>({std::size_t{2}, std::size_t{4}});
  hot(0, 2) = 1.f;
  hot(1, 3) = 1.f;
  model.forward_with_attention(ids, mask, hot, given);
  const Tensor3 h = model.encoded();
  double expected = model.output_layer().bias()(0);
  for (std::size_t d = 0; d < h.shape(2); ++d) expected += model.output_layer().weight()(d, 0) * h(0, 2, d);
  CHECK(given(0) == doctest::Approx(expected).epsilon(1e-6));

  CHECK_THROWS_WITH_AS(model.forward_with_attention(ids, mask, single, given),
                       "SequenceClassifier::forward_with_attention: weights "
                       "has shape [1, 1] but ids has shape [2, 4]",
                       ShapeError);
  config.pooling = PoolingKind::mean;
  SequenceClassifier mean_model(config, 11);
  CHECK_THROWS_WITH_AS(mean_model.forward_with_attention(one, one_mask, single, given),
                       "SequenceClassifier::forward_with_attention: the model pools with "
                       "'mean', not attention",
                       std::logic_error);
}

TEST_CASE(
    "explanations.shuffles_permute_the_weights_and_uniform_attention_is_"
    "scored") {
  Rng rng(5);
  const std::vector<float> w = {0.5f, 0.25f, 0.125f, 0.0625f, 0.0625f};
  bool reordered = false;
  for (int k = 0; k < 10; ++k) {
    std::vector<float> p = shuffled_weights(w, rng);
    reordered = reordered || p != w;
    std::sort(p.begin(), p.end());
    std::vector<float> sorted = w;
    std::sort(sorted.begin(), sorted.end());
    CHECK(p == sorted);  // the same multiset
  }
  CHECK(reordered);

  const SentimentModel model = small_model();
  AnalysisOptions options;
  options.shuffles = 40;  // two batches of copies
  options.seed = 9;
  const ReviewAnalysis a = analyze_review(model, kReview, options);
  REQUIRE(a.shuffled_probabilities.size() == 40);
  std::vector<float> changes;
  for (float p : a.shuffled_probabilities) changes.push_back(std::fabs(p - a.explanation.probability));
  std::sort(changes.begin(), changes.end());
  CHECK(a.shuffle_median_change == doctest::Approx(0.5f * (changes[19] + changes[20])));
  CHECK(a.shuffle_max_change == changes.back());
  CHECK(a.uniform_probability > 0.f);
  CHECK(a.uniform_probability < 1.f);
  // Deterministic for a seed.
  CHECK(analyze_review(model, kReview, options).shuffled_probabilities == a.shuffled_probabilities);
  // A one-token review (maxlen 1 keeps only the last id): uniform attention is
  // the model's own.
  SentimentSession session;
  session.set_data(train_texts(), {});
  session.create_model(
      SentimentModelConfig::from_json(R"({"num_words": 200, "maxlen": 1, "embed_dim": 8, "units": 6})"));
  const SentimentModel &short_model = session.model();
  const ReviewAnalysis single = analyze_review(short_model, "great");
  REQUIRE(single.explanation.ids.size() == 1);
  CHECK(single.uniform_probability == single.explanation.probability);
}

TEST_CASE("explanations.analysis_changes_no_parameters_or_gradients") {
  const SentimentModel model = small_model();
  ParameterList &params = model.classifier->parameters();
  // Non-zero gradients, as between two steps of a run, must come back unchanged
  // too.
  for (Parameter &p : params) {
    for (std::size_t i = 0; i < p.size; ++i) p.grad[i] = 0.25f + static_cast<float>(i % 7);
  }
  const auto values = test::parameter_values(params);
  std::vector<std::vector<float>> grads;
  for (const Parameter &p : params) grads.emplace_back(p.grad, p.grad + p.size);
  const std::vector<std::string> texts = {kReview, "dull and boring", "wonderful"};
  const std::vector<float> before = predict(model, texts);
  analyze_review(model, kReview);
  predict_tokens(model, {"<start>", "great", "<mask>"});
  misclassified(model, synthetic_labelled_texts(30, 2), 5);
  CHECK(predict(model, texts) == before);  // bit-identical
  CHECK(test::parameter_values(params) == values);
  for (std::size_t i = 0; i < params.size(); ++i) {
    CHECK(std::vector<float>(params[i].grad, params[i].grad + params[i].size) == grads[i]);
  }
}

TEST_CASE("explanations.errors_and_models_without_attention") {
  SentimentModel empty;
  CHECK_THROWS_WITH_AS(analyze_review(empty, "good"),
                       "analyze_review: the sentiment model has no classifier; "
                       "create or load one first",
                       std::invalid_argument);
  CHECK_THROWS_AS(predict_tokens(empty, {"good"}), std::invalid_argument);
  CHECK_THROWS_AS(misclassified(empty, {}, 1), std::invalid_argument);

  const SentimentModel mean = small_model("mean");
  CHECK_THROWS_WITH_AS(analyze_review(mean, ""), "analyze_review: the text has no words to analyse",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(analyze_review(mean, " !!! "), "analyze_review: the text has no words to analyse",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(predict_tokens(mean, {}), "predict_tokens: the token list is empty", std::invalid_argument);
  const ReviewAnalysis a = analyze_review(mean, kReview);
  CHECK(a.explanation.weights.empty());
  CHECK(a.scores.empty());
  CHECK(a.contributions.empty());
  CHECK(a.shuffled_probabilities.empty());
  CHECK(std::isnan(a.uniform_probability));
  CHECK(std::isnan(a.shuffle_median_change));
  REQUIRE(a.saliency.size() == 10);
  REQUIRE(a.leave_one_out.size() == 10);
  CHECK(std::any_of(a.saliency.begin(), a.saliency.end(), [](float s) { return std::fabs(s) > 1e-4f; }));
}

TEST_CASE("explanations.predict_tokens_looks_words_up") {
  const SentimentModel model = small_model();
  const ReviewAnalysis a = analyze_review(model, kReview);
  // The analysis' own tokens give its own prediction.
  const Explanation same = predict_tokens(model, a.explanation.tokens);
  CHECK(same.ids == a.explanation.ids);
  CHECK(same.probability == a.explanation.probability);
  CHECK(same.weights == a.explanation.weights);
  const Explanation e = predict_tokens(model, {"<start>", "THE", "<mask>", "", "zzzunknownzzz", "<oov>"});
  const std::int32_t the = model.pipeline.vocabulary().id("the");
  REQUIRE(the >= Vocabulary::first_word);
  CHECK(e.ids == std::vector<std::int32_t>{Vocabulary::start, the, Vocabulary::oov, Vocabulary::oov, Vocabulary::oov,
                                           Vocabulary::oov});
  CHECK(e.tokens[1] == "THE");  // shown as typed
  CHECK(e.weights.size() == 6);
}

TEST_CASE("explanations.misclassified_are_wrong_and_most_confident_first") {
  const SentimentModel model = small_model();
  const std::vector<LabelledText> test = synthetic_labelled_texts(80, 31);
  const ClassificationMetrics m = evaluate(model, test);
  const std::vector<MisclassifiedReview> all = misclassified(model, test, 0);
  CHECK(all.size() == m.fp + m.fn);
  REQUIRE(all.size() >= 2);
  for (std::size_t i = 0; i < all.size(); ++i) {
    CHECK((all[i].probability > 0.5f ? 1 : 0) != all[i].label);
    CHECK(all[i].tokens.size() == all[i].weights.size());
    CHECK(all[i].tokens.at(0) == "<start>");
    if (i > 0) CHECK(std::fabs(all[i - 1].probability - 0.5f) >= std::fabs(all[i].probability - 0.5f));
  }
  const std::vector<MisclassifiedReview> two = misclassified(model, test, 2);
  REQUIRE(two.size() == 2);
  CHECK(two[0].text == all[0].text);
  CHECK(two[1].origin == all[1].origin);
}

TEST_CASE("explanations.pooling_probe_and_probability_with_weights_reproduce_the_forward") {
  // Dot-product pooling with a learned query: softmax_t(kᵀh_t) over the probe's hidden states must
  // be the model's own weights (k = q for dot, W q / √A for scaled_dot), and those weights given
  // back must give its own probability.
  for (const char *score : {"dot", "scaled_dot"}) {
    CAPTURE(score);
    SentimentSession session;
    session.set_data(train_texts(), synthetic_labelled_texts(60, 77));
    session.create_model(SentimentModelConfig::from_json(
        std::string(R"({"num_words": 200, "maxlen": 40, "embed_dim": 8, "units": 6, "seed": 3, "score": ")") + score +
        "\"}"));
    session.start_training(TrainerConfig::from_json(
        R"({"epochs": 1, "batch_size": 16, "learning_rate": 0.02, "validation_split": 0, "seed": 4})"));
    while (session.training()) session.run_steps(50);
    const SentimentModel model = load_sentiment_model(session.save_model());

    const PoolingProbe probe = pooling_probe(model, kReview);
    const std::size_t time = probe.weights.size(), dh = probe.hidden.shape(1);
    REQUIRE(probe.tokens.size() == time);
    REQUIRE(probe.hidden.shape(0) == time);
    REQUIRE(probe.query.size() == dh);
    std::vector<double> scores(time);
    for (std::size_t t = 0; t < time; ++t) {
      for (std::size_t d = 0; d < dh; ++d) scores[t] += double(probe.query[d]) * probe.hidden(t, d);
    }
    const double top = *std::max_element(scores.begin(), scores.end());
    double total = 0;
    for (double &s : scores) total += (s = std::exp(s - top));
    for (std::size_t t = 0; t < time; ++t) CHECK(probe.weights[t] == doctest::Approx(scores[t] / total).epsilon(1e-4));
    CHECK(probability_with_weights(model, kReview, probe.weights) == doctest::Approx(probe.probability).epsilon(1e-5));
    CHECK_THROWS_AS(probability_with_weights(model, kReview, {1.f}), ShapeError);
  }

  CHECK(pooling_probe(small_model(), kReview).query.empty());  // additive scoring has no query
  CHECK_THROWS_AS(pooling_probe(small_model("mean"), kReview), std::invalid_argument);
}
