#include <doctest/doctest.h>

#include <string>

#include "attn/text/utf8.hpp"

using namespace attn;

namespace {

// The message validate_utf8 throws for `text` (or "" when it accepts it).
std::string utf8_error(const std::string& text, const std::string& source = "reviews.csv", std::size_t line = 1) {
  try {
    validate_utf8(text, source, line);
  } catch (const TextError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("utf8.accepts_well_formed_text") {
  std::size_t offset = 99;
  // ASCII, é (2 bytes), € (3), 😀 (4), the last code point U+10FFFF (F4 8F BF BF), U+FFFD.
  const std::string text = "plain é € \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF \xEF\xBF\xBD";
  CHECK_FALSE(find_invalid_utf8(text, offset));
  CHECK(offset == 99);
  CHECK_FALSE(find_invalid_utf8("", offset));
  CHECK(utf8_error(text).empty());
}

TEST_CASE("utf8.rejects_each_kind_of_ill_formed_sequence") {
  std::size_t offset = 0;
  // 0xFF never occurs in UTF-8.
  CHECK(find_invalid_utf8("ab\xFF", offset));
  CHECK(offset == 2);
  // Overlong '/' (C0 AF), overlong 3-byte NUL (E0 80 80), overlong 4-byte (F0 8F BF BF = U+FFFF).
  CHECK(find_invalid_utf8("x\xC0\xAF", offset));
  CHECK(offset == 1);
  CHECK(find_invalid_utf8("xy\xE0\x80\x80", offset));
  CHECK(offset == 2);
  CHECK(find_invalid_utf8("\xF0\x8F\xBF\xBF", offset));
  CHECK(offset == 0);
  // Surrogates U+D800 (ED A0 80) and U+DFFF (ED BF BF); U+D7FF (ED 9F BF) is fine.
  CHECK(find_invalid_utf8("\xED\xA0\x80", offset));
  CHECK(find_invalid_utf8("\xED\xBF\xBF", offset));
  CHECK_FALSE(find_invalid_utf8("\xED\x9F\xBF", offset));
  // Above U+10FFFF: F4 90 80 80 = U+110000, and F5.. lead bytes.
  CHECK(find_invalid_utf8("\xF4\x90\x80\x80", offset));
  CHECK(find_invalid_utf8("\xF5\x80\x80\x80", offset));
  // Truncated: € without its last byte at the end, and 😀 interrupted by an ASCII letter.
  CHECK(find_invalid_utf8("ok \xE2\x82", offset));
  CHECK(offset == 3);
  CHECK(find_invalid_utf8("\xF0\x9F\x98z", offset));
  CHECK(offset == 0);
  // A stray continuation byte.
  CHECK(find_invalid_utf8("a\x80", offset));
  CHECK(offset == 1);
}

TEST_CASE("utf8.error_message_names_file_line_and_column") {
  // Line 1 is fine; on line 2 "naïve " is 6 code points (7 bytes), so 0xFF sits at column 7.
  CHECK(utf8_error("good line\nnaïve \xFF rest") == "reviews.csv:2: invalid UTF-8 (byte 0xff at column 7)");
  // first_line shifts the count: this text starts on line 11 of the file.
  CHECK(utf8_error("a\nb\n12345678901234567890123456789012\xC0\xAF", "reviews.csv", 11) ==
        "reviews.csv:13: invalid UTF-8 (byte 0xc0 at column 33)");
  // The reported byte is the lead of the ill-formed sequence (the surrogate's ED).
  CHECK(utf8_error("\xED\xA0\x80", "x.txt") == "x.txt:1: invalid UTF-8 (byte 0xed at column 1)");
  CHECK(utf8_error("end \xE2\x82", "x.txt") == "x.txt:1: invalid UTF-8 (byte 0xe2 at column 5)");
}

TEST_CASE("utf8.decode_and_encode_round_trip") {
  const std::string text = "aé€\xF0\x9F\x98\x80";
  std::size_t pos = 0;
  char32_t cp = 0;
  REQUIRE(decode_utf8(text, pos, cp));
  CHECK((cp == U'a' && pos == 1));
  REQUIRE(decode_utf8(text, pos, cp));
  CHECK((cp == 0xE9 && pos == 3));
  REQUIRE(decode_utf8(text, pos, cp));
  CHECK((cp == 0x20AC && pos == 6));
  REQUIRE(decode_utf8(text, pos, cp));
  CHECK((cp == 0x1F600 && pos == 10));
  CHECK_FALSE(decode_utf8(text, pos, cp));  // at the end
  std::size_t bad = 0;
  CHECK_FALSE(decode_utf8("\xC0\xAF", bad, cp));
  CHECK(bad == 0);

  CHECK(encode_utf8(U'a') == "a");
  CHECK(encode_utf8(0xE9) == "é");
  CHECK(encode_utf8(0x20AC) == "€");
  CHECK(encode_utf8(0x1F600) == "\xF0\x9F\x98\x80");
  CHECK(encode_utf8(0x10FFFF) == "\xF4\x8F\xBF\xBF");
  // Every boundary code point survives encode -> decode.
  for (char32_t c : {0x0u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xD7FFu, 0xE000u, 0xFFFFu, 0x10000u, 0x10FFFFu}) {
    const std::string bytes = encode_utf8(c);
    std::size_t p = 0;
    char32_t back = 0;
    CHECK(decode_utf8(bytes, p, back));
    CHECK(back == c);
    CHECK(p == bytes.size());
  }
  CHECK_THROWS_WITH_AS(encode_utf8(0xD800), "append_utf8: U+D800 is a surrogate and has no UTF-8 form",
                       std::invalid_argument);
  CHECK_THROWS_AS(encode_utf8(0x110000), std::invalid_argument);
}

namespace {

// Independent definition of well-formed UTF-8 by bit patterns and value ranges (RFC 3629),
// rather than the per-lead-byte ranges of Unicode Table 3-7 that the library uses.
bool reference_valid(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t len;
    char32_t value;
    if (lead < 0x80) {
      len = 1, value = lead;
    } else if ((lead & 0xE0) == 0xC0) {
      len = 2, value = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
      len = 3, value = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
      len = 4, value = lead & 0x07;
    } else {
      return false;
    }
    if (i + len > text.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(text[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      value = (value << 6) | (c & 0x3F);
    }
    const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (value < smallest[len] || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) return false;
    i += len;
  }
  return true;
}

}  // namespace

TEST_CASE("utf8.agrees_with_bit_pattern_reference_on_every_short_string") {
  // Every 1-, 2- and 3-byte string (16.8 M), plus every 4-byte string whose last two bytes come
  // from a spread of values: covers every lead byte against every second byte.
  std::size_t mismatches = 0, checked = 0;
  std::string s;
  auto check = [&](const std::string& text) {
    std::size_t offset = 0;
    mismatches += (!find_invalid_utf8(text, offset)) != reference_valid(text);
    ++checked;
  };
  for (int a = 0; a < 256; ++a) {
    check(std::string(1, static_cast<char>(a)));
    for (int b = 0; b < 256; ++b) {
      check(std::string{static_cast<char>(a), static_cast<char>(b)});
      s.assign(3, '\0');
      s[0] = static_cast<char>(a);
      s[1] = static_cast<char>(b);
      for (int c = 0; c < 256; ++c) {
        s[2] = static_cast<char>(c);
        check(s);
      }
      for (int cd : {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0xBF, 0xC0, 0xE0, 0xFF}) {
        check(std::string{static_cast<char>(a), static_cast<char>(b), static_cast<char>(cd), '\x80'});
        check(std::string{static_cast<char>(a), static_cast<char>(b), '\xBF', static_cast<char>(cd)});
      }
    }
  }
  INFO(checked << " strings checked");
  CHECK(mismatches == 0);
}
