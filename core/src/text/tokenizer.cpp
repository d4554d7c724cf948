#include "attn/text/tokenizer.hpp"

#include <array>

#include "attn/text/utf8.hpp"

namespace attn {

namespace {

enum class Ascii : unsigned char { word, space, filter };

// Byte class for ASCII; built once so the hot loop is a table lookup.
constexpr std::array<Ascii, 128> ascii_classes() {
  std::array<Ascii, 128> classes{};
  for (auto& c : classes) c = Ascii::word;
  for (char c : {' ', '\t', '\n', '\v', '\f', '\r'}) classes[static_cast<unsigned char>(c)] = Ascii::space;
  constexpr std::string_view filters = "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~";
  for (char c : filters) classes[static_cast<unsigned char>(c)] = Ascii::filter;
  return classes;
}
constexpr std::array<Ascii, 128> kAscii = ascii_classes();

constexpr std::string_view kApostrophe = "'";
constexpr std::string_view kRightQuote = "\xE2\x80\x99";  // U+2019, the typographic apostrophe

bool is_ascii_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// If a tag starts at text[i] (text[i] == '<'), returns the offset just past its '>'; else 0.
// The scan stops at the next '<' or '>', so the bytes scanned by failed attempts do not overlap
// and the whole pass stays linear.
std::size_t tag_end(std::string_view text, std::size_t i) {
  if (i + 1 >= text.size()) return 0;
  const auto next = static_cast<unsigned char>(text[i + 1]);
  if (!is_ascii_letter(next) && next != '/' && next != '!') return 0;
  for (std::size_t j = i + 1; j < text.size(); ++j) {
    if (text[j] == '>') return j + 1;
    if (text[j] == '<') return 0;
  }
  return 0;
}

// Moves the finished word (minus apostrophes at its ends) into `tokens`; `word` is reused.
void flush_word(std::string& word, std::vector<std::string>& tokens) {
  if (word.empty()) return;
  std::string_view w = word;
  for (bool stripped = true; stripped && !w.empty();) {
    stripped = false;
    for (std::string_view q : {kApostrophe, kRightQuote}) {
      if (w.size() >= q.size() && w.substr(0, q.size()) == q) {
        w.remove_prefix(q.size());
        stripped = true;
      }
      if (w.size() >= q.size() && w.substr(w.size() - q.size()) == q) {
        w.remove_suffix(q.size());
        stripped = true;
      }
    }
  }
  if (!w.empty()) tokens.emplace_back(w);
  word.clear();
}

// Decodes the sequence at s (already validated) and returns its length.
std::size_t decode_valid(const unsigned char* s, char32_t& cp) {
  if (s[0] < 0xE0) {
    cp = ((s[0] & 0x1Fu) << 6) | (s[1] & 0x3Fu);
    return 2;
  }
  if (s[0] < 0xF0) {
    cp = ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
    return 3;
  }
  cp = ((s[0] & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
  return 4;
}

}  // namespace

char32_t lowercase_code_point(char32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 0x20 : c;
  // Latin-1 Supplement: À..Þ except × (U+00D7).
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 0x20;
  // Latin Extended-A: capitals and smalls alternate, but the parity flips at U+0139 and U+0179.
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x130) return U'i';  // İ; see the header
    if (c == 0x178) return 0xFF;  // Ÿ -> ÿ, whose small letter lives in Latin-1
    if ((c <= 0x137 || (c >= 0x14A && c <= 0x177)) && c % 2 == 0) return c + 1;
    if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) && c % 2 == 1) return c + 1;
    return c;
  }
  // Greek: accented capitals first, then Α..Ϋ (U+03A2 is unassigned).
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 0x25;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 0x3F;
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 0x20;
  // Cyrillic: Ѐ..Џ, А..Я, then the paired extended letters.
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  if (((c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) || (c >= 0x4D0 && c <= 0x52F)) && c % 2 == 0) {
    return c + 1;
  }
  if (c == 0x4C0) return 0x4CF;
  if (c >= 0x4C1 && c <= 0x4CE && c % 2 == 1) return c + 1;
  return c;
}

std::vector<std::string> tokenize(std::string_view text, const TokenizerOptions& options) {
  return tokenize(text, options, "<text>", 1);
}

std::vector<std::string> tokenize(std::string_view text, const TokenizerOptions& options, const std::string& source,
                                  std::size_t line) {
  validate_utf8(text, source, line);
  std::vector<std::string> tokens;
  tokens.reserve(text.size() / 5 + 1);  // ~5.5 bytes per English word incl. separator
  std::string word;
  word.reserve(64);
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      switch (kAscii[c]) {
        case Ascii::word: {
          // Copy the whole run of ASCII word bytes at once, then lowercase it in place.
          std::size_t end = i + 1;
          while (end < n && s[end] < 0x80 && kAscii[s[end]] == Ascii::word) ++end;
          const std::size_t at = word.size();
          word.append(text.data() + i, end - i);
          if (options.lowercase) {
            for (std::size_t k = at; k < word.size(); ++k) {
              if (word[k] >= 'A' && word[k] <= 'Z') word[k] = static_cast<char>(word[k] + 0x20);
            }
          }
          i = end;
          break;
        }
        case Ascii::space:
          flush_word(word, tokens);
          ++i;
          break;
        case Ascii::filter:
          flush_word(word, tokens);
          if (c == '<' && options.strip_html) {
            if (const std::size_t end = tag_end(text, i)) {
              i = end;
              break;
            }
          }
          if (options.keep_punctuation) tokens.emplace_back(1, static_cast<char>(c));
          ++i;
          break;
      }
      continue;
    }
    char32_t cp;
    const std::size_t len = decode_valid(s + i, cp);
    if (cp == 0xA0 || cp == 0x3000) {
      flush_word(word, tokens);
    } else if (const char32_t lower = options.lowercase ? lowercase_code_point(cp) : cp; lower != cp) {
      append_utf8(word, lower);
    } else {
      word.append(text.data() + i, len);
    }
    i += len;
  }
  flush_word(word, tokens);
  return tokens;
}

}  // namespace attn
