// Labelled synthetic reviews whose decisive tokens are known, so a test (or a lesson) can check
// where an attention layer looks. No tensors here; T below is a review's token count.
//
// A review is one core sentence that decides the label plus neutral filler sentences placed
// before or after it. Core sentence patterns:
//   plain        "the plot was gripping" / "i hated the soundtrack"
//   negation     "the acting was not good" / "i did not enjoy the ending"   (label flipped)
//   intensifier  "the pacing was truly dreadful"
//   contrast     "the songs were superb, but the story was hardly gripping"  (the clause after
//                "but" decides; its polarity is opposite to the first clause's)
// Text is lowercase; tokens are the text split on spaces with the characters . , ! ? dropped
// (a sentence ends in "." or "!", a contrast's first clause in ","), so
//   tokens == [w with .,!? removed for w in text.split(' ')]   exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct SyntheticReview {
  std::string text;
  int label;  // 1 positive, 0 negative
  std::vector<std::string> tokens;
  // [T]: 1 for the sentiment word(s) of the deciding clause and their negator/intensifier.
  std::vector<std::uint8_t> decisive;
  std::string pattern;  // "plain", "negation", "intensifier" or "contrast"
};

struct SyntheticOptions {
  // Relative weights of the core patterns (normalised; >= 0, not all 0).
  float plain_share = 0.25f;
  float negation_share = 0.25f;
  float intensifier_share = 0.25f;
  float contrast_share = 0.25f;
  // Neutral filler sentences per review, drawn uniformly from [min_fillers, max_fillers].
  std::size_t min_fillers = 0;
  std::size_t max_fillers = 2;
  // Length range in tokens; reviews outside it are redrawn (at most 1000 attempts each).
  std::size_t min_tokens = 1;
  std::size_t max_tokens = 64;
};

// The word lists the generator draws from (lowercase, single words except aspects/fillers).
struct SyntheticLexicon {
  std::vector<std::string> positive_adjectives, negative_adjectives;
  std::vector<std::string> positive_verbs, negative_verbs;            // past tense: "loved"
  std::vector<std::string> positive_verb_bases, negative_verb_bases;  // after "did not": "love"
  std::vector<std::string> negators;                                  // "not", "never", "hardly"
  std::vector<std::string> intensifiers;
  std::vector<std::string> aspects;  // "the acting", "the visual effects", ...
  std::vector<std::string> fillers;  // neutral sentences without final punctuation
};
const SyntheticLexicon& synthetic_lexicon();

// +1 / -1 for a word of the lexicon's positive / negative lists (adjectives, verbs, verb bases),
// 0 for any other word.
int synthetic_polarity(const std::string& word);

// `count` reviews, exactly count/2 of them positive (the odd one out negative), in a shuffled
// order; the same (count, seed, options) always gives the same reviews on every platform.
// Throws std::invalid_argument for bad options (negative or all-zero shares, min > max for
// fillers or tokens) or when no review fits the token range within the attempt limit.
std::vector<SyntheticReview> generate_synthetic_reviews(std::size_t count, std::uint64_t seed,
                                                        const SyntheticOptions& options = {});

}  // namespace attn
