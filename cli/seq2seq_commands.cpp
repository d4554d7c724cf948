#include "seq2seq_commands.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

#include "attn/attention/scores.hpp"
#include "attn/data/parallel_split.hpp"
#include "attn/data/seq2seq_data.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "attn/models/translator_file.hpp"
#include "attn/train/date_alignment.hpp"
#include "attn/train/seq2seq_recipes.hpp"
#include "attn/train/seq2seq_trainer.hpp"
#include "attn/train/translation_scores.hpp"
#include "progress.hpp"

namespace attn::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

bool is_digit_task(const std::string& task) { return task == "reverse" || task == "sort" || task == "copy"; }

std::size_t longest(const std::vector<std::vector<int>>& rows) {
  std::size_t n = 0;
  for (const auto& r : rows) n = std::max(n, r.size());
  return n;
}

// Decoder steps allowed when the answer's length is unknown (models/translator.hpp).
std::size_t decode_limit(std::size_t source_tokens) { return decode_step_limit(source_tokens); }

// Terminal columns of a UTF-8 token (code points; the tokens here are narrow characters). A space
// token is shown as the open-box sign so character-level columns stay readable.
std::string shown(const std::string& token) { return token == " " ? "\u2423" : token; }
std::size_t columns(const std::string& text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xc0u) != 0x80u ? 1 : 0;
  return n;
}

std::string fixed(double x, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, x);
  return text;
}

// {"year":..,"month":..,"day":..} of one measure, for the done line (FlatJson has no nesting).
template <typename Measure>
std::string per_field_json(const DateAlignmentReport& r, const Measure& measure) {
  char text[128];
  std::snprintf(text, sizeof text, "{\"year\":%.6g,\"month\":%.6g,\"day\":%.6g}", measure(r.year), measure(r.month),
                measure(r.day));
  return text;
}

// The done line's translation fields: bleu, chrf, exact_match (by source), sentences,
// bleu_by_length with its buckets' labels and sizes, and BLEU's parts.
void add_translation_scores(FlatJson& j, const TranslationScores& t) {
  std::vector<double> bleu, sentences, precisions;
  std::vector<std::string> labels;
  for (const LengthBucket& b : t.by_length) {
    bleu.push_back(b.bleu.score);
    sentences.push_back(static_cast<double>(b.sentences));
    labels.push_back(b.label);
  }
  for (const double p : t.bleu.precisions) precisions.push_back(p);
  j.set("bleu", t.bleu.score)
      .set("chrf", t.chrf.score)
      .set("exact_match", t.exact.rate())
      .set("sentences", static_cast<double>(t.sentences))
      .set("bleu_by_length", bleu)
      .set("bleu_by_length_sentences", sentences)
      .set("length_buckets", labels)
      .set("bleu_precisions", precisions)
      .set("brevity_penalty", t.bleu.brevity_penalty);
}

// The data line's <unk> rates (task parallel): per part and side, of tokens and of sentences.
void add_unknown_rates(FlatJson& j, const Seq2SeqData& data) {
  const std::pair<const char*, const PairUnknownRates*> parts[] = {{"train", &data.train_unknown},
                                                                   {"test", &data.test_unknown}};
  for (const auto& [part, rates] : parts) {
    for (const auto& [side, rate] : {std::pair<const char*, const UnknownRate*>{"source", &rates->source},
                                     std::pair<const char*, const UnknownRate*>{"target", &rates->target}}) {
      const std::string key = std::string(part) + "_" + side + "_unk";
      j.set(key, rate->token_rate()).set(key + "_sentences", rate->sentence_rate());
    }
  }
}

std::string percent(double share) { return fixed(100 * share, 2) + "%"; }

void print_unknown_rates(std::ostream& out, const Seq2SeqData& data) {
  const ParallelVocabularies& v = data.vocabularies;
  out << "words: " << v.source.token_description() << " -> " << v.target.token_description() << "\n<unk>:";
  const auto side = [&](const char* name, const UnknownRate& train, const UnknownRate& test) {
    out << " " << name << " " << percent(train.token_rate()) << " of tokens (" << percent(train.sentence_rate())
        << " of sentences) in training, " << percent(test.token_rate()) << " (" << percent(test.sentence_rate())
        << ") held out";
  };
  side("source", data.train_unknown.source, data.test_unknown.source);
  out << ";";
  side("target", data.train_unknown.target, data.test_unknown.target);
  out << "\n";
}

