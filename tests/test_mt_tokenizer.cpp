#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/text/mt_tokenizer.hpp"
#include "attn/text/utf8.hpp"

using namespace attn;
using Tokens = std::vector<std::string>;

namespace {

const MtTokenizerOptions kFrench{MtLanguage::french, false};
const MtTokenizerOptions kEnglish{MtLanguage::english, false};

std::string round_trip(const std::string& text, MtLanguage language, const std::string& french_space = " ") {
  return mt_detokenize(mt_tokenize(text, {language, false}), {language, french_space});
}

}  // namespace

TEST_CASE("mt_tokenizer.french_elisions_split_after_the_apostrophe") {
  CHECK(mt_tokenize("L'homme n'a pas d'argent.", kFrench) ==
        Tokens{"L'", "homme", "n'", "a", "pas", "d'", "argent", "."});
  CHECK(mt_tokenize("Jusqu'à quand? Lorsqu'il pleut, puisqu'on reste.", kFrench) ==
        Tokens{"Jusqu'", "à", "quand", "?", "Lorsqu'", "il", "pleut", ",", "puisqu'", "on", "reste", "."});
  CHECK(mt_tokenize("J'aime ce qu'il m'a dit; c'est ça.", kFrench) ==
        Tokens{"J'", "aime", "ce", "qu'", "il", "m'", "a", "dit", ";", "c'", "est", "ça", "."});
  // No elision at the start of these words: they stay whole.
  CHECK(mt_tokenize("aujourd'hui d'aujourd'hui prud'homme", kFrench) ==
        Tokens{"aujourd'hui", "d'", "aujourd'hui", "prud'homme"});
  // The typographic apostrophe is the same token as the straight one.
  CHECK(mt_tokenize("l\xE2\x80\x99homme", kFrench) == Tokens{"l'", "homme"});
  // Elisions are French only.
  CHECK(mt_tokenize("l'homme", kEnglish) == Tokens{"l'homme"});
}

TEST_CASE("mt_tokenizer.french_hyphenated_clitics_split_other_compounds_stay") {
  CHECK(mt_tokenize("Qu'est-ce que c'est ?", kFrench) == Tokens{"Qu'", "est", "-ce", "que", "c'", "est", "?"});
  CHECK(mt_tokenize("A-t-il faim ? Dis-moi, donne-le-moi.", kFrench) ==
        Tokens{"A", "-t-il", "faim", "?", "Dis", "-moi", ",", "donne", "-le", "-moi", "."});
  CHECK(mt_tokenize("Voulez-vous venir ? Celui-ci, peut-être.", kFrench) ==
        Tokens{"Voulez", "-vous", "venir", "?", "Celui", "-ci", ",", "peut-être", "."});
  CHECK(mt_tokenize("c'est-à-dire là-bas, un arc-en-ciel", kFrench) ==
        Tokens{"c'", "est-à-dire", "là-bas", ",", "un", "arc-en-ciel"});
}

TEST_CASE("mt_tokenizer.english_contractions_split_as_penn_treebank_does") {
  CHECK(mt_tokenize("He doesn't like apples.", kEnglish) == Tokens{"He", "does", "n't", "like", "apples", "."});
  CHECK(mt_tokenize("I'm sure we can't, won't or don't.", kEnglish) ==
        Tokens{"I", "'m", "sure", "we", "ca", "n't", ",", "wo", "n't", "or", "do", "n't", "."});
  CHECK(mt_tokenize("They're here, you've seen, we'll go, I'd stay; Tom's cat.", kEnglish) ==
        Tokens{"They", "'re", "here", ",",  "you",  "'ve", "seen", ",",  "we",  "'ll",
               "go",   ",",   "I",    "'d", "stay", ";",   "Tom",  "'s", "cat", "."});
  // o'clock and rock'n'roll keep their apostrophe; a quote at a word's edge is its own token.
  CHECK(mt_tokenize("five o'clock rock'n'roll 'fine'", kEnglish) ==
        Tokens{"five", "o'clock", "rock'n'roll", "'", "fine", "'"});
}

