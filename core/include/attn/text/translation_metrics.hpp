// Translation metrics computed on free-running output against every reference of each source
// sentence: corpus BLEU-4 with its parts, sentence BLEU, chrF, exact match and BLEU by source
// length. No tensors here; inputs are UTF-8 sentences (or, for the token-level BLEU, tokens).
// Legend: N hypotheses (one per source sentence), R_i >= 1 references for hypothesis i.
//
// BLEU (Papineni et al. 2002), as sacreBLEU and nltk compute it:
//   - text is split by tokenize_13a, sacreBLEU's default "13a" tokeniser (mteval-v13a.pl):
//     "&quot; &amp; &lt; &gt;" unescaped; each of  { | } ~ [ \ ] ^ _ ` ! " # $ % & ( ) * + : ; < = >
//     ? @ /  becomes a token; '.' and ',' become tokens except between digits ("3.5", "1,000");
//     '-' after a digit becomes a token; apostrophes and other hyphens stay inside words
//     ("l'homme", "peut-être"); then the text is split on Unicode white space. Optionally
//     lowercased first (Latin, Greek, Cyrillic; text/tokenizer.hpp's lowercase_code_point) and,
//     by default, put in NFC first (text/nfc.hpp), so "é" typed two ways is one token.
//   - matches_n = Σ_i Σ_g min(count_hyp_i(g), max_r count_ref_ir(g)) over the n-grams g of the
//     hypothesis (clipped counts); totals_n = Σ_i max(0, |hyp_i| - n + 1); p_n = matches_n / totals_n.
//   - c = Σ |hyp_i|; r = Σ the reference length closest to |hyp_i| (ties to the shorter one, as
//     nltk's closest_ref_length and sacreBLEU do); BP = 1 if c > r, 0 if c = 0, else exp(1 - r/c).
//   - BLEU = 100 · BP · exp(Σ_n ¼ log p_n); without smoothing it is 0 when any p_n is 0.
//   Smoothing "exp" (sacreBLEU's "exp" = nltk's method3, Chen & Cherry 2014): the k-th order
//   with no match (k = 1, 2, ...) gets p_n = 1 / (2^k · max(1, totals_n)). Sentence BLEU uses it
//   (a single short sentence often has no 4-gram match); corpus BLEU does not.
// chrF (Popović 2015), as sacreBLEU's CHRF defaults: character n-grams of orders 1..6 over the
// text with all white space removed, β = 2. Per sentence the reference with the best chrF is
// chosen (ties: the first); its n-gram counts are summed over the corpus; then per order
// P_n = matches/hyp n-grams and R_n = matches/ref n-grams, averaged over the orders where both
// counts are non-zero, and chrF = 100 · (1+β²)·P·R / (β²·P + R) (0 when P + R = 0).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

constexpr std::size_t kBleuOrder = 4;
constexpr std::size_t kChrfOrder = 6;

struct MetricOptions {
  bool lowercase = false;  // compare case-insensitively (the held-out score is lowercased)
  bool nfc = true;         // NFC before tokenising
};

enum class BleuSmoothing { none, exp };

// sacreBLEU's 13a tokens of one sentence (see above). Throws TextError for invalid UTF-8.
std::vector<std::string> tokenize_13a(std::string_view text, const MetricOptions& options = {});

struct BleuStats {
  std::array<std::size_t, kBleuOrder> matches{};  // clipped n-gram matches, n = 1..4
  std::array<std::size_t, kBleuOrder> totals{};   // n-grams in the hypotheses
  std::size_t hypothesis_length = 0;              // c
  std::size_t reference_length = 0;               // r (closest reference lengths)
  std::size_t sentences = 0;
  BleuStats& operator+=(const BleuStats& other);
};

struct BleuResult {
  BleuStats stats;
  std::array<double, kBleuOrder> precisions{};  // p_n in [0, 1] (smoothed where smoothing applies)
  double brevity_penalty = 0;                   // in [0, 1]
  double length_ratio = 0;                      // c / r (0 when r = 0)
  double score = 0;                             // BLEU in [0, 100]
};

