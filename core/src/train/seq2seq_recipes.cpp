#include "attn/train/seq2seq_recipes.hpp"

#include <stdexcept>

namespace attn {

const std::vector<Seq2SeqRecipe>& seq2seq_recipes() {
  // Each row: name, use, base, summary, then its settings over the base's. Values not listed are
  // the base's, and at the root Seq2SeqSessionConfig's defaults (seq2seq_session.hpp).
  static const std::vector<Seq2SeqRecipe> recipes = {
      // attn train's defaults. 20,000 generated pairs and 10 epochs reach 100% held-out exact
      // match on dates and 5-20-digit reversal (notes/s2s-tasks.md); the CLI scores BLEU once,
      // after training (bleu_sentences 0: no per-epoch BLEU).
      {"reverse",
       "cli",
       "",
       "attn train --task reverse|sort|copy: an LSTM encoder-decoder with Bahdanau attention",
       {{"task", std::string("reverse")},
        {"train_size", 20000.0},
        {"test_size", 1000.0},
        {"min_len", 5.0},
        {"max_len", 20.0},
        {"model", std::string("rnn")},
        {"attention", std::string("bahdanau")},
        {"cell", std::string("lstm")},
        {"embed", 32.0},
        {"units", 64.0},
        {"attention_dim", 64.0},
        {"epochs", 10.0},
        {"batch", 64.0},
        {"learning_rate", 0.002},
        {"early_stopping_patience", 3.0},
        {"bleu_sentences", 0.0}}},
      {"reverse-rnnenc",
       "cli",
       "reverse",
       "attn train --model seq2seq: no attention (RNNenc)",
       {{"attention", std::string("none")}}},
      // Adam without warm-up: the Transformer trains steadily at 0.001.
      {"reverse-transformer",
       "cli",
       "reverse",
       "attn train --model transformer-seq2seq: a Transformer encoder-decoder",
       {{"model", std::string("transformer")},
        {"d_model", 64.0},
        {"heads", 4.0},
        {"layers", 2.0},
        {"ff", 0.0},
        {"dropout", 0.1},
        {"label_smoothing", 0.1},
        {"learning_rate", 0.001}}},
      // Luong attention on dates: both forms reach 100% exact match, but Bahdanau's month
      // characters attend next to the month name rather than on it (36% of their weight there,
      // against 92% with Luong; README, "alignment per field"), and the alignment is what the
      // course shows.
      {"dates",
       "cli",
       "reverse",
       "attn train --task dates: Luong attention",
       {{"task", std::string("dates")}, {"attention", std::string("luong")}}},
      {"dates-rnnenc", "cli", "dates", "attn train --task dates --model seq2seq", {{"attention", std::string("none")}}},
      {"dates-transformer",
       "cli",
       "reverse-transformer",
       "attn train --task dates --model transformer-seq2seq",
       {{"task", std::string("dates")}}},
      // Translation of a real pairs file (the Tatoeba English-French file: 158,859 pairs): the
      // whole file (train_size 0), 2,000 held-out source sentences with all their references,
      // 2% of the training pairs for early stopping. Sized to train in about an hour of one core
      // natively (docs/translation.md, "Recipes on the Tatoeba file": the runs, their commands
      // and CPU times): 128-wide LSTMs, Adam 0.002 with 200 warm-up steps and a linear decay,
      // 3 epochs. The held-out sentences are scored on a beam search of 5 (GNMT length penalty
      // 0.6), fixed before it was measured: 37.38 -> 40.88 BLEU for a 4-epoch RNNsearch, 1.8 min
      // of CPU for the 2,000 sentences.
      {"translation-bahdanau",
       "cli",
       "reverse",
       "attn train --task parallel: Bahdanau attention (RNNsearch)",
       {{"task", std::string("parallel")},
        {"train_size", 0.0},
        {"test_size", 2000.0},
        {"validation_split", 0.02},
        {"embed", 128.0},
        {"units", 128.0},
        {"attention_dim", 64.0},
        {"schedule", std::string("linear")},
        {"warmup_steps", 200.0},
        {"epochs", 3.0},
        {"beam", 5.0}}},
      {"translation-luong",
       "cli",
       "translation-bahdanau",
       "attn train --task parallel --attention luong",
       {{"attention", std::string("luong")}}},
      {"translation-rnnenc",
       "cli",
       "translation-bahdanau",
       "attn train --task parallel --model seq2seq",
       {{"attention", std::string("none")}}},
      // d_model 128, ff 512, 2 + 2 blocks; Adam 0.002 after 800 warm-up steps, decaying linearly
      // (on 75,000 pairs for 2 epochs: 25.7 held-out BLEU against 25.0 at a constant 0.001, split
      // seed 11), 7 epochs; scored on a beam of 5 as the RNNs.
      {"translation-transformer",
       "cli",
       "reverse-transformer",
       "attn train --task parallel --model transformer-seq2seq",
       {{"task", std::string("parallel")},
        {"train_size", 0.0},
        {"test_size", 2000.0},
        {"validation_split", 0.02},
        {"d_model", 128.0},
        {"ff", 512.0},
        {"learning_rate", 0.002},
        {"schedule", std::string("linear")},
        {"warmup_steps", 800.0},
        {"epochs", 7.0},
        {"beam", 5.0}}},

      // The page's presets: sized to train in a browser tab in seconds (reverse) to minutes
      // (dates); the rest are the session's defaults. The Seq2seq tab picks the attention.
      {"reverse-page",
       "page",
       "",
       "the Seq2seq tab: reverse a digit string",
       {{"task", std::string("reverse")},
        {"train_size", 2000.0},
        {"test_size", 200.0},
        {"epochs", 8.0},
        {"early_stopping_patience", 0.0}}},
      {"dates-page",
       "page",
       "",
       "the Seq2seq tab: normalise a date",
       {{"task", std::string("dates")},
        {"train_size", 6000.0},
        {"test_size", 200.0},
        {"epochs", 6.0},
        {"early_stopping_patience", 0.0}}},
      // The Translation tab: small enough to train on the built-in corpus (about 3,700 training
      // pairs) in a minute or two per model in a browser tab, large enough to translate it well:
      // Bahdanau's 6 epochs reach about 71 held-out BLEU in Chromium in about two minutes on a busy
      // 2-core machine (`node scripts/screenshots.mjs translation` prints the run; docs/views.md),
      // measured when the words were split by the project tokenizer; with each language's rules
      // (source_language english, target_language french, the session's defaults) `attn train
      // --recipe translation-bahdanau-page` reaches 76.2 natively (docs/translation.md).
      {"translation-bahdanau-page",
       "page",
       "",
       "the Translation tab: Bahdanau attention (RNNsearch), GRU cells",
       {{"task", std::string("parallel")},
        {"train_size", 100000.0},
        {"test_size", 400.0},
        {"bleu_sentences", 200.0},
        {"epochs", 6.0},
        {"batch", 32.0},
        {"early_stopping_patience", 0.0},
        {"seed", 7.0},
        {"model", std::string("rnn")},
        {"attention", std::string("bahdanau")},
        {"cell", std::string("gru")},
        {"embed", 64.0},
        {"units", 64.0},
        {"learning_rate", 0.01}}},
      {"translation-rnnenc-page",
       "page",
       "translation-bahdanau-page",
       "the Translation tab: no attention (RNNenc)",
       {{"attention", std::string("none")}}},
      // Luong with LSTM cells, as in Luong et al. (2015): with GRU cells it learnt the built-in
      // corpus slowly (16.8 held-out BLEU after the preset's 6 epochs, against 46.1 with LSTMs;
      // docs/views.md).
      {"translation-luong-page",
       "page",
       "translation-bahdanau-page",
       "the Translation tab: Luong attention, LSTM cells",
       {{"attention", std::string("luong")}, {"cell", std::string("lstm")}}},
      {"translation-transformer-page",
       "page",
       "translation-bahdanau-page",
       "the Translation tab: a Transformer encoder-decoder",
       {{"model", std::string("transformer")},
        {"d_model", 64.0},
        {"heads", 4.0},
        {"layers", 2.0},
        {"ff", 128.0},
        {"dropout", 0.1},
        {"label_smoothing", 0.1},
        {"learning_rate", 0.002}}},
      // The Translation tab on a large file (more than 20,000 pairs: models.ts FILE_PRESET_PAIRS),
      // such as the Tatoeba English-French file: sized so that the Transformer, the model the tab
      // picks for such a file, trains in about five minutes on two workers in Chromium and passes
      // 30 held-out BLEU on the Tatoeba file (docs/translation.md, "In the page"). One epoch over
      // up to 160,000 training pairs (the page proposes more epochs for a smaller file: the same
      // pairs trained on), 4,000 words a side (the output layer is the step's largest product),
      // a linear decay within the epoch, 1,000 held-out sources scored greedily. The Transformer's
      // sizes were chosen on a split of seed 11 (natively, one epoch each: d 128 / 6,000 words
      // 32.7 BLEU in 374 s, d 96 / 4,000 words 29.5 in 210 s; without label smoothing +1.3,
      // at Adam 0.003 +0.6; dropout 0.1 cost 4.7 BLEU in one epoch).
      {"translation-bahdanau-page-file",
       "page",
       "translation-bahdanau-page",
       "the Translation tab on a large file: Bahdanau attention (RNNsearch)",
       {{"train_size", 160000.0},
        {"test_size", 1000.0},
        {"validation_split", 0.02},
        {"source_vocab", 4000.0},
        {"target_vocab", 4000.0},
        {"epochs", 1.0},
        {"batch", 64.0},
        {"schedule", std::string("linear")},
        {"warmup_steps", 200.0}}},
      {"translation-rnnenc-page-file",
       "page",
       "translation-bahdanau-page-file",
       "the Translation tab on a large file: no attention (RNNenc)",
       {{"attention", std::string("none")}}},
      {"translation-luong-page-file",
       "page",
       "translation-bahdanau-page-file",
       "the Translation tab on a large file: Luong attention, LSTM cells",
       {{"attention", std::string("luong")}, {"cell", std::string("lstm")}}},
      {"translation-transformer-page-file",
       "page",
       "translation-bahdanau-page-file",
       "the Translation tab on a large file: a Transformer encoder-decoder",
       {{"model", std::string("transformer")},
        {"d_model", 96.0},
        {"heads", 4.0},
        {"layers", 2.0},
        {"ff", 384.0},
        {"dropout", 0.0},
        {"label_smoothing", 0.0},
        {"learning_rate", 0.003},
        {"warmup_steps", 400.0}}},
  };
  return recipes;
}

namespace {
const Seq2SeqRecipe* find_recipe(const std::string& name) {
  for (const Seq2SeqRecipe& r : seq2seq_recipes()) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

void apply_recipe(const Seq2SeqRecipe& recipe, Seq2SeqSessionConfig& config) {
  if (!recipe.base.empty()) apply_recipe(seq2seq_recipe(recipe.base), config);
  for (const auto& [key, value] : recipe.settings) seq2seq_session_settings().set(config, key, value);
}
}  // namespace

const Seq2SeqRecipe& seq2seq_recipe(const std::string& name) {
  if (const Seq2SeqRecipe* r = find_recipe(name)) return *r;
  std::string known;
  for (const Seq2SeqRecipe& r : seq2seq_recipes()) known += (known.empty() ? "" : ", ") + r.name;
  throw std::invalid_argument("no seq2seq recipe '" + name + "' (known: " + known + ")");
}

Seq2SeqSessionConfig seq2seq_recipe_settings(const std::string& name) {
  Seq2SeqSessionConfig config;
  apply_recipe(seq2seq_recipe(name), config);
  seq2seq_session_settings().finish(config);
  return config;
}

std::string seq2seq_cli_recipe_name(const std::string& task, const std::string& model, const std::string& attention) {
  const std::string family = task == "dates" ? "dates" : task == "parallel" ? "translation" : "reverse";
  if (model == "seq2seq") return family + "-rnnenc";
  if (model == "transformer-seq2seq") return family + "-transformer";
  if (!attention.empty() && find_recipe(family + "-" + attention) != nullptr) return family + "-" + attention;
  return family == "translation" ? "translation-bahdanau" : family;
}

}  // namespace attn