void print_translation_scores(std::ostream& out, const TranslationScores& t) {
  out << "held out (" << t.sentences << " source sentences, all their references, lowercased): BLEU "
      << fixed(t.bleu.score, 2) << ", chrF " << fixed(t.chrf.score, 2) << ", exact match "
      << fixed(100 * t.exact.rate(), 2) << "%\nBLEU by source length:";
  for (const LengthBucket& b : t.by_length) {
    out << " " << b.label << " words: " << (b.sentences ? fixed(b.bleu.score, 1) : std::string("-")) << " ("
        << b.sentences << ")";
  }
  out << "\n";
}

// The alignment [rows][cols] as a JSON array of arrays.
std::string matrix_json(const Tensor2& a) {
  std::string matrix = "[";
  for (std::size_t r = 0; r < a.shape(0); ++r) {
    matrix += r ? ",[" : "[";
    for (std::size_t c = 0; c < a.shape(1); ++c) {
      char number[32];
      std::snprintf(number, sizeof number, "%s%.6g", c ? "," : "", static_cast<double>(a(r, c)));
      matrix += number;
    }
    matrix += "]";
  }
  return matrix + "]";
}

// A seq2seq model file with its vocabularies, whichever kind.
struct LoadedTranslator {
  std::unique_ptr<TrainableTranslator> model;
  std::string task;
  ParallelVocabularies vocabularies;
};

LoadedTranslator load_translator_bytes(const std::vector<std::uint8_t>& bytes) {
  std::string extra;
  LoadedTranslator out;
  out.model = load_translator(bytes, &extra);
  try {
    out.task = read_seq2seq_task(extra);
    out.vocabularies = read_seq2seq_vocabularies(extra);
  } catch (const std::invalid_argument& e) {
    throw ModelFileError(std::string("this seq2seq model file holds no usable vocabularies (") + e.what() +
                         "); save the model with attn train --save, which stores them");
  }
  return out;
}

LoadedTranslator load_translator_file(const std::string& path) { return load_translator_bytes(read_file(path)); }

// Which runs read a session setting: the flag checks of `attn train` and --help's defaults follow it.
enum class Scope { any, digits, parallel, words, scoring, rnn, attention, transformer };

Scope scope_of(const std::string& field) {
  for (const char* f : {"min_len", "max_len", "test_min_len", "test_max_len"}) {
    if (field == f) return Scope::digits;
  }
  for (const char* f : {"source_vocab", "target_vocab", "bleu_sentences"}) {
    if (field == f) return Scope::parallel;
  }
  for (const char* f : {"source_language", "target_language", "lowercase", "max_train_tokens"}) {
    if (field == f) return Scope::words;
  }
  for (const char* f : {"beam", "length_alpha"}) {
    if (field == f) return Scope::scoring;
  }
  for (const char* f : {"cell", "embed", "units"}) {
    if (field == f) return Scope::rnn;
  }
  for (const char* f : {"attention", "score", "attention_dim"}) {
    if (field == f) return Scope::attention;
  }
  for (const char* f : {"d_model", "heads", "layers", "ff", "dropout", "label_smoothing"}) {
    if (field == f) return Scope::transformer;
  }
  return Scope::any;
}

bool reads(Scope scope, const Seq2SeqSessionConfig& c) {
  switch (scope) {
    case Scope::digits:
      return is_digit_task(c.task);
    case Scope::parallel:
    case Scope::words:
    case Scope::scoring:
      return c.task == "parallel";
    case Scope::rnn:
      return !c.is_transformer();
    case Scope::attention:
      return !c.is_transformer() && c.model.attention != AttentionForm::none;
    case Scope::transformer:
      return c.is_transformer();
    case Scope::any:
      break;
  }
  return true;
}

