// The sentiment recipes: default hyperparameters per model and kind of data. "real" recipes are
// for real reviews, tuned on a held-out share of the IMDB training half only (docs/cli.md,
// "Measured on real reviews"); "builtin" recipes are for the 660 short reviews of the built-in
// corpus (median 21 tokens), measured over several seeds on its test split (docs/cli.md). One
// table for the CLI's `attn train` defaults (`--data builtin` takes the builtin row) and the
// Studio's "Built-in corpus" and "IMDB (real reviews)" presets (read through the wasm binding
// `sentimentRecipes`).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attn {

struct SentimentRecipe {
  std::string model;  // bilstm-attention | bilstm | transformer | bow (the CLI's --model names)
  std::string data;   // real | builtin
  std::size_t epochs;
  double learning_rate;
  double dropout, word_dropout;
  std::string schedule;  // constant | linear | cosine | inverse_sqrt
  std::string pooling;   // attention | mean | last (unused by bow)
  std::size_t num_words = 5000, maxlen = 500, batch_size = 32, patience = 2;
};

// Every recipe: the real-data rows in the CLI's order of --model names, then the builtin rows.
const std::vector<SentimentRecipe>& sentiment_recipes();
// The recipe of one model for `data` ("real" or "builtin"); throws std::invalid_argument naming
// the known models (or kinds of data) otherwise.
const SentimentRecipe& sentiment_recipe(const std::string& model, const std::string& data = "real");

}  // namespace attn
