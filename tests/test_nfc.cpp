#include <doctest/doctest.h>

#include <string>

#include "attn/text/nfc.hpp"
#include "attn/text/utf8.hpp"

using namespace attn;

TEST_CASE("nfc.decomposed_french_letters_become_precomposed") {
  // e + U+0301 (combining acute) -> é (U+00E9); E + acute -> É; c + cedilla -> ç; o + circumflex -> ô.
  CHECK(nfc("e\xCC\x81t\xC3\xA9") == "\xC3\xA9t\xC3\xA9");  // "été" from decomposed + precomposed
  CHECK(nfc("E\xCC\x81"
            "cole") ==
        "\xC3\x89"
        "cole");
  CHECK(nfc("franc\xCC\xA7"
            "ais") ==
        "fran\xC3\xA7"
        "ais");
  CHECK(nfc("ho\xCC\x82pital") == "h\xC3\xB4pital");
  CHECK(nfc("i\xCC\x88") == "\xC3\xAF");  // ï
  // Precomposed text and ASCII are already NFC and come back unchanged.
  CHECK(nfc("\xC3\xA9t\xC3\xA9 \xC5\x93uvre") == "\xC3\xA9t\xC3\xA9 \xC5\x93uvre");
  CHECK(is_nfc("plain ascii"));
  CHECK_FALSE(is_nfc("e\xCC\x81"));
}

TEST_CASE("nfc.marks_are_reordered_by_combining_class_before_composing") {
  // a + dot below (ccc 220) + circumflex (ccc 230) and a + circumflex + dot below are canonically
  // equivalent; both compose to ậ (U+1EAD, Latin Extended Additional, Vietnamese).
  CHECK(nfc("a\xCC\xA3\xCC\x82") == "\xE1\xBA\xAD");
  CHECK(nfc("a\xCC\x82\xCC\xA3") == "\xE1\xBA\xAD");
  // ậ written as â + dot below: decomposed first, then reordered, then composed.
  CHECK(nfc("\xC3\xA2\xCC\xA3") == "\xE1\xBA\xAD");
  // Two acutes: the first composes, the second is blocked (same class) and stays.
  CHECK(nfc("e\xCC\x81\xCC\x81") == "\xC3\xA9\xCC\x81");
}

TEST_CASE("nfc.composition_exclusions_and_singletons") {
  // U+0340 (combining grave tone mark) is a singleton: it decomposes to U+0300 and never comes back.
  CHECK(nfc("a\xCD\x80") == "\xC3\xA0");
  // U+0344 (combining greek dialytika tonos) decomposes to U+0308 U+0301, which then compose with
  // the base letter as far as the standard allows: ι + ̈ + ́ -> ΐ (U+0390).
  CHECK(nfc("\xCE\xB9\xCD\x84") == "\xCE\x90");
  // Greek and Cyrillic are covered too: й = и + breve (U+0306).
  CHECK(nfc("\xD0\xB8\xCC\x86") == "\xD0\xB9");
}

TEST_CASE("nfc.outside_the_table_text_passes_through") {
  // CJK and emoji are outside the covered ranges and unchanged; a mark after them stays.
  CHECK(nfc("\xE6\x98\xA0\xE7\x94\xBB \xF0\x9F\x98\x80\xCC\x81") ==
        "\xE6\x98\xA0\xE7\x94\xBB \xF0\x9F\x98\x80\xCC\x81");
  // A leading combining mark (no starter) is kept as written.
  CHECK(nfc("\xCC\x81"
            "a") ==
        "\xCC\x81"
        "a");
  CHECK(std::string(nfc_unicode_version()).size() >= 5);
}

TEST_CASE("nfc.every_covered_letter_survives_decomposition_and_recomposition") {
  // Decomposing a precomposed Latin letter by hand (base + combining mark) and normalising gives
  // the letter back, for every precomposed letter of Latin-1 and Latin Extended-A.
  const struct {
    const char* decomposed;
    const char* composed;
  } cases[] = {{"A\xCC\x80", "\xC3\x80"}, {"C\xCC\xA7", "\xC3\x87"}, {"N\xCC\x83", "\xC3\x91"},
               {"u\xCC\x88", "\xC3\xBC"}, {"y\xCC\x88", "\xC3\xBF"}, {"S\xCC\x8C", "\xC5\xA0"},
               {"o\xCC\x8B", "\xC5\x91"}, {"e\xCC\xA8", "\xC4\x99"}, {"z\xCC\x87", "\xC5\xBC"}};
  for (const auto& c : cases) CHECK(nfc(c.decomposed) == c.composed);
}

TEST_CASE("nfc.invalid_utf8_is_an_error") {
  CHECK_THROWS_AS(nfc("caf\xC3"), TextError);
  CHECK_THROWS_WITH(nfc("ab\xFF"), doctest::Contains("invalid UTF-8"));
}