// Why --flag is refused for `c` (its fields' scope, none of which `c` reads).
std::string not_read(const std::string& flag, Scope scope) {
  switch (scope) {
    case Scope::digits:
      return "--" + flag + " applies to the digit tasks (reverse, sort, copy) only";
    case Scope::parallel:
      return "--" + flag + " applies to --task sentiment or parallel only";
    case Scope::words:
      return "--" + flag + " applies to --task parallel only (the other seq2seq tasks are read character by character)";
    case Scope::scoring:
      return "--" + flag + " applies to --task parallel only (how the held-out sentences are decoded for BLEU)";
    case Scope::rnn:
      return "--" + flag + " is the RNN's; --model transformer-seq2seq is sized by --embed (d_model)";
    case Scope::attention:
      return "--attention, --score and --attention-dim need --model seq2seq-attention";
    case Scope::transformer:
      return "--" + flag + " applies to --model transformer-seq2seq (and sentiment) only";
    case Scope::any:
      break;
  }
  return "";
}

// The --model name of what `c` trains.
std::string cli_model_name(const Seq2SeqSessionConfig& c) {
  if (c.is_transformer()) return "transformer-seq2seq";
  return c.model.attention == AttentionForm::none ? "seq2seq" : "seq2seq-attention";
}

// The {"event": "settings"} line: the recipe and every field of the session's settings.
std::string settings_line(const Seq2SeqTrainSettings& s) {
  FlatJson j;
  j.set("event", "settings").set("recipe", s.recipe);
  return seq2seq_session_settings().write(s.config, j).dump();
}

}  // namespace

const std::vector<std::string>& seq2seq_task_names() {
  static const std::vector<std::string> names = {"dates", "reverse", "sort", "copy", "parallel"};
  return names;
}

Seq2SeqTrainSettings seq2seq_train_settings(const Args& args) {
  const SettingsSchema<Seq2SeqSessionConfig>& schema = seq2seq_session_settings();
  Seq2SeqTrainSettings s;
  if (args.has("recipe")) {
    if (args.has("model")) throw UsageError("--recipe names the model too: pass --recipe or --model, not both");
    s.recipe = args.get("recipe");
  } else {
    const std::string model =
        args.choice("model", "seq2seq-attention", {"seq2seq-attention", "seq2seq", "transformer-seq2seq"});
    s.recipe = seq2seq_cli_recipe_name(args.get("task"), model, args.has("attention") ? args.get("attention") : "");
  }
  s.config = seq2seq_recipe_settings(s.recipe);
  Seq2SeqSessionConfig& c = s.config;
  // The digit tasks share one recipe; any other task is the recipe's own.
  const std::string task = args.has("task") ? args.get("task") : c.task;
  if (task != c.task && !(is_digit_task(task) && is_digit_task(c.task))) {
    throw UsageError("--recipe " + s.recipe + " trains task " + c.task + ", not " + task);
  }
  schema.set(c, "task", task);
  if (args.has("attention") && args.get("attention") == "none")
    throw UsageError("--attention none is --model seq2seq (no attention)");
  if (task != "parallel" && args.has("data")) throw UsageError("--data applies to --task sentiment or parallel only");
  // A flag whose fields the run does not read is refused (--embed sizes the RNN's embed and the
  // Transformer's d_model: one of them reads it).
  std::vector<std::string> flags;
  for (const auto& f : schema.fields()) {
    if (!f.spec.flag.empty() && std::find(flags.begin(), flags.end(), f.spec.flag) == flags.end())
      flags.push_back(f.spec.flag);
  }
  for (const std::string& flag : flags) {
    if (!args.has(flag)) continue;
    Scope scope = Scope::any;
    bool read = false;
    for (const auto& f : schema.fields()) {
      if (f.spec.flag != flag) continue;
      scope = scope_of(f.spec.name);
      read = read || reads(scope, c);
    }
    if (!read) throw UsageError(not_read(flag, scope));
  }
  for (const auto& f : schema.fields()) {
    if (!f.spec.flag.empty() && args.has(f.spec.flag)) schema.set(c, f.spec.name, args.setting(f.spec));
  }
  schema.finish(c);  // configuration errors surface before any data is read
  return s;
}

