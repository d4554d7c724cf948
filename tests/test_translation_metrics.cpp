#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "attn/text/translation_metrics.hpp"
#include "attn/text/utf8.hpp"
#include "support/bleu_cases.hpp"
#include "support/processes.hpp"

using namespace attn;
using Tokens = std::vector<std::string>;

namespace {

Tokens words(const std::string& text) { return attn::test::split_on(text, " "); }

std::string fixture(const std::string& name) { return std::string(ATTN_TEST_FIXTURES_DIR) + "/" + name; }

}  // namespace

TEST_CASE("translation_metrics.tokenize_13a_follows_mteval") {
  CHECK(tokenize_13a("Hello, world!") == Tokens{"Hello", ",", "world", "!"});
  // '.' and ',' stay inside numbers; a final '.' is split.
  CHECK(tokenize_13a("It costs 3.5 or 1,000.") == Tokens{"It", "costs", "3.5", "or", "1,000", "."});
  // Apostrophes and hyphens between letters stay; '-' after a digit is split.
  CHECK(tokenize_13a("l'homme peut-\xC3\xAAtre 2-3") == Tokens{"l'homme", "peut-\xC3\xAAtre", "2", "-", "3"});
  CHECK(tokenize_13a("&quot;Hi&quot; &amp; (bye)") == Tokens{"\"", "Hi", "\"", "&", "(", "bye", ")"});
  CHECK(tokenize_13a("U.S.A.") == Tokens{"U", ".", "S", ".", "A", "."});
  // French spacing does not matter: "Va !", "Va!" and "Va<U+00A0>!" give the same tokens. Guillemets
  // are not in 13a's list: they stay glued to a word when written without a space.
  CHECK(tokenize_13a("Va !") == tokenize_13a("Va!"));
  CHECK(tokenize_13a("Va\xC2\xA0!") == Tokens{"Va", "!"});
  CHECK(tokenize_13a("\xC2\xABOui\xC2\xBB") == Tokens{"\xC2\xABOui\xC2\xBB"});
  // Options: lowercasing (É -> é) and NFC (e + U+0301 -> é) before tokenising.
  CHECK(tokenize_13a("\xC3\x89T\xC3\x89", {true, true}) == Tokens{"\xC3\xA9t\xC3\xA9"});
  CHECK(tokenize_13a("e\xCC\x81t\xC3\xA9") == Tokens{"\xC3\xA9t\xC3\xA9"});
  CHECK(tokenize_13a("e\xCC\x81", {false, false}) == Tokens{"e\xCC\x81"});
  CHECK(tokenize_13a("  ").empty());
}

TEST_CASE("translation_metrics.bleu_worked_by_hand") {
  // hyp "the cat sat on the mat" (6 tokens), refs "the cat is on the mat", "a cat sat on a mat":
  //   1-grams: the×2 cat sat on mat, clipped by the max count in one reference (the: 2) -> 6/6
  //   2-grams: the cat, on the, the mat (ref 1); cat sat, sat on (ref 2)               -> 5/5
  //   3-grams: on the mat (ref 1), cat sat on (ref 2); not the cat sat, sat on the      -> 2/4
  //   4-grams: none of the cat sat on / cat sat on the / sat on the mat                 -> 0/3
  //   c = 6, r = 6 -> BP = 1. Unsmoothed BLEU = 0 (a zero precision).
  //   exp smoothing: p4 = 1 / (2 · 3) -> BLEU = 100 · (1 · 1 · 1/2 · 1/6)^(1/4) = 100 · 12^(-1/4) = 53.7285
  const Tokens hyp = words("the cat sat on the mat");
  const std::vector<Tokens> refs = {words("the cat is on the mat"), words("a cat sat on a mat")};
  const BleuStats s = bleu_sentence_stats(hyp, refs);
  CHECK(s.matches == std::array<std::size_t, 4>{6, 5, 2, 0});
  CHECK(s.totals == std::array<std::size_t, 4>{6, 5, 4, 3});
  CHECK(s.hypothesis_length == 6);
  CHECK(s.reference_length == 6);
  const BleuResult plain = bleu_from_stats(s);
  CHECK(plain.score == 0.0);
  CHECK(plain.precisions[2] == doctest::Approx(0.5));
  CHECK(plain.brevity_penalty == doctest::Approx(1.0));
  const BleuResult smoothed = bleu_from_stats(s, BleuSmoothing::exp);
  CHECK(smoothed.precisions[3] == doctest::Approx(1.0 / 6.0));
  CHECK(smoothed.score == doctest::Approx(53.7284965911771));
  CHECK(sentence_bleu("the cat sat on the mat", {"the cat is on the mat", "a cat sat on a mat"}).score ==
        doctest::Approx(53.7284965911771));

  // Corpus: add "a dog barks loudly" against itself (4/4, 3/3, 2/2, 1/1). Sums: p1 = 10/10,
  // p2 = 8/8, p3 = 4/6, p4 = 1/4; c = r = 10, BP = 1;
  // BLEU = 100 · (1 · 1 · 2/3 · 1/4)^(1/4) = 100 · 6^(-1/4) = 63.8943.
  const BleuResult corpus =
      corpus_bleu_tokens({hyp, words("a dog barks loudly")}, {refs, {words("a dog barks loudly")}});
  CHECK(corpus.stats.matches == std::array<std::size_t, 4>{10, 8, 4, 1});
  CHECK(corpus.stats.totals == std::array<std::size_t, 4>{10, 8, 6, 4});
  CHECK(corpus.stats.sentences == 2);
  CHECK(corpus.score == doctest::Approx(63.89431042462724));
  // The same from text through 13a tokenisation.
  CHECK(corpus_bleu({"the cat sat on the mat", "a dog barks loudly"},
                    {{"the cat is on the mat", "a cat sat on a mat"}, {"a dog barks loudly"}})
            .score == doctest::Approx(63.89431042462724));
}

