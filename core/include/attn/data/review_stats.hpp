// What a learner should know about a review set before training on it: class balance, how long
// the reviews are (so maxlen can be chosen) and how much of the text a vocabulary covers.
//
// No tensors here (the shape legend B, T, D, H, V, U, A does not apply): counts are of reviews
// and of tokens as text/tokenizer.hpp splits them (no <start> token).
#pragma once

#include <cstddef>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/text/text_pipeline.hpp"

namespace attn {

struct ReviewStats {
  std::size_t examples = 0, positive = 0, negative = 0;
  std::size_t total_tokens = 0, distinct_words = 0;
  std::size_t min_tokens = 0, max_tokens = 0;
  double mean_tokens = 0;
  // Nearest-rank percentiles of the token count: the smallest length that at least p% of the
  // reviews do not exceed.
  std::size_t p50 = 0, p90 = 0, p95 = 0, p99 = 0;
  // histogram[i] counts the reviews with [i·bin_width, (i+1)·bin_width) tokens; it has `bins`
  // entries (fewer when the longest review is short) and covers max_tokens.
  std::vector<std::size_t> histogram;
  std::size_t bin_width = 1;
};

// bins >= 1, else std::invalid_argument. Throws TextError for invalid UTF-8 (naming the origin).
ReviewStats review_stats(const std::vector<LabelledText>& examples, const TokenizerOptions& tokenizer = {},
                         std::size_t bins = 20);

struct VocabularyCoverage {
  std::size_t tokens = 0, known_tokens = 0;      // token occurrences, and those with a vocabulary id
  std::size_t words = 0, known_words = 0;        // distinct words, and those with a vocabulary id
  double token_coverage = 0, word_coverage = 0;  // the two ratios (0 for no tokens)
  std::size_t truncated = 0;                     // reviews longer than the pipeline's maxlen (they lose ids)
};

// Coverage of `examples` by the pipeline's vocabulary (num_words applied: rarer words are <oov>).
VocabularyCoverage vocabulary_coverage(const TextPipeline& pipeline, const std::vector<LabelledText>& examples);

}  // namespace attn