std::vector<ExportedFile> export_translator_pytorch(const std::vector<std::uint8_t>& model_file) {
  const LoadedTranslator loaded = load_translator_bytes(model_file);
  return export_pytorch_translator(*loaded.model, loaded.task, loaded.vocabularies);
}

std::string seq2seq_cli_model_name(const Seq2SeqSessionConfig& c) { return cli_model_name(c); }

bool seq2seq_setting_read(const std::string& field, const Seq2SeqSessionConfig& c) { return reads(scope_of(field), c); }

int seq2seq_train_command(const Args& args, std::ostream& out, std::ostream& err) {
  const bool json = args.flag("json");
  const Seq2SeqTrainSettings settings = seq2seq_train_settings(args);
  if (settings.config.task == "parallel" && !args.has("data") && !args.flag("print-settings"))
    throw UsageError("--task parallel needs --data PATH (source<TAB>target lines)");
  if (args.flag("print-settings")) {
    out << settings_line(settings) << "\n";
    return 0;
  }
  const Seq2SeqSessionConfig& c = settings.config;
  const std::string& task = c.task;
  const bool digits = is_digit_task(task);
  const bool transformer = c.is_transformer();
  const bool attention = !transformer && c.model.attention != AttentionForm::none;
  const std::string model_name = cli_model_name(c);

  // The data: data/seq2seq_data.hpp, the pipeline the page's session uses too.
  const Seq2SeqDataSpec data_options = c.data_spec();
  const Seq2SeqData data = task == "parallel" ? parallel_seq2seq_data(load_parallel_text_file(args.get("data")),
                                                                      args.get("data"), data_options)
                                              : generate_seq2seq_data(data_options);
  Seq2SeqConfig config = c.rnn_config(data.vocabularies.source.size(), data.vocabularies.target.size());
  config.max_source_len = std::max(longest(data.train_ids.sources), longest(data.test_ids.sources));
  const TransformerSeq2SeqConfig transformer_config = c.transformer_config(config.source_vocab, config.target_vocab);
  const Seq2SeqTrainerConfig& trainer = c.trainer;
  if (json) {
    out << settings_line(settings) << "\n";
    FlatJson line;
    line.set("event", "data")
        .set("task", task)
        .set("train_examples", static_cast<double>(data.train.size()))
        .set("test_examples", static_cast<double>(data.test.size()))
        .set("source", data.description)
        .set("source_vocab", static_cast<double>(config.source_vocab))
        .set("target_vocab", static_cast<double>(config.target_vocab));
    if (task == "parallel") {
      add_unknown_rates(line, data);
      line.set("train_too_long", static_cast<double>(data.train_too_long));
    }
    out << line.dump() << "\n" << std::flush;
  } else {
    out << "data: " << data.train.size() << " training pairs, " << data.test.size() << " held out; " << data.description
        << "; vocabularies " << config.source_vocab << " / " << config.target_vocab << " ids\n";
    if (task == "parallel") print_unknown_rates(out, data);
    out << std::flush;
  }

  std::unique_ptr<TrainableTranslator> trained;
  if (transformer) {
    trained = std::make_unique<TransformerSeq2Seq>(transformer_config, data_options.seed);
  } else {
    trained = std::make_unique<Seq2SeqModel>(config, data_options.seed);
  }
  TrainableTranslator& model = *trained;
  const auto start = Clock::now();
  ProgressPrinter progress(json, out, err);
  Seq2SeqCallbacks callbacks;
  callbacks.on_step = [&](const Seq2SeqStepProgress& p) {
    progress.step(p.step, p.epoch, p.loss, p.examples_per_second, p.elapsed, trainer.epochs);
    return true;
  };
  callbacks.on_epoch = [&](const Seq2SeqEpochProgress& e) {
    progress.end_line();
    FlatJson line;
    line.set("event", "epoch")
        .set("epoch", static_cast<double>(e.epoch + 1))
        .set("train_loss", e.train_loss)
        .set("teacher_forcing", static_cast<double>(e.teacher_forcing))
        .set("seconds", e.seconds);
    if (e.has_validation) {
      line.set("val_loss", e.validation_loss)
          .set("val_exact_match", e.validation.exact_match)
          .set("val_token_accuracy", e.validation.token_accuracy);
    }
    if (json) {
      out << line.dump() << "\n" << std::flush;
    } else {
      out << "epoch " << e.epoch + 1 << ": train loss " << fixed(e.train_loss, 4);
      if (e.has_validation) {
        out << "; validation loss " << fixed(e.validation_loss, 4) << ", exact match "
            << fixed(100 * e.validation.exact_match, 2) << "%";
      }
      out << " (" << fixed(e.seconds, 1) << " s)\n" << std::flush;
    }
    return true;
  };
  const Seq2SeqHistory history =
      train_seq2seq(model, data.train_ids.sources, data.train_ids.targets, trainer, callbacks);
  progress.end_line();
  const double train_seconds = seconds_since(start);

  const Seq2SeqMetrics m = evaluate_seq2seq(model, data.test_ids.sources, data.test_ids.targets,
                                            decode_limit(longest(data.test_ids.sources)));
  const std::size_t params = parameter_count(model.parameters());

  FlatJson done;
  done.set("event", "done")
      .set("task", task)
      .set("model", model_name)
      .set("attention", transformer ? "transformer" : attention_form_name(config.attention))
      .set("train_examples", static_cast<double>(data.train.size()))
      .set("test_examples", static_cast<double>(data.test.size()))
      .set("exact_match", m.exact_match)
      .set("token_accuracy", m.token_accuracy)
      .set("train_seconds", train_seconds)
      .set("params", static_cast<double>(params))
      .set("epochs_run", static_cast<double>(history.epochs.size()))
      .set("best_epoch", static_cast<double>(history.best_epoch + 1))
      .set("early_stopped", history.early_stopped);
  if (attention) done.set("score", score_kind_name(config.score));
  if (transformer) {
    done.set("d_model", static_cast<double>(transformer_config.d_model))
        .set("heads", static_cast<double>(transformer_config.heads))
        .set("layers", static_cast<double>(transformer_config.encoder_layers))
        .set("ff", static_cast<double>(transformer_config.ff_dim));
  }
  if (task == "parallel") {
    // Held-out translation quality: each held-out sentence against all its translations.
    const TranslationScores t = score_translations(model, data.vocabularies, group_references(data.test),
                                                   decode_limit(longest(data.test_ids.sources)), c.search());
    done.set("beam", static_cast<double>(c.beam)).set("length_alpha", static_cast<double>(c.length_alpha));
    add_translation_scores(done, t);
    done.set("pair_exact_match", m.exact_match);
    if (!json) print_translation_scores(out, t);
  }
  std::vector<double> lengths, by_length;
  if (digits) {
    for (const Seq2SeqLengthMetrics& l : m.by_source_length) {
      lengths.push_back(static_cast<double>(l.source_length));
      by_length.push_back(l.count ? static_cast<double>(l.exact) / static_cast<double>(l.count) : 0.0);
    }
    done.set("lengths", lengths).set("exact_match_by_length", by_length);
  }
  if (!json && task != "parallel") {
    out << "held out: exact match " << fixed(100 * m.exact_match, 2) << "%, token accuracy "
        << fixed(100 * m.token_accuracy, 2) << "%\n";
    if (digits) {
      out << "exact match by source length:";
      for (std::size_t i = 0; i < lengths.size(); ++i)
        out << " " << lengths[i] << ":" << fixed(100 * by_length[i], 1) << "%";
      out << "\n";
    }
  }
  // Dates: does each ISO field attend to the same field of the source (date_alignment.hpp)?
  std::string alignment_json;
  if (task == "dates" && attention) {
    const DateAlignmentReport r =
        date_alignment_report(static_cast<const Seq2SeqModel&>(model), data.test, data.vocabularies,
                              DateTaskConfig().first_year, decode_limit(longest(data.test_ids.sources)));
    const auto mass = [](const FieldAlignment& f) { return f.mean_mass(); };
    const auto argmax = [](const FieldAlignment& f) { return f.argmax_share(); };
    alignment_json = ",\"alignment\":" + per_field_json(r, mass) + ",\"alignment_argmax\":" + per_field_json(r, argmax);
    done.set("alignment_examples", static_cast<double>(r.examples))
        .set("alignment_century_rows_excluded", static_cast<double>(r.century_rows_excluded));
    if (!json) {
      out << "alignment over " << r.examples << " exact decodings (mean attention on the matching source field; "
          << "share of characters whose argmax is there): year " << fixed(100 * r.year.mean_mass(), 1) << "% ("
          << fixed(100 * r.year.argmax_share(), 1) << "%), month " << fixed(100 * r.month.mean_mass(), 1) << "% ("
          << fixed(100 * r.month.argmax_share(), 1) << "%), day " << fixed(100 * r.day.mean_mass(), 1) << "% ("
          << fixed(100 * r.day.argmax_share(), 1) << "%); the century digits of " << r.century_rows_excluded / 2
          << " two-digit years are not counted (no source characters)\n";
    }
  }
  if (args.has("save")) {
    const std::vector<std::uint8_t> bytes = save_translator(model, seq2seq_extra_json(task, data.vocabularies));
    write_file_atomically(args.get("save"), bytes);
    done.set("saved", args.get("save"));
    if (!json) out << "saved " << args.get("save") << " (" << bytes.size() << " bytes)\n";
  }
  if (json) {
    std::string line = done.dump();
    line.insert(line.size() - 1, alignment_json);
    out << line << "\n";
  } else {
    out << "trained in " << fixed(train_seconds, 1) << " s, " << params << " parameters\n";
  }
  return 0;
}

