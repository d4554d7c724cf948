// Embind class SentimentSession: data loading, model building, chunked training, evaluation,
// prediction with attention, save/load. Conversion only: the work is attn::SentimentSession
// (core/include/attn/train/classifier_session.hpp). Which results are views and which are copies
// is documented in attn_engine.d.ts.
#include <emscripten/bind.h>
#include <malloc.h>

#include "attn/data/builtin_reviews.hpp"
#include "attn/data/review_files.hpp"
#include "attn/data/splits.hpp"
#include "attn/models/pytorch_export.hpp"
#include "attn/train/classifier_session.hpp"
#include "bindings_analysis.hpp"
#include "bindings_transformer.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

val metrics_to_js(const ClassificationMetrics& m) {
  val out = val::object();
  out.set("loss", m.loss);
  out.set("accuracy", m.accuracy);
  out.set("precision", m.precision);
  out.set("recall", m.recall);
  out.set("f1", m.f1);
  out.set("tp", static_cast<double>(m.tp));
  out.set("fp", static_cast<double>(m.fp));
  out.set("tn", static_cast<double>(m.tn));
  out.set("fn", static_cast<double>(m.fn));
  return out;
}

val epoch_to_js(const EpochProgress& e) {
  val out = val::object();
  out.set("epoch", static_cast<double>(e.epoch));
  out.set("trainLoss", e.train_loss);
  out.set("trainAccuracy", e.train_accuracy);
  out.set("validation", e.has_validation ? metrics_to_js(e.validation) : val::null());
  out.set("seconds", e.seconds);
  return out;
}

std::vector<std::string> read_strings(const val& array, const char* name) {
  if (is_absent(array) || !array.isArray()) {
    throw std::invalid_argument(std::string(name) + " must be an array of strings");
  }
  std::vector<std::string> out;
  const auto n = array["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i) {
    if (!array[i].isString()) {
      throw std::invalid_argument(std::string(name) + "[" + std::to_string(i) + "] must be a string");
    }
    out.push_back(array[i].as<std::string>());
  }
  return out;
}

// options.testSet: "source" (the archive's own test half where it has one, the default) or
// "holdout" (always a stratified hold-out, from the training half of an archive with both).
bool use_source_test(const val& options) {
  if (is_absent(options) || is_absent(options["testSet"])) return true;
  const val v = options["testSet"];
  const std::string set = v.isString() ? v.as<std::string>() : std::string();
  if (set != "source" && set != "holdout") {
    throw std::invalid_argument("options.testSet must be 'source' or 'holdout'");
  }
  return set == "source";
}

// onProgress(bytesRead, bytesTotal, examples), or none.
ProgressFn progress_fn(const val& on_progress) {
  if (is_absent(on_progress)) return {};
  return [&on_progress](const LoadProgress& p) {
    on_progress(val(static_cast<double>(p.bytes_read)), val(static_cast<double>(p.bytes_total)),
                val(static_cast<double>(p.examples)));
  };
}

// The JS handle. The last explanations are kept here so that explain()/snapshot() can hand
// out typed_memory_views instead of copies.
class JsSentimentSession {
 public:
  // Data --------------------------------------------------------------------------------------
  val load_builtin() {
    return guarded([&] {
      session_.set_data(builtin_split(false), builtin_split(true));
      source_ = "builtin";
      held_out_ = false;
      source_has_test_ = true;
      return data_summary();
    });
  }

  // {count = 1000, seed = 1, testFraction = 0.2, minTokens, maxTokens}
  val load_synthetic(const val& options) {
    return guarded([&] {
      SyntheticOptions synthetic;
      synthetic.min_tokens = option_whole(options, "minTokens", 1e5, 1);
      synthetic.max_tokens = option_whole(options, "maxTokens", 1e5, 64);
      const std::size_t count = option_whole(options, "count", 1e6, 1000);
      const std::uint64_t seed = option_whole(options, "seed", 4294967295.0, 1);
      std::vector<LabelledText> all = synthetic_labelled_texts(count, seed, synthetic);
      TrainTestSplit split = hold_out(std::move(all), test_fraction(options), seed);
      session_.set_data(std::move(split.train), std::move(split.test));
      source_ = "synthetic";
      held_out_ = true;
      source_has_test_ = false;
      return data_summary();
    });
  }

