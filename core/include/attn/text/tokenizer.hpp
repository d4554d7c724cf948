// Review text -> word tokens, following Keras' `Tokenizer` / `text_to_word_sequence` (the IMDB
// sentiment setup) plus HTML-tag removal and apostrophe handling. No tensors here; tokens feed
// Vocabulary::encode, which gives ids [T] per review, and pad_sequences, which gives [N, T].
//
// Per review, in one pass over the bytes (no per-character allocation):
//   1. strip_html: a tag — '<' followed by a letter, '/' or '!', then anything except '<' and
//      '>' up to the next '>' — is replaced by a space: "<br />", "<br>", "<i>", "</p>",
//      "<!-- x -->". A '<' that does not start a tag ("a < b", "<3") is an ordinary filter
//      character (step 3). Like any HTML stripper, "if a<b and c>d" loses "<b and c>".
//   2. lowercase: ASCII A-Z, Latin-1 Supplement (U+00C0..U+00DE except ×), Latin Extended-A,
//      Greek (U+0386..U+03AB) and Cyrillic (U+0400..U+042F and the paired letters of U+0460..
//      U+052F) capitals map to their small letters. One code point maps to one code point:
//      İ (U+0130) becomes plain "i" and Σ always becomes σ (Python's lower() would give "i̇" and
//      a word-final ς).
//   3. Keras' filters !"#$%&()*+,-./:;<=>?@[\]^_`{|}~ and whitespace (ASCII space, \t, \n, \v,
//      \f, \r, plus U+00A0 no-break space and U+3000 ideographic space) separate words and are
//      dropped; with keep_punctuation each filter character becomes a token of its own instead.
//   4. apostrophes (' and U+2019 ’) stay inside words ("don't", "it’s", "rock'n'roll") but are
//      stripped from both ends ("'ending'" -> "ending", "students'" -> "students"); Keras keeps
//      them at the ends too, which splits "ending" and "'ending'" into two vocabulary entries.
//      ’ is kept as written, not rewritten to '.
//   Everything else — digits, accents, emoji, CJK — is part of a word. There is no word
//   segmentation for scripts written without spaces: "映画が好き" is one token.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

struct TokenizerOptions {
  bool lowercase = true;
  bool strip_html = true;
  bool keep_punctuation = false;
};

// Tokens of `text` in order. Throws TextError "<text>:1: invalid UTF-8 (...)" for ill-formed
// UTF-8: the whole text is validated before anything is tokenised.
std::vector<std::string> tokenize(std::string_view text, const TokenizerOptions& options = {});
// Same, naming the origin in errors: `text` starts on line `line` of `source`, e.g.
// tokenize(review, {}, "train.csv", 812) -> "train.csv:813: invalid UTF-8 (byte 0xc0 at column 7)".
std::vector<std::string> tokenize(std::string_view text, const TokenizerOptions& options, const std::string& source,
                                  std::size_t line);

// The lowercase mapping of step 2 for a single code point (unchanged when not listed there).
char32_t lowercase_code_point(char32_t code_point);

}  // namespace attn
