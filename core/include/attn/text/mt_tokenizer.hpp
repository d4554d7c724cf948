// Word-level tokens for translation between European languages (English <-> French first), and
// the detokeniser that turns tokens back into normal text. No tensors here: tokens feed a
// Seq2SeqVocabulary (Seq2SeqVocabulary::fit_tokens / encode_tokens), which gives ids [T].
//
// mt_tokenize, in order:
//   1. NFC (text/nfc.hpp): "e" + U+0301 and "é" give the same token. Invalid UTF-8 throws TextError.
//   2. Typographic apostrophes ’ (U+2019) and ʼ (U+02BC) become ' so "l’homme" and "l'homme" are
//      one vocabulary entry (the detokeniser writes ').
//   3. Whitespace separates words and is dropped: ASCII white space and Unicode's (U+00A0
//      no-break space, U+202F narrow no-break space, U+2009 thin space, U+3000, ...), so the
//      French spaces before ? ! : ; and inside « » never reach a token.
//   4. Punctuation becomes tokens of its own: ASCII punctuation, « » ¿ ¡ “ ” ‘ „ … – — and the
//      rest of General Punctuation, currency signs. Kept inside a word: '.' between a word
//      character and a letter or digit ("3.5", "p.m", "U.S"); ',' and ':' between digits ("3,5",
//      "10:30"); '-' between word characters ("peut-être"); ' between word characters
//      ("aujourd'hui", "o'clock"). A run of dots is one token ("..."). An apostrophe at a word's
//      edge is a quote token "'".
//   5. Language rules (MtLanguage):
//      french  — elisions split off after their apostrophe, kept with it: l' d' j' m' n' s' t' c'
//                ç' qu' jusqu' lorsqu' puisqu' quoiqu' ("l'homme" -> "l'" "homme", "qu'est" ->
//                "qu'" "est"); "aujourd'hui" and "prud'homme" stay whole (no elision at their
//                start). Hyphenated clitics split off the end of a word as tokens that start
//                with '-': je tu il elle on nous vous ils elles ce moi toi lui leur le la les en y
//                ci là, with the euphonic t kept with its pronoun: "est-ce" -> "est" "-ce",
//                "a-t-il" -> "a" "-t-il", "dis-moi" -> "dis" "-moi", "donne-le-moi" -> "donne"
//                "-le" "-moi", "celui-ci" -> "celui" "-ci". Other compounds stay whole
//                ("peut-être", "arc-en-ciel", "là-bas", "c'est-à-dire" -> "c'" "est-à-dire").
//                Why: the verb ("est", "voulez", "dis") is then the same entry as in a
//                statement and a handful of "-vous"/"-tu"/"-il" tokens cover every inversion,
//                which keeps the vocabulary small; the leading '-' makes detokenising exact.
//      english — contractions split as the Penn Treebank and Moses do: "doesn't" -> "does"
//                "n't", "can't" -> "ca" "n't", "won't" -> "wo" "n't", "I'm" -> "I" "'m", and
//                's 're 've 'll 'd likewise ("John's" -> "John" "'s").
//      generic — neither (any other language: punctuation and whitespace rules only).
//   6. lowercase (optional): text/tokenizer.hpp's lowercase_code_point — Latin-1, Latin
//      Extended-A (É À Ç Œ -> é à ç œ), Greek, Cyrillic.
//
// mt_detokenize joins tokens with single spaces except: no space before , . ... … ) ] } ” and
// the English contractions ('s, n't, ...) and French clitics (-ce, -t-il); none after ( [ { ¿ ¡
// “ „ $ (and € £ outside French, which writes "30 €") and French elisions (l', qu'); '/' joins
// both sides; straight quotes " and ' alternate between opening (joined to the next token) and
// closing (joined to the previous), except that outside French a "'" after a word ending in s
// is a plural possessive ("boys" "'" -> "boys'"). French:
// before ? ! : ; % » and after « comes `french_space` (a plain space by default, as the Tatoeba
// files write it; U+00A0 or U+202F for typography, "" for none); other languages attach ? ! : ; %
// to the word before and write «» without inner spaces. So mt_detokenize(mt_tokenize(s)) == s
// for text written with these conventions (tested in tests/test_mt_tokenizer.cpp), apart from
// ’ -> ' and NFC; lowercasing cannot be undone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attn {

enum class MtLanguage { generic, english, french };

// "generic" | "english" | "french"; the inverse accepts those and "en" / "fr", else
// std::invalid_argument naming the accepted values.
const char* mt_language_name(MtLanguage language);
MtLanguage mt_language_from_name(const std::string& name);

struct MtTokenizerOptions {
  MtLanguage language = MtLanguage::generic;
  bool lowercase = false;
};

// Tokens of `text` (see above). Throws TextError "<text>:1: invalid UTF-8 (...)".
std::vector<std::string> mt_tokenize(std::string_view text, const MtTokenizerOptions& options = {});

struct MtDetokenizerOptions {
  MtLanguage language = MtLanguage::generic;
  std::string french_space = " ";  // French only: before ? ! : ; % » and after «
};

// Text from tokens (see above). Tokens are taken as they are (no validation beyond UTF-8 being
// copied through).
std::string mt_detokenize(const std::vector<std::string>& tokens, const MtDetokenizerOptions& options = {});

// The whitespace of step 3 for one code point (also used by the BLEU tokeniser).
bool is_unicode_space(char32_t code_point);

}  // namespace attn
