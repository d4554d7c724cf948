// attn train / cv / eval / predict for the sentiment task. Models: the neural SequenceClassifier
// families (through the SentimentModel bundle) and the bag-of-n-grams baseline. The option tables
// of every command live here; train --task <seq2seq task> and translate run in seq2seq_commands.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "args.hpp"
#include "attn/data/splits.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/bag_of_ngrams.hpp"
#include "attn/models/pytorch_export.hpp"
#include "attn/text/tokenizer.hpp"
#include "attn/train/baseline_training.hpp"
#include "attn/train/recipes.hpp"
#include "attn/train/sentiment_training.hpp"
#include "attn/train/seq2seq_recipes.hpp"
#include "cli.hpp"
#include "progress.hpp"
#include "sentiment_data.hpp"
#include "seq2seq_commands.hpp"

namespace attn::cli {
namespace {

using Clock = std::chrono::steady_clock;

// NAME, N, true|false or X: what a flag of this type takes.
const char* value_name(SettingType type) {
  switch (type) {
    case SettingType::choice:
      return "NAME";
    case SettingType::whole:
      return "N";
    case SettingType::boolean:
      return "true|false";
    case SettingType::number:
      break;
  }
  return "X";
}

// A value as --help shows it: 0.002, 5000, cosine.
std::string help_value(const SettingValue& v) {
  if (const std::string* s = std::get_if<std::string>(&v)) return *s;
  if (const double* d = std::get_if<double>(&v)) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", *d);  // float32 settings as written: 0.1, not 0.100000001
    return text;
  }
  return SettingSpec::value_text(v);
}

// The defaults of a seq2seq flag: for each session field it sets, its value in every cli recipe
// (train/seq2seq_recipes.hpp) whose run reads it — the most common value, then the rows that
// differ: "seq2seq 0.002; 0.001: reverse-transformer, dates-transformer, translation-transformer".
// Empty when no seq2seq field has the flag.
std::string seq2seq_defaults(const std::string& flag) {
  std::string out;
  std::size_t fields = 0;
  for (const auto& f : seq2seq_session_settings().fields()) fields += f.spec.flag == flag ? 1 : 0;
  for (const auto& f : seq2seq_session_settings().fields()) {
    if (f.spec.flag != flag) continue;
    std::vector<std::pair<std::string, std::vector<std::string>>> values;  // value -> its rows
    for (const Seq2SeqRecipe& r : seq2seq_recipes()) {
      if (r.use != "cli") continue;
      const Seq2SeqSessionConfig c = seq2seq_recipe_settings(r.name);
      if (!seq2seq_setting_read(f.spec.name, c)) continue;
      const std::string v = help_value(f.get(c));
      auto at = std::find_if(values.begin(), values.end(), [&](const auto& e) { return e.first == v; });
      if (at == values.end()) at = values.insert(values.end(), {v, {}});
      at->second.push_back(r.name);
    }
    if (values.empty()) continue;
    std::stable_sort(values.begin(), values.end(),
                     [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    // A flag of several fields (--embed: embed and d_model) names each.
    out += std::string(out.empty() ? "" : "; ") + "seq2seq " + (fields > 1 ? f.spec.name + " " : "") + values[0].first;
    for (std::size_t i = 1; i < values.size(); ++i) {
      out += "; " + values[i].first + ":";
      for (std::size_t k = 0; k < values[i].second.size(); ++k) out += (k ? ", " : " ") + values[i].second[k];
    }
  }
  return out;
}

// The help line of a settings field with a flag: its help, then its default — one value when
// every recipe (train/recipes.hpp) trains the same, else "the model's recipe" — and the seq2seq
// defaults of a shared flag.
template <class Config>
OptionSpec setting_option(const SettingField<Config>& field, Config RecipeSettings::*part) {
  std::vector<std::string> values;
  for (const SentimentRecipe& r : sentiment_recipes()) {
    const std::string v = help_value(field.get(recipe_settings(r).*part));
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
  }
  std::string help = field.spec.help;
  if (field.spec.type == SettingType::choice) {
    help += ": ";
    for (std::size_t i = 0; i < field.spec.choices.size(); ++i) help += (i ? " | " : "") + field.spec.choices[i];
  }
  help += values.size() == 1 ? " (default " + values[0] : " (default: the model's recipe";
  const std::string seq2seq = seq2seq_defaults(field.spec.flag);
  if (!seq2seq.empty()) help += "; " + seq2seq;
  return {field.spec.flag, value_name(field.spec.type), help + ")"};
}

// The seq2seq-only flags of `attn train`: the session schema's flags the sentiment schemas do
// not have (their help says which runs read them), then --recipe.
std::vector<OptionSpec> seq2seq_options(const std::vector<OptionSpec>& present) {
  std::vector<OptionSpec> out;
  const auto listed = [&](const std::string& flag) {
    for (const std::vector<OptionSpec>* list : {&present, static_cast<const std::vector<OptionSpec>*>(&out)}) {
      for (const OptionSpec& o : *list) {
        if (o.name == flag) return true;
      }
    }
    return false;
  };
  for (const auto& f : seq2seq_session_settings().fields()) {
    if (f.spec.flag.empty() || listed(f.spec.flag)) continue;
    std::string help = "seq2seq: " + f.spec.help;
    if (f.spec.type == SettingType::choice) {
      help += ": ";
      for (std::size_t i = 0; i < f.spec.choices.size(); ++i) help += (i ? " | " : "") + f.spec.choices[i];
    }
    const std::string defaults = seq2seq_defaults(f.spec.flag);
    // "seq2seq 20000; 0: translation-..." -> "default 20000; 0: translation-..."
    help += " (default " + (defaults.size() > 8 ? defaults.substr(8) : defaults) + ")";
    out.push_back({f.spec.flag, value_name(f.spec.type), help});
  }
  std::string names;
  for (const Seq2SeqRecipe& r : seq2seq_recipes()) names += (names.empty() ? "" : ", ") + r.name;
  out.push_back({"recipe", "NAME",
                 "seq2seq: start from this recipe (train/seq2seq_recipes.hpp; its task unless --task names another "
                 "digit task; not with --model) instead of the task's and model's: " +
                     names});
  return out;
}

// The sentiment settings `attn train` takes as flags: every field of the model's and the trainer's
// schema that names one (classifier_session.hpp, classifier_trainer.hpp).
std::vector<OptionSpec> setting_options() {
  std::vector<OptionSpec> out;
  for (const auto& f : sentiment_model_settings().fields()) {
    if (f.spec.flag.empty()) continue;
    out.push_back(setting_option(f, &RecipeSettings::model));
    if (f.spec.name == "ff_dim")
      out.back().help =
          "Transformer feed-forward size (default 2 × embed; " + seq2seq_defaults("ff") + ": 2 × d_model)";
  }
  for (const auto& f : trainer_settings().fields()) {
    if (!f.spec.flag.empty()) out.push_back(setting_option(f, &RecipeSettings::trainer));
  }
  return out;
}

CommandSpec train_spec() {
  CommandSpec spec{
      "train",
      "train a sentiment or sequence-to-sequence model; report held-out accuracy",
      {{"task", "NAME", "sentiment (default) | dates | reverse | sort | copy | parallel"},
       {"data", "PATH",
        "builtin | aclImdb folder or .tar.gz (its train half) | .csv | .tsv; parallel: source<TAB>target lines"},
       {"data-pos", "FILE", "instead of --data: positive sentences, one per line (with --data-neg)"},
       {"data-neg", "FILE", "instead of --data: negative sentences, one per line (with --data-pos)"},
       {"test", "PATH", "test set (default: the test half of --data when it has one)"},
       {"holdout", "X", "use a stratified share X of --data as the test set instead (seeded by --seed)"},
       {"no-group-split", "",
        "split at random even when the data names groups (aclImdb's urls_*.txt movies, a CSV/TSV group column); "
        "by default the hold-out, validation split and cv folds keep each group on one side"},
       {"model", "NAME",
        "bilstm-attention (default) | transformer | bilstm | ngram-attention (no encoder: attention over words and "
        "hashed bigrams) | bow; seq2seq tasks: seq2seq-attention (default) | "
        "seq2seq (no attention) | transformer-seq2seq (encoder-decoder; --embed is d_model). Sentiment recipes "
        "(train/recipes.hpp) set the defaults marked 'the model's recipe'"},
       {"save", "FILE", "write the trained model to FILE"},
       {"cell", "NAME",
        "recurrent cell of bilstm-attention / bilstm / seq2seq: lstm | gru (default lstm; " + seq2seq_defaults("cell") +
            ")"}},
      {}};
  for (OptionSpec& o : setting_options()) spec.options.push_back(std::move(o));
  for (OptionSpec& o : seq2seq_options(spec.options)) spec.options.push_back(std::move(o));
  spec.options.push_back({"json", "", "print one JSON object per line (settings, data, progress, epochs, done)"});
  spec.options.push_back(
      {"print-settings", "", "print the settings the run would train as one JSON object and exit (no data read)"});
  return spec;
}

const CommandSpec kTrain = train_spec();

// The train options that only the seq2seq tasks read: --recipe and the seq2seq schema's flags the
// sentiment options lack.
const std::vector<std::string>& seq2seq_only_options() {
  static const std::vector<std::string> names = [] {
    std::vector<OptionSpec> sentiment = setting_options();
    sentiment.push_back({"cell", "", ""});
    std::vector<std::string> out;
    for (const OptionSpec& o : seq2seq_options(sentiment)) out.push_back(o.name);
    return out;
  }();
  return names;
}

const CommandSpec kEval{"eval",
                        "evaluate a saved model on labelled data or sentence pairs",
                        {{"model-file", "FILE", "a model written by attn train --save"},
                         {"pairs", "FILE",
                          "seq2seq models: source<TAB>target lines, decoded (greedy, or --beam) and scored against "
                          "every target of each source (BLEU, chrF, exact match, BLEU by source length)"},
                         {"beam", "K", "with --pairs: beam width (default 1: greedy)"},
                         {"alpha", "X", "with --pairs: beam search length penalty exponent, GNMT (default 0.6)"},
                         {"data", "PATH", "labelled reviews (for aclImdb: its test half)"},
                         {"data-pos", "FILE", "instead of --data: positive sentences, one per line (with --data-neg)"},
                         {"data-neg", "FILE", "instead of --data: negative sentences, one per line (with --data-pos)"},
                         {"json", "", "print one JSON object"}},
                        {"model-file"}};

const CommandSpec kPredict{"predict",
                           "classify one text and show the attention over its tokens",
                           {{"model-file", "FILE", "a model written by attn train --save"},
                            {"text", "TEXT", "the review to classify"},
                            {"json", "", "print one JSON object"}},
                           {"model-file", "text"}};

const CommandSpec kTranslate{"translate",
                             "decode one text with a seq2seq model; show the output and its alignment",
                             {{"model-file", "FILE", "a model written by attn train --task <seq2seq task> --save"},
                              {"text", "TEXT", "the source text (a date, digits, a sentence)"},
                              {"input", "FILE",
                               "instead of --text: one sentence per line (before a tab, if any); prints one JSON "
                               "object per line {\"line\", \"source\", \"output\"}"},
                              {"alignments", "", "with --input: add each output's \"alignment\" [output][source]"},
                              {"beam", "K", "beam width (default 1: greedy)"},
                              {"alpha", "X", "beam search length penalty exponent, GNMT (default 0.6)"},
                              {"json", "", "print one JSON object (tokens and the alignment matrix)"}},
                             {"model-file"}};

const CommandSpec kExport{"export",
                          "write a trained model (sentiment or seq2seq) in another framework's format",
                          {{"model-file", "FILE",
                            "a model written by attn train --save: sentiment (bilstm-attention, transformer, bilstm, "
                            "ngram-attention) or any seq2seq task's (seq2seq, seq2seq-attention, transformer-seq2seq)"},
                           {"format", "NAME",
                            "pytorch: model.safetensors, vocab.json and model.py, plus config.json for a seq2seq model "
                            "(docs/pytorch.md)"},
                           {"out", "DIR", "the folder to write (created if missing; files in it are replaced)"}},
                          {"model-file", "format", "out"}};

// attn cv takes every sentiment option of attn train (the recipe to cross-validate) but --task and
// --save; --test and --holdout are listed only to be refused with a reason.
CommandSpec cv_spec() {
  CommandSpec spec{
      "cv",
      "k-fold cross-validate a sentiment recipe on the training half of --data only (docs/recipes.md)",
      {{"data", "PATH", "builtin | aclImdb folder or .tar.gz | .csv | .tsv: only its training half is read"},
       {"folds", "K", "stratified folds; each is the test fold once, the rest train (default 5)"},
       {"seeds", "N", "repeat with seeds --seed .. --seed+N-1: other folds and initialisation each (default 1)"},
       {"only-fold", "I", "run fold I (0-based) of each seed only, e.g. to time one fold"}},
      {"data"}};
  const std::vector<std::string>& seq2seq = seq2seq_only_options();
  for (const OptionSpec& o : kTrain.options) {
    if (o.name == "task" || o.name == "save" || o.name == "data" || o.name == "data-pos" || o.name == "data-neg" ||
        std::find(seq2seq.begin(), seq2seq.end(), o.name) != seq2seq.end()) {
      continue;
    }
    if (o.name == "test" || o.name == "holdout") {
      spec.options.push_back({o.name, o.value_name, "refused: attn cv never looks at a test set"});
    } else if (o.name == "json") {
      spec.options.push_back({o.name, "", "print one JSON object per fold and a summary object"});
    } else {
      spec.options.push_back(o);
    }
  }
  return spec;
}

const CommandSpec kCv = cv_spec();

const std::vector<const CommandSpec*> kCommands = {&kTrain, &kCv, &kEval, &kPredict, &kTranslate, &kExport};

// Options the sentiment trainer reads and the seq2seq tasks do not.
const std::vector<std::string> kSentimentOnly = {"data-pos",     "data-neg",    "test",           "holdout",
                                                 "maxlen",       "pooling",     "no-group-split", "optimizer",
                                                 "weight-decay", "word-dropout"};

std::string general_usage() {
  std::string out = "usage: attn <command> [options]\ncommands:\n";
  for (const CommandSpec* c : kCommands)
    out += "  " + c->name + std::string(10 - c->name.size(), ' ') + c->summary + "\n";
  return out + "run 'attn <command> --help' for its options\n";
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void add_metrics(FlatJson& j, const std::string& prefix, const ClassificationMetrics& m) {
  j.set(prefix + "accuracy", m.accuracy)
      .set(prefix + "loss", m.loss)
      .set(prefix + "precision", m.precision)
      .set(prefix + "recall", m.recall)
      .set(prefix + "f1", m.f1)
      .set(prefix + "confusion", std::vector<double>{static_cast<double>(m.tn), static_cast<double>(m.fp),
                                                     static_cast<double>(m.fn), static_cast<double>(m.tp)});
}

std::string describe(const ClassificationMetrics& m) {
  std::ostringstream s;
  s.precision(4);
  s << "accuracy " << m.accuracy << ", F1 " << m.f1 << " (precision " << m.precision << ", recall " << m.recall
    << "); confusion [[tn " << m.tn << ", fp " << m.fp << "], [fn " << m.fn << ", tp " << m.tp << "]]";
  return s.str();
}

// Moves a stratified share of the training examples into the (empty) test set (the engine's
// rule, data/splits.hpp, as the page applies it).
// The split rule of `examples` after --no-group-split (which forgets their groups), and their
// number of groups (0 without any).
struct SplitChoice {
  SplitRule rule = SplitRule::random;
  std::size_t groups = 0;
};

SplitChoice choose_split(const Args& args, std::vector<LabelledText>& train, std::vector<LabelledText>& test) {
  if (args.flag("no-group-split")) {
    clear_groups(train);
    clear_groups(test);
  }
  SplitChoice c;
  c.rule = split_rule(train);
  c.groups = group_count(train);
  return c;
}

void add_split(FlatJson& j, const SplitChoice& c) {
  j.set("split", split_rule_name(c.rule)).set("groups", static_cast<double>(c.groups));
}

std::string describe(const SplitChoice& c) {
  return c.rule == SplitRule::by_group
             ? "split by group: " + std::to_string(c.groups) + " groups, each on one side (--no-group-split: at random)"
             : "split at random (stratified by label): the data names no groups";
}

void hold_out_test(SentimentData& data, float fraction, std::uint64_t seed) {
  TrainTestSplit split = hold_out(std::move(data.train), fraction, seed);
  data.train = std::move(split.train);
  data.test = std::move(split.test);
  data.test_source = data.train_source + " (held out: " + std::to_string(fraction) + ")";
  data.note.clear();
}

// True for --data-pos/--data-neg (both, without --data), false for --data; UsageError otherwise.
bool uses_sentence_files(const Args& args) {
  const bool sentence_files = args.has("data-pos") || args.has("data-neg");
  if (sentence_files) {
    if (args.has("data")) throw UsageError("--data-pos/--data-neg replace --data: pass one or the other");
    if (!args.has("data-pos") || !args.has("data-neg"))
      throw UsageError("--data-pos and --data-neg come together: one file of sentences per class");
  } else if (!args.has("data")) {
    throw UsageError("missing required option --data (or --data-pos and --data-neg)");
  }
  return sentence_files;
}

// Everything `attn train` and `attn cv` read from the command line to build a sentiment model:
// the model's recipe (train/recipes.hpp) with every option's override, validated.
struct SentimentSettings {
  std::string model_name;
  std::size_t seed = 1, epochs = 1;
  double lr = 0;
  TextPipelineConfig pipeline;
  ClassifierConfig classifier;
  TrainerConfig trainer;
  bool bow() const { return model_name == "bow"; }
  // The same recipe with another seed (initialisation, shuffling, dropout, validation split).
  SentimentSettings with_seed(std::size_t s) const {
    SentimentSettings copy = *this;
    copy.seed = s;
    copy.trainer.seed = s;
    return copy;
  }
};

// `config` with every field of `schema` whose flag the command line gives.
template <class Config>
void apply_flags(const SettingsSchema<Config>& schema, const Args& args, Config& config) {
  for (const auto& f : schema.fields()) {
    if (!f.spec.flag.empty() && args.has(f.spec.flag)) schema.set(config, f.spec.name, args.setting(f.spec));
  }
}

SentimentSettings sentiment_settings(const Args& args) {
  SentimentSettings s;
  s.model_name =
      args.choice("model", "bilstm-attention", {"bilstm-attention", "transformer", "bilstm", "ngram-attention", "bow"});
  // The built-in corpus has recipes of its own (short reviews, few of them).
  const RecipeSettings recipe = recipe_settings(
      sentiment_recipe(s.model_name, args.has("data") && args.get("data") == "builtin" ? "builtin" : "real"));
  SentimentModelConfig model = recipe.model;
  const bool recurrent = s.model_name == "bilstm-attention" || s.model_name == "bilstm";
  if (recurrent && args.choice("cell", "lstm", {"lstm", "gru"}) == "gru") {
    model.classifier.encoder = EncoderKind::bigru;
  }
  apply_flags(sentiment_model_settings(), args, model);
  // Sizes that follow the embedding unless given.
  model.classifier.attention_dim = model.classifier.embed_dim;
  if (!args.has("ff")) model.classifier.ff_dim = 2 * model.classifier.embed_dim;
  sentiment_model_settings().finish(model);  // configuration errors surface before any data is read
  TrainerConfig trainer = recipe.trainer;
  apply_flags(trainer_settings(), args, trainer);
  trainer.seed = model.seed;
  trainer.validate();
  s.seed = model.seed;
  s.epochs = trainer.epochs;
  s.lr = trainer.learning_rate;
  s.pipeline = model.pipeline;
  s.classifier = model.classifier;
  s.trainer = trainer;
  return s;
}

// Trains the model `s` describes on `train` (the neural trainer carves its validation split for
// early stopping out of `train`) and, when `test` is not empty, scores it there into `metrics`.
// Adds train_seconds and params (neural models also epochs_run, best_epoch, early_stopped) to
// `done`; writes the model's bytes to `saved` when it is given. Returns whether it scored.
bool fit_and_score(const SentimentSettings& s, const std::vector<LabelledText>& train,
                   const std::vector<LabelledText>& test, const TrainingCallbacks& callbacks, FlatJson& done,
                   ClassificationMetrics& metrics, std::vector<std::uint8_t>* saved) {
  const auto start = Clock::now();
  if (s.bow()) {
    BagOfNgramsConfig config;
    config.epochs = s.epochs;
    config.learning_rate = static_cast<float>(s.lr);
    config.seed = s.seed;
    const BagOfNgramsClassifier model = train_bag_of_ngrams(train, config);
    done.set("train_seconds", seconds_since(start)).set("params", static_cast<double>(model.parameter_count()));
    if (!test.empty()) metrics = evaluate_bag_of_ngrams(model, test);
    if (saved != nullptr) *saved = save_bag_of_ngrams(model);
  } else {
    SentimentTraining trained = train_sentiment_model(train, s.pipeline, s.classifier, s.trainer, s.seed, callbacks);
    done.set("train_seconds", seconds_since(start))
        .set("params", static_cast<double>(parameter_count(trained.model.classifier->parameters())))
        .set("epochs_run", static_cast<double>(trained.result.history.size()))
        .set("best_epoch", static_cast<double>(trained.result.best_epoch + 1))
        .set("early_stopped", trained.result.early_stopped);
    if (!test.empty()) metrics = evaluate(trained.model, test);
    if (saved != nullptr) *saved = save_sentiment_model(trained.model);
  }
  return !test.empty();
}

// {"event": "settings", ...}: what a sentiment run trains (--json prints it before training;
// --print-settings prints it instead).
std::string settings_line(const SentimentSettings& settings) {
  return FlatJson()
      .set("event", "settings")
      .set("model", settings.model_name)
      .set("vocab", static_cast<double>(settings.pipeline.num_words))
      .set("maxlen", static_cast<double>(settings.pipeline.maxlen))
      .set("classifier", settings.classifier.to_json())
      .set("trainer", settings.trainer.to_json())
      .dump();
}

void reject_seq2seq_options(const Args& args) {
  for (const std::string& name : seq2seq_only_options()) {
    if (args.has(name))
      throw UsageError("--" + name + " applies to the seq2seq tasks (dates, reverse, sort, copy, parallel) only");
  }
}

int train_command(const Args& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> tasks = seq2seq_task_names();
  tasks.insert(tasks.begin(), "sentiment");
  // A seq2seq recipe names its task.
  const std::string task = !args.has("task") && args.has("recipe") ? seq2seq_recipe_settings(args.get("recipe")).task
                                                                   : args.choice("task", "sentiment", tasks);
  if (task != "sentiment") {
    for (const std::string& name : kSentimentOnly) {
      if (args.has(name)) throw UsageError("--" + name + " applies to --task sentiment only");
    }
    return seq2seq_train_command(args, out, err);
  }
  reject_seq2seq_options(args);
  const SentimentSettings settings = sentiment_settings(args);
  if (args.flag("print-settings")) {
    out << settings_line(settings) << "\n";
    return 0;
  }
  const bool sentence_files = uses_sentence_files(args);
  const bool json = args.flag("json");
  const std::size_t seed = settings.seed;

  const double holdout = args.number("holdout", 0, 0, 0.9);
  if (holdout > 0 && args.has("test")) throw UsageError("--holdout and --test exclude each other");

  ProgressPrinter progress(json, out, err);
  const ProgressFn on_load = [&](const LoadProgress& p) { progress.loading(p); };
  SentimentData data =
      sentence_files
          ? load_sentence_data(args.get("data-pos"), args.get("data-neg"), holdout > 0 ? "" : args.get("test"), on_load)
          : load_sentiment_data(args.get("data"), holdout > 0 ? "" : args.get("test"), on_load, holdout > 0);
  progress.end_line();
  const SplitChoice split = choose_split(args, data.train, data.test);
  if (holdout > 0) hold_out_test(data, static_cast<float>(holdout), seed);
  if (!data.note.empty()) err << "note: " << data.note << "\n";
  if (json) {
    FlatJson line;
    line.set("event", "data")
        .set("train_examples", static_cast<double>(data.train.size()))
        .set("test_examples", static_cast<double>(data.test.size()))
        .set("train_source", data.train_source)
        .set("test_source", data.test_source);
    add_split(line, split);
    out << line.dump() << "\n";
    // The recipe as trained (the CLI's defaults with every override), for records such as the
    // shipped models' manifest (scripts/train-shipped-models.mjs).
    out << settings_line(settings) << "\n";
  } else {
    out << "data: " << data.train.size() << " training reviews from " << data.train_source << ", " << data.test.size()
        << " test reviews" << (data.test.empty() ? "" : " from " + data.test_source) << "\n"
        << describe(split) << "\n";
  }

  FlatJson done;
  done.set("event", "done")
      .set("model", settings.model_name)
      .set("train_examples", static_cast<double>(data.train.size()))
      .set("test_examples", static_cast<double>(data.test.size()));
  add_split(done, split);
  const std::size_t epochs = settings.epochs;
  TrainingCallbacks callbacks;
  callbacks.on_step = [&](const StepProgress& p) {
    progress.step(p.step, p.epoch, p.loss, p.examples_per_second, p.elapsed, epochs);
    return true;
  };
  callbacks.on_epoch = [&](const EpochProgress& e) {
    progress.end_line();
    FlatJson line;
    line.set("event", "epoch")
        .set("epoch", static_cast<double>(e.epoch + 1))
        .set("train_loss", e.train_loss)
        .set("train_accuracy", e.train_accuracy)
        .set("seconds", e.seconds);
    if (e.has_validation) add_metrics(line, "val_", e.validation);
    if (json) {
      out << line.dump() << "\n" << std::flush;
    } else {
      out << "epoch " << e.epoch + 1 << ": train loss " << e.train_loss << ", train accuracy " << e.train_accuracy;
      if (e.has_validation) out << "; validation " << describe(e.validation);
      out << " (" << e.seconds << " s)\n" << std::flush;
    }
    return true;
  };
  std::vector<std::uint8_t> saved;
  ClassificationMetrics m;
  if (fit_and_score(settings, data.train, data.test, callbacks, done, m, args.has("save") ? &saved : nullptr)) {
    add_metrics(done, "test_", m);
    if (!json) out << "test: " << describe(m) << "\n";
  }
  if (args.has("save")) {
    write_file_atomically(args.get("save"), saved);
    done.set("saved", args.get("save"));
    if (!json) out << "saved " << args.get("save") << " (" << saved.size() << " bytes)\n";
  }
  if (json) {
    out << done.dump() << "\n";
  } else {
    out << "trained in " << done.get_number("train_seconds") << " s, " << static_cast<long>(done.get_number("params"))
        << " parameters\n";
  }
  return 0;
}

// Mean and sample standard deviation (n − 1 in the denominator; 0 for a single value).
struct MeanSd {
  double mean = 0, sd = 0;
};

MeanSd mean_sd(const std::vector<double>& xs) {
  MeanSd r;
  if (xs.empty()) return r;
  for (const double x : xs) r.mean += x;
  r.mean /= static_cast<double>(xs.size());
  if (xs.size() < 2) return r;
  double squares = 0;
  for (const double x : xs) squares += (x - r.mean) * (x - r.mean);
  r.sd = std::sqrt(squares / static_cast<double>(xs.size() - 1));
  return r;
}

// attn cv: stratified k-fold cross-validation of one recipe on the training half of --data,
// optionally repeated over seeds (each seed deals other folds and initialises other weights).
int cv_command(const Args& args, std::ostream& out, std::ostream& err) {
  for (const char* name : {"test", "holdout"}) {
    if (args.has(name)) {
      throw UsageError(std::string("--") + name +
                       " is refused: attn cv never looks at a test set; it cross-validates on the training half "
                       "of --data only (use attn train --test for the one confirmation run of the chosen recipe)");
    }
  }
  const bool json = args.flag("json");
  const SentimentSettings settings = sentiment_settings(args);
  const std::size_t k = args.whole("folds", 5, 2, 1000);
  const std::size_t seeds = args.whole("seeds", 1, 1, 1000);
  const bool one_fold = args.has("only-fold");
  const std::size_t only_fold = args.whole("only-fold", 0, 0, 999);
  if (one_fold && only_fold >= k) {
    throw UsageError("--only-fold must be below --folds (" + std::to_string(k) + "), got " + std::to_string(only_fold));
  }

  ProgressPrinter progress(json, out, err);
  SentimentData data = load_sentiment_data(
      args.get("data"), "", [&](const LoadProgress& p) { progress.loading(p); }, true);
  progress.end_line();
  const SplitChoice choice = choose_split(args, data.train, data.test);
  const std::vector<int> labels = labels_of(data.train);
  const std::vector<std::string> groups = groups_of(data.train);
  grouped_folds(labels, groups, k, settings.seed);  // a bad K is refused before any training
  if (!json) {
    out << "cv: " << data.train.size() << " training reviews from " << data.train_source << "; " << k
        << " stratified folds x " << seeds << " seed(s), model " << settings.model_name << "\n"
        << describe(choice) << "\n";
  }

  TrainingCallbacks callbacks;
  callbacks.on_step = [&](const StepProgress& p) {
    progress.step(p.step, p.epoch, p.loss, p.examples_per_second, p.elapsed, settings.epochs);
    return true;
  };
  std::vector<double> accuracies;
  const auto start = Clock::now();
  for (std::size_t r = 0; r < seeds; ++r) {
    const SentimentSettings run = settings.with_seed(settings.seed + r);
    const std::vector<std::size_t> folds = grouped_folds(labels, groups, k, run.seed);
    for (std::size_t f = one_fold ? only_fold : 0; f < (one_fold ? only_fold + 1 : k); ++f) {
      const TrainTestSplit split = fold_split(data.train, folds, f);
      FlatJson line;
      line.set("event", "fold")
          .set("model", run.model_name)
          .set("seed", static_cast<double>(run.seed))
          .set("fold", static_cast<double>(f))
          .set("folds", static_cast<double>(k))
          .set("train_examples", static_cast<double>(split.train.size()))
          .set("test_examples", static_cast<double>(split.test.size()));
      add_split(line, choice);
      ClassificationMetrics m;
      fit_and_score(run, split.train, split.test, callbacks, line, m, nullptr);
      progress.end_line();
      add_metrics(line, "", m);
      accuracies.push_back(m.accuracy);
      if (json) {
        out << line.dump() << "\n" << std::flush;
      } else {
        out << "seed " << run.seed << " fold " << f + 1 << "/" << k << ": " << describe(m) << " (" << split.test.size()
            << " reviews; trained in " << line.get_number("train_seconds") << " s)\n"
            << std::flush;
      }
    }
  }
  const MeanSd stats = mean_sd(accuracies);
  const double se = stats.sd / std::sqrt(static_cast<double>(accuracies.size()));
  if (json) {
    out << FlatJson()
               .set("event", "summary")
               .set("model", settings.model_name)
               .set("folds", static_cast<double>(k))
               .set("seeds", static_cast<double>(seeds))
               .set("runs", static_cast<double>(accuracies.size()))
               .set("examples", static_cast<double>(data.train.size()))
               .set("split", split_rule_name(choice.rule))
               .set("groups", static_cast<double>(choice.groups))
               .set("mean_accuracy", stats.mean)
               .set("sd_accuracy", stats.sd)
               .set("se_accuracy", se)
               .set("seconds", seconds_since(start))
               .dump()
        << "\n";
  } else {
    std::ostringstream s;
    s.precision(4);
    s << "accuracy " << stats.mean << " ± " << stats.sd << " (mean ± sample sd over " << accuracies.size()
      << " run(s); standard error " << se << ")";
    out << s.str() << "\n";
  }
  return 0;
}

// The "model" kind a model file declares in its configuration.
std::string model_kind(const std::vector<std::uint8_t>& bytes) {
  const ModelFile file = read_model(bytes.data(), bytes.size());
  const FlatJson config = FlatJson::parse(file.config_json);
  return config.has("model") ? config.get_string("model") : "";
}

int eval_command(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.has("pairs")) {
    if (args.has("data") || args.has("data-pos") || args.has("data-neg"))
      throw UsageError("--pairs scores a seq2seq model; --data, --data-pos and --data-neg are for sentiment models");
    return seq2seq_eval_command(args, out, err);
  }
  for (const char* name : {"beam", "alpha"}) {
    if (args.has(name)) throw UsageError(std::string("--") + name + " goes with --pairs (a seq2seq model's decoding)");
  }
  const bool sentence_files = uses_sentence_files(args);  // usage errors before any file is read
  const std::vector<std::uint8_t> bytes = read_file(args.get("model-file"));
  const std::string kind = model_kind(bytes);
  ProgressPrinter progress(args.flag("json"), out, err);
  const ProgressFn on_load = [&](const LoadProgress& p) { progress.loading(p); };
  const std::vector<LabelledText> examples =
      sentence_files ? load_sentence_data(args.get("data-pos"), args.get("data-neg"), "", on_load).train
                     : load_evaluation_data(args.get("data"), on_load);
  progress.end_line();
  ClassificationMetrics m;
  if (kind == "bag_of_ngrams") {
    const BagOfNgramsClassifier model = load_bag_of_ngrams(bytes.data(), bytes.size());
    m = evaluate_bag_of_ngrams(model, examples);
  } else {
    m = evaluate(load_sentiment_model(bytes), examples);
  }
  if (args.flag("json")) {
    FlatJson j;
    j.set("event", "done").set("examples", static_cast<double>(examples.size()));
    add_metrics(j, "", m);
    out << j.dump() << "\n";
  } else {
    out << examples.size() << " reviews: " << describe(m) << "\n";
  }
  return 0;
}

int predict_command(const Args& args, std::ostream& out, std::ostream&) {
  const std::vector<std::uint8_t> bytes = read_file(args.get("model-file"));
  const std::string text = args.get("text");
  float probability = 0;
  std::vector<std::string> tokens;
  std::vector<double> weights;
  if (model_kind(bytes) == "bag_of_ngrams") {
    const BagOfNgramsClassifier model = load_bag_of_ngrams(bytes.data(), bytes.size());
    tokens = tokenize(text);
    probability = model.predict_proba(tokens);
  } else {
    const Explanation e = explain(load_sentiment_model(bytes), text);
    probability = e.probability;
    tokens = e.tokens;
    weights.assign(e.weights.begin(), e.weights.end());
  }
  const std::string label = probability >= 0.5f ? "positive" : "negative";
  if (args.flag("json")) {
    FlatJson j;
    j.set("event", "done")
        .set("label", label)
        .set("probability", static_cast<double>(probability))
        .set("tokens", tokens);
    if (!weights.empty()) j.set("attention", weights);
    out << j.dump() << "\n";
    return 0;
  }
  out << label << " (P(positive) = " << probability << ")\n";
  if (!weights.empty()) {
    out << "attention:\n";
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const int bar = static_cast<int>(std::lround(weights[i] * 40));
      out << "  " << tokens[i] << std::string(tokens[i].size() < 16 ? 16 - tokens[i].size() : 1, ' ') << weights[i]
          << " " << std::string(static_cast<std::size_t>(bar), '#') << "\n";
    }
  }
  return 0;
}

int export_command(const Args& args, std::ostream& out, std::ostream&) {
  args.choice("format", "pytorch", {"pytorch"});
  const std::vector<std::uint8_t> bytes = read_file(args.get("model-file"));
  const std::string kind = model_kind(bytes);
  if (kind == "bag_of_ngrams") {
    throw UsageError(
        "the bag-of-n-grams model has no PyTorch export (it is a linear model over n-gram counts; "
        "export bilstm-attention, transformer, bilstm or ngram-attention)");
  }
  const bool translator = kind == "seq2seq" || kind == "transformer_seq2seq";
  const std::vector<ExportedFile> files =
      translator ? export_translator_pytorch(bytes) : export_pytorch(load_sentiment_model(bytes));
  const std::filesystem::path dir = args.get("out");
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw std::runtime_error("cannot create " + dir.string() + ": " + error.message());
  for (const ExportedFile& file : files) {
    write_file_atomically((dir / file.name).string(),
                          std::vector<std::uint8_t>(file.contents.begin(), file.contents.end()));
    out << "wrote " << (dir / file.name).string() << " (" << file.contents.size() << " bytes)\n";
  }
  return 0;
}

}  // namespace

TrainSettingsJson sentiment_train_settings(const std::vector<std::string>& arguments) {
  const SentimentSettings s = sentiment_settings(parse_args(kTrain, arguments));
  const SentimentModelConfig model{s.pipeline, s.classifier, s.seed};
  return {sentiment_model_settings().write(model), trainer_settings().write(s.trainer)};
}

std::string seq2seq_train_settings_json(const std::vector<std::string>& arguments) {
  const Args args = parse_args(kTrain, arguments);
  return seq2seq_session_settings().write(seq2seq_train_settings(args).config);
}

int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h" || arguments[0] == "help") {
    (arguments.empty() ? err : out) << general_usage();
    return arguments.empty() ? 2 : 0;
  }
  const CommandSpec* spec = nullptr;
  for (const CommandSpec* c : kCommands) {
    if (c->name == arguments[0]) spec = c;
  }
  if (spec == nullptr) {
    err << "attn: unknown command '" << arguments[0] << "'\n" << general_usage();
    return 2;
  }
  const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
  if (rest.size() == 1 && (rest[0] == "--help" || rest[0] == "-h")) {
    out << usage(*spec);
    return 0;
  }
  try {
    const Args args = parse_args(*spec, rest);
    if (spec == &kTrain) return train_command(args, out, err);
    if (spec == &kCv) return cv_command(args, out, err);
    if (spec == &kEval) return eval_command(args, out, err);
    if (spec == &kTranslate) return translate_command(args, out, err);
    if (spec == &kExport) return export_command(args, out, err);
    return predict_command(args, out, err);
  } catch (const UsageError& e) {
    err << "attn " << spec->name << ": " << e.what() << "\n" << usage(*spec);
    return 2;
  } catch (const std::invalid_argument& e) {  // a setting the engine rejects (e.g. heads vs embed)
    err << "attn " << spec->name << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "attn " << spec->name << ": error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace attn::cli
