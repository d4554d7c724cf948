// The seq2seq recipes: named settings of the seq2seq session (train/seq2seq_session.hpp) for the
// toy tasks (digit reversal, dates) and for translation with each model (no attention = RNNenc,
// Bahdanau, Luong, the Transformer). One table for both front ends:
//   "cli" rows are `attn train --task <task> --model <model>`'s defaults (the CLI picks the row
//     with seq2seq_cli_recipe_name, then applies its flags; `--recipe NAME` picks any row);
//   "page" rows are the page's presets, smaller so they train in a browser tab: the Seq2seq tab
//     (reverse-page, dates-page) and the Translation tab (translation-<model>-page), read through
//     the wasm binding `seq2seqRecipes()`; the page adds only what its controls choose (epochs,
//     the toy tab's attention).
// tests/js/seq2seq_recipes.test.mjs holds the page and `attn train --recipe NAME --print-settings`
// to the same settings for every row.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "attn/train/seq2seq_session.hpp"

namespace attn {

struct Seq2SeqRecipe {
  std::string name;
  std::string use;      // "cli" | "page"
  std::string base;     // the row whose settings this one starts from; "" = Seq2SeqSessionConfig's defaults
  std::string summary;  // one line: what it is for and where its numbers come from
  // Session settings (seq2seq_session_settings() keys), applied in order over the base's.
  std::vector<std::pair<std::string, SettingValue>> settings;
};

// Every row, cli rows first; a row's base comes before it.
const std::vector<Seq2SeqRecipe>& seq2seq_recipes();
// The row called `name`; std::invalid_argument naming the known recipes otherwise.
const Seq2SeqRecipe& seq2seq_recipe(const std::string& name);
// Everything `name` trains: its base's settings, then its own, each checked by the schema, then
// the schema's finish step (every other field keeps Seq2SeqSessionConfig's default).
Seq2SeqSessionConfig seq2seq_recipe_settings(const std::string& name);

// The cli row `attn train` starts from: task dates -> "dates*", parallel -> "translation-*", the
// digit tasks (reverse, sort, copy) -> "reverse*"; model "seq2seq" -> "-rnnenc",
// "transformer-seq2seq" -> "-transformer", "seq2seq-attention" -> the row of `attention` when the
// task has one ("translation-luong"), else the task's attention row ("reverse", "dates",
// "translation-bahdanau").
std::string seq2seq_cli_recipe_name(const std::string& task, const std::string& model,
                                    const std::string& attention = "");

}  // namespace attn
