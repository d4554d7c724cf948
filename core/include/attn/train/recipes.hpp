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

#include "attn/train/classifier_session.hpp"

namespace attn {

struct SentimentRecipe {
  std::string model;  // bilstm-attention | bilstm | transformer | ngram-attention | bow (the CLI's --model names)
  std::string data;   // real | builtin
  std::size_t epochs;
  double learning_rate;
  double dropout, word_dropout;
  std::string schedule;  // constant | linear | cosine | inverse_sqrt
  std::string pooling;   // attention | mean | last (unused by bow)
  std::size_t num_words = 5000, maxlen = 500, batch_size = 32, patience = 2;
  std::size_t bigram_buckets = 0;  // ngram-attention: rows of the hashed bigram table
};

// Every recipe: the real-data rows in the CLI's order of --model names, then the builtin rows.
const std::vector<SentimentRecipe>& sentiment_recipes();
// The recipe of one model for `data` ("real" or "builtin"); throws std::invalid_argument naming
// the known models (or kinds of data) otherwise.
const SentimentRecipe& sentiment_recipe(const std::string& model, const std::string& data = "real");

// Everything one recipe trains: the model's and the trainer's settings, each field from the
// recipe where it has one and from the struct's own default otherwise (attention_dim follows
// embed_dim, ff_dim is 2 × embed_dim, the Transformer row picks the Transformer encoder, the
// ngram-attention row no encoder and its bigram table). The
// CLI's `attn train` starts from this before its flags; the Studio's presets resolve to it
// (tests/test_cli.cpp and tests/js/settings_schema.test.mjs hold both to it).
struct RecipeSettings {
  SentimentModelConfig model;
  TrainerConfig trainer;
};
RecipeSettings recipe_settings(const SentimentRecipe& recipe);

}  // namespace attn
