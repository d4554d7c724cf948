#include "attn/text/translation_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "attn/text/mt_tokenizer.hpp"  // is_unicode_space
#include "attn/text/nfc.hpp"
#include "attn/text/tokenizer.hpp"  // lowercase_code_point
#include "attn/text/utf8.hpp"

namespace attn {

namespace {

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t at; (at = s.find(from, start)) != std::string::npos; start = at + from.size()) {
    out.append(s, start, at - start);
    out.append(to);
  }
  if (start == 0) return;
  out.append(s, start, std::string::npos);
  s = std::move(out);
}

std::u32string code_points(std::string_view text) {
  validate_utf8(text, "<text>");
  std::u32string out;
  std::size_t pos = 0;
  char32_t c;
  while (pos < text.size() && decode_utf8(text, pos, c)) out.push_back(c);
  return out;
}

// NFC and lowercasing as the options ask, as code points.
std::u32string prepared(std::string_view text, const MetricOptions& options) {
  std::u32string cps = options.nfc ? code_points(nfc(text)) : code_points(text);
  if (options.lowercase)
    for (char32_t& c : cps) c = lowercase_code_point(c);
  return cps;
}

bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }

// mteval-v13a's first rule: { | } ~ [ \ ] ^ _ ` space ! " # $ % & ( ) * + : ; < = > ? @ /
bool is_13a_symbol(char32_t c) {
  return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') || (c >= '(' && c <= '+') ||
         (c >= ':' && c <= '@') || c == '/';
}

void check_sizes(std::size_t hypotheses, std::size_t references, const char* what) {
  if (hypotheses != references) {
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(hypotheses) + " hypotheses but " +
                                std::to_string(references) + " reference lists");
  }
}

void check_references(std::size_t count, std::size_t i, const char* what) {
  if (count == 0)
    throw std::invalid_argument(std::string(what) + ": hypothesis " + std::to_string(i) + " has no reference");
}

using NgramCounts = std::map<std::vector<std::string>, std::size_t>;  // ordered: no hash-order dependence

NgramCounts ngrams(const std::vector<std::string>& tokens, std::size_t n) {
  NgramCounts counts;
  for (std::size_t i = 0; i + n <= tokens.size(); ++i)
    ++counts[std::vector<std::string>(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                                      tokens.begin() + static_cast<std::ptrdiff_t>(i + n))];
  return counts;
}

using CharCounts = std::map<std::u32string, std::size_t>;

CharCounts char_ngrams(const std::u32string& text, std::size_t n) {
  CharCounts counts;
  for (std::size_t i = 0; i + n <= text.size(); ++i) ++counts[text.substr(i, n)];
  return counts;
}

std::u32string without_spaces(const std::string& text, const MetricOptions& options) {
  std::u32string cps = prepared(text, options);
  cps.erase(std::remove_if(cps.begin(), cps.end(), is_unicode_space), cps.end());
  return cps;
}

ChrfStats chrf_pair_stats(const std::u32string& hypothesis, const std::u32string& reference) {
  ChrfStats stats;
  for (std::size_t n = 1; n <= kChrfOrder; ++n) {
    const CharCounts h = char_ngrams(hypothesis, n);
    const CharCounts r = char_ngrams(reference, n);
    for (const auto& [gram, count] : h) {
      stats.hypothesis[n - 1] += count;
      const auto found = r.find(gram);
      if (found != r.end()) stats.matches[n - 1] += std::min(count, found->second);
    }
    for (const auto& entry : r) stats.reference[n - 1] += entry.second;
  }
  return stats;
}

