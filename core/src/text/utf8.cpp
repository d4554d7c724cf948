#include "attn/text/utf8.hpp"

#include <cstdio>

namespace attn {

namespace {

// Length of the well-formed sequence at s[0..n), or 0 when ill-formed. Follows Table 3-7 of the
// Unicode standard: the allowed range of the second byte depends on the lead byte, which is what
// excludes overlongs (E0 80.., F0 80..), surrogates (ED A0..) and > U+10FFFF (F4 90..).
std::size_t sequence_length(const unsigned char* s, std::size_t n, char32_t& cp) {
  const unsigned char lead = s[0];
  if (lead < 0x80) {
    cp = lead;
    return 1;
  }
  std::size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    len = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    len = 3;
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    len = 4;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  } else {
    return 0;  // 80..BF stray continuation, C0/C1 always overlong, F5..FF beyond U+10FFFF
  }
  if (n < len || s[1] < lo || s[1] > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    if ((s[k] & 0xC0) != 0x80) return 0;
  }
  char32_t value = lead & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (std::size_t k = 1; k < len; ++k) value = (value << 6) | (s[k] & 0x3F);
  cp = value;
  return len;
}

std::string code_point_name(char32_t cp) {
  char name[16];
  std::snprintf(name, sizeof name, "U+%04X", static_cast<unsigned>(cp));
  return name;
}

}  // namespace

bool find_invalid_utf8(std::string_view text, std::size_t& offset) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  char32_t cp;
  while (i < n) {
    if (s[i] < 0x80) {  // ASCII dominates review text: skip it without decoding
      ++i;
      continue;
    }
    const std::size_t len = sequence_length(s + i, n - i, cp);
    if (len == 0) {
      offset = i;
      return true;
    }
    i += len;
  }
  return false;
}

std::string invalid_utf8_message(std::string_view text, std::size_t first_line, std::size_t& line) {
  std::size_t bad;
  if (!find_invalid_utf8(text, bad)) return "";
  std::size_t at = first_line, line_start = 0;
  for (std::size_t i = 0; i < bad; ++i) {
    if (text[i] == '\n') {
      ++at;
      line_start = i + 1;
    }
  }
  std::size_t column = 1;  // code points before the bad byte on its line (all valid), plus one
  for (std::size_t i = line_start; i < bad; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  }
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(text[bad])));
  line = at;
  return std::string("invalid UTF-8 (byte ") + byte + " at column " + std::to_string(column) + ")";
}

void validate_utf8(std::string_view text, const std::string& source, std::size_t first_line) {
  std::size_t line = first_line;
  const std::string problem = invalid_utf8_message(text, first_line, line);
  if (!problem.empty()) throw TextError(source + ":" + std::to_string(line) + ": " + problem);
}

bool decode_utf8(std::string_view text, std::size_t& pos, char32_t& code_point) {
  if (pos >= text.size()) return false;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + pos;
  char32_t cp;
  const std::size_t len = sequence_length(s, text.size() - pos, cp);
  if (len == 0) return false;
  code_point = cp;
  pos += len;
  return true;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    if (cp >= 0xD800 && cp <= 0xDFFF) {
      throw std::invalid_argument("append_utf8: " + code_point_name(cp) + " is a surrogate and has no UTF-8 form");
    }
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp <= 0x10FFFF) {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    throw std::invalid_argument("append_utf8: " + code_point_name(cp) + " is above U+10FFFF");
  }
}

std::string encode_utf8(char32_t code_point) {
  std::string out;
  append_utf8(out, code_point);
  return out;
}

}  // namespace attn