TEST_CASE("mt_tokenizer.punctuation_numbers_and_spaces") {
  // Guillemets and the no-break (U+00A0) and narrow no-break (U+202F) spaces French puts inside them
  // and before ? ! : ; — the spaces vanish, the marks are tokens.
  CHECK(mt_tokenize("\xC2\xAB\xE2\x80\xAF"
                    "Bonjour\xE2\x80\xAF\xC2\xBB, dit-il\xC2\xA0!",
                    kFrench) == Tokens{"\xC2\xAB", "Bonjour", "\xC2\xBB", ",", "dit", "-il", "!"});
  // Numbers keep their decimal separator and clock colon; dots run together; $ and % are tokens.
  CHECK(mt_tokenize("It's 3.5 km at 10:30 p.m., 3,5 $ or 50%... Wait!?", kEnglish) ==
        Tokens{"It", "'s", "3.5", "km", "at", "10:30", "p.m", ".", ",", "3,5", "$", "or", "50", "%", "...", "Wait", "!",
               "?"});
  CHECK(mt_tokenize("(a) [b] \"c\" - d/e", kEnglish) ==
        Tokens{"(", "a", ")", "[", "b", "]", "\"", "c", "\"", "-", "d", "/", "e"});
  CHECK(mt_tokenize("", kEnglish).empty());
  CHECK(mt_tokenize(" \t\xC2\xA0 ", kFrench).empty());
}

TEST_CASE("mt_tokenizer.nfc_accents_and_lowercasing") {
  // Decomposed é (e + U+0301) and precomposed é give the same token; accents are kept.
  CHECK(mt_tokenize("e\xCC\x81t\xC3\xA9", kFrench) == Tokens{"\xC3\xA9t\xC3\xA9"});
  // Lowercasing covers É À Ç Œ (Latin-1 and Latin Extended-A) and the split-off pieces.
  CHECK(mt_tokenize("\xC3\x89"
                    "COLE \xC3\x80 \xC3\x87"
                    "A \xC5\x92UVRE L'HOMME",
                    {MtLanguage::french, true}) == Tokens{"\xC3\xA9"
                                                          "cole",
                                                          "\xC3\xA0",
                                                          "\xC3\xA7"
                                                          "a",
                                                          "\xC5\x93uvre", "l'", "homme"});
  CHECK(mt_tokenize("I'M SURE", {MtLanguage::english, true}) == Tokens{"i", "'m", "sure"});
  CHECK_THROWS_AS(mt_tokenize("caf\xC3", kFrench), TextError);
}

TEST_CASE("mt_tokenizer.detokenize_round_trips_sentences_we_write") {
  const char* french[] = {
      "L'homme n'a-t-il pas dit : \xC2\xAB Qu'est-ce que c'est ? \xC2\xBB",
      "Jusqu'\xC3\xA0 quand restes-tu ?",
      "Peut-\xC3\xAAtre qu'il viendra demain.",
      "Il a 3,5 ans et p\xC3\xA8se 12,7 kg ; dis-moi pourquoi !",
      "Celui-ci co\xC3\xBBte 20 % de plus (environ), soit 30 \xE2\x82\xAC.",
      "Donne-le-moi, s'il te pla\xC3\xAEt... Merci !",
  };
  for (const char* s : french) CHECK(round_trip(s, MtLanguage::french) == s);
  const char* english[] = {
      "I'm sure he doesn't know, but can't we ask (politely) \"why\"?",
      "It's 5:30 p.m. now... Isn't it?",
      "Tom's dog won't eat; we'll see!",
      "She said: \"I'd rather not.\" Then she left.",
      "The price is $5.50 and/or 20%.",
      "It's a boys' club; we paid \xE2\x82\xAC"
      "30 and 'fine' was all they said.",
  };
  for (const char* s : english) CHECK(round_trip(s, MtLanguage::english) == s);
  // French spacing can use the narrow no-break space, or none.
  const std::string nnbsp = "\xE2\x80\xAF";
  const std::string typographic = "\xC2\xAB" + nnbsp + "Oui" + nnbsp + "\xC2\xBB, dit-il" + nnbsp + "!";
  CHECK(round_trip(typographic, MtLanguage::french, nnbsp) == typographic);
  CHECK(mt_detokenize(mt_tokenize("Va !", kFrench), {MtLanguage::french, ""}) == "Va!");
  // The same tokens without French conventions: English spacing.
  CHECK(mt_detokenize({"\xC2\xAB", "Oui", "\xC2\xBB", "?"}, {MtLanguage::english, " "}) == "\xC2\xABOui\xC2\xBB?");
  CHECK(mt_detokenize({}, {}).empty());
}

TEST_CASE("mt_tokenizer.language_names") {
  CHECK(mt_language_from_name("fr") == MtLanguage::french);
  CHECK(mt_language_from_name("english") == MtLanguage::english);
  CHECK(std::string(mt_language_name(MtLanguage::generic)) == "generic");
  CHECK_THROWS_WITH(mt_language_from_name("klingon"), doctest::Contains("got \"klingon\""));
}