ChrfResult chrf_from_stats(const ChrfStats& stats) {
  constexpr double beta2 = 4.0;  // β = 2
  ChrfResult result;
  result.stats = stats;
  std::size_t effective = 0;
  for (std::size_t n = 0; n < kChrfOrder; ++n) {
    if (stats.hypothesis[n] == 0 || stats.reference[n] == 0) continue;
    result.precision += static_cast<double>(stats.matches[n]) / static_cast<double>(stats.hypothesis[n]);
    result.recall += static_cast<double>(stats.matches[n]) / static_cast<double>(stats.reference[n]);
    ++effective;
  }
  if (effective > 0) {
    result.precision /= static_cast<double>(effective);
    result.recall /= static_cast<double>(effective);
  }
  const double denominator = beta2 * result.precision + result.recall;
  result.score = denominator > 0 ? 100.0 * (1 + beta2) * result.precision * result.recall / denominator : 0.0;
  return result;
}

void add(ChrfStats& total, const ChrfStats& part) {
  for (std::size_t n = 0; n < kChrfOrder; ++n) {
    total.hypothesis[n] += part.hypothesis[n];
    total.reference[n] += part.reference[n];
    total.matches[n] += part.matches[n];
  }
}

// The stats of the reference with the best sentence chrF (ties: the first).
ChrfStats best_chrf_stats(const std::string& hypothesis, const std::vector<std::string>& references,
                          const MetricOptions& options) {
  const std::u32string h = without_spaces(hypothesis, options);
  ChrfStats best;
  double best_score = -1;
  for (const std::string& reference : references) {
    const ChrfStats stats = chrf_pair_stats(h, without_spaces(reference, options));
    const double score = chrf_from_stats(stats).score;
    if (score > best_score) {
      best_score = score;
      best = stats;
    }
  }
  return best;
}

std::size_t word_count(const std::string& text) {
  std::size_t words = 0;
  bool in_word = false;
  for (const char32_t c : code_points(text)) {
    const bool space = is_unicode_space(c);
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

}  // namespace

std::vector<std::string> tokenize_13a(std::string_view text, const MetricOptions& options) {
  std::string line;
  for (const char32_t c : prepared(text, options)) append_utf8(line, c);
  replace_all(line, "<skipped>", "");
  replace_all(line, "-\n", "");
  replace_all(line, "\n", " ");
  replace_all(line, "&quot;", "\"");
  replace_all(line, "&amp;", "&");
  replace_all(line, "&lt;", "<");
  replace_all(line, "&gt;", ">");
  std::u32string s = U" " + code_points(line) + U" ";
  // Each rule is one left-to-right pass with non-overlapping matches, like Python's re.sub.
  std::u32string a;
  for (const char32_t c : s) {
    if (is_13a_symbol(c)) {
      a += U' ';
      a += c;
      a += U' ';
    } else {
      a += c;
    }
  }
  std::u32string b;  // ([^0-9])([.,]) -> "\1 \2 "
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i + 1 < a.size() && !is_digit(a[i]) && (a[i + 1] == U'.' || a[i + 1] == U',')) {
      b += a[i];
      b += U' ';
      b += a[++i];
      b += U' ';
    } else {
      b += a[i];
    }
  }
  std::u32string c;  // ([.,])([^0-9]) -> " \1 \2"
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i + 1 < b.size() && (b[i] == U'.' || b[i] == U',') && !is_digit(b[i + 1])) {
      c += U' ';
      c += b[i];
      c += U' ';
      c += b[++i];
    } else {
      c += b[i];
    }
  }
  std::u32string d;  // ([0-9])(-) -> "\1 \2 "
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i + 1 < c.size() && is_digit(c[i]) && c[i + 1] == U'-') {
      d += c[i];
      d += U' ';
      d += c[++i];
      d += U' ';
    } else {
      d += c[i];
    }
  }
  std::vector<std::string> tokens;
  std::string token;
  for (const char32_t ch : d) {
    if (is_unicode_space(ch)) {
      if (!token.empty()) tokens.push_back(std::move(token));
      token.clear();
    } else {
      append_utf8(token, ch);
    }
  }
  if (!token.empty()) tokens.push_back(std::move(token));
  return tokens;
}

