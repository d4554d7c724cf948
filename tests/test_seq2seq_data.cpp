// The one seq2seq data pipeline (data/seq2seq_data.hpp) that `attn train --task ...` and the
// page's Seq2SeqSession both call.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/data/parallel_split.hpp"
#include "attn/data/seq2seq_data.hpp"
#include "attn/random.hpp"
#include "attn/train/seq2seq_session.hpp"

using namespace attn;

namespace {

std::vector<ParallelExample> pairs_of(std::size_t n) {
  std::vector<ParallelExample> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back({"w" + std::to_string(i) + " go .", "v" + std::to_string(i)});
  return out;
}

}  // namespace

TEST_CASE("seq2seq_data.parallel_pairs_shuffled_held_out_and_encoded") {
  std::vector<ParallelExample> pairs = pairs_of(9);
  pairs.insert(pairs.begin() + 3, {"\u00a0\u202f", "x"});  // no word tokens on the source side: skipped
  Seq2SeqDataSpec spec;
  spec.task = "parallel";
  spec.test_size = 100;  // at most half of a small file
  spec.seed = 4;
  const Seq2SeqData data = parallel_seq2seq_data(pairs, "p.tsv", spec);
  CHECK(data.test.size() == 4);
  CHECK(data.train.size() == 5);
  CHECK(data.description == "p.tsv (shuffled with seed 4; 1 pairs without word tokens skipped)");
  // Every kept pair is on exactly one side.
  std::multiset<std::string> seen;
  for (const auto& e : data.train) seen.insert(e.source);
  for (const auto& e : data.test) seen.insert(e.source);
  std::multiset<std::string> kept;
  for (const auto& e : pairs_of(9)) kept.insert(e.source);
  CHECK(seen == kept);
  // Word level, fitted on the training pairs; every pair encoded.
  CHECK(data.vocabularies.source.level() == TokenLevel::word);
  CHECK(data.train_ids.sources.size() == 5);
  CHECK(data.train_ids.targets[0].front() == Seq2SeqVocabulary::bos);
  spec.train_size = 2;
  CHECK(parallel_seq2seq_data(pairs, "p.tsv", spec).train.size() == 2);
  CHECK_THROWS_WITH_AS(parallel_seq2seq_data({{"go .", "\u2009"}, {"a", "b"}}, "q.tsv", spec),
                       "q.tsv: needs at least 2 pairs (training and held-out)", DataError);
}

