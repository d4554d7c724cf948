// Conversion of analysis/explanations.hpp results to JS (see
// bindings_analysis.hpp).
#include "bindings_analysis.hpp"

#include <cmath>
#include <stdexcept>

#include "attn/analysis/explanations.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

template <class T>
val copy_of(const char *type, const std::vector<T> &values) {
  return val::global(type).new_(emscripten::typed_memory_view(values.size(), values.data()));
}

val strings_of(const std::vector<std::string> &strings) {
  val out = val::array();
  for (const std::string &s : strings) out.call<void>("push", s);
  return out;
}

// NaN (a test that does not apply: no attention pooling) travels as null.
val number_or_null(float x) { return std::isnan(x) ? val::null() : val(x); }

std::size_t whole(const val &options, const char *key, double fallback, double max) {
  double x = fallback;
  if (!is_absent(options) && !is_absent(options[key])) {
    if (!options[key].isNumber()) throw std::invalid_argument(std::string("options.") + key + " must be a number");
    x = options[key].as<double>();
  }
  if (!(x >= 0) || x != std::floor(x) || x > max) {
    throw std::invalid_argument(std::string("options.") + key + " must be a whole number between 0 and " +
                                std::to_string(static_cast<long long>(max)));
  }
  return static_cast<std::size_t>(x);
}

val explanation_of(const Explanation &e) {
  val out = val::object();
  out.set("probability", e.probability);
  out.set("tokens", strings_of(e.tokens));
  out.set("ids", copy_of("Int32Array", e.ids));
  out.set("weights", copy_of("Float32Array", e.weights));
  return out;
}

}  // namespace

val analyze_review_js(const SentimentSession &session, const std::string &text, const val &options) {
  AnalysisOptions o;
  o.shuffles = whole(options, "shuffles", 20, 1000);
  o.seed = whole(options, "seed", 1, 4294967295.0);
  const ReviewAnalysis a = analyze_review(session.model(), text, o);
  val out = explanation_of(a.explanation);
  out.set("logit", a.logit);
  out.set("scores", copy_of("Float32Array", a.scores));
  out.set("contributions", copy_of("Float32Array", a.contributions));
  out.set("outputBias", a.output_bias);
  out.set("saliency", copy_of("Float32Array", a.saliency));
  out.set("leaveOneOut", copy_of("Float32Array", a.leave_one_out));
  out.set("shuffledProbabilities", copy_of("Float32Array", a.shuffled_probabilities));
  out.set("shuffleMedianChange", number_or_null(a.shuffle_median_change));
  out.set("shuffleMaxChange", number_or_null(a.shuffle_max_change));
  out.set("uniformProbability", number_or_null(a.uniform_probability));
  return out;
}

val predict_tokens_js(const SentimentSession &session, const val &tokens) {
  if (is_absent(tokens) || !tokens.isArray()) throw std::invalid_argument("tokens must be an array of strings");
  std::vector<std::string> list;
  const auto n = tokens["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i) {
    if (!tokens[i].isString()) throw std::invalid_argument("tokens[" + std::to_string(i) + "] must be a string");
    list.push_back(tokens[i].as<std::string>());
  }
  return explanation_of(predict_tokens(session.model(), list));
}

val pooling_probe_js(const SentimentSession &session, const std::string &text) {
  const PoolingProbe probe = pooling_probe(session.model(), text);
  val out = val::object();
  out.set("tokens", strings_of(probe.tokens));
  out.set("hidden", to_js(probe.hidden));
  out.set("query", copy_of("Float32Array", probe.query));
  out.set("weights", copy_of("Float32Array", probe.weights));
  out.set("probability", probe.probability);
  return out;
}

double probability_with_weights_js(const SentimentSession &session, const std::string &text, const val &weights) {
  const Tensor1 w = to_tensor<1>(weights, "weights");
  return probability_with_weights(session.model(), text, std::vector<float>(w.begin(), w.end()));
}

val misclassified_js(const SentimentSession &session, const std::string &which, double limit) {
  if (which != "test" && which != "train") {
    throw std::invalid_argument("misclassified: which must be 'test' or 'train', got '" + which + "'");
  }
  if (!(limit >= 0) || limit != std::floor(limit) || limit > 1e6) {
    throw std::invalid_argument("misclassified: limit must be a whole number between 0 and 1000000");
  }
  const auto reviews = misclassified(session.model(), which == "test" ? session.test_set() : session.train_set(),
                                     static_cast<std::size_t>(limit));
  val out = val::array();
  for (const MisclassifiedReview &r : reviews) {
    val item = val::object();
    item.set("text", r.text);
    item.set("origin", r.origin);
    item.set("label", r.label);
    item.set("probability", r.probability);
    item.set("tokens", strings_of(r.tokens));
    item.set("weights", copy_of("Float32Array", r.weights));
    out.call<void>("push", item);
  }
  return out;
}

}  // namespace attn::wasm
