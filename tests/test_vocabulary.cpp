#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/text/tokenizer.hpp"
#include "attn/text/utf8.hpp"
#include "attn/text/vocabulary.hpp"

using namespace attn;
using Docs = std::vector<std::vector<std::string>>;
using Ids = std::vector<std::int32_t>;

namespace {

// Counts: the 4, movie 3, good 2, bad 2, plot 1, film 1.
// First appearances: movie (doc 0), the, good, bad, plot, film.
const Docs kDocs = {
    {"movie", "the", "good"}, {"the", "bad", "movie", "good"}, {"the", "plot", "bad"}, {"film", "the", "movie"}};

}  // namespace

TEST_CASE("vocabulary.keras_ids_by_count_then_first_appearance") {
  const Vocabulary vocab = Vocabulary::fit(kDocs);
  // Keras imdb: rank r (1 = most frequent) -> id r + index_from = r + 3.
  //   the 4 (count 4), movie 5 (3), good 6 (2, seen before bad), bad 7 (2), plot 8 (1), film 9 (1).
  CHECK(vocab.words() == std::vector<std::string>{"the", "movie", "good", "bad", "plot", "film"});
  CHECK(vocab.id("the") == 4);
  CHECK(vocab.id("good") == 6);
  CHECK(vocab.id("bad") == 7);
  CHECK(vocab.id("film") == 9);
  CHECK(vocab.size() == 10);
  CHECK(vocab.num_words() == 5000);
  CHECK(vocab.word(0) == "<pad>");
  CHECK(vocab.word(1) == "<start>");
  CHECK(vocab.word(2) == "<oov>");
  CHECK(vocab.word(3) == "<unused>");
  CHECK(vocab.word(4) == "the");
  CHECK(vocab.word(9) == "film");
  CHECK_THROWS_WITH_AS(vocab.word(10), "Vocabulary::word: id 10 is outside [0, 10)", std::invalid_argument);
  CHECK_THROWS_AS(vocab.word(-1), std::invalid_argument);
}

TEST_CASE("vocabulary.num_words_cuts_like_keras") {
  // num_words = 7 keeps ids 0..6: the (4), movie (5), good (6); bad would be 7 -> <oov>.
  const Vocabulary vocab = Vocabulary::fit(kDocs, 7);
  CHECK(vocab.size() == 7);
  CHECK(vocab.id("good") == 6);
  CHECK(vocab.id("bad") == Vocabulary::oov);
  CHECK_FALSE(vocab.contains("bad"));
  // Keras: [start_char] + [w if w < num_words else oov_char] = [1, 4, 2, 5, 2, 2].
  CHECK(vocab.encode({"the", "bad", "movie", "unseen", "plot"}) == Ids{1, 4, 2, 5, 2, 2});
  CHECK(vocab.encode({"the", "bad"}, false) == Ids{4, 2});
  CHECK(vocab.encode({}) == Ids{1});
  // num_words = 4: only reserved ids, every word is <oov>.
  const Vocabulary empty = Vocabulary::fit(kDocs, 4);
  CHECK(empty.size() == 4);
  CHECK(empty.encode({"the"}) == Ids{1, 2});
  CHECK_THROWS_WITH_AS(Vocabulary::fit(kDocs, 3),
                       "Vocabulary::fit: num_words is 3 but must be at least 4 (ids 0..3 are reserved)",
                       std::invalid_argument);
  CHECK_THROWS_AS(Vocabulary::fit({{"ok", ""}}), std::invalid_argument);
}

TEST_CASE("vocabulary.coverage_counts_in_vocabulary_tokens") {
  const Vocabulary vocab = Vocabulary::fit(kDocs, 7);  // the, movie, good
  // 13 tokens; in vocabulary: the ×4 + movie ×3 + good ×2 = 9 -> 9/13.
  CHECK(vocab.coverage(kDocs) == doctest::Approx(9.0 / 13.0));
  CHECK(Vocabulary::fit(kDocs).coverage(kDocs) == 1.0);
  CHECK(vocab.coverage({{"unknown", "words"}}) == 0.0);
  CHECK(vocab.coverage({}) == 0.0);
}

TEST_CASE("vocabulary.serialises_to_text_and_back") {
  const Vocabulary vocab = Vocabulary::fit({tokenize("the the café 😀 映画 it’s"), tokenize("The film")}, 5000);
  const std::string text = vocab.to_string();
  CHECK(text == "attn-vocabulary v1 num_words=5000 words=6\nthe\ncafé\n😀\n映画\nit’s\nfilm\n");
  const Vocabulary back = Vocabulary::from_string(text);
  CHECK(back.words() == vocab.words());
  CHECK(back.num_words() == 5000);
  CHECK(back.id("映画") == 7);
  // The last newline is optional; an empty vocabulary round-trips too.
  CHECK(Vocabulary::from_string("attn-vocabulary v1 num_words=6 words=2\na\nb").id("b") == 5);
  CHECK(Vocabulary::from_string(Vocabulary().to_string()).size() == 4);
}

TEST_CASE("vocabulary.malformed_text_names_the_line") {
  // Embedded in a model file from line 20 on.
  const std::string duplicated = "attn-vocabulary v1 num_words=10 words=3\nthe\nfilm\nthe\n";
  CHECK_THROWS_WITH_AS(Vocabulary::from_string(duplicated, "model.attn", 20),
                       "model.attn:23: duplicate word \"the\" (first on line 21)", TextError);
  CHECK_THROWS_WITH_AS(Vocabulary::from_string("attn-vocabulary v1 num_words=10 words=3\nthe\nfilm\n", "m"),
                       "m:4: expected 3 words but found 2", TextError);
  CHECK_THROWS_WITH_AS(Vocabulary::from_string("attn-vocabulary v1 num_words=10 words=1\nthe\nfilm\n", "m"),
                       "m:3: more words than the header's words=1", TextError);
  CHECK_THROWS_WITH_AS(Vocabulary::from_string("attn-vocabulary v1 num_words=10 words=2\nthe\n\n", "m"),
                       "m:3: empty word", TextError);
  CHECK_THROWS_WITH_AS(Vocabulary::from_string("attn-vocabulary v1 num_words=5 words=2\na\nb\n", "m"),
                       "m:1: 2 words do not fit in num_words=5 (at most 1)", TextError);
  CHECK_THROWS_WITH_AS(Vocabulary::from_string("vocab\nthe\n", "m"),
                       "m:1: not a vocabulary header "
                       "(expected \"attn-vocabulary v1 num_words=N words=M\", got \"vocab\")",
                       TextError);
  CHECK_THROWS_WITH_AS(Vocabulary::from_string("attn-vocabulary v1 num_words=10 words=1\nbad\xFF\n", "m"),
                       "m:2: invalid UTF-8 (byte 0xff at column 4)", TextError);
}