TEST_CASE("translation_metrics.brevity_penalty_uses_the_closest_reference_ties_to_the_shorter") {
  // c = 5; references of 4 and 6 tokens are equally close: r = 4 (the shorter), so c > r, BP = 1.
  // Taking 6 would give exp(1 - 6/5) = 0.8187.
  const BleuStats tie = bleu_sentence_stats(words("she reads a good book"),
                                            {words("she reads a book"), words("she reads a good book daily")});
  CHECK(tie.reference_length == 4);
  CHECK(bleu_from_stats(tie).brevity_penalty == 1.0);
  // c = 3 against 5 and 6 tokens: r = 5, BP = exp(1 - 5/3) = 0.5134.
  const BleuStats short_hyp =
      bleu_sentence_stats(words("i like it"), {words("i like it a lot"), words("i do like it very much")});
  CHECK(short_hyp.reference_length == 5);
  CHECK(bleu_from_stats(short_hyp).brevity_penalty == doctest::Approx(std::exp(1.0 - 5.0 / 3.0)));
  // An empty hypothesis: BP = 0, BLEU = 0, no division by zero.
  const BleuResult empty = bleu_from_stats(bleu_sentence_stats({}, {words("a b")}), BleuSmoothing::exp);
  CHECK(empty.brevity_penalty == 0.0);
  CHECK(empty.score == 0.0);
}

TEST_CASE("translation_metrics.papineni_example_published_by_nltk") {
  // The corpus example of Papineni et al. (2002) as nltk's corpus_bleu documentation gives it:
  // corpus_bleu(...) = 0.5920...
  const Tokens hyp1 =
      words("It is a guide to action which ensures that the military always obeys the commands of the party");
  const std::vector<Tokens> refs1 = {
      words("It is a guide to action that ensures that the military will forever heed Party commands"),
      words("It is the guiding principle which guarantees the military forces always being under the command of the "
            "Party"),
      words("It is the practical guide for the army always to heed the directions of the party")};
  const Tokens hyp2 = words("he read the book because he was interested in world history");
  const std::vector<Tokens> refs2 = {words("he was interested in world history because he read the book")};
  CHECK(corpus_bleu_tokens({hyp1, hyp2}, {refs1, refs2}).score == doctest::Approx(59.20).epsilon(0.0002));
}