BleuStats& BleuStats::operator+=(const BleuStats& other) {
  for (std::size_t n = 0; n < kBleuOrder; ++n) {
    matches[n] += other.matches[n];
    totals[n] += other.totals[n];
  }
  hypothesis_length += other.hypothesis_length;
  reference_length += other.reference_length;
  sentences += other.sentences;
  return *this;
}

BleuStats bleu_sentence_stats(const std::vector<std::string>& hypothesis,
                              const std::vector<std::vector<std::string>>& references) {
  check_references(references.size(), 0, "bleu_sentence_stats");
  BleuStats stats;
  stats.sentences = 1;
  stats.hypothesis_length = hypothesis.size();
  // Closest reference length; ties go to the shorter reference.
  std::size_t closest = references[0].size();
  for (const auto& reference : references) {
    const auto distance = [&](std::size_t len) {
      return len > hypothesis.size() ? len - hypothesis.size() : hypothesis.size() - len;
    };
    const std::size_t len = reference.size();
    if (distance(len) < distance(closest) || (distance(len) == distance(closest) && len < closest)) closest = len;
  }
  stats.reference_length = closest;
  for (std::size_t n = 1; n <= kBleuOrder; ++n) {
    const NgramCounts h = ngrams(hypothesis, n);
    NgramCounts max_ref;  // per n-gram, the largest count in any one reference
    for (const auto& reference : references)
      for (const auto& [gram, count] : ngrams(reference, n)) max_ref[gram] = std::max(max_ref[gram], count);
    for (const auto& [gram, count] : h) {
      const auto found = max_ref.find(gram);
      if (found != max_ref.end()) stats.matches[n - 1] += std::min(count, found->second);
    }
    stats.totals[n - 1] = hypothesis.size() >= n ? hypothesis.size() - n + 1 : 0;
  }
  return stats;
}

BleuResult bleu_from_stats(const BleuStats& stats, BleuSmoothing smoothing) {
  BleuResult result;
  result.stats = stats;
  const double c = static_cast<double>(stats.hypothesis_length);
  const double r = static_cast<double>(stats.reference_length);
  result.length_ratio = r > 0 ? c / r : 0.0;
  result.brevity_penalty = c > r ? 1.0 : c == 0 ? 0.0 : std::exp(1.0 - r / c);
  double log_sum = 0;
  bool zero = false;
  double smooth = 1;  // 2^k for the k-th order without a match
  for (std::size_t n = 0; n < kBleuOrder; ++n) {
    const double total = static_cast<double>(std::max<std::size_t>(1, stats.totals[n]));
    double p = static_cast<double>(stats.matches[n]) / total;
    if (stats.matches[n] == 0 && smoothing == BleuSmoothing::exp) {
      smooth *= 2;
      p = 1.0 / (smooth * total);
    }
    result.precisions[n] = p;
    if (p == 0)
      zero = true;
    else
      log_sum += std::log(p) / static_cast<double>(kBleuOrder);
  }
  result.score = zero ? 0.0 : 100.0 * result.brevity_penalty * std::exp(log_sum);
  return result;
}

BleuResult corpus_bleu_tokens(const std::vector<std::vector<std::string>>& hypotheses,
                              const std::vector<std::vector<std::vector<std::string>>>& references,
                              BleuSmoothing smoothing) {
  check_sizes(hypotheses.size(), references.size(), "corpus_bleu");
  BleuStats total;
  for (std::size_t i = 0; i < hypotheses.size(); ++i) {
    check_references(references[i].size(), i, "corpus_bleu");
    total += bleu_sentence_stats(hypotheses[i], references[i]);
  }
  return bleu_from_stats(total, smoothing);
}

namespace {

std::vector<std::vector<std::string>> tokenize_all(const std::vector<std::string>& texts,
                                                   const MetricOptions& options) {
  std::vector<std::vector<std::string>> out;
  out.reserve(texts.size());
  for (const std::string& text : texts) out.push_back(tokenize_13a(text, options));
  return out;
}

}  // namespace

