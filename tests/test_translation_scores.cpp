// score_translations (train/translation_scores.hpp): which decoding the held-out scores come from.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "attn/data/parallel_split.hpp"
#include "attn/data/parallel_text.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/text/sequences.hpp"
#include "attn/train/translation_scores.hpp"

using namespace attn;

namespace {

const std::vector<ParallelExample> kPairs = {
    {"the cat sleeps .", "le chat dort ."},
    {"the dog sleeps .", "le chien dort ."},
    {"a cat eats .", "un chat mange ."},
    {"a dog eats .", "un chien mange ."},
    {"the cat eats .", "le chat mange ."},
    {"the cat eats .", "le chat mange du pain ."},
    {"the big dog runs .", "le grand chien court ."},
    {"a small cat runs .", "un petit chat court ."},
};

// An untrained model: its outputs are arbitrary but fixed, and a beam search finds other ones
// than greedy search, which is what the test needs to tell the two apart.
Seq2SeqModel untrained_model(const ParallelVocabularies& v) {
  Seq2SeqConfig config;
  config.source_vocab = v.source.size();
  config.target_vocab = v.target.size();
  config.embed = 8;
  config.units = 8;
  config.attention_dim = 8;
  return Seq2SeqModel(config, 3);
}

}  // namespace

TEST_CASE("translation_scores.beam_scores_the_best_hypothesis_of_each_beam_search") {
  const ParallelVocabularies v = fit_vocabularies(kPairs, TokenLevel::word, 100, 100);
  const Seq2SeqModel model = untrained_model(v);
  const std::vector<ReferenceGroup> groups = group_references(kPairs);
  REQUIRE(groups.size() == 7);  // "the cat eats ." has two references
  const std::size_t max_len = 12;

  const TranslationScores greedy = score_translations(model, v, groups, max_len);
  TranslationSearch search;
  search.beam = 4;
  search.alpha = 0.6f;
  const TranslationScores beam = score_translations(model, v, groups, max_len, search);
  REQUIRE(greedy.hypotheses.size() == groups.size());
  REQUIRE(beam.hypotheses.size() == groups.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    CAPTURE(i);
    const std::vector<int> ids = v.source.encode(groups[i].source);
    const std::vector<Decoded> one = greedy_search(model, source_row(ids), max_len);
    CHECK(greedy.hypotheses[i] == v.target.decode(one[0].tokens));
    const std::vector<Decoded> best = beam_search(model, ids, 4, 0.6f, max_len);
    CHECK(beam.hypotheses[i] == v.target.decode(best[0].tokens));
    differ += beam.hypotheses[i] != greedy.hypotheses[i];
  }
  CHECK(differ > 0);  // the option is not ignored
  // Beam 1 is greedy search, whatever the batch.
  search.beam = 1;
  search.batch = 3;
  CHECK(score_translations(model, v, groups, max_len, search).hypotheses == greedy.hypotheses);
  search.beam = 0;
  CHECK_THROWS_WITH_AS(score_translations(model, v, groups, max_len, search),
                       "score_translations: the beam width must be >= 1, got 0", std::invalid_argument);
}