TEST_CASE("seq2seq_data.parallel_words_follow_each_sides_language") {
  // English -> French pairs written for this test. Each side is split by its own rules
  // (text/mt_tokenizer.hpp): French elisions and clitics, English contractions become tokens.
  const std::vector<ParallelExample> pairs = {
      {"He doesn't like apples.", "Il n\u2019aime pas les pommes."},
      {"She doesn't like pears.", "Elle n'aime pas les poires."},
      {"Is it the man?", "Est-ce l'homme ?"},
      {"Is he there?", "Est-il l\u00e0 ?"},
      {"I'm here.", "Je suis l\u00e0."},
      {"The man likes apples.", "L'homme aime les pommes."},
      {"We don't know.", "Nous ne savons pas."},
      {"Where is the dog?", "O\u00f9 est le chien ?"},
  };
  Seq2SeqDataSpec spec;
  spec.task = "parallel";
  spec.test_size = 1;
  spec.seed = 3;
  const Seq2SeqData data = parallel_seq2seq_data(pairs, "p.tsv", spec);
  const ParallelVocabularies& v = data.vocabularies;
  CHECK(v.source.token_description() == "English rules, lowercased");
  CHECK(v.target.token_description() == "French rules, lowercased");
  // Every training target's tokens are in the vocabulary (it was fitted on them): the elision
  // n', the clitic -ce and the contraction n't are entries of their own.
  std::size_t trained_tokens = 0;
  for (const char* token : {"n'", "aime", "-ce", "-il", "l'", "homme"}) {
    CAPTURE(token);
    bool trained = false;
    for (const ParallelExample& e : data.train) {
      const std::vector<std::string> t = v.target.split(e.target);
      trained = trained || std::find(t.begin(), t.end(), token) != t.end();
    }
    trained_tokens += trained ? 1 : 0;
    if (trained) CHECK(v.target.id(token) != Seq2SeqVocabulary::unk);
  }
  CHECK(trained_tokens >= 5);                              // one held-out pair takes at most one of them away
  CHECK(v.target.id("n'aime") == Seq2SeqVocabulary::unk);  // never a token: split
  CHECK(v.target.id("est-ce") == Seq2SeqVocabulary::unk);
  CHECK(v.source.split("He doesn't like apples.") ==
        std::vector<std::string>{"he", "does", "n't", "like", "apples", "."});
  // Decoded output is French text: no space before the period, none after the elision.
  const std::vector<int> ids = v.target.encode("il n'aime pas les pommes.", true);
  CHECK(std::count(ids.begin(), ids.end(), Seq2SeqVocabulary::unk) == 0);
  CHECK(v.target.decode(ids) == "il n'aime pas les pommes.");
  // The languages and lowercasing are settings (lowercase false keeps the case).
  spec.tokenization.source = {MtLanguage::generic, false};
  spec.tokenization.target = {MtLanguage::generic, false};
  const Seq2SeqData generic = parallel_seq2seq_data(pairs, "p.tsv", spec);
  CHECK(generic.vocabularies.source.split("He doesn't.") == std::vector<std::string>{"He", "doesn't", "."});
  CHECK(generic.vocabularies.target.split("Est-ce l'homme ?") == std::vector<std::string>{"Est-ce", "l'homme", "?"});
  // The model file's record keeps the tokenizers.
  const ParallelVocabularies back = read_seq2seq_vocabularies(seq2seq_extra_json("parallel", v));
  CHECK(back.source.tokenizer() == v.source.tokenizer());
  CHECK(back.target.tokenizer() == v.target.tokenizer());
  CHECK(back.target.decode(ids) == "il n'aime pas les pommes.");
}

TEST_CASE("seq2seq_data.unknown_rates_per_part_and_side") {
  // Vocabularies of 4 + 2 ids keep the two most frequent words of each side.
  const std::vector<ParallelExample> train = {{"a b", "x y"}, {"a b c", "x y"}, {"a", "x z"}};
  const std::vector<ParallelExample> test = {{"a d", "x"}, {"b", "w w"}};
  Seq2SeqDataSpec spec;
  spec.source_vocab = spec.target_vocab = 6;
  const Seq2SeqData data = encode_seq2seq_data({train, test}, TokenLevel::word, spec);
  // Training sources: 6 tokens, c unknown (1/6), 1 of 3 sentences; targets (BOS/EOS not
  // counted): 6 tokens, z unknown, 1 of 3 sentences.
  CHECK(data.train_unknown.source.tokens == 6);
  CHECK(data.train_unknown.source.unknown_tokens == 1);
  CHECK(data.train_unknown.source.sentences_with_unknown == 1);
  CHECK(data.train_unknown.target.tokens == 6);
  CHECK(data.train_unknown.target.unknown_tokens == 1);
  // Held out: d unknown (1 of 3 source tokens, 1 of 2 sentences); w w (2 of 3 target tokens).
  CHECK(data.test_unknown.source.token_rate() == doctest::Approx(1.0 / 3));
  CHECK(data.test_unknown.source.sentence_rate() == doctest::Approx(0.5));
  CHECK(data.test_unknown.target.token_rate() == doctest::Approx(2.0 / 3));
  CHECK(data.test_unknown.target.sentence_rate() == doctest::Approx(0.5));
  // The same counts as text/unknown_rate.hpp's on the token lists.
  std::vector<std::vector<std::string>> lists;
  for (const ParallelExample& e : test) lists.push_back(data.vocabularies.target.split(e.target));
  const UnknownRate direct = unknown_rate(lists, data.vocabularies.target);
  CHECK(direct.unknown_tokens == data.test_unknown.target.unknown_tokens);
  CHECK(direct.sentences_with_unknown == data.test_unknown.target.sentences_with_unknown);
}