  // bytes of an aclImdb .tar.gz, a CSV or a TSV, split by load_review_bytes_split's rule (the
  // archive's test half, else a stratified testFraction held out, default 0.2).
  // onProgress(bytesRead, bytesTotal, examples).
  val load_bytes(const val& bytes, const std::string& name, const val& options, const val& on_progress) {
    return guarded([&] {
      const std::vector<std::uint8_t> data = read_bytes(bytes, "bytes");
      const ProgressFn progress = progress_fn(on_progress);
      const std::uint64_t seed = option_whole(options, "seed", 4294967295.0, 1);
      const bool by_group = is_absent(options) || !read_flag(options["randomSplit"], "options.randomSplit");
      ReviewSplit split = load_review_bytes_split(name, data.data(), data.size(), test_fraction(options), seed, {},
                                                  progress, use_source_test(options), by_group);
      session_.set_data(std::move(split.train), std::move(split.test));
      source_ = name;
      held_out_ = split.held_out;
      source_has_test_ = split.source_has_test;
      return data_summary();
    });
  }

  // The two-file layout (one sentence per line, one file per class), split as load_bytes splits a
  // CSV: a stratified testFraction (default 0.2) held out, seeded by options.seed.
  val load_sentence_files(const val& positive_bytes, const std::string& positive_name, const val& negative_bytes,
                          const std::string& negative_name, const val& options, const val& on_progress) {
    return guarded([&] {
      const std::vector<std::uint8_t> positive = read_bytes(positive_bytes, "positiveBytes");
      const std::vector<std::uint8_t> negative = read_bytes(negative_bytes, "negativeBytes");
      const std::uint64_t seed = option_whole(options, "seed", 4294967295.0, 1);
      ReviewSplit split = load_sentence_bytes_split({positive_name, positive.data(), positive.size()},
                                                    {negative_name, negative.data(), negative.size()},
                                                    test_fraction(options), seed, {}, progress_fn(on_progress));
      session_.set_data(std::move(split.train), std::move(split.test));
      source_ = positive_name + " + " + negative_name;
      held_out_ = true;
      source_has_test_ = false;
      return data_summary();
    });
  }

  // which: "train" | "test"
  val data_stats(const std::string& which, double bins) {
    return guarded([&] {
      const bool test = which_set(which);
      const ReviewStats s = session_.data_stats(test, whole_number(bins, "bins", 1000));
      val out = val::object();
      out.set("examples", static_cast<double>(s.examples));
      out.set("positive", static_cast<double>(s.positive));
      out.set("negative", static_cast<double>(s.negative));
      out.set("totalTokens", static_cast<double>(s.total_tokens));
      out.set("distinctWords", static_cast<double>(s.distinct_words));
      out.set("minTokens", static_cast<double>(s.min_tokens));
      out.set("maxTokens", static_cast<double>(s.max_tokens));
      out.set("meanTokens", s.mean_tokens);
      val percentiles = val::object();
      percentiles.set("p50", static_cast<double>(s.p50));
      percentiles.set("p90", static_cast<double>(s.p90));
      percentiles.set("p95", static_cast<double>(s.p95));
      percentiles.set("p99", static_cast<double>(s.p99));
      out.set("percentiles", percentiles);
      std::vector<std::uint32_t> histogram(s.histogram.begin(), s.histogram.end());
      out.set("histogram", typed_array_copy("Uint32Array", histogram));
      out.set("binWidth", static_cast<double>(s.bin_width));
      if (session_.has_model()) {
        const VocabularyCoverage c = session_.coverage(test);
        val coverage = val::object();
        coverage.set("tokens", c.token_coverage);
        coverage.set("words", c.word_coverage);
        coverage.set("truncated", static_cast<double>(c.truncated));
        out.set("coverage", coverage);
      } else {
        out.set("coverage", val::null());
      }
      return out;
    });
  }

  // Model -------------------------------------------------------------------------------------
  val create_model(const val& config) {
    return guarded([&] {
      session_.create_model(settings_from_js(sentiment_model_settings(), config, "config"));
      return model_summary();
    });
  }

  val load_model(const val& bytes) {
    return guarded([&] {
      const std::vector<std::uint8_t> data = read_bytes(bytes, "bytes");
      session_.load_model(data.data(), data.size());
      return model_summary();
    });
  }

  // A copy (Uint8Array owning its own ArrayBuffer): the file is stored or posted by the caller.
  val save_model() {
    return guarded([&] {
      const std::vector<std::uint8_t> bytes = session_.save_model();
      return typed_array_copy("Uint8Array", bytes);
    });
  }

