// libFuzzer target: the translation text pipeline and metrics on arbitrary bytes, with properties:
//  - nfc, mt_tokenize and tokenize_13a throw exactly when the text is ill-formed UTF-8 (TextError
//    is the only exception allowed);
//  - nfc is idempotent and its output is valid UTF-8;
//  - every token of mt_tokenize and tokenize_13a is non-empty, valid UTF-8 and holds no white space;
//  - mt_detokenize accepts the tokens and gives valid UTF-8;
//  - a text scored against itself: BLEU 100 when it has at least 4 13a tokens, chrF 100 when it
//    has a character other than white space; exact match 1.
// First byte: bit 0 lowercase, bits 1-2 the language (generic, english, french).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "attn/text/mt_tokenizer.hpp"
#include "attn/text/nfc.hpp"
#include "attn/text/translation_metrics.hpp"
#include "attn/text/utf8.hpp"

namespace {

bool valid(const std::string& s) {
  std::size_t bad = 0;
  return !attn::find_invalid_utf8(s, bad);
}

bool has_space(const std::string& token) {
  std::size_t pos = 0;
  char32_t c = 0;
  while (pos < token.size() && attn::decode_utf8(token, pos, c))
    if (attn::is_unicode_space(c)) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;  // sentences, not books: the metrics are quadratic in n-grams
  const std::uint8_t mode = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::size_t offset = 0;
  const bool invalid = attn::find_invalid_utf8(text, offset);

  attn::MtTokenizerOptions options;
  options.lowercase = (mode & 1u) != 0;
  options.language = static_cast<attn::MtLanguage>(((mode >> 1) & 3u) % 3);
  try {
    const std::string normal = attn::nfc(text);
    if (invalid || !valid(normal) || attn::nfc(normal) != normal) std::abort();
    const auto tokens = attn::mt_tokenize(text, options);
    for (const std::string& t : tokens)
      if (t.empty() || !valid(t) || has_space(t)) std::abort();
    if (!valid(attn::mt_detokenize(tokens, {options.language, "\xE2\x80\xAF"}))) std::abort();
    const auto bleu_tokens = attn::tokenize_13a(text, {options.lowercase, true});
    bool any_char = false;
    for (const std::string& t : bleu_tokens) {
      if (t.empty() || !valid(t) || has_space(t)) std::abort();
      any_char = true;
    }
    if (bleu_tokens.size() >= 4 && attn::corpus_bleu({text}, {{text}}).score != 100.0) std::abort();
    if (any_char && attn::corpus_chrf({text}, {{text}}).score != 100.0) std::abort();
    if (attn::exact_match({text}, {{text}}).matched != 1) std::abort();
  } catch (const attn::TextError&) {
    if (!invalid) std::abort();
  }
  return 0;
}