TEST_CASE("translation_metrics.bleu_cases_fixture_native_values") {
  // The values nltk gives for tests/fixtures/bleu_cases.txt (see bleu_matches_nltk), kept here
  // so the check runs without Python; the wasm test holds the same numbers.
  const std::map<std::string, std::pair<double, double>> expected = {
      {"several_hypotheses", {78.88921151123791, 78.88921151123791}},
      {"brevity_penalty", {70.40655928745072, 70.40655928745072}},
      {"zero_four_gram_matches", {0.0, 19.13014708139224}},
      {"closest_reference_tie", {100.0, 100.0}}};
  const auto cases = attn::test::read_bleu_cases(fixture("bleu_cases.txt"));
  REQUIRE(cases.size() == expected.size());
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const auto& [plain, smoothed] = expected.at(c.name);
    CHECK(corpus_bleu_tokens(c.hypotheses, c.references).score == doctest::Approx(plain).epsilon(1e-12));
    CHECK(corpus_bleu_tokens(c.hypotheses, c.references, BleuSmoothing::exp).score ==
          doctest::Approx(smoothed).epsilon(1e-12));
    // Joined into text, 13a tokenisation gives the same tokens and so the same score.
    std::vector<std::string> hyps;
    std::vector<std::vector<std::string>> refs;
    for (std::size_t i = 0; i < c.hypotheses.size(); ++i) {
      std::string h;
      for (const auto& t : c.hypotheses[i]) h += (h.empty() ? "" : " ") + t;
      hyps.push_back(h);
      refs.emplace_back();
      for (const auto& r : c.references[i]) {
        std::string text;
        for (const auto& t : r) text += (text.empty() ? "" : " ") + t;
        refs.back().push_back(text);
      }
    }
    CHECK(corpus_bleu(hyps, refs).score == doctest::Approx(plain).epsilon(1e-12));
  }
}

TEST_CASE("translation_metrics.bleu_matches_nltk") {
  // nltk's corpus_bleu (Debian's python3-nltk) on the same token lists: an independent
  // implementation. Skipped, with a message, where Python or nltk is missing.
  const attn::test::ProcessResult r = attn::test::run_shell(std::string(ATTN_PYTHON) + " " + ATTN_TEST_FIXTURES_DIR +
                                                            "/../nltk/check_bleu.py " + fixture("bleu_cases.txt"));
  if (attn::test::skipped(r)) {
    MESSAGE("skipped: " << attn::test::skip_reason(r, ATTN_PYTHON));
    return;
  }
  REQUIRE_MESSAGE(r.code == 0, r.output);
  const auto cases = attn::test::read_bleu_cases(fixture("bleu_cases.txt"));
  std::istringstream lines(r.output);
  std::size_t compared = 0;
  for (std::string name; lines >> name;) {
    double plain = 0, smoothed = 0;
    lines >> plain >> smoothed;
    CAPTURE(name);
    const auto c = std::find_if(cases.begin(), cases.end(), [&](const auto& x) { return x.name == name; });
    REQUIRE(c != cases.end());
    // nltk works in [0, 1] and, without smoothing, turns a zero precision into ~1e-77 (not 0).
    CHECK(corpus_bleu_tokens(c->hypotheses, c->references).score / 100 == doctest::Approx(plain).epsilon(1e-12));
    CHECK(corpus_bleu_tokens(c->hypotheses, c->references, BleuSmoothing::exp).score / 100 ==
          doctest::Approx(smoothed).epsilon(1e-12));
    ++compared;
  }
  CHECK(compared == cases.size());
}

TEST_CASE("translation_metrics.chrf_worked_by_hand") {
  // hyp "a b" -> "ab" (white space removed), ref "abc":
  //   n = 1: hyp {a, b} 2, ref {a, b, c} 3, common 2;  n = 2: hyp {ab} 1, ref {ab, bc} 2, common 1;
  //   n = 3..6: the hypothesis has no n-grams, so those orders do not count.
  //   chrP = (2/2 + 1/1) / 2 = 1, chrR = (2/3 + 1/2) / 2 = 7/12,
  //   chrF2 = 100 · 5 · 1 · 7/12 / (4 · 1 + 7/12) = 100 · 35/55 = 63.6364
  const ChrfResult r = sentence_chrf("a b", {"abc"});
  CHECK(r.stats.hypothesis[0] == 2);
  CHECK(r.stats.reference[1] == 2);
  CHECK(r.stats.matches[1] == 1);
  CHECK(r.precision == doctest::Approx(1.0));
  CHECK(r.recall == doctest::Approx(7.0 / 12.0));
  CHECK(r.score == doctest::Approx(700.0 / 11.0));
  // With several references the best one per sentence counts: "xyz" shares nothing (chrF 0).
  CHECK(sentence_chrf("a b", {"xyz", "abc"}).score == doctest::Approx(700.0 / 11.0));
  CHECK(sentence_chrf("a b", {"xyz"}).score == 0.0);
  // Identical text (up to spaces) scores 100; the corpus score sums counts, not sentence scores.
  CHECK(corpus_chrf({"le chat", "abc"}, {{"lechat"}, {"abc"}}).score == doctest::Approx(100.0));
  // Lowercasing applies to chrF too.
  CHECK(corpus_chrf({"ABC"}, {{"abc"}}).score == 0.0);
  CHECK(corpus_chrf({"ABC"}, {{"abc"}}, {true, true}).score == doctest::Approx(100.0));
}