// The counts of one hypothesis against its references (token lists). At least one reference.
BleuStats bleu_sentence_stats(const std::vector<std::string>& hypothesis,
                              const std::vector<std::vector<std::string>>& references);
// The score and its parts from (summed) counts.
BleuResult bleu_from_stats(const BleuStats& stats, BleuSmoothing smoothing = BleuSmoothing::none);

// Corpus BLEU on tokens the caller split (nltk's corpus_bleu takes the same input): hypotheses
// [N][tokens], references [N][R_i][tokens]. std::invalid_argument when the counts differ or a
// hypothesis has no reference.
BleuResult corpus_bleu_tokens(const std::vector<std::vector<std::string>>& hypotheses,
                              const std::vector<std::vector<std::vector<std::string>>>& references,
                              BleuSmoothing smoothing = BleuSmoothing::none);
// Corpus BLEU on sentences, tokenised by tokenize_13a: hypotheses [N], references [N][R_i].
BleuResult corpus_bleu(const std::vector<std::string>& hypotheses,
                       const std::vector<std::vector<std::string>>& references, const MetricOptions& options = {});
// One sentence, with exp smoothing (see above).
BleuResult sentence_bleu(const std::string& hypothesis, const std::vector<std::string>& references,
                         const MetricOptions& options = {});

struct ChrfStats {
  std::array<std::size_t, kChrfOrder> hypothesis{};  // character n-grams of the hypotheses, n = 1..6
  std::array<std::size_t, kChrfOrder> reference{};   // ... of the chosen references
  std::array<std::size_t, kChrfOrder> matches{};     // common n-grams (clipped)
};

struct ChrfResult {
  ChrfStats stats;
  double precision = 0;  // chrP, averaged over the effective orders, in [0, 1]
  double recall = 0;     // chrR
  double score = 0;      // chrF2 in [0, 100]
};

// Corpus chrF: hypotheses [N], references [N][R_i]. Same errors as corpus_bleu. Only
// options.lowercase and options.nfc apply (no tokenisation: white space is removed).
ChrfResult corpus_chrf(const std::vector<std::string>& hypotheses,
                       const std::vector<std::vector<std::string>>& references, const MetricOptions& options = {});
ChrfResult sentence_chrf(const std::string& hypothesis, const std::vector<std::string>& references,
                         const MetricOptions& options = {});

struct ExactMatch {
  std::size_t matched = 0;  // hypotheses equal to at least one of their references
  std::size_t sentences = 0;
  double rate() const;  // matched / sentences, 0 when there are none
};

// A hypothesis matches when its 13a tokens (after the options' NFC / lowercasing) equal those of
// any reference: "Va !" matches "Va!", and with lowercase "va !" too.
ExactMatch exact_match(const std::vector<std::string>& hypotheses,
                       const std::vector<std::vector<std::string>>& references, const MetricOptions& options = {});

struct LengthBucket {
  std::size_t min_words = 0;
  std::size_t max_words = 0;  // inclusive; 0 = no upper bound
  std::string label;          // "1-5", "6-10", "11-15", "16-20", "21+"
  std::size_t sentences = 0;
  BleuResult bleu;  // corpus BLEU of the bucket's sentences (no smoothing); all zero when empty
};

// Corpus BLEU per bucket of source length: sources [N] (their words are counted by splitting on
// white space; an empty source counts in the first bucket), hypotheses [N], references [N][R_i].
// Always the five buckets 1-5, 6-10, 11-15, 16-20, 21+ (Tatoeba sentences average ≈ 6 words; 21+
// gathers the rare long ones), in that order, empty ones included so plots share an axis.
std::vector<LengthBucket> bleu_by_source_length(const std::vector<std::string>& sources,
                                                const std::vector<std::string>& hypotheses,
                                                const std::vector<std::vector<std::string>>& references,
                                                const MetricOptions& options = {});

}  // namespace attn
