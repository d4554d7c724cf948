#include "attn/analysis/explanations.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "attn/text/tokenizer.hpp"

namespace attn {
namespace {

// Rows per batched forward: LOO and the shuffles run many copies of one review
// at once.
constexpr std::size_t kRowsPerBatch = 32;

float sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

// ids [T] -> the batch [rows, T] holding `rows` copies, mask all ones (no
// padding: one length).
void fill_copies(const std::vector<std::int32_t> &ids, std::size_t rows, TokenIds &batch, Mask2 &mask) {
  const std::array<std::size_t, 2> shape{rows, ids.size()};
  if (batch.shape() != shape) batch.resize(shape);
  if (mask.shape() != shape) mask.resize(shape);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t t = 0; t < ids.size(); ++t) batch(r, t) = ids[t];
  }
  mask.fill(1);
}

// P(positive) of one review [T] (inference); the classifier's caches then hold
// this forward.
float forward_one(SequenceClassifier &model, const std::vector<std::int32_t> &ids, float *logit = nullptr) {
  TokenIds batch;
  Mask2 mask;
  fill_copies(ids, 1, batch, mask);
  Tensor1 logits;
  Rng rng(0);
  model.forward(batch, mask, false, rng, logits);
  if (logit) *logit = logits(0);
  return sigmoid(logits(0));
}

std::vector<float> row_of(const Tensor2 &t, std::size_t columns) {
  if (t.size() == 0) return {};
  return std::vector<float>(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(columns));
}

// Σ_d (∂logit/∂x_{t,d}) x_{t,d} for the review of the last forward (batch of
// 1). The backward pass adds into every parameter gradient; those buffers are
// put back afterwards, so an analysis between two training steps leaves the run
// exactly as it was.
std::vector<float> gradient_times_input(SequenceClassifier &model) {
  const ParameterList &params = model.parameters();
  std::vector<std::vector<float>> saved(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) saved[i].assign(params[i].grad, params[i].grad + params[i].size);
  Tensor1 dlogit = xt::ones<float>({std::size_t{1}});
  model.backward(dlogit);
  const Tensor3 &x = model.embedded();
  const Tensor3 &dx = model.embedded_gradient();
  const std::size_t time = x.shape(1), dims = x.shape(2);
  std::vector<float> out(time, 0.f);
  for (std::size_t t = 0; t < time; ++t) {
    double sum = 0;
    for (std::size_t d = 0; d < dims; ++d) sum += static_cast<double>(dx(0, t, d)) * x(0, t, d);
    out[t] = static_cast<float>(sum);
  }
  for (std::size_t i = 0; i < params.size(); ++i) std::copy(saved[i].begin(), saved[i].end(), params[i].grad);
  return out;
}