TEST_CASE("seq2seq_data.parallel_holds_out_by_source_sentence") {
  // 12 sources with 3 translations each ("Go." / "go ." / "GO !" variants are one source): every
  // held-out source has all 3 of its translations held out, none in training; test_size counts
  // sources. The training part is shuffled, so a cap keeps pairs of many sources.
  std::vector<ParallelExample> pairs;
  for (int i = 0; i < 12; ++i) {
    const std::string w = "w" + std::to_string(i);
    pairs.push_back({w + " go.", "a" + std::to_string(i)});
    pairs.push_back({w + " go .", "b" + std::to_string(i)});
    pairs.push_back({w + " GO.", "c" + std::to_string(i)});
  }
  Seq2SeqDataSpec spec;
  spec.task = "parallel";
  spec.test_size = 4;
  spec.seed = 7;
  const Seq2SeqData data = parallel_seq2seq_data(pairs, "p.tsv", spec);
  CHECK(data.test.size() == 12);
  CHECK(data.train.size() == 24);
  std::set<std::string> held_out, trained;
  for (const auto& e : data.test) held_out.insert(source_key(e.source));
  for (const auto& e : data.train) trained.insert(source_key(e.source));
  CHECK(held_out.size() == 4);
  for (const std::string& key : held_out) CHECK(trained.count(key) == 0);
  for (const ReferenceGroup& g : group_references(data.test)) CHECK(g.references.size() == 3);
  spec.train_size = 6;
  const Seq2SeqData capped = parallel_seq2seq_data(pairs, "p.tsv", spec);
  std::set<std::string> capped_sources;
  for (const auto& e : capped.train) capped_sources.insert(source_key(e.source));
  CHECK(capped_sources.size() >= 3);  // a random share, not the file's first two sources
  CHECK_THROWS_WITH_AS(parallel_seq2seq_data({{"go .", "va"}, {"Go.", "allez"}}, "one.tsv", spec),
                       doctest::Contains("needs at least 2 distinct source sentences"), DataError);
}

TEST_CASE("seq2seq_data.max_train_tokens_leaves_out_long_training_pairs_only") {
  // 20 sources, pair i has i + 1 source words and, for odd i, a 9-word target: with a limit of 6
  // tokens, the long training pairs are left out (counted, named in the description), while the
  // held-out sentences keep every length.
  std::vector<ParallelExample> pairs;
  for (std::size_t i = 0; i < 20; ++i) {
    std::string source;
    for (std::size_t w = 0; w <= i; ++w) source += (w ? " s" : "s") + std::to_string(i) + "x" + std::to_string(w);
    pairs.push_back({source, i % 2 ? "a b c d e f g h i" : "t" + std::to_string(i) + " ."});
  }
  Seq2SeqDataSpec spec;
  spec.task = "parallel";
  spec.test_size = 6;
  spec.seed = 3;
  const Seq2SeqData all = parallel_seq2seq_data(pairs, "p.tsv", spec);
  CHECK(all.train_too_long == 0);
  spec.max_train_tokens = 6;
  const Seq2SeqData data = parallel_seq2seq_data(pairs, "p.tsv", spec);
  CHECK(data.test.size() == 6);
  std::size_t expected_kept = 0;
  for (const ParallelExample& e : all.train) {
    const bool fits = mt_tokenize(e.source, spec.tokenization.source).size() <= 6 &&
                      mt_tokenize(e.target, spec.tokenization.target).size() <= 6;
    expected_kept += fits ? 1 : 0;
  }
  CHECK(expected_kept > 0);
  CHECK(data.train.size() == expected_kept);
  CHECK(data.train_too_long == all.train.size() - expected_kept);
  CHECK(data.train_too_long > 0);
  for (const ParallelExample& e : data.train) {
    CHECK(mt_tokenize(e.source, spec.tokenization.source).size() <= 6);
    CHECK(mt_tokenize(e.target, spec.tokenization.target).size() <= 6);
  }
  // The same held-out sentences as without the limit, long ones included.
  std::multiset<std::string> held_out, held_out_all;
  for (const auto& e : data.test) held_out.insert(e.source);
  for (const auto& e : all.test) held_out_all.insert(e.source);
  CHECK(held_out == held_out_all);
  CHECK(data.description == "p.tsv (shuffled with seed 3; " + std::to_string(data.train_too_long) +
                                " training pairs over 6 tokens left out)");
  spec.max_train_tokens = 1;  // no training pair fits
  CHECK_THROWS_WITH_AS(parallel_seq2seq_data(pairs, "p.tsv", spec),
                       doctest::Contains("no training pair has at most 1 tokens on each side"), DataError);
}

