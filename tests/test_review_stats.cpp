#include <doctest/doctest.h>

#include <stdexcept>

#include "attn/data/review_stats.hpp"

using namespace attn;

TEST_CASE("review_stats.counts_lengths_percentiles_and_histogram") {
  // Token counts 1, 2, 3, 4, 10 (punctuation is dropped by the tokenizer).
  const std::vector<LabelledText> data = {
      {"Good.", 1, "a:1"},
      {"not good", 0, "a:2"},
      {"good good film", 1, "a:3"},
      {"a b c d", 0, "a:4"},
      {"one two three four five six seven eight nine ten", 1, "a:5"},
  };
  const ReviewStats s = review_stats(data, {}, 4);
  CHECK(s.examples == 5);
  CHECK(s.positive == 3);
  CHECK(s.negative == 2);
  CHECK(s.total_tokens == 20);
  // good, not, film, a, b, c, d, one..ten = 3 + 4 + 10
  CHECK(s.distinct_words == 17);
  CHECK(s.min_tokens == 1);
  CHECK(s.max_tokens == 10);
  CHECK(s.mean_tokens == doctest::Approx(4.0));
  // Nearest rank over [1, 2, 3, 4, 10]: p50 -> rank ceil(2.5) = 3 -> 3; p90 -> ceil(4.5) = 5 -> 10.
  CHECK(s.p50 == 3);
  CHECK(s.p90 == 10);
  CHECK(s.p99 == 10);
  // 4 bins over 0..10: width (10 + 4) / 4 = 3 -> [0,3) [3,6) [6,9) [9,12): 2, 2, 0, 1.
  CHECK(s.bin_width == 3);
  CHECK(s.histogram == std::vector<std::size_t>{2, 2, 0, 1});
  CHECK_THROWS_WITH_AS(review_stats(data, {}, 0), "review_stats: bins must be >= 1, got 0", std::invalid_argument);
  const ReviewStats empty = review_stats({}, {}, 4);
  CHECK(empty.examples == 0);
  CHECK(empty.histogram.empty());
}

TEST_CASE("review_stats.vocabulary_coverage_counts_known_tokens_and_truncation") {
  TextPipelineConfig config;
  config.num_words = 6;  // 4 reserved ids + the 2 most frequent words: "good" (3), "film" (2)
  config.maxlen = 3;     // <start> + 2 tokens
  TextPipeline pipeline(config);
  pipeline.fit({{"good film good", 1, "t:1"}, {"good film bad", 0, "t:2"}});
  // Tokens: good, bad, film, plot, good -> known good, film, good = 3 of 5; words good, bad,
  // film, plot -> 2 of 4 known. Only "good bad film plot" is longer than 2 tokens.
  const VocabularyCoverage c = vocabulary_coverage(pipeline, {{"good bad film plot", 1, "x:1"}, {"good", 0, "x:2"}});
  CHECK(c.tokens == 5);
  CHECK(c.known_tokens == 3);
  CHECK(c.token_coverage == doctest::Approx(0.6));
  CHECK(c.words == 4);
  CHECK(c.known_words == 2);
  CHECK(c.word_coverage == doctest::Approx(0.5));
  CHECK(c.truncated == 1);
}
