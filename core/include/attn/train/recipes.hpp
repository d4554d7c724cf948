// The sentiment recipes: default hyperparameters per model for real reviews, tuned on a held-out
// share of the IMDB training half only (docs/cli.md, "Measured on real reviews"). One table for
// the CLI's `attn train` defaults and the Studio's "IMDB (real reviews)" preset (read through
// the wasm binding `sentimentRecipes`).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attn {

struct SentimentRecipe {
  std::string model;  // bilstm-attention | bilstm | transformer | bow (the CLI's --model names)
  std::size_t epochs;
  double learning_rate;
  double dropout, word_dropout;
  std::string schedule;  // constant | linear | cosine | inverse_sqrt
  std::string pooling;   // attention | mean | last (unused by bow)
  std::size_t num_words = 5000, maxlen = 500, batch_size = 32, patience = 2;
};

// Every recipe, in the CLI's order of --model names.
const std::vector<SentimentRecipe>& sentiment_recipes();
// The recipe of one model; throws std::invalid_argument naming the known models otherwise.
const SentimentRecipe& sentiment_recipe(const std::string& model);

}  // namespace attn