float median_of(std::vector<float> values) {
  if (values.empty()) return std::numeric_limits<float>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5f * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

std::vector<float> shuffled_weights(const std::vector<float> &weights, Rng &rng) {
  std::vector<float> out = weights;
  rng.shuffle(out);
  return out;
}

ReviewAnalysis analyze_review(const SentimentModel &model, const std::string &text, const AnalysisOptions &options) {
  SequenceClassifier &classifier = classifier_of(model, "analyze_review");
  ReviewAnalysis out;
  Explanation &e = out.explanation;
  e.ids = model.pipeline.encode(text, &e.tokens);
  const bool starts = !e.ids.empty() && e.ids[0] == Vocabulary::start;
  if (e.ids.size() <= (starts ? 1u : 0u)) {
    throw std::invalid_argument("analyze_review: the text has no words to analyse");
  }
  const std::size_t time = e.ids.size();

  // The plain forward: probability, attention, scores, and what each token adds
  // to the logit.
  e.probability = forward_one(classifier, e.ids, &out.logit);
  const bool attention = classifier.config().pooling == PoolingKind::attention;
  if (attention) {
    e.weights = row_of(classifier.pooling_weights(), time);
    out.scores = row_of(classifier.pooling_scores(), time);
    // logit = w_outᵀ pooled + b = Σ_t w_outᵀ (α_t h_t) + b
    const Tensor3 &h = classifier.encoded();
    const Tensor2 &w = classifier.output_layer().weight();  // [Dh, 1]
    out.output_bias = classifier.output_layer().has_bias() ? classifier.output_layer().bias()(0) : 0.f;
    out.contributions.assign(time, 0.f);
    for (std::size_t t = 0; t < time; ++t) {
      double sum = 0;
      for (std::size_t d = 0; d < h.shape(2); ++d) sum += static_cast<double>(w(d, 0)) * h(0, t, d);
      out.contributions[t] = static_cast<float>(e.weights[t] * sum);
    }
  }
  // The backward must follow the plain forward of this very review.
  out.saliency = gradient_times_input(classifier);

  // Leave-one-out: every word position replaced by <oov>, in batches of copies.
  out.leave_one_out.assign(time, 0.f);
  std::vector<std::size_t> positions;
  for (std::size_t t = 0; t < time; ++t) {
    if (e.ids[t] != Vocabulary::start && e.ids[t] != Vocabulary::oov) positions.push_back(t);
  }
  TokenIds batch;
  Mask2 mask;
  Tensor1 logits;
  Rng unused(0);
  for (std::size_t first = 0; first < positions.size(); first += kRowsPerBatch) {
    const std::size_t rows = std::min(kRowsPerBatch, positions.size() - first);
    fill_copies(e.ids, rows, batch, mask);
    for (std::size_t r = 0; r < rows; ++r) batch(r, positions[first + r]) = Vocabulary::oov;
    classifier.forward(batch, mask, false, unused, logits);
    for (std::size_t r = 0; r < rows; ++r) out.leave_one_out[positions[first + r]] = sigmoid(logits(r)) - e.probability;
  }

  const float nan = std::numeric_limits<float>::quiet_NaN();
  out.shuffle_median_change = out.shuffle_max_change = out.uniform_probability = nan;
  if (!attention) return out;

  // Test 1: the same review with its attention weights permuted.
  Rng rng(options.seed);
  Tensor2 weights;
  std::vector<float> changes;
  for (std::size_t first = 0; first < options.shuffles; first += kRowsPerBatch) {
    const std::size_t rows = std::min(kRowsPerBatch, options.shuffles - first);
    fill_copies(e.ids, rows, batch, mask);
    weights.resize({rows, time});
    for (std::size_t r = 0; r < rows; ++r) {
      const std::vector<float> permuted = shuffled_weights(e.weights, rng);
      for (std::size_t t = 0; t < time; ++t) weights(r, t) = permuted[t];
    }
    classifier.forward_with_attention(batch, mask, weights, logits);
    for (std::size_t r = 0; r < rows; ++r) {
      out.shuffled_probabilities.push_back(sigmoid(logits(r)));
      changes.push_back(std::fabs(out.shuffled_probabilities.back() - e.probability));
    }
  }
  if (!changes.empty()) {
    out.shuffle_median_change = median_of(changes);
    out.shuffle_max_change = *std::max_element(changes.begin(), changes.end());
  }
  // Test 2: uniform attention, α_t = 1/T (the review has no padding).
  fill_copies(e.ids, 1, batch, mask);
  weights.resize({std::size_t{1}, time});
  weights.fill(1.f / static_cast<float>(time));
  classifier.forward_with_attention(batch, mask, weights, logits);
  out.uniform_probability = sigmoid(logits(0));
  return out;
}

namespace {

// The ids of `text` for the pooling hooks: attention pooling required, at least one word.
std::vector<std::int32_t> pooling_ids(const SentimentModel &model, const std::string &text, const char *who,
                                      std::vector<std::string> *tokens) {
  SequenceClassifier &classifier = classifier_of(model, who);
  if (classifier.config().pooling != PoolingKind::attention) {
    throw std::invalid_argument(std::string(who) + ": the model pools with '" +
                                pooling_kind_name(classifier.config().pooling) + "', not attention");
  }
  std::vector<std::int32_t> ids = model.pipeline.encode(text, tokens);
  const bool starts = !ids.empty() && ids[0] == Vocabulary::start;
  if (ids.size() <= (starts ? 1u : 0u)) throw std::invalid_argument(std::string(who) + ": the text has no words");
  return ids;
}

}  // namespace

PoolingProbe pooling_probe(const SentimentModel &model, const std::string &text) {
  PoolingProbe out;
  const std::vector<std::int32_t> ids = pooling_ids(model, text, "pooling_probe", &out.tokens);
  SequenceClassifier &classifier = *model.classifier;
  out.probability = forward_one(classifier, ids);
  out.weights = row_of(classifier.pooling_weights(), ids.size());
  const Tensor3 &h = classifier.encoded();  // [1, T, Dh]
  out.hidden = xt::view(h, 0, xt::all(), xt::all());
  // The vector k with score_t = k·h_t: q itself for dot, W q / √A for scaled_dot (keys h_t W).
  const ScoreKind kind = classifier.config().score;
  const float *q = nullptr, *w = nullptr;
  std::size_t a = 0;
  for (const Parameter &p : classifier.parameters()) {
    if (p.name == "pooling.q") q = p.value, a = p.size;
    if (p.name == "pooling.w") w = p.value;
  }
  if (kind == ScoreKind::dot && q != nullptr) out.query.assign(q, q + a);
  if (kind == ScoreKind::scaled_dot && q != nullptr && w != nullptr) {
    const std::size_t dh = out.hidden.shape(1);
    const float scale = 1.f / std::sqrt(static_cast<float>(a));
    out.query.assign(dh, 0.f);
    for (std::size_t i = 0; i < dh; ++i) {
      for (std::size_t j = 0; j < a; ++j) out.query[i] += w[i * a + j] * q[j] * scale;
    }
  }
  return out;
}

float probability_with_weights(const SentimentModel &model, const std::string &text,
                               const std::vector<float> &weights) {
  const std::vector<std::int32_t> ids = pooling_ids(model, text, "probability_with_weights", nullptr);
  if (weights.size() != ids.size()) {
    throw_shape_error("probability_with_weights", "the text has " + std::to_string(ids.size()) + " tokens but " +
                                                      std::to_string(weights.size()) + " weights were given");
  }
  TokenIds batch;
  Mask2 mask;
  fill_copies(ids, 1, batch, mask);
  Tensor2 w({std::size_t{1}, ids.size()});
  std::copy(weights.begin(), weights.end(), w.begin());
  Tensor1 logits;
  model.classifier->forward_with_attention(batch, mask, w, logits);
  return sigmoid(logits(0));
}

Explanation predict_tokens(const SentimentModel &model, const std::vector<std::string> &tokens) {
  SequenceClassifier &classifier = classifier_of(model, "predict_tokens");
  if (tokens.empty()) throw std::invalid_argument("predict_tokens: the token list is empty");
  const TextPipelineConfig &config = model.pipeline.config();
  const Vocabulary &vocabulary = model.pipeline.vocabulary();
  Explanation out;
  std::size_t first = 0, count = tokens.size();
  if (count > config.maxlen) {
    if (config.truncating == PadMode::pre) first = count - config.maxlen;
    count = config.maxlen;
  }
  for (std::size_t i = first; i < first + count; ++i) {
    const std::string &token = tokens[i];
    std::int32_t id = Vocabulary::oov;
    if (token == "<start>") {
      id = Vocabulary::start;
    } else if (!token.empty() && token != "<mask>" && token != "<oov>") {
      // A typed replacement goes through the tokenizer (case, punctuation) when
      // it is one word.
      const std::vector<std::string> words = tokenize(token, config.tokenizer);
      id = vocabulary.id(words.size() == 1 ? words[0] : token);
    }
    out.tokens.push_back(token);
    out.ids.push_back(id);
  }
  out.probability = forward_one(classifier, out.ids);
  out.weights = row_of(classifier.pooling_weights(), out.ids.size());
  return out;
}

std::vector<MisclassifiedReview> misclassified(const SentimentModel &model, const std::vector<LabelledText> &examples,
                                               std::size_t limit) {
  classifier_of(model, "misclassified");
  std::vector<std::string> texts;
  texts.reserve(examples.size());
  for (const LabelledText &example : examples) texts.push_back(example.text);
  const std::vector<float> p = predict(model, texts);
  std::vector<std::size_t> wrong;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if ((p[i] > 0.5f ? 1 : 0) != examples[i].label) wrong.push_back(i);
  }
  std::stable_sort(wrong.begin(), wrong.end(),
                   [&](std::size_t a, std::size_t b) { return std::fabs(p[a] - 0.5f) > std::fabs(p[b] - 0.5f); });
  if (limit > 0 && wrong.size() > limit) wrong.resize(limit);
  std::vector<MisclassifiedReview> out;
  out.reserve(wrong.size());
  for (std::size_t i : wrong) {
    MisclassifiedReview r;
    r.text = examples[i].text;
    r.origin = examples[i].origin;
    r.label = examples[i].label;
    r.probability = p[i];
    Explanation e = explain(model, examples[i].text);
    r.tokens = std::move(e.tokens);
    r.weights = std::move(e.weights);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace attn
