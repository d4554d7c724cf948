// The models the page ships (web/public/models/, trained on the IMDB training half by
// scripts/train-shipped-models.mjs): each file loads, stays well under 2 MB, and classifies the
// two obvious sentences and a handful of reviews we wrote (tests/fixtures/shipped_model_checks.tsv)
// correctly. Needs no shared data: the files are committed.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/io/byte_source.hpp"
#include "attn/models/sentiment_model.hpp"
#include "attn/train/sentiment_training.hpp"
#include "support/fixture_files.hpp"

using namespace attn;

namespace {
const char* const kShipped[] = {"imdb-bilstm-attention.attn", "imdb-transformer.attn"};

std::vector<std::uint8_t> shipped(const std::string& name) {
  return test_fixtures::read("../../web/public/models/" + name);
}
}  // namespace

TEST_CASE("shipped_models.load_and_get_the_obvious_sentences_and_our_reviews_right") {
  const std::vector<std::uint8_t> checks_tsv = test_fixtures::read("shipped_model_checks.tsv");
  MemorySource source(checks_tsv.data(), checks_tsv.size(), "shipped_model_checks.tsv");
  const std::vector<LabelledText> checks = load_tsv(source);
  REQUIRE(checks.size() >= 8);
  CHECK(checks[0].text == "a wonderful film with a moving story");
  CHECK(checks[1].text == "a dull, lifeless film");
  const std::vector<std::uint8_t> manifest = test_fixtures::read("../../web/public/models/manifest.json");
  const std::string manifest_text(manifest.begin(), manifest.end());
  std::vector<std::string> texts;
  for (const LabelledText& c : checks) texts.push_back(c.text);
  for (const char* name : kShipped) {
    CAPTURE(name);
    const std::vector<std::uint8_t> bytes = shipped(name);
    CHECK(bytes.size() < 2u * 1024 * 1024);
    CHECK(manifest_text.find(std::string("\"file\": \"") + name + "\"") != std::string::npos);
    const SentimentModel model = load_sentiment_model(bytes);
    const std::vector<float> p = predict(model, texts);
    for (std::size_t i = 0; i < checks.size(); ++i) {
      CAPTURE(checks[i].text);
      CAPTURE(p[i]);
      CHECK((p[i] > 0.5f) == (checks[i].label == 1));
    }
  }
}
