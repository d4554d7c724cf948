#include <doctest/doctest.h>

#include <stdexcept>

#include "attn/train/recipes.hpp"

using namespace attn;

TEST_CASE("recipes.one_per_cli_model_with_the_tuned_values") {
  const auto& all = sentiment_recipes();
  REQUIRE(all.size() == 10);  // five real-data rows, then five for the built-in corpus
  CHECK(all[0].model == "bilstm-attention");
  CHECK(all[0].data == "real");
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
  const SentimentRecipe& n = sentiment_recipe("ngram-attention");  // docs/recipes.md
  CHECK(n.epochs == 1);
  CHECK(n.learning_rate == 1e-2);
  CHECK(n.num_words == 20000);
  CHECK(n.bigram_buckets == 131072);
  CHECK(n.pooling == "attention");
  for (const SentimentRecipe& x : all) {
    CAPTURE(x.model);
    const bool ngrams = x.model == "ngram-attention";
    if (!ngrams || x.data == "builtin") CHECK(x.num_words == 5000);
    CHECK(x.maxlen == (x.data == "real" ? 500u : 64u));
    CHECK((x.bigram_buckets > 0) == ngrams);  // only the model without an encoder has the bigram table
    const RecipeSettings s = recipe_settings(x);
    CHECK((s.model.classifier.encoder == EncoderKind::none) == ngrams);
    CHECK(s.model.classifier.bigram_buckets == x.bigram_buckets);
  }
  CHECK_THROWS_WITH_AS(
      sentiment_recipe("rnn"),
      "no sentiment recipe for model 'rnn' (known: bilstm-attention, transformer, bilstm, ngram-attention, bow)",
      std::invalid_argument);
}

TEST_CASE("recipes.the_built_in_corpus_has_its_own_rows") {
  // Chosen by 5-fold x 2-seed cross-validation on the corpus' 528 training reviews (docs/cli.md).
  const SentimentRecipe& a = sentiment_recipe("bilstm-attention", "builtin");
  CHECK(a.data == "builtin");
  CHECK(a.epochs == 15);
  CHECK(a.learning_rate == 2e-3);
  CHECK(a.schedule == "cosine");
  CHECK(a.dropout == doctest::Approx(0.3));
  CHECK(a.word_dropout == doctest::Approx(0.2));
  CHECK(a.maxlen == 64);
  CHECK(a.patience == 0);
  CHECK(sentiment_recipe("transformer", "builtin").epochs == 20);
  CHECK(sentiment_recipe("bilstm", "builtin").pooling == "last");
  CHECK(&sentiment_recipe("bow") == &sentiment_recipe("bow", "real"));
  CHECK_THROWS_WITH_AS(sentiment_recipe("bow", "imdb"), "no sentiment recipes for data 'imdb' (known: real, builtin)",
                       std::invalid_argument);
}
