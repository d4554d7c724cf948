#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/random.hpp"
#include "attn/text/tokenizer.hpp"
#include "attn/text/utf8.hpp"

using namespace attn;
using Tokens = std::vector<std::string>;

TEST_CASE("tokenizer.imdb_review_with_html_and_apostrophes") {
  // Keras text_to_word_sequence (no HTML stripping, apostrophes untouched) gives
  //   [this, movie, was, br, great, i, didn't, like, the, 'ending']
  // We drop the <br /> tag instead of leaving "br", and strip the quote marks around 'ending'.
  CHECK(tokenize("This movie was<br />GREAT!! I didn't like the 'ending'.") ==
        Tokens{"this", "movie", "was", "great", "i", "didn't", "like", "the", "ending"});
  // Every spelling of the line break is a separator, even without surrounding spaces.
  CHECK(tokenize("one<br>two<br/>three<BR />four") == Tokens{"one", "two", "three", "four"});
}

TEST_CASE("tokenizer.keras_filters_separate_and_vanish") {
  // Keras: each of !"#$%&()*+,-./:;<=>?@[\]^_`{|}~\t\n becomes a space, then split on spaces.
  CHECK(tokenize("well-made, (mostly) fun:10/10 #1 e-mail@home_x") ==
        Tokens{"well", "made", "mostly", "fun", "10", "10", "1", "e", "mail", "home", "x"});
  CHECK(tokenize("tab\there\nnew\r\nline\vand\fform") == Tokens{"tab", "here", "new", "line", "and", "form"});
  CHECK(tokenize("").empty());
  CHECK(tokenize("  ... !!! \n").empty());
}

TEST_CASE("tokenizer.keep_punctuation_makes_each_filter_a_token") {
  TokenizerOptions options;
  options.keep_punctuation = true;
  CHECK(tokenize("Wow!! <br />Great, isn't it?", options) == Tokens{"wow", "!", "!", "great", ",", "isn't", "it", "?"});
  // A '<' that starts no tag is punctuation too; the tag itself never becomes tokens.
  CHECK(tokenize("a < b<i>c", options) == Tokens{"a", "<", "b", "c"});
}

TEST_CASE("tokenizer.only_tag_like_angle_brackets_are_html") {
  CHECK(tokenize("a < b and 1<2") == Tokens{"a", "b", "and", "1", "2"});
  CHECK(tokenize("I <3 this") == Tokens{"i", "3", "this"});
  CHECK(tokenize("<!-- note -->x<i>y</i>") == Tokens{"x", "y"});
  // "<b c" meets another '<' before any '>', so it is text; "<d>" is a tag.
  CHECK(tokenize("a<b c<d>e") == Tokens{"a", "b", "c", "e"});
  // Unclosed tag at the end: the '<' is a filter and "br" a word.
  CHECK(tokenize("end<br") == Tokens{"end", "br"});
  TokenizerOptions keep_html;
  keep_html.strip_html = false;
  // Plain Keras behaviour: the tag's letters survive as a word.
  CHECK(tokenize("was<br />great", keep_html) == Tokens{"was", "br", "great"});
}

TEST_CASE("tokenizer.apostrophes_inside_words_only") {
  CHECK(tokenize("'quoted' students' rock'n'roll ''' it’s ’twas’ ‘single’") ==
        Tokens{"quoted", "students", "rock'n'roll", "it’s", "twas", "‘single"});
  // ‘ (U+2018) is not an apostrophe, so only the closing ’ of ‘single’ is stripped above.
  CHECK(tokenize("don't DON'T") == Tokens{"don't", "don't"});
}

TEST_CASE("tokenizer.lowercases_latin_greek_cyrillic") {
  CHECK(tokenize("ÀÉÎÕÜ ÇÑ Straße ×") == Tokens{"àéîõü", "çñ", "straße", "×"});
  CHECK(tokenize("ŁÓDŹ ĲSSEL Ÿ İ") == Tokens{"łódź", "ĳssel", "ÿ", "i"});
  CHECK(tokenize("ΚΑΛΗΜΈΡΑ ΆΈΉΊΌΎΏ") == Tokens{"καλημέρα", "άέήίόύώ"});
  CHECK(tokenize("ПРИВЕТ ЁЛКА ЄЇ Ѣ") == Tokens{"привет", "ёлка", "єї", "ѣ"});
  TokenizerOptions keep_case;
  keep_case.lowercase = false;
  CHECK(tokenize("GREAT Ñandú", keep_case) == Tokens{"GREAT", "Ñandú"});
  CHECK(lowercase_code_point(U'Q') == U'q');
  CHECK(lowercase_code_point(0x3A3) == 0x3C3);  // Σ -> σ, never the final ς
  CHECK(lowercase_code_point(0x3A2) == 0x3A2);  // unassigned, left alone
  CHECK(lowercase_code_point(0x138) == 0x138);  // ĸ has no capital
  CHECK(lowercase_code_point(0x1F600) == 0x1F600);
}

TEST_CASE("tokenizer.emoji_cjk_and_unicode_spaces") {
  // U+3000 (ideographic space) and U+00A0 (no-break space) separate like ASCII spaces; emoji and
  // CJK are word characters (no segmentation of Japanese).
  CHECK(tokenize("Loved it😀 映画が好き\u3000最高!") == Tokens{"loved", "it😀", "映画が好き", "最高"});
  CHECK(tokenize("café\u00A0crème brûlée") == Tokens{"café", "crème", "brûlée"});
  CHECK(tokenize("😀👍🏽") == Tokens{"😀👍🏽"});
}

TEST_CASE("tokenizer.invalid_utf8_names_source_and_line") {
  // The review starts on line 41 of train.csv; its second line " bad " is 5 code points.
  CHECK_THROWS_WITH_AS(tokenize("fine\n bad \xFF", {}, "train.csv", 41),
                       "train.csv:42: invalid UTF-8 (byte 0xff at column 6)", TextError);
  CHECK_THROWS_WITH_AS(tokenize("over\xC0\xAFlong"), "<text>:1: invalid UTF-8 (byte 0xc0 at column 5)", TextError);
  CHECK_THROWS_AS(tokenize("surrogate \xED\xA0\x80"), TextError);
  CHECK_THROWS_AS(tokenize("truncated \xF0\x9F\x98"), TextError);
}
