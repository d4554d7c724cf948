#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "attn/data/synthetic_reviews.hpp"

using attn::generate_synthetic_reviews;
using attn::synthetic_lexicon;
using attn::synthetic_polarity;
using attn::SyntheticOptions;
using attn::SyntheticReview;

namespace {

bool contains(const std::vector<std::string>& list, const std::string& word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool is_negator(const std::string& w) { return contains(synthetic_lexicon().negators, w); }
bool is_intensifier(const std::string& w) { return contains(synthetic_lexicon().intensifiers, w); }

// The polarity a reader gives tokens[begin, end): the one sentiment word, flipped by a negator.
int clause_polarity(const std::vector<std::string>& tokens, std::size_t begin, std::size_t end) {
  int polarity = 0;
  bool negated = false;
  for (std::size_t i = begin; i < end; ++i) {
    negated |= is_negator(tokens[i]);
    if (synthetic_polarity(tokens[i]) != 0) {
      CHECK_MESSAGE(polarity == 0, "two sentiment words in one clause");
      polarity = synthetic_polarity(tokens[i]);
    }
  }
  return negated ? -polarity : polarity;
}

int sign(int label) { return label == 1 ? 1 : -1; }

std::size_t index_of_but(const SyntheticReview& r) {
  return static_cast<std::size_t>(std::find(r.tokens.begin(), r.tokens.end(), "but") - r.tokens.begin());
}

}  // namespace

TEST_CASE("synthetic_reviews.deterministic_from_seed") {
  const auto a = generate_synthetic_reviews(50, 7);
  const auto b = generate_synthetic_reviews(50, 7);
  const auto c = generate_synthetic_reviews(50, 8);
  REQUIRE(a.size() == 50);
  bool differs = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].text == b[i].text);
    CHECK(a[i].label == b[i].label);
    CHECK(a[i].tokens == b[i].tokens);
    CHECK(a[i].decisive == b[i].decisive);
    CHECK(a[i].pattern == b[i].pattern);
    differs |= a[i].text != c[i].text;
  }
  CHECK(differs);
  CHECK(generate_synthetic_reviews(0, 7).empty());
}

TEST_CASE("synthetic_reviews.pinned_first_reviews") {
  // Pinned so native and wasm builds (and refactors) provably produce the same corpus; the
  // stream comes only from attn::Rng, and a 500-review hash matched under node as well.
  const auto r = generate_synthetic_reviews(12, 1);  // the label shuffle depends on the count
  CHECK(r[0].text == "the trailer came out last spring. the lead actor was incredibly weak.");
  CHECK(r[0].label == 0);
  CHECK(r[0].pattern == "intensifier");
  CHECK(r[0].decisive == std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1});
  CHECK(r[1].text == "the script was hardly great.");
  CHECK(r[2].text == "it is the second film of the series. the cinematography was dreadful.");
}

TEST_CASE("synthetic_reviews.balanced_shuffled_labels") {
  for (std::size_t count : {1u, 2u, 101u, 400u}) {
    const auto reviews = generate_synthetic_reviews(count, 3);
    std::size_t positives = 0, positives_first_half = 0;
    for (std::size_t i = 0; i < reviews.size(); ++i) {
      positives += reviews[i].label == 1;
      if (i < count / 2) positives_first_half += reviews[i].label == 1;
    }
    CHECK(positives == count / 2);
    // Shuffled: positives are not bunched at the front.
    if (count >= 100) CHECK(positives_first_half < count / 2);
    if (count >= 100) CHECK(positives_first_half > 0);
  }
}

