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

TEST_CASE("seq2seq_vocabulary.mt_scheme_splits_by_language_and_detokenises") {
  using attn::MtLanguage;
  using attn::WordTokenizer;
  const WordTokenizer french = WordTokenizer::mt_rules({MtLanguage::french, true});
  const Seq2SeqVocabulary v = Seq2SeqVocabulary::fit(
      {"Il n'aime pas les pommes.", "L'homme est-il là ?", "Qu'est-ce que c'est ?"}, TokenLevel::word, 100, french);
  CHECK(v.tokenizer() == french);
  CHECK(v.token_description() == "French rules, lowercased");
  // Elisions and clitics are tokens of their own; the project scheme keeps "n'aime" whole.
  CHECK(v.split("Il n\u2019aime pas les pommes.") ==
        std::vector<std::string>{"il", "n'", "aime", "pas", "les", "pommes", "."});
  CHECK(v.split("Est-ce que tu viens ?") == std::vector<std::string>{"est", "-ce", "que", "tu", "viens", "?"});
  CHECK(v.id("n'") != Seq2SeqVocabulary::unk);
  CHECK(v.id("-ce") != Seq2SeqVocabulary::unk);
  CHECK(Seq2SeqVocabulary::fit({"Il n'aime pas."}, TokenLevel::word, 100).split("Il n'aime pas.") ==
        std::vector<std::string>{"il", "n'aime", "pas", "."});
  // Decoding writes the language's text: no space before '.', one before '?' (French), none
  // after an elision.
  CHECK(v.decode(v.encode("il n'aime pas les pommes.", true)) == "il n'aime pas les pommes.");
  CHECK(v.decode(v.encode("qu'est-ce que c'est ?")) == "qu'est-ce que c'est ?");
  CHECK(v.join({"l'", "homme", "est", "-il", "<unk>", "?"}) == "l'homme est-il <unk> ?");
  // The same tokens joined by the project scheme keep their spaces.
  CHECK(Seq2SeqVocabulary(TokenLevel::word).join({"il", "n'", "aime", "."}) == "il n' aime .");
  const Seq2SeqVocabulary english(TokenLevel::word, WordTokenizer::mt_rules({MtLanguage::english, false}));
  CHECK(english.split("He doesn't know I'm here.") ==
        std::vector<std::string>{"He", "does", "n't", "know", "I", "'m", "here", "."});
  CHECK(english.join({"He", "does", "n't", "know", "I", "'m", "here", "."}) == "He doesn't know I'm here.");
  CHECK(english.token_description() == "English rules");
  CHECK(Seq2SeqVocabulary(TokenLevel::character, french).token_description() == "characters");
}

TEST_CASE("seq2seq_vocabulary.json_records_the_tokenizer") {
  using attn::MtLanguage;
  using attn::WordTokenizer;
  const Seq2SeqVocabulary v = Seq2SeqVocabulary::fit({"Il n'aime pas les pommes."}, TokenLevel::word, 50,
                                                     WordTokenizer::mt_rules({MtLanguage::french, false}));
  attn::FlatJson json;
  v.write_json(json, "target_");
  CHECK(json.get_string("target_tokenizer") == "mt");
  CHECK(json.get_number("target_tokenizer_version") == attn::kMtTokenSchemeVersion);
  CHECK(json.get_string("target_language") == "french");
  CHECK(json.get_bool("target_lowercase") == false);
  const Seq2SeqVocabulary back = Seq2SeqVocabulary::read_json(attn::FlatJson::parse(json.dump()), "target_");
  CHECK(back.tokenizer() == v.tokenizer());
  CHECK(back.tokens() == v.tokens());
  CHECK(back.split("Il n'aime pas.") == std::vector<std::string>{"Il", "n'", "aime", "pas", "."});
  // The project scheme and characters write no tokenizer key (files written before it was
  // recorded look like this, and read back as the project scheme).
  attn::FlatJson plain;
  Seq2SeqVocabulary::fit({"Go."}, TokenLevel::word, 50).write_json(plain, "s_");
  Seq2SeqVocabulary::fit({"Go."}, TokenLevel::character, 50).write_json(plain, "c_");
  CHECK(plain.dump() == R"({"c_level":"character","c_tokens":"G\no\n.","s_level":"word","s_tokens":"go\n."})");
  CHECK(Seq2SeqVocabulary::read_json(plain, "s_").tokenizer().scheme == WordTokenizer::Scheme::project);
  // A version of the rules this build does not know, an unknown tokenizer or language: refused.
  json.set("target_tokenizer_version", 2.0);
  CHECK_THROWS_WITH_AS(Seq2SeqVocabulary::read_json(json, "target_"),
                       doctest::Contains("vocabulary \"target_tokenizer_version\": the file's tokens follow version 2 "
                                         "of the mt tokenizer's rules; this build splits text by version 1"),
                       std::invalid_argument);
  json.set("target_tokenizer_version", 1.0).set("target_language", "klingon");
  CHECK_THROWS_WITH_AS(Seq2SeqVocabulary::read_json(json, "target_"),
                       doctest::Contains("vocabulary \"target_language\": language must be"), std::invalid_argument);
  json.set("target_language", "fr").set("target_tokenizer", "bpe");
  CHECK_THROWS_WITH_AS(Seq2SeqVocabulary::read_json(json, "target_"),
                       "vocabulary \"target_tokenizer\": unknown tokenizer \"bpe\" (this build knows \"mt\")",
                       std::invalid_argument);
  plain.set("c_tokenizer", "mt");
  CHECK_THROWS_WITH_AS(Seq2SeqVocabulary::read_json(plain, "c_"),
                       "vocabulary \"c_tokenizer\": a character-level vocabulary has none", std::invalid_argument);
}
