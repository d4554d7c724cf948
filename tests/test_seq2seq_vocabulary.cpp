#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/text/seq2seq_vocabulary.hpp"
#include "attn/text/utf8.hpp"

using attn::Seq2SeqVocabulary;
using attn::TokenLevel;

TEST_CASE("seq2seq_vocabulary.character_level_ids_by_count") {
  // Counts: '1' x5, '-' x2, '0' x2 ('-' seen first), 'é' x1, '9' x1 ('é' seen first).
  const Seq2SeqVocabulary v = Seq2SeqVocabulary::fit({"1-10", "é1-0", "119"}, TokenLevel::character, 100);
  REQUIRE(v.size() == 9);
  CHECK(v.tokens() == std::vector<std::string>{"1", "-", "0", "\xc3\xa9", "9"});
  CHECK(v.id("1") == 4);
  CHECK(v.id("x") == Seq2SeqVocabulary::unk);
  CHECK(v.encode("1-x0") == std::vector<int>{4, 5, 3, 6});
  CHECK(v.encode("é9", true) == std::vector<int>{1, 7, 8, 2});
  CHECK(v.decode({1, 7, 8, 3, 0, 2, 4}) == "é9<unk>");  // BOS/PAD skipped, stops at EOS
  CHECK(v.tokens_of({0, 1, 2, 3, 4}) == std::vector<std::string>{"<pad>", "<bos>", "<eos>", "<unk>", "1"});
  CHECK_THROWS_WITH_AS(v.token(9), "Seq2SeqVocabulary::token: id 9 is outside [0, 9)", std::invalid_argument);
  // max_size counts the 4 reserved ids.
  CHECK(Seq2SeqVocabulary::fit({"1-10", "é1-0", "119"}, TokenLevel::character, 6).tokens() ==
        std::vector<std::string>{"1", "-"});
  CHECK_THROWS_AS(Seq2SeqVocabulary::fit({"a"}, TokenLevel::character, 4), std::invalid_argument);
  CHECK_THROWS_AS(v.encode("\xff"), attn::TextError);
}

TEST_CASE("seq2seq_vocabulary.word_level_lowercases_and_splits_punctuation") {
  const Seq2SeqVocabulary v = Seq2SeqVocabulary::fit({"Go.", "I don't go!", "Go on."}, TokenLevel::word, 100);
  CHECK(v.split("Go.") == std::vector<std::string>{"go", "."});
  CHECK(v.tokens() == std::vector<std::string>{"go", ".", "i", "don't", "!", "on"});
  CHECK(v.encode("GO home.", true) == std::vector<int>{1, 4, 3, 5, 2});
  CHECK(v.decode({4, 9, 5}) == "go on .");
}

TEST_CASE("seq2seq_vocabulary.json_round_trip") {
  for (const TokenLevel level : {TokenLevel::character, TokenLevel::word}) {
    const Seq2SeqVocabulary v = Seq2SeqVocabulary::fit({"Thu 3 May, 1979", "Ça va ? \"oui\"", "a\\b"}, level, 50);
    attn::FlatJson json;
    json.set("task", "dates");
    v.write_json(json, "source_");
    const attn::FlatJson parsed = attn::FlatJson::parse(json.dump());
    const Seq2SeqVocabulary back = Seq2SeqVocabulary::read_json(parsed, "source_");
    CHECK(back.level() == level);
    CHECK(back.tokens() == v.tokens());
    CHECK(back.encode("May 1979 ça") == v.encode("May 1979 ça"));
  }
  attn::FlatJson bad;
  bad.set("v_level", "byte").set("v_tokens", "a");
  CHECK_THROWS_WITH_AS(Seq2SeqVocabulary::read_json(bad, "v_"),
                       "vocabulary \"v_level\": token level must be \"character\" or \"word\", got \"byte\"",
                       std::invalid_argument);
  bad.set("v_level", "word").set("v_tokens", "a\nb\na");
  CHECK_THROWS_WITH_AS(Seq2SeqVocabulary::read_json(bad, "v_"), "vocabulary \"v_tokens\": duplicate token 'a'",
                       std::invalid_argument);
  bad.set("v_tokens", "");
  CHECK(Seq2SeqVocabulary::read_json(bad, "v_").size() == 4);
}