TEST_CASE("synthetic_reviews.text_splits_into_tokens") {
  for (const auto& r : generate_synthetic_reviews(300, 11)) {
    std::vector<std::string> split;
    std::size_t start = 0;
    while (start <= r.text.size()) {
      std::size_t space = r.text.find(' ', start);
      if (space == std::string::npos) space = r.text.size();
      std::string word;
      for (char ch : r.text.substr(start, space - start))
        if (ch != '.' && ch != ',' && ch != '!' && ch != '?') word += ch;
      split.push_back(word);
      start = space + 1;
    }
    CHECK_MESSAGE(split == r.tokens, r.text);
    CHECK(r.decisive.size() == r.tokens.size());
    for (const auto& t : r.tokens) {
      CHECK(!t.empty());
      CHECK(std::all_of(t.begin(), t.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; }));
    }
    const char last = r.text.back();
    CHECK((last == '.' || last == '!'));
  }
}

TEST_CASE("synthetic_reviews.decisive_flags_point_at_sentiment_words") {
  for (const auto& r : generate_synthetic_reviews(300, 5)) {
    std::size_t sentiment = 0, first = r.tokens.size(), last = 0;
    for (std::size_t i = 0; i < r.tokens.size(); ++i) {
      if (!r.decisive[i]) continue;
      const std::string& t = r.tokens[i];
      CHECK_MESSAGE((synthetic_polarity(t) != 0 || is_negator(t) || is_intensifier(t)), t);
      sentiment += synthetic_polarity(t) != 0;
      first = std::min(first, i);
      last = std::max(last, i);
    }
    CHECK_MESSAGE(sentiment == 1, r.text);
    // The flags are one run: the negator/intensifier sits right before its word.
    CHECK(last - first + 1 == static_cast<std::size_t>(std::count(r.decisive.begin(), r.decisive.end(), 1)));
    // Outside a contrast's losing first clause, no undecisive token carries sentiment.
    const std::size_t from = r.pattern == "contrast" ? index_of_but(r) : 0;
    for (std::size_t i = from; i < r.tokens.size(); ++i)
      if (!r.decisive[i]) CHECK_MESSAGE(synthetic_polarity(r.tokens[i]) == 0, r.text);
    if (r.pattern == "negation") CHECK(is_negator(r.tokens[first]));
    if (r.pattern == "intensifier") CHECK(is_intensifier(r.tokens[first]));
    if (r.pattern == "plain") CHECK(first == last);
  }
}

TEST_CASE("synthetic_reviews.negation_flips_label") {
  std::size_t negated = 0;
  for (const auto& r : generate_synthetic_reviews(300, 9)) {
    if (r.pattern == "contrast") continue;
    int word_polarity = 0;
    for (std::size_t i = 0; i < r.tokens.size(); ++i)
      if (r.decisive[i] && synthetic_polarity(r.tokens[i]) != 0) word_polarity = synthetic_polarity(r.tokens[i]);
    if (r.pattern == "negation") {
      ++negated;
      CHECK_MESSAGE(word_polarity == -sign(r.label), r.text);
    } else {
      CHECK_MESSAGE(word_polarity == sign(r.label), r.text);
    }
  }
  CHECK(negated > 40);
}

TEST_CASE("synthetic_reviews.contrast_follows_second_clause") {
  SyntheticOptions only_contrast;
  only_contrast.plain_share = only_contrast.negation_share = only_contrast.intensifier_share = 0.f;
  only_contrast.contrast_share = 1.f;
  only_contrast.max_fillers = 0;
  for (const auto& r : generate_synthetic_reviews(200, 13, only_contrast)) {
    REQUIRE(r.pattern == "contrast");
    const std::size_t but = index_of_but(r);
    REQUIRE(but < r.tokens.size());
    CHECK_MESSAGE(clause_polarity(r.tokens, 0, but) == -sign(r.label), r.text);
    CHECK_MESSAGE(clause_polarity(r.tokens, but + 1, r.tokens.size()) == sign(r.label), r.text);
    for (std::size_t i = 0; i <= but; ++i) CHECK(r.decisive[i] == 0);
    // The two clauses judge different aspects: "the plot was dull, but the plot was superb"
    // would have no honest label.
    const auto& aspects = synthetic_lexicon().aspects;
    std::string first_clause, second_clause;
    for (std::size_t i = 0; i < r.tokens.size(); ++i) (i < but ? first_clause : second_clause) += " " + r.tokens[i];
    std::size_t shared = 0;
    for (const auto& a : aspects)
      shared += (first_clause + " ").find(" " + a + " ") != std::string::npos &&
                (second_clause + " ").find(" " + a + " ") != std::string::npos;
    CHECK_MESSAGE(shared == 0, r.text);
    CHECK(r.text.find(", but ") != std::string::npos);
  }
}