  // Copies: [{name, bytes: Uint8Array}] for model.safetensors, vocab.json and model.py, the files
  // `attn export --format pytorch` writes (models/pytorch_export.hpp).
  val export_pytorch() {
    return guarded([&] {
      val out = val::array();
      for (const ExportedFile& file : attn::export_pytorch(session_.model())) {
        val entry = val::object();
        entry.set("name", file.name);
        entry.set("bytes", typed_array_copy("Uint8Array",
                                            std::vector<std::uint8_t>(file.contents.begin(), file.contents.end())));
        out.call<void>("push", entry);
      }
      return out;
    });
  }

  val model_info() {
    return guarded([&] { return model_summary(); });
  }

  // Training ----------------------------------------------------------------------------------
  val start_training(const val& config) {
    return guarded([&] {
      session_.start_training(settings_from_js(trainer_settings(), config, "config"));
      const TrainingResult& r = session_.training_result();
      val out = val::object();
      out.set("trainExamples", static_cast<double>(r.train_examples));
      out.set("validationExamples", static_cast<double>(r.validation_examples));
      const SessionProgress none = session_.run_steps(0);
      out.set("plannedSteps", static_cast<double>(none.planned_steps));
      out.set("batchesPerEpoch", static_cast<double>(none.batches_per_epoch));
      return out;
    });
  }

  val run_steps(double steps) {
    return guarded([&] { return progress_to_js(session_.run_steps(whole_number(steps, "steps", 1e9))); });
  }

  // Data-parallel steps (docs/data-parallel.md): each exchange buffer is copied once each way.
  double exchange_size() {
    return guarded([&] { return static_cast<double>(session_.exchange_size()); });
  }

  val shard_gradient(double shard, double shards) {
    return guarded([&] {
      return typed_array_copy("Float32Array", session_.shard_gradient(whole_number(shard, "shard", 1e9),
                                                                      whole_number(shards, "shards", 1e9)));
    });
  }

  val apply_gradient(const val& others) {
    return guarded([&] {
      read_exchange_buffers(others, others_);
      return progress_to_js(session_.apply_gradient(others_));
    });
  }

  // Baseline -----------------------------------------------------------------------------------
  // The bag-of-n-grams baseline on the loaded training data. options: {epochs, learningRate, seed,
  // maxNgram, minCount, maxFeatures} (defaults BagOfNgramsConfig's) -> {features, parameters}.
  val train_baseline(const val& options) {
    return guarded([&] {
      BagOfNgramsConfig config;
      config.epochs = option_whole(options, "epochs", 1e6, config.epochs);
      config.learning_rate = static_cast<float>(option_number(options, "learningRate", config.learning_rate));
      config.seed = option_whole(options, "seed", 4294967295.0, 1);
      config.max_ngram = option_whole(options, "maxNgram", 64, config.max_ngram);
      config.min_count = option_whole(options, "minCount", 1e9, config.min_count);
      config.max_features = option_whole(options, "maxFeatures", 1e9, config.max_features);
      session_.train_baseline(config);
      const std::size_t parameters = session_.baseline().parameter_count();
      val out = val::object();
      out.set("features", static_cast<double>(session_.baseline().vocabulary().size()));
      out.set("parameters", static_cast<double>(parameters));
      return out;
    });
  }

  bool has_baseline() const { return session_.has_baseline(); }

  val evaluate_baseline(const std::string& which) {
    return guarded([&] { return metrics_to_js(session_.evaluate_baseline(which)); });
  }

  // {probability, bias, tokens, contributions: Float32Array, ngrams: [{ngram, first, length,
  // contribution}]}: copies.
  val explain_baseline(const std::string& text) {
    return guarded([&] {
      const BagOfNgramsExplanation e = session_.explain_baseline(text);
      val out = val::object();
      out.set("probability", e.probability);
      out.set("bias", e.bias);
      out.set("tokens", strings_to_js(e.tokens));
      out.set("contributions", typed_array_copy("Float32Array", e.token_contributions));
      val ngrams = val::array();
      for (const NgramContribution& n : e.ngrams) {
        val item = val::object();
        item.set("ngram", n.ngram);
        item.set("first", static_cast<double>(n.first));
        item.set("length", static_cast<double>(n.length));
        item.set("contribution", n.contribution);
        ngrams.call<void>("push", item);
      }
      out.set("ngrams", ngrams);
      return out;
    });
  }

  void cancel_training() {
    guarded([&] { session_.cancel_training(); });
  }

  bool is_training() const { return session_.training(); }

  // Queries -----------------------------------------------------------------------------------
  val evaluate(const std::string& which) {
    return guarded([&] { return metrics_to_js(session_.evaluate(which)); });
  }

  // A copy: one probability per text.
  val predict(const val& texts) {
    return guarded([&] { return typed_array_copy("Float32Array", session_.predict(read_strings(texts, "texts"))); });
  }

