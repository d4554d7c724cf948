// Embind bindings for translation text and metrics (core/include/attn/text/mt_tokenizer.hpp,
// core/include/attn/text/translation_metrics.hpp): the page and the course tokenise and
// detokenise sentences, split pairs by source sentence (data/parallel_split.hpp) and score
// translations with BLEU (with its parts) and chrF. Conversion only: every computation happens
// in attn_core. Every call copies its inputs and outputs. See attn_engine.d.ts for the JS-side
// types.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "attn/data/parallel_split.hpp"
#include "attn/text/mt_tokenizer.hpp"
#include "attn/text/translation_metrics.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

bool is_array(const val& v) { return val::global("Array").call<bool>("isArray", v); }

std::vector<std::string> read_strings(const val& list, const std::string& name) {
  if (!is_array(list)) throw std::invalid_argument(name + " must be an array of strings");
  std::vector<std::string> out(list["length"].as<std::size_t>());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const val item = list[i];
    if (!item.isString()) throw std::invalid_argument(name + "[" + std::to_string(i) + "] must be a string");
    out[i] = item.as<std::string>();
  }
  return out;
}

std::vector<std::vector<std::string>> read_string_rows(const val& rows, const std::string& name) {
  if (!is_array(rows)) throw std::invalid_argument(name + " must be an array of arrays of strings");
  std::vector<std::vector<std::string>> out(rows["length"].as<std::size_t>());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = read_strings(rows[i], name + "[" + std::to_string(i) + "]");
  return out;
}

val to_js_strings(const std::vector<std::string>& items) {
  val out = val::array();
  for (const std::string& s : items) out.call<void>("push", s);
  return out;
}

template <class Array>
val to_js_numbers(const Array& items) {
  val out = val::array();
  for (const auto x : items) out.call<void>("push", static_cast<double>(x));
  return out;
}

val option(const val& options, const char* key) { return is_absent(options) ? val::undefined() : options[key]; }

std::string read_string_option(const val& options, const char* key, const std::string& fallback) {
  const val v = option(options, key);
  if (is_absent(v)) return fallback;
  if (!v.isString()) throw std::invalid_argument(std::string(key) + " must be a string");
  return v.as<std::string>();
}

MtLanguage read_language(const val& options) {
  return mt_language_from_name(read_string_option(options, "language", "generic"));
}

MetricOptions read_metric_options(const val& options) {
  MetricOptions out;
  out.lowercase = read_flag(option(options, "lowercase"), "lowercase");
  const val nfc = option(options, "nfc");
  out.nfc = is_absent(nfc) ? true : read_flag(nfc, "nfc");
  return out;
}

val bleu_to_js(const BleuResult& r) {
  val out = val::object();
  out.set("score", r.score);
  out.set("precisions", to_js_numbers(r.precisions));
  out.set("matches", to_js_numbers(r.stats.matches));
  out.set("totals", to_js_numbers(r.stats.totals));
  out.set("brevityPenalty", r.brevity_penalty);
  out.set("lengthRatio", r.length_ratio);
  out.set("hypothesisLength", static_cast<double>(r.stats.hypothesis_length));
  out.set("referenceLength", static_cast<double>(r.stats.reference_length));
  out.set("sentences", static_cast<double>(r.stats.sentences));
  return out;
}

val js_mt_tokenize(const std::string& text, const val& options) {
  return guarded([&] {
    return to_js_strings(
        mt_tokenize(text, {read_language(options), read_flag(option(options, "lowercase"), "lowercase")}));
  });
}

std::string js_mt_detokenize(const val& tokens, const val& options) {
  return guarded([&] {
    return mt_detokenize(read_strings(tokens, "tokens"),
                         {read_language(options), read_string_option(options, "frenchSpace", " ")});
  });
}

val js_corpus_bleu(const val& hypotheses, const val& references, const val& options) {
  return guarded([&] {
    return bleu_to_js(corpus_bleu(read_strings(hypotheses, "hypotheses"), read_string_rows(references, "references"),
                                  read_metric_options(options)));
  });
}

