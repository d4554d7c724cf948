#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/text/seq2seq_vocabulary.hpp"
#include "attn/text/unknown_rate.hpp"

using namespace attn;
using TokenLists = std::vector<std::vector<std::string>>;

TEST_CASE("unknown_rate.counts_tokens_and_sentences_outside_the_vocabulary") {
  // Counts: le 3, chat 2, dort 1, chien 1. max_size 6 keeps the 2 most frequent: le, chat.
  const TokenLists train = {{"le", "chat", "dort"}, {"le", "chat"}, {"le", "chien"}};
  const Seq2SeqVocabulary vocabulary = Seq2SeqVocabulary::fit_tokens(train, TokenLevel::word, 6);
  REQUIRE(vocabulary.size() == 6);
  CHECK(vocabulary.token(4) == "le");
  CHECK(vocabulary.token(5) == "chat");
  CHECK(vocabulary.encode_tokens({"le", "chien"}, true) ==
        std::vector<int>{Seq2SeqVocabulary::bos, 4, Seq2SeqVocabulary::unk, Seq2SeqVocabulary::eos});
  // On the training lists: 7 tokens, dort and chien unknown (2/7); 2 of 3 sentences affected.
  const UnknownRate rate = unknown_rate(train, vocabulary);
  CHECK(rate.tokens == 7);
  CHECK(rate.unknown_tokens == 2);
  CHECK(rate.sentences == 3);
  CHECK(rate.sentences_with_unknown == 2);
  CHECK(rate.token_rate() == doctest::Approx(2.0 / 7.0));
  CHECK(rate.sentence_rate() == doctest::Approx(2.0 / 3.0));
  // Empty input and empty sentences: no division by zero.
  CHECK(unknown_rate({}, vocabulary).token_rate() == 0.0);
  const UnknownRate empty = unknown_rate({{}}, vocabulary);
  CHECK(empty.sentences == 1);
  CHECK(empty.sentence_rate() == 0.0);
}

TEST_CASE("unknown_rate.fit_tokens_matches_fit_on_the_same_split") {
  // fit (which splits with the IMDB tokenizer) and fit_tokens on that split give the same ids.
  const std::vector<std::string> texts = {"Go home.", "Go now!", "home, now"};
  const Seq2SeqVocabulary by_text = Seq2SeqVocabulary::fit(texts, TokenLevel::word, 20);
  TokenLists lists;
  for (const std::string& t : texts) lists.push_back(by_text.split(t));
  const Seq2SeqVocabulary by_tokens = Seq2SeqVocabulary::fit_tokens(lists, TokenLevel::word, 20);
  CHECK(by_text.tokens() == by_tokens.tokens());
  CHECK_THROWS_WITH(Seq2SeqVocabulary::fit_tokens(lists, TokenLevel::word, 4), doctest::Contains("at least 5"));
}