  // {probability, tokens, ids, weights}: ids and weights are views, valid until the next call.
  val explain(const std::string& text) {
    return guarded([&] {
      explained_ = {session_.explain(text)};
      return explanation_to_js(explained_[0]);
    });
  }

  // Transformer view (bindings_transformer.hpp): copies.
  val inspect_transformer(const std::string& text, const val& options) {
    return inspect_transformer_js(session_, text, options);
  }
  val head_ablation(double limit, const val& causal) { return head_ablation_js(session_, limit, causal); }
  val positional_encoding(double positions) { return positional_encoding_js(session_, positions); }

  // explain() of each text (the training panel's attention snapshot); views as explain().
  val snapshot(const val& texts) {
    return guarded([&] {
      explained_ = session_.explain_all(read_strings(texts, "texts"));
      val out = val::array();
      for (const Explanation& e : explained_) out.call<void>("push", explanation_to_js(e));
      return out;
    });
  }

  // "Is attention an explanation?" (bindings_analysis.cpp): copies, see attn_engine.d.ts.
  val analyze(const std::string& text, const val& options) {
    return guarded([&] { return analyze_review_js(session_, text, options); });
  }
  val predict_tokens(const val& tokens) {
    return guarded([&] { return predict_tokens_js(session_, tokens); });
  }
  // The course's pooling hooks (bindings_analysis.cpp): copies.
  val pooling_probe(const std::string& text) {
    return guarded([&] { return pooling_probe_js(session_, text); });
  }
  double probability_with_weights(const std::string& text, const val& weights) {
    return guarded([&] { return probability_with_weights_js(session_, text, weights); });
  }
  val misclassified(const std::string& which, double limit) {
    return guarded([&] { return misclassified_js(session_, which, limit); });
  }

 private:
  static bool which_set(const std::string& which) {
    if (which != "train" && which != "test") {
      throw std::invalid_argument("which must be 'train' or 'test', got '" + which + "'");
    }
    return which == "test";
  }

  static float test_fraction(const val& options) {
    const double fraction = option_number(options, "testFraction", 0.2);
    if (!(fraction >= 0 && fraction < 1)) throw std::invalid_argument("options.testFraction must be in [0, 1)");
    return static_cast<float>(fraction);
  }

  val data_summary() const {
    val out = val::object();
    out.set("source", source_);
    out.set("heldOut", held_out_);
    out.set("sourceHasTest", source_has_test_);
    out.set("trainExamples", static_cast<double>(session_.train_set().size()));
    out.set("testExamples", static_cast<double>(session_.test_set().size()));
    // How the hold-out and the validation split are drawn: "by group" (each movie / group on one
    // side) when the training reviews name groups, else "random"; and how many groups they name.
    out.set("split", std::string(split_rule_name(split_rule(session_.train_set()))));
    out.set("groups", static_cast<double>(group_count(session_.train_set())));
    return out;
  }

  val model_summary() const {
    const SentimentModel& model = session_.model();
    val out = val::object();
    out.set("parameters", static_cast<double>(parameter_count(model.classifier->parameters())));
    out.set("vocabulary", static_cast<double>(model.pipeline.vocabulary().size()));
    out.set("maxlen", static_cast<double>(model.pipeline.config().maxlen));
    out.set("classifier", model.classifier->config().to_json());
    return out;
  }

  static val explanation_to_js(const Explanation& e) {
    val out = val::object();
    out.set("probability", e.probability);
    out.set("tokens", strings_to_js(e.tokens));
    out.set("ids", val(emscripten::typed_memory_view(e.ids.size(), e.ids.data())));
    out.set("weights", val(emscripten::typed_memory_view(e.weights.size(), e.weights.data())));
    return out;
  }

  val progress_to_js(const SessionProgress& p) {
    val out = val::object();
    set_run_progress(out, p, static_cast<double>(session_.training_result().steps),
                     [](const EpochProgress& e) { return epoch_to_js(e); });
    out.set("runningLoss", p.last.running_loss);
    out.set("runningAccuracy", p.last.running_accuracy);
    out.set("examplesSeen", static_cast<double>(p.last.examples_seen));
    return out;
  }

  SentimentSession session_;
  std::vector<std::vector<float>> others_;  // the other shards' buffers of the step being applied
  std::string source_;
  bool held_out_ = false;
  bool source_has_test_ = false;
  std::vector<Explanation> explained_;
};