TEST_CASE("seq2seq_data.generated_tasks_and_the_model_file_record") {
  Seq2SeqDataSpec spec;
  spec.task = "sort";
  spec.train_size = 30;
  spec.test_size = 5;
  spec.min_len = spec.test_min_len = 3;
  spec.max_len = spec.test_max_len = 4;
  const Seq2SeqData data = generate_seq2seq_data(spec);
  const TaskSplit split = make_digit_split(DigitTask::sort, 30, 5, 3, 4, 3, 4, 1);
  REQUIRE(data.train.size() == 30);
  for (std::size_t i = 0; i < 30; ++i) CHECK(data.train[i].target == split.train[i].target);
  CHECK(data.vocabularies.source.level() == TokenLevel::character);
  CHECK(data.description == "sort digit strings of length 3..4 (held out: 3..4)");
  spec.task = "dates";
  CHECK(generate_seq2seq_data(spec).description == "dates 1950..2049 in 14 formats -> ISO 8601");
  spec.task = "nope";
  CHECK_THROWS_AS(generate_seq2seq_data(spec), std::invalid_argument);

  const std::string extra = seq2seq_extra_json("sort", data.vocabularies);
  CHECK(read_seq2seq_task(extra) == "sort");
  const ParallelVocabularies back = read_seq2seq_vocabularies(extra);
  CHECK(back.source.tokens() == data.vocabularies.source.tokens());
  CHECK(back.target.tokens() == data.vocabularies.target.tokens());
  CHECK_THROWS_AS(read_seq2seq_vocabularies(R"({"task":"sort"})"), std::invalid_argument);
}

TEST_CASE("seq2seq_data.the_session_prepares_what_the_cli_prepares") {
  // Seq2SeqSession (the page) and `attn train` (the CLI) both call the pipeline: the same spec
  // gives the same pairs and vocabularies.
  Seq2SeqSessionConfig config;
  config.task = "reverse";
  config.train_size = 40;
  config.test_size = 6;
  config.seed = 9;
  const Seq2SeqSession session(config);
  Seq2SeqDataSpec spec;
  spec.task = "reverse";
  spec.train_size = 40;
  spec.test_size = 6;
  spec.min_len = config.min_len, spec.max_len = config.max_len;
  spec.test_min_len = config.min_len, spec.test_max_len = config.max_len;  // 0 in the settings: follow
  spec.seed = 9;
  const Seq2SeqData data = generate_seq2seq_data(spec);
  REQUIRE(session.train_set().size() == data.train.size());
  for (std::size_t i = 0; i < data.train.size(); ++i) CHECK(session.train_set()[i].source == data.train[i].source);
  CHECK(session.vocabularies().source.tokens() == data.vocabularies.source.tokens());
}
