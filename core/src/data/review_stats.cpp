#include "attn/data/review_stats.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "attn/text/tokenizer.hpp"

namespace attn {
namespace {
// Nearest rank: sorted[ceil(p · n) - 1], computed in integers so 0.5 · 10 is exactly 5.
std::size_t percentile(const std::vector<std::size_t>& sorted, std::size_t percent) {
  if (sorted.empty()) return 0;
  const std::size_t rank = (percent * sorted.size() + 99) / 100;
  return sorted[std::max<std::size_t>(rank, 1) - 1];
}
}  // namespace

ReviewStats review_stats(const std::vector<LabelledText>& examples, const TokenizerOptions& tokenizer,
                         std::size_t bins) {
  if (bins < 1) throw std::invalid_argument("review_stats: bins must be >= 1, got 0");
  ReviewStats out;
  out.examples = examples.size();
  std::vector<std::size_t> lengths;
  lengths.reserve(examples.size());
  std::unordered_set<std::string> words;
  for (const LabelledText& e : examples) {
    (e.label == 1 ? out.positive : out.negative) += 1;
    const std::vector<std::string> tokens = tokenize(e.text, tokenizer);
    lengths.push_back(tokens.size());
    out.total_tokens += tokens.size();
    words.insert(tokens.begin(), tokens.end());
  }
  out.distinct_words = words.size();
  if (lengths.empty()) return out;
  std::vector<std::size_t> sorted = lengths;
  std::sort(sorted.begin(), sorted.end());
  out.min_tokens = sorted.front();
  out.max_tokens = sorted.back();
  out.mean_tokens = static_cast<double>(out.total_tokens) / static_cast<double>(lengths.size());
  out.p50 = percentile(sorted, 50);
  out.p90 = percentile(sorted, 90);
  out.p95 = percentile(sorted, 95);
  out.p99 = percentile(sorted, 99);
  // Bins of equal whole-token width covering 0..max_tokens.
  out.bin_width = std::max<std::size_t>(1, (out.max_tokens + bins) / bins);
  out.histogram.assign(out.max_tokens / out.bin_width + 1, 0);
  for (std::size_t length : lengths) ++out.histogram[length / out.bin_width];
  return out;
}

VocabularyCoverage vocabulary_coverage(const TextPipeline& pipeline, const std::vector<LabelledText>& examples) {
  VocabularyCoverage out;
  const Vocabulary& vocabulary = pipeline.vocabulary();
  std::unordered_set<std::string> seen;
  for (const LabelledText& e : examples) {
    const std::vector<std::string> tokens = tokenize(e.text, pipeline.config().tokenizer);
    // + 1: the <start> id counts against maxlen.
    if (tokens.size() + 1 > pipeline.config().maxlen) ++out.truncated;
    for (const std::string& token : tokens) {
      const bool known = vocabulary.id(token) != Vocabulary::oov;
      ++out.tokens;
      out.known_tokens += known;
      if (seen.insert(token).second) {
        ++out.words;
        out.known_words += known;
      }
    }
  }
  if (out.tokens > 0) out.token_coverage = static_cast<double>(out.known_tokens) / static_cast<double>(out.tokens);
  if (out.words > 0) out.word_coverage = static_cast<double>(out.known_words) / static_cast<double>(out.words);
  return out;
}

}  // namespace attn