BleuResult corpus_bleu(const std::vector<std::string>& hypotheses,
                       const std::vector<std::vector<std::string>>& references, const MetricOptions& options) {
  check_sizes(hypotheses.size(), references.size(), "corpus_bleu");
  BleuStats total;
  for (std::size_t i = 0; i < hypotheses.size(); ++i) {
    check_references(references[i].size(), i, "corpus_bleu");
    total += bleu_sentence_stats(tokenize_13a(hypotheses[i], options), tokenize_all(references[i], options));
  }
  return bleu_from_stats(total);
}

BleuResult sentence_bleu(const std::string& hypothesis, const std::vector<std::string>& references,
                         const MetricOptions& options) {
  check_references(references.size(), 0, "sentence_bleu");
  return bleu_from_stats(bleu_sentence_stats(tokenize_13a(hypothesis, options), tokenize_all(references, options)),
                         BleuSmoothing::exp);
}

ChrfResult corpus_chrf(const std::vector<std::string>& hypotheses,
                       const std::vector<std::vector<std::string>>& references, const MetricOptions& options) {
  check_sizes(hypotheses.size(), references.size(), "corpus_chrf");
  ChrfStats total;
  for (std::size_t i = 0; i < hypotheses.size(); ++i) {
    check_references(references[i].size(), i, "corpus_chrf");
    add(total, best_chrf_stats(hypotheses[i], references[i], options));
  }
  return chrf_from_stats(total);
}

ChrfResult sentence_chrf(const std::string& hypothesis, const std::vector<std::string>& references,
                         const MetricOptions& options) {
  check_references(references.size(), 0, "sentence_chrf");
  return chrf_from_stats(best_chrf_stats(hypothesis, references, options));
}

double ExactMatch::rate() const {
  return sentences == 0 ? 0.0 : static_cast<double>(matched) / static_cast<double>(sentences);
}

ExactMatch exact_match(const std::vector<std::string>& hypotheses,
                       const std::vector<std::vector<std::string>>& references, const MetricOptions& options) {
  check_sizes(hypotheses.size(), references.size(), "exact_match");
  ExactMatch result;
  for (std::size_t i = 0; i < hypotheses.size(); ++i) {
    check_references(references[i].size(), i, "exact_match");
    const std::vector<std::string> h = tokenize_13a(hypotheses[i], options);
    const auto& refs = references[i];
    result.matched +=
        std::any_of(refs.begin(), refs.end(), [&](const std::string& r) { return tokenize_13a(r, options) == h; }) ? 1
                                                                                                                   : 0;
    ++result.sentences;
  }
  return result;
}

std::vector<LengthBucket> bleu_by_source_length(const std::vector<std::string>& sources,
                                                const std::vector<std::string>& hypotheses,
                                                const std::vector<std::vector<std::string>>& references,
                                                const MetricOptions& options) {
  check_sizes(hypotheses.size(), references.size(), "bleu_by_source_length");
  if (sources.size() != hypotheses.size()) {
    throw std::invalid_argument("bleu_by_source_length: " + std::to_string(sources.size()) + " sources but " +
                                std::to_string(hypotheses.size()) + " hypotheses");
  }
  std::vector<LengthBucket> buckets = {{1, 5, "1-5", 0, {}},
                                       {6, 10, "6-10", 0, {}},
                                       {11, 15, "11-15", 0, {}},
                                       {16, 20, "16-20", 0, {}},
                                       {21, 0, "21+", 0, {}}};
  std::vector<BleuStats> stats(buckets.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    check_references(references[i].size(), i, "bleu_by_source_length");
    const std::size_t words = word_count(sources[i]);
    std::size_t b = 0;
    while (b + 1 < buckets.size() && words > buckets[b].max_words) ++b;
    stats[b] += bleu_sentence_stats(tokenize_13a(hypotheses[i], options), tokenize_all(references[i], options));
    ++buckets[b].sentences;
  }
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    if (buckets[b].sentences > 0) buckets[b].bleu = bleu_from_stats(stats[b]);
  }
  return buckets;
}

}  // namespace attn
