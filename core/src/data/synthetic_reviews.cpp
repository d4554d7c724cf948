#include "attn/data/synthetic_reviews.hpp"

#include <stdexcept>
#include <unordered_map>

#include "attn/random.hpp"

namespace attn {
namespace {

constexpr std::size_t kMaxAttempts = 1000;
constexpr const char* kWhere = "generate_synthetic_reviews";

enum class ClauseKind { plain, negation, intensifier };

// Appends words (and their decisive flags) and keeps text and tokens in step, so the
// split-and-strip invariant holds by construction.
class ReviewWriter {
 public:
  explicit ReviewWriter(SyntheticReview& review) : review_(review) {}

  // `words` may hold several space-separated words ("the visual effects"); all get `decisive`.
  void add(const std::string& words, bool decisive) {
    std::size_t start = 0;
    while (start <= words.size()) {
      std::size_t space = words.find(' ', start);
      if (space == std::string::npos) space = words.size();
      const std::string word = words.substr(start, space - start);
      if (!review_.text.empty()) review_.text += ' ';
      review_.text += word;
      review_.tokens.push_back(word);
      review_.decisive.push_back(decisive ? 1 : 0);
      start = space + 1;
    }
  }
  void punctuate(char mark) { review_.text += mark; }

 private:
  SyntheticReview& review_;
};

const std::string& pick(Rng& rng, const std::vector<std::string>& words) {
  return words[rng.below(static_cast<std::uint32_t>(words.size()))];
}

bool is_plural(const std::string& aspect) { return aspect.back() == 's'; }

// One clause whose polarity is `polarity` (+1 / -1); its sentiment words and their
// negator/intensifier are flagged when `decisive`. Its aspect differs from `avoid_aspect` (a
// contrast praising and panning the same thing would have no honest label). Returns the aspect.
std::string write_clause(ReviewWriter& out, Rng& rng, ClauseKind kind, int polarity, bool decisive,
                         const std::string& avoid_aspect = "") {
  const SyntheticLexicon& lex = synthetic_lexicon();
  std::string aspect = pick(rng, lex.aspects);
  while (aspect == avoid_aspect) aspect = pick(rng, lex.aspects);
  const std::string be = is_plural(aspect) ? "were" : "was";
  // A negated clause says the opposite of its sentiment word.
  const int word_polarity = kind == ClauseKind::negation ? -polarity : polarity;
  const auto& adjectives = word_polarity > 0 ? lex.positive_adjectives : lex.negative_adjectives;
  const bool verb_form = kind != ClauseKind::intensifier && rng.below(3) == 0;

  if (kind == ClauseKind::plain) {
    if (verb_form) {
      out.add("i", false);
      out.add(pick(rng, word_polarity > 0 ? lex.positive_verbs : lex.negative_verbs), decisive);
      out.add(aspect, false);
    } else {
      out.add(aspect + " " + be, false);
      out.add(pick(rng, adjectives), decisive);
    }
  } else if (kind == ClauseKind::intensifier) {
    out.add(aspect + " " + be, false);
    out.add(pick(rng, lex.intensifiers), decisive);
    out.add(pick(rng, adjectives), decisive);
  } else if (verb_form) {
    // "i did not enjoy ..." takes the base form; "i never enjoyed ..." the past tense.
    const std::uint32_t verb = rng.below(static_cast<std::uint32_t>(lex.positive_verbs.size()));
    const std::string& negator = pick(rng, lex.negators);
    out.add("i", false);
    if (negator == "not") {
      out.add("did", false);
      out.add(negator, decisive);
      out.add((word_polarity > 0 ? lex.positive_verb_bases : lex.negative_verb_bases)[verb], decisive);
    } else {
      out.add(negator, decisive);
      out.add((word_polarity > 0 ? lex.positive_verbs : lex.negative_verbs)[verb], decisive);
    }
    out.add(aspect, false);
  } else {
    out.add(aspect + " " + be, false);
    out.add(pick(rng, lex.negators), decisive);
    out.add(pick(rng, adjectives), decisive);
  }
  return aspect;
}

ClauseKind pick_clause_kind(Rng& rng) { return static_cast<ClauseKind>(rng.below(3)); }

SyntheticReview write_review(Rng& rng, int label, const std::string& pattern, std::size_t filler_count) {
  const SyntheticLexicon& lex = synthetic_lexicon();
  const int polarity = label == 1 ? 1 : -1;
  SyntheticReview review;
  review.label = label;
  review.pattern = pattern;
  ReviewWriter out(review);
  const std::size_t core_slot = rng.below(static_cast<std::uint32_t>(filler_count + 1));
  for (std::size_t slot = 0; slot <= filler_count; ++slot) {
    if (slot != core_slot) {
      out.add(pick(rng, lex.fillers), false);
      out.punctuate('.');
      continue;
    }
    if (pattern == "contrast") {
      const std::string first = write_clause(out, rng, pick_clause_kind(rng), -polarity, false);
      out.punctuate(',');
      out.add("but", false);
      write_clause(out, rng, pick_clause_kind(rng), polarity, true, first);
    } else {
      const ClauseKind kind = pattern == "plain"      ? ClauseKind::plain
                              : pattern == "negation" ? ClauseKind::negation
                                                      : ClauseKind::intensifier;
      write_clause(out, rng, kind, polarity, true);
    }
    out.punctuate(rng.below(4) == 0 ? '!' : '.');
  }
  return review;
}

void validate(const SyntheticOptions& o) {
  const float shares[] = {o.plain_share, o.negation_share, o.intensifier_share, o.contrast_share};
  float total = 0.f;
  bool negative = false;
  for (float s : shares) {
    negative |= !(s >= 0.f);  // also rejects NaN
    total += s;
  }
  if (negative || !(total > 0.f))
    throw std::invalid_argument(std::string(kWhere) + ": pattern shares must be >= 0 and not all 0");
  if (o.min_fillers > o.max_fillers)
    throw std::invalid_argument(std::string(kWhere) + ": min_fillers (" + std::to_string(o.min_fillers) +
                                ") > max_fillers (" + std::to_string(o.max_fillers) + ")");
  if (o.min_tokens > o.max_tokens)
    throw std::invalid_argument(std::string(kWhere) + ": min_tokens (" + std::to_string(o.min_tokens) +
                                ") > max_tokens (" + std::to_string(o.max_tokens) + ")");
}

}  // namespace

const SyntheticLexicon& synthetic_lexicon() {
  // Aspects ending in "s" are plural ("were"); none of the singular ones may end in "s".
  // Fillers must stay neutral: no sentiment word, negator, intensifier or "but".
  static const SyntheticLexicon kLexicon = {
      {"good", "great", "superb", "wonderful", "brilliant", "excellent", "moving", "gripping", "charming", "stunning",
       "delightful", "clever", "beautiful", "memorable", "fresh", "witty"},
      {"bad", "awful", "dull", "boring", "terrible", "weak", "clumsy", "tedious", "bland", "messy", "dreadful",
       "forgettable", "lifeless", "predictable", "painful", "flat"},
      {"loved", "adored", "enjoyed", "admired", "liked"},
      {"hated", "disliked", "loathed", "despised", "resented"},
      {"love", "adore", "enjoy", "admire", "like"},
      {"hate", "dislike", "loathe", "despise", "resent"},
      {"not", "never", "hardly"},
      {"very", "truly", "really", "extremely", "slightly", "rather", "utterly", "absolutely", "quite", "incredibly"},
      {"the acting",        "the plot",           "the soundtrack", "the dialogue",   "the pacing",
       "the ending",        "the cinematography", "the script",     "the lead actor", "the villain",
       "the score",         "the editing",        "the story",      "the direction",  "the humour",
       "the opening scene", "the visual effects", "the characters", "the jokes",      "the fight scenes",
       "the costumes",      "the songs"},
      {"we saw it on a sunday",
       "the cinema was half full",
       "my sister picked the seats",
       "it runs for about two hours",
       "i went with two friends from work",
       "the story is set in a small fishing town",
       "there is a long scene on a night train",
       "we had popcorn and lemonade",
       "it was raining when we left",
       "the trailer came out last spring",
       "most of it takes place at night",
       "i watched the late screening",
       "the film is based on an old radio play",
       "my neighbour told me about it",
       "we sat in the third row",
       "it is the second film of the series",
       "the credits roll over a map",
       "there were a few children in the audience",
       "i read the novel years ago",
       "it opened in only a few cities"},
  };
  return kLexicon;
}

int synthetic_polarity(const std::string& word) {
  static const std::unordered_map<std::string, int> kPolarity = [] {
    const SyntheticLexicon& lex = synthetic_lexicon();
    std::unordered_map<std::string, int> map;
    for (const auto* list : {&lex.positive_adjectives, &lex.positive_verbs, &lex.positive_verb_bases})
      for (const auto& w : *list) map[w] = 1;
    for (const auto* list : {&lex.negative_adjectives, &lex.negative_verbs, &lex.negative_verb_bases})
      for (const auto& w : *list) map[w] = -1;
    return map;
  }();
  const auto it = kPolarity.find(word);
  return it == kPolarity.end() ? 0 : it->second;
}

std::vector<SyntheticReview> generate_synthetic_reviews(std::size_t count, std::uint64_t seed,
                                                        const SyntheticOptions& options) {
  validate(options);
  Rng rng(seed);

  // Exactly count/2 positives, shuffled (Fisher–Yates) so labels do not alternate.
  std::vector<int> labels(count, 0);
  for (std::size_t i = 0; i < count / 2; ++i) labels[i] = 1;
  rng.shuffle(labels);

  const char* patterns[] = {"plain", "negation", "intensifier", "contrast"};
  const float shares[] = {options.plain_share, options.negation_share, options.intensifier_share,
                          options.contrast_share};
  const float total = shares[0] + shares[1] + shares[2] + shares[3];
  std::size_t last_drawable = 3;
  while (shares[last_drawable] <= 0.f) --last_drawable;  // validate() ensures one share > 0
  const auto filler_span = static_cast<std::uint32_t>(options.max_fillers - options.min_fillers + 1);

  std::vector<SyntheticReview> reviews;
  reviews.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    bool accepted = false;
    for (std::size_t attempt = 0; attempt < kMaxAttempts && !accepted; ++attempt) {
      float u = rng.uniform() * total;
      std::size_t p = 0;
      // Zero shares are skipped and rounding falls back to the last drawable pattern, so a
      // pattern with weight 0 is never drawn.
      while (p < last_drawable && (shares[p] <= 0.f || u >= shares[p])) u -= shares[p++];
      const std::size_t fillers = options.min_fillers + rng.below(filler_span);
      SyntheticReview review = write_review(rng, labels[i], patterns[p], fillers);
      const std::size_t length = review.tokens.size();
      if (length >= options.min_tokens && length <= options.max_tokens) {
        reviews.push_back(std::move(review));
        accepted = true;
      }
    }
    if (!accepted)
      throw std::invalid_argument(std::string(kWhere) + ": no review with " + std::to_string(options.min_tokens) +
                                  ".." + std::to_string(options.max_tokens) + " tokens after " +
                                  std::to_string(kMaxAttempts) + " attempts; widen min_tokens/max_tokens");
  }
  return reviews;
}

}  // namespace attn