// Bytes of wasm memory malloc has handed out and not taken back (dlmalloc's mallinfo): lets a
// test see a leak long before the heap has to grow.
double heap_bytes_in_use() { return static_cast<double>(mallinfo().uordblks); }

// The engine's labels (0/1) from a JS array of numbers.
std::vector<int> read_labels(const val& array) {
  if (is_absent(array) || !array.isArray()) throw std::invalid_argument("labels must be an array of 0 and 1");
  std::vector<int> out;
  const auto n = array["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i) {
    const val x = array[i];
    if (!x.isNumber() || (x.as<double>() != 0 && x.as<double>() != 1)) {
      throw std::invalid_argument("labels[" + std::to_string(i) + "] must be 0 or 1");
    }
    out.push_back(x.as<int>());
  }
  return out;
}

// groupedHoldout(labels, groups, fraction, seed) -> Uint8Array, 1 = held out (data/splits.hpp:
// the rule the page's hold-out and validation split use; groups [] or all "" = stratified).
val js_grouped_holdout(const val& labels, const val& groups, double fraction, double seed) {
  return guarded([&] {
    const std::vector<bool> held =
        grouped_holdout(read_labels(labels), read_strings(groups, "groups"), static_cast<float>(fraction),
                        whole_number(seed, "seed", 4294967295.0));
    const std::vector<std::uint8_t> flags(held.begin(), held.end());
    return typed_array_copy("Uint8Array", flags);
  });
}

// groupedFolds(labels, groups, k, seed) -> Uint32Array of fold numbers (attn cv's folds).
val js_grouped_folds(const val& labels, const val& groups, double k, double seed) {
  return guarded([&] {
    const std::vector<std::size_t> folds =
        grouped_folds(read_labels(labels), read_strings(groups, "groups"), whole_number(k, "k", 1e6),
                      whole_number(seed, "seed", 4294967295.0));
    const std::vector<std::uint32_t> out(folds.begin(), folds.end());
    return typed_array_copy("Uint32Array", out);
  });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(sentiment) {
  emscripten::function("groupedHoldout", &attn::wasm::js_grouped_holdout);
  emscripten::function("groupedFolds", &attn::wasm::js_grouped_folds);
  emscripten::function("heapBytesInUse", &attn::wasm::heap_bytes_in_use);
  using attn::wasm::JsSentimentSession;
  emscripten::class_<JsSentimentSession>("SentimentSession")
      .constructor<>()
      .function("loadBuiltin", &JsSentimentSession::load_builtin)
      .function("loadSynthetic", &JsSentimentSession::load_synthetic)
      .function("loadBytes", &JsSentimentSession::load_bytes)
      .function("loadSentenceFiles", &JsSentimentSession::load_sentence_files)
      .function("dataStats", &JsSentimentSession::data_stats)
      .function("createModel", &JsSentimentSession::create_model)
      .function("loadModel", &JsSentimentSession::load_model)
      .function("saveModel", &JsSentimentSession::save_model)
      .function("exportPytorch", &JsSentimentSession::export_pytorch)
      .function("modelInfo", &JsSentimentSession::model_info)
      .function("startTraining", &JsSentimentSession::start_training)
      .function("runSteps", &JsSentimentSession::run_steps)
      .function("exchangeSize", &JsSentimentSession::exchange_size)
      .function("shardGradient", &JsSentimentSession::shard_gradient)
      .function("applyGradient", &JsSentimentSession::apply_gradient)
      .function("cancelTraining", &JsSentimentSession::cancel_training)
      .function("isTraining", &JsSentimentSession::is_training)
      .function("evaluate", &JsSentimentSession::evaluate)
      .function("trainBaseline", &JsSentimentSession::train_baseline)
      .function("hasBaseline", &JsSentimentSession::has_baseline)
      .function("evaluateBaseline", &JsSentimentSession::evaluate_baseline)
      .function("explainBaseline", &JsSentimentSession::explain_baseline)
      .function("predict", &JsSentimentSession::predict)
      .function("explain", &JsSentimentSession::explain)
      .function("snapshot", &JsSentimentSession::snapshot)
      .function("analyze", &JsSentimentSession::analyze)
      .function("predictTokens", &JsSentimentSession::predict_tokens)
      .function("misclassified", &JsSentimentSession::misclassified)
      .function("poolingProbe", &JsSentimentSession::pooling_probe)
      .function("probabilityWithWeights", &JsSentimentSession::probability_with_weights)
      .function("inspectTransformer", &JsSentimentSession::inspect_transformer)
      .function("headAblation", &JsSentimentSession::head_ablation)
      .function("positionalEncoding", &JsSentimentSession::positional_encoding);
}
