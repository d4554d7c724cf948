#include "attn/train/recipes.hpp"

#include <stdexcept>

namespace attn {

const std::vector<SentimentRecipe>& sentiment_recipes() {
  // The recurrent models share one recipe; bilstm pools its last state.
  static const std::vector<SentimentRecipe> recipes = {
      {"bilstm-attention", 4, 2e-3, 0.2, 0.2, "cosine", "attention"},
      // Chosen by 5-fold cross-validation on the training half (docs/recipes.md): dropout 0.3.
      {"transformer", 6, 5e-4, 0.3, 0, "constant", "mean"},
      {"bilstm", 4, 2e-3, 0.2, 0.2, "cosine", "last"},
      {"bow", 10, 0.02, 0, 0, "constant", "attention"},
  };
  return recipes;
}

const SentimentRecipe& sentiment_recipe(const std::string& model) {
  std::string known;
  for (const SentimentRecipe& r : sentiment_recipes()) {
    if (r.model == model) return r;
    known += (known.empty() ? "" : ", ") + r.model;
  }
  throw std::invalid_argument("no sentiment recipe for model '" + model + "' (known: " + known + ")");
}

}  // namespace attn