TEST_CASE("synthetic_reviews.options_shape_the_output") {
  SyntheticOptions o;
  o.plain_share = o.intensifier_share = o.contrast_share = 0.f;
  o.negation_share = 2.f;
  o.min_fillers = o.max_fillers = 3;
  for (const auto& r : generate_synthetic_reviews(40, 1, o)) {
    CHECK(r.pattern == "negation");
    const auto ends = std::count(r.text.begin(), r.text.end(), '.') + std::count(r.text.begin(), r.text.end(), '!');
    CHECK(ends == 4);  // three fillers + the core sentence
  }
  SyntheticOptions short_only;
  short_only.max_fillers = 1;
  short_only.min_tokens = 5;
  short_only.max_tokens = 6;
  std::set<std::string> patterns;
  for (const auto& r : generate_synthetic_reviews(100, 2, short_only)) {
    CHECK(r.tokens.size() >= 5);
    CHECK(r.tokens.size() <= 6);
    patterns.insert(r.pattern);
  }
  CHECK(patterns.count("contrast") == 0);  // a contrast needs at least 9 tokens
  CHECK(patterns.size() == 3);
}

TEST_CASE("synthetic_reviews.lexicon_fillers_are_neutral") {
  const auto& lex = synthetic_lexicon();
  for (const auto& filler : lex.fillers) {
    std::size_t start = 0;
    while (start <= filler.size()) {
      std::size_t space = filler.find(' ', start);
      if (space == std::string::npos) space = filler.size();
      const std::string w = filler.substr(start, space - start);
      CHECK_MESSAGE((synthetic_polarity(w) == 0 && !is_negator(w) && !is_intensifier(w) && w != "but"), filler);
      start = space + 1;
    }
  }
  CHECK(synthetic_polarity("superb") == 1);
  CHECK(synthetic_polarity("loathe") == -1);
  CHECK(synthetic_polarity("popcorn") == 0);
}

TEST_CASE("synthetic_reviews.rejects_bad_options") {
  SyntheticOptions o;
  o.negation_share = -0.5f;
  CHECK_THROWS_WITH_AS(generate_synthetic_reviews(4, 1, o),
                       "generate_synthetic_reviews: pattern shares must be >= 0 and not all 0", std::invalid_argument);
  o = {};
  o.plain_share = o.negation_share = o.intensifier_share = o.contrast_share = 0.f;
  CHECK_THROWS_AS(generate_synthetic_reviews(4, 1, o), std::invalid_argument);
  o = {};
  o.min_fillers = 3;
  o.max_fillers = 1;
  CHECK_THROWS_WITH_AS(generate_synthetic_reviews(4, 1, o),
                       "generate_synthetic_reviews: min_fillers (3) > max_fillers (1)", std::invalid_argument);
  o = {};
  o.min_tokens = 10;
  o.max_tokens = 5;
  CHECK_THROWS_WITH_AS(generate_synthetic_reviews(4, 1, o),
                       "generate_synthetic_reviews: min_tokens (10) > max_tokens (5)", std::invalid_argument);
  o = {};
  o.max_tokens = 2;
  CHECK_THROWS_WITH_AS(generate_synthetic_reviews(4, 1, o),
                       "generate_synthetic_reviews: no review with 1..2 tokens after 1000 attempts; "
                       "widen min_tokens/max_tokens",
                       std::invalid_argument);
}
