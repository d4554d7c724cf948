// Conversion of analysis/explanations.hpp results to JS (see
// bindings_analysis.hpp).
#include "bindings_analysis.hpp"

#include <cmath>
#include <stdexcept>

#include "attn/analysis/explanations.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

// NaN (a test that does not apply: no attention pooling) travels as null.
val number_or_null(float x) { return std::isnan(x) ? val::null() : val(x); }

val explanation_of(const Explanation &e) {
  val out = val::object();
  out.set("probability", e.probability);
  out.set("tokens", strings_to_js(e.tokens));
  out.set("ids", typed_array_copy("Int32Array", e.ids));
  out.set("weights", typed_array_copy("Float32Array", e.weights));
  return out;
}

}  // namespace

val analyze_review_js(const SentimentSession &session, const std::string &text, const val &options) {
  AnalysisOptions o;
  o.shuffles = option_whole(options, "shuffles", 1000, 20);
  o.seed = option_whole(options, "seed", 4294967295.0, 1);
  const ReviewAnalysis a = analyze_review(session.model(), text, o);
  val out = explanation_of(a.explanation);
  out.set("logit", a.logit);
  out.set("scores", typed_array_copy("Float32Array", a.scores));
  out.set("contributions", typed_array_copy("Float32Array", a.contributions));
  out.set("outputBias", a.output_bias);
  out.set("saliency", typed_array_copy("Float32Array", a.saliency));
  out.set("leaveOneOut", typed_array_copy("Float32Array", a.leave_one_out));
  out.set("shuffledProbabilities", typed_array_copy("Float32Array", a.shuffled_probabilities));
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
  out.set("tokens", strings_to_js(probe.tokens));
  out.set("hidden", to_js(probe.hidden));
  out.set("query", typed_array_copy("Float32Array", probe.query));
  out.set("weights", typed_array_copy("Float32Array", probe.weights));
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
    item.set("tokens", strings_to_js(r.tokens));
    item.set("weights", typed_array_copy("Float32Array", r.weights));
    out.call<void>("push", item);
  }
  return out;
}

}  // namespace attn::wasm
