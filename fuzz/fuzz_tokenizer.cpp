// libFuzzer target: UTF-8 validation and the tokenizer on arbitrary bytes, with properties:
//  - find_invalid_utf8 and validate_utf8 agree, and the tokenizer throws exactly when the text
//    is ill-formed (TextError is the only exception allowed);
//  - valid text decodes code point by code point and re-encodes to the same bytes, and every
//    code point's lowercase form is encodable;
//  - every token is non-empty, valid UTF-8 and holds no separator (space, tab, newline).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "attn/text/tokenizer.hpp"
#include "attn/text/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  std::size_t offset = 0;
  const bool invalid = attn::find_invalid_utf8(text, offset);
  bool validate_threw = false;
  try {
    attn::validate_utf8(text, "fuzz", 1);
  } catch (const attn::TextError&) {
    validate_threw = true;
  }
  if (validate_threw != invalid) std::abort();
  if (invalid && offset >= text.size()) std::abort();

  if (!invalid) {
    std::string round_trip;
    std::size_t pos = 0;
    char32_t code_point = 0;
    while (pos < text.size()) {
      if (!attn::decode_utf8(text, pos, code_point)) std::abort();
      attn::append_utf8(round_trip, code_point);
      // The lowercase mapping must give an encodable code point (encode_utf8 throws otherwise).
      attn::encode_utf8(attn::lowercase_code_point(code_point));
    }
    if (round_trip != text) std::abort();
  }

  attn::TokenizerOptions options;
  options.lowercase = (mode & 1u) != 0;
  options.strip_html = (mode & 2u) != 0;
  options.keep_punctuation = (mode & 4u) != 0;
  bool tokenize_threw = false;
  try {
    for (const std::string& token : attn::tokenize(text, options, "fuzz", 1)) {
      std::size_t bad = 0;
      if (token.empty() || attn::find_invalid_utf8(token, bad)) std::abort();
      if (token.find_first_of(" \t\n\r") != std::string::npos) std::abort();
    }
  } catch (const attn::TextError&) {
    tokenize_threw = true;
  }
  if (tokenize_threw != invalid) std::abort();
  return 0;
}