namespace {
// attn translate --input FILE: one JSON object per non-blank line, in order.
int translate_lines(const Args& args, std::size_t width, float alpha, std::ostream& out) {
  const std::vector<SourceLine> lines = load_source_lines_file(args.get("input"));  // file errors first
  const LoadedTranslator loaded = load_translator_file(args.get("model-file"));
  const bool alignments = args.flag("alignments");
  for (const SourceLine& line : lines) {
    const std::vector<int> source = loaded.vocabularies.source.encode(line.text);
    FlatJson j;
    j.set("line", static_cast<double>(line.line)).set("source", line.text);
    if (source.empty()) {  // e.g. a line of punctuation the tokenizer drops
      j.set("output", "").set("error", "no tokens to translate");
      out << j.dump() << "\n";
      continue;
    }
    const std::size_t max_len = decode_limit(source.size());
    const Decoded best = width == 1 ? std::move(greedy_search(*loaded.model, source_row(source), max_len)[0])
                                    : std::move(beam_search(*loaded.model, source, width, alpha, max_len)[0]);
    j.set("output", loaded.vocabularies.target.decode(best.tokens));
    std::string text = j.dump();
    if (alignments) {
      const bool has = best.alignment.dimension() == 2 && best.alignment.size() > 0;
      text.insert(text.size() - 1, ",\"alignment\":" + (has ? matrix_json(best.alignment) : std::string("null")));
    }
    out << text << "\n" << std::flush;
  }
  return 0;
}
// --beam K and --alpha X of attn translate and attn eval (default greedy; alpha in [0, 10]).
TranslationSearch search_options(const Args& args) {
  TranslationSearch search;
  search.beam = args.whole("beam", 1, 1, 64);
  search.alpha = static_cast<float>(args.number("alpha", kDefaultLengthAlpha, -1e-9, 10));
  return search;
}
}  // namespace