val js_corpus_bleu_tokens(const val& hypotheses, const val& references, const std::string& smoothing) {
  return guarded([&] {
    if (smoothing != "none" && smoothing != "exp")
      throw std::invalid_argument("smoothing must be 'none' or 'exp', got '" + smoothing + "'");
    if (!is_array(references)) throw std::invalid_argument("references must be an array");
    std::vector<std::vector<std::vector<std::string>>> refs(references["length"].as<std::size_t>());
    for (std::size_t i = 0; i < refs.size(); ++i)
      refs[i] = read_string_rows(references[i], "references[" + std::to_string(i) + "]");
    return bleu_to_js(corpus_bleu_tokens(read_string_rows(hypotheses, "hypotheses"), refs,
                                         smoothing == "exp" ? BleuSmoothing::exp : BleuSmoothing::none));
  });
}

val js_corpus_chrf(const val& hypotheses, const val& references, const val& options) {
  return guarded([&] {
    const ChrfResult r = corpus_chrf(read_strings(hypotheses, "hypotheses"), read_string_rows(references, "references"),
                                     read_metric_options(options));
    val out = val::object();
    out.set("score", r.score);
    out.set("precision", r.precision);
    out.set("recall", r.recall);
    return out;
  });
}

val js_exact_match(const val& hypotheses, const val& references, const val& options) {
  return guarded([&] {
    const ExactMatch r = exact_match(read_strings(hypotheses, "hypotheses"), read_string_rows(references, "references"),
                                     read_metric_options(options));
    val out = val::object();
    out.set("matched", static_cast<double>(r.matched));
    out.set("sentences", static_cast<double>(r.sentences));
    out.set("rate", r.rate());
    return out;
  });
}

val js_bleu_by_source_length(const val& sources, const val& hypotheses, const val& references, const val& options) {
  return guarded([&] {
    const std::vector<LengthBucket> buckets =
        bleu_by_source_length(read_strings(sources, "sources"), read_strings(hypotheses, "hypotheses"),
                              read_string_rows(references, "references"), read_metric_options(options));
    val out = val::array();
    for (const LengthBucket& b : buckets) {
      val bucket = val::object();
      bucket.set("label", b.label);
      bucket.set("minWords", static_cast<double>(b.min_words));
      bucket.set("maxWords", b.max_words == 0 ? val::null() : val(static_cast<double>(b.max_words)));
      bucket.set("sentences", static_cast<double>(b.sentences));
      bucket.set("bleu", bleu_to_js(b.bleu));
      out.call<void>("push", bucket);
    }
    return out;
  });
}

// splitBySource(sources [N], targets [N], heldOutSources, seed) -> the held-out groups (each
// source with all its references) and which pairs went where.
val js_split_by_source(const val& sources, const val& targets, double held_out_sources, double seed) {
  return guarded([&] {
    const std::vector<std::string> s = read_strings(sources, "sources"), t = read_strings(targets, "targets");
    if (s.size() != t.size()) {
      throw std::invalid_argument("splitBySource: " + std::to_string(s.size()) + " sources but " +
                                  std::to_string(t.size()) + " targets");
    }
    std::vector<ParallelExample> pairs;
    for (std::size_t i = 0; i < s.size(); ++i) pairs.push_back({s[i], t[i]});
    const SourceSplit split = split_by_source(pairs, whole_number(held_out_sources, "heldOutSources", 1e9),
                                              whole_number(seed, "seed", 4294967295.0));
    val groups = val::array();
    for (const ReferenceGroup& g : split.held_out_groups) {
      val group = val::object();
      group.set("source", g.source);
      group.set("references", to_js_strings(g.references));
      groups.call<void>("push", group);
    }
    val out = val::object();
    out.set("sources", static_cast<double>(split.sources));
    out.set("trainPairs", static_cast<double>(split.train.size()));
    out.set("heldOutPairs", static_cast<double>(split.held_out.size()));
    out.set("heldOutGroups", groups);
    return out;
  });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(translation) {
  using namespace attn::wasm;
  emscripten::function("mtTokenize", &js_mt_tokenize);
  emscripten::function("mtDetokenize", &js_mt_detokenize);
  emscripten::function("corpusBleu", &js_corpus_bleu);
  emscripten::function("corpusBleuTokens", &js_corpus_bleu_tokens);
  emscripten::function("corpusChrf", &js_corpus_chrf);
  emscripten::function("exactMatch", &js_exact_match);
  emscripten::function("bleuBySourceLength", &js_bleu_by_source_length);
  emscripten::function("splitBySource", &js_split_by_source);
}