TEST_CASE("translation_metrics.exact_match_after_normalisation") {
  // "Va!" matches "Va !" (same 13a tokens); "va !" only when lowercased; any reference counts.
  const std::vector<std::string> hyps = {"Va!", "va !", "Je suis là.", "Non."};
  const std::vector<std::vector<std::string>> refs = {
      {"Va !"}, {"Va !"}, {"Je suis ici.", "Je suis l\x61\xCC\x80."}, {"Oui."}};
  const ExactMatch cased = exact_match(hyps, refs);
  CHECK(cased.matched == 2);  // "Va!" and "Je suis là." (the reference's à is decomposed: NFC)
  CHECK(cased.sentences == 4);
  CHECK(cased.rate() == doctest::Approx(0.5));
  CHECK(exact_match(hyps, refs, {true, true}).matched == 3);
  CHECK(exact_match({}, {}).rate() == 0.0);
}

TEST_CASE("translation_metrics.bleu_by_source_length_buckets") {
  const std::vector<std::string> sources = {"Go.", "I am very happy to see you here", "Run!",
                                            "one two three four five six seven eight nine ten eleven twelve thirteen "
                                            "fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one"};
  const std::vector<std::string> hyps = {"Va !", "je suis très content de te voir ici", "Cours !",
                                         "un deux trois quatre"};
  const std::vector<std::vector<std::string>> refs = {
      {"Va !"}, {"je suis très heureux de te voir ici"}, {"Courez !", "Cours !"}, {"un deux trois quatre cinq"}};
  const std::vector<LengthBucket> buckets = bleu_by_source_length(sources, hyps, refs);
  REQUIRE(buckets.size() == 5);
  CHECK(buckets[0].label == "1-5");
  CHECK(buckets[4].label == "21+");
  CHECK(buckets[4].max_words == 0);
  // "Go." and "Run!" have 1 word, the second source 8, the last 21.
  CHECK(buckets[0].sentences == 2);
  CHECK(buckets[1].sentences == 1);
  CHECK(buckets[2].sentences == 0);
  CHECK(buckets[3].sentences == 0);
  CHECK(buckets[4].sentences == 1);
  // Each bucket is the corpus BLEU of its own sentences; "Va !" and "Cours !" match exactly but
  // have no 3-grams, so the bucket scores 0 (corpus BLEU is not smoothed).
  CHECK(buckets[0].bleu.score ==
        doctest::Approx(corpus_bleu({"Va !", "Cours !"}, {{"Va !"}, {"Courez !", "Cours !"}}).score));
  CHECK(buckets[1].bleu.score == doctest::Approx(corpus_bleu({hyps[1]}, {refs[1]}).score));
  CHECK(buckets[1].bleu.score > 0.0);
  CHECK(buckets[2].bleu.score == 0.0);
  CHECK(buckets[4].bleu.brevity_penalty == doctest::Approx(std::exp(1.0 - 5.0 / 4.0)));
}

TEST_CASE("translation_metrics.mismatched_inputs_are_errors") {
  CHECK_THROWS_WITH(corpus_bleu({"a"}, {}), doctest::Contains("1 hypotheses but 0 reference lists"));
  CHECK_THROWS_WITH(corpus_bleu({"a"}, {{}}), doctest::Contains("hypothesis 0 has no reference"));
  CHECK_THROWS_WITH(corpus_chrf({"a", "b"}, {{"a"}}), doctest::Contains("2 hypotheses but 1 reference lists"));
  CHECK_THROWS_WITH(bleu_by_source_length({}, {"a"}, {{"a"}}), doctest::Contains("0 sources but 1 hypotheses"));
  CHECK_THROWS_AS(corpus_bleu({"caf\xC3"}, {{"x"}}), TextError);
}