int seq2seq_eval_command(const Args& args, std::ostream& out, std::ostream&) {
  ParallelLoadReport report;
  const std::vector<ParallelExample> pairs = load_parallel_text_file(args.get("pairs"), {}, &report);
  const LoadedTranslator loaded = load_translator_file(args.get("model-file"));
  const std::vector<ReferenceGroup> groups = group_references(pairs);
  std::size_t longest_source = 0;
  for (const ReferenceGroup& g : groups)
    longest_source = std::max(longest_source, loaded.vocabularies.source.encode(g.source).size());
  const TranslationSearch search = search_options(args);
  const TranslationScores t =
      score_translations(*loaded.model, loaded.vocabularies, groups, decode_limit(longest_source), search);
  if (args.flag("json")) {
    FlatJson j;
    j.set("event", "done")
        .set("task", loaded.task)
        .set("pairs", static_cast<double>(pairs.size()))
        .set("beam", static_cast<double>(search.beam))
        .set("length_alpha", static_cast<double>(search.alpha));
    add_translation_scores(j, t);
    out << j.dump() << "\n";
  } else {
    out << args.get("pairs") << ": " << report.summary() << "\n";
    print_translation_scores(out, t);
  }
  return 0;
}

int translate_command(const Args& args, std::ostream& out, std::ostream&) {
  const TranslationSearch search = search_options(args);
  const std::size_t width = search.beam;
  const float alpha = search.alpha;
  if (args.has("text") == args.has("input")) throw UsageError("give either --text TEXT or --input FILE");
  if (args.flag("alignments") && !args.has("input"))
    throw UsageError("--alignments goes with --input (with --text, --json prints the alignment)");
  if (args.has("input")) return translate_lines(args, width, alpha, out);
  const LoadedTranslator loaded = load_translator_file(args.get("model-file"));
  const TrainableTranslator& model = *loaded.model;
  const std::string& task = loaded.task;
  const ParallelVocabularies& vocabularies = loaded.vocabularies;
  const std::vector<int> source = vocabularies.source.encode(args.get("text"));
  if (source.empty()) throw UsageError("--text has no tokens to translate");
  const std::size_t max_len = decode_limit(source.size());
  const Decoded best = width == 1 ? std::move(greedy_search(model, source_row(source), max_len)[0])
                                  : std::move(beam_search(model, source, width, alpha, max_len)[0]);

  const std::string output = vocabularies.target.decode(best.tokens);
  const std::vector<std::string> source_tokens = vocabularies.source.tokens_of(source);
  std::vector<std::string> output_tokens = vocabularies.target.tokens_of(best.tokens);
  if (best.finished) output_tokens.push_back(Seq2SeqVocabulary().token(Seq2SeqVocabulary::eos));
  const bool has_alignment = best.alignment.dimension() == 2 && best.alignment.shape(0) == output_tokens.size() &&
                             best.alignment.shape(1) == source_tokens.size() && !output_tokens.empty();

  if (args.flag("json")) {
    FlatJson j;
    j.set("event", "done")
        .set("task", task)
        .set("output", output)
        .set("log_prob", static_cast<double>(best.log_prob))
        .set("finished", best.finished)
        .set("source_tokens", source_tokens)
        .set("output_tokens", output_tokens);
    std::string line = j.dump();
    // FlatJson writes flat arrays only; the matrix [output token][source token] is added by hand.
    if (has_alignment) line.insert(line.size() - 1, ",\"alignment\":" + matrix_json(best.alignment));
    out << line << "\n";
    return 0;
  }
  out << output << "\n";
  if (!has_alignment) return 0;
  // Rows: output tokens; columns: source tokens; cells: attention weight in percent.
  std::size_t label_width = 6;
  for (const auto& t : output_tokens) label_width = std::max(label_width, columns(shown(t)) + 1);
  out << "alignment (attention %, rows: output, columns: source):\n" << std::string(label_width, ' ');
  std::vector<std::size_t> widths;
  for (const auto& t : source_tokens) {
    widths.push_back(std::max<std::size_t>(4, columns(shown(t)) + 1));
    out << std::string(widths.back() - columns(shown(t)), ' ') << shown(t);
  }
  out << "\n";
  for (std::size_t r = 0; r < output_tokens.size(); ++r) {
    out << shown(output_tokens[r]) << std::string(label_width - columns(shown(output_tokens[r])), ' ');
    for (std::size_t c = 0; c < source_tokens.size(); ++c) {
      const std::string cell = std::to_string(static_cast<int>(std::lround(100 * best.alignment(r, c))));
      out << std::string(widths[c] > cell.size() ? widths[c] - cell.size() : 1, ' ') << cell;
    }
    out << "\n";
  }
  return 0;
}

}  // namespace attn::cli
