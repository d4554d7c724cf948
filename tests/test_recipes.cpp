#include <doctest/doctest.h>

#include <stdexcept>

#include "attn/train/recipes.hpp"

using namespace attn;

TEST_CASE("recipes.one_per_cli_model_with_the_tuned_values") {
  const auto& all = sentiment_recipes();
  REQUIRE(all.size() == 4);
  CHECK(all[0].model == "bilstm-attention");
  const SentimentRecipe& t = sentiment_recipe("transformer");
  CHECK(t.epochs == 6);
  CHECK(t.learning_rate == 5e-4);
  CHECK(t.pooling == "mean");
  CHECK(t.schedule == "constant");
  CHECK(t.dropout == doctest::Approx(0.3));  // chosen by cross-validation (docs/recipes.md)
  const SentimentRecipe& r = sentiment_recipe("bilstm");
  CHECK(r.pooling == "last");
  CHECK(r.schedule == "cosine");
  CHECK(r.word_dropout == 0.2);
  CHECK(sentiment_recipe("bow").learning_rate == 0.02);
  for (const SentimentRecipe& x : all) {
    CHECK(x.num_words == 5000);
    CHECK(x.maxlen == 500);
  }
  CHECK_THROWS_WITH_AS(sentiment_recipe("rnn"),
                       "no sentiment recipe for model 'rnn' (known: bilstm-attention, transformer, bilstm, bow)",
                       std::invalid_argument);
}
