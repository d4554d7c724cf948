#include "attn/text/mt_tokenizer.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "attn/text/nfc.hpp"
#include "attn/text/tokenizer.hpp"
#include "attn/text/utf8.hpp"

namespace attn {

namespace {

bool is_punctuation(char32_t c) {
  if (c < 0x80)
    return c != '\'' && c > ' ' && c < 0x7F && !(c >= '0' && c <= '9') && !(c >= 'A' && c <= 'Z') &&
           !(c >= 'a' && c <= 'z');
  switch (c) {
    case 0xA1:
    case 0xA7:
    case 0xAB:
    case 0xB0:
    case 0xB6:
    case 0xB7:
    case 0xBB:
    case 0xBF:  // ¡ § « ° ¶ · » ¿
      return true;
    default:
      break;
  }
  return (c >= 0x2010 && c <= 0x2027) || (c >= 0x2030 && c <= 0x205E) || (c >= 0x20A0 && c <= 0x20CF) ||
         (c >= 0x3001 && c <= 0x3003);
}

bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }
// A code point that is part of words: not space, not punctuation, not the apostrophe.
bool is_word_char(char32_t c) { return c != '\'' && !is_unicode_space(c) && !is_punctuation(c); }

std::u32string lower(std::u32string s) {
  for (char32_t& c : s) c = lowercase_code_point(c);
  return s;
}

std::string utf8(const std::u32string& s) {
  std::string out;
  for (const char32_t c : s) append_utf8(out, c);
  return out;
}

bool starts_with(const std::u32string& s, const std::u32string& prefix) {
  return s.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), s.begin());
}
bool ends_with(const std::u32string& s, const std::u32string& suffix) {
  return s.size() >= suffix.size() && std::equal(suffix.rbegin(), suffix.rend(), s.rbegin());
}

// French: elision prefixes (lowercase, apostrophe included) and clitic pronouns after a hyphen.
const std::array<std::u32string, 14> kElisions = {U"jusqu'", U"lorsqu'", U"puisqu'", U"quoiqu'", U"qu'", U"l'", U"d'",
                                                  U"j'",     U"m'",      U"n'",      U"s'",      U"t'",  U"c'", U"ç'"};
const std::array<std::u32string, 21> kClitics = {U"je",  U"tu",    U"il",  U"elle", U"on",  U"nous", U"vous",
                                                 U"ils", U"elles", U"ce",  U"moi",  U"toi", U"lui",  U"leur",
                                                 U"le",  U"la",    U"les", U"en",   U"y",   U"ci",   U"là"};
// English contractions split off the end of a word (lowercase).
const std::array<std::u32string, 7> kContractions = {U"n't", U"'s", U"'m", U"'re", U"'ve", U"'ll", U"'d"};

void split_french(const std::u32string& word, std::vector<std::u32string>& out) {
  std::u32string rest = word;
  for (bool found = true; found;) {
    found = false;
    const std::u32string low = lower(rest);
    for (const std::u32string& e : kElisions) {
      if (rest.size() > e.size() && starts_with(low, e) && is_word_char(rest[e.size()])) {
        out.push_back(rest.substr(0, e.size()));
        rest.erase(0, e.size());
        found = true;
        break;
      }
    }
  }
  // Clitics from the end: "donne-le-moi" -> "-moi", then "-le"; "a-t-il" -> "-t-il".
  std::vector<std::u32string> suffixes;
  for (;;) {
    const std::size_t dash = rest.rfind(U'-');
    if (dash == std::u32string::npos || dash == 0) break;
    const std::u32string last = lower(rest.substr(dash + 1));
    if (std::find(kClitics.begin(), kClitics.end(), last) == kClitics.end()) break;
    std::size_t cut = dash;
    if (cut >= 3 && rest[cut - 2] == U'-' && (rest[cut - 1] == U't' || rest[cut - 1] == U'T')) cut -= 2;  // -t-il
    if (cut == 0 || !is_word_char(rest[cut - 1])) break;
    suffixes.push_back(rest.substr(cut));
    rest.erase(cut);
  }
  out.push_back(rest);
  out.insert(out.end(), suffixes.rbegin(), suffixes.rend());
}

void split_english(const std::u32string& word, std::vector<std::u32string>& out) {
  std::u32string rest = word;
  std::vector<std::u32string> suffixes;
  for (bool found = true; found;) {
    found = false;
    const std::u32string low = lower(rest);
    for (const std::u32string& c : kContractions) {
      if (rest.size() > c.size() && ends_with(low, c)) {
        suffixes.push_back(rest.substr(rest.size() - c.size()));
        rest.erase(rest.size() - c.size());
        found = true;
        break;
      }
    }
  }
  out.push_back(rest);
  out.insert(out.end(), suffixes.rbegin(), suffixes.rend());
}

}  // namespace

bool is_unicode_space(char32_t c) {
  // Python's str.isspace() set, which is what sacreBLEU's split() uses too.
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

const char* mt_language_name(MtLanguage language) {
  switch (language) {
    case MtLanguage::english:
      return "english";
    case MtLanguage::french:
      return "french";
    default:
      return "generic";
  }
}

MtLanguage mt_language_from_name(const std::string& name) {
  if (name == "generic") return MtLanguage::generic;
  if (name == "english" || name == "en") return MtLanguage::english;
  if (name == "french" || name == "fr") return MtLanguage::french;
  throw std::invalid_argument("language must be \"generic\", \"english\" (\"en\") or \"french\" (\"fr\"), got \"" +
                              name + "\"");
}

std::vector<std::string> mt_tokenize(std::string_view text, const MtTokenizerOptions& options) {
  const std::string normal = nfc(text);  // validates the UTF-8
  std::u32string cps;
  cps.reserve(normal.size());
  std::size_t pos = 0;
  char32_t c;
  while (pos < normal.size() && decode_utf8(normal, pos, c)) cps.push_back(c == 0x2019 || c == 0x2BC ? U'\'' : c);

  std::vector<std::u32string> pieces;  // before the language rules
  std::vector<bool> is_word;
  std::u32string word;
  const auto flush = [&] {
    if (word.empty()) return;
    pieces.push_back(std::move(word));
    is_word.push_back(true);
    word.clear();
  };
  const auto emit = [&](std::u32string token) {
    flush();
    pieces.push_back(std::move(token));
    is_word.push_back(false);
  };
  const std::size_t n = cps.size();
  for (std::size_t i = 0; i < n; ++i) {
    const char32_t ch = cps[i];
    const char32_t next = i + 1 < n ? cps[i + 1] : 0;
    const bool prev_word = !word.empty() && is_word_char(word.back());
    if (is_unicode_space(ch)) {
      flush();
    } else if (is_word_char(ch)) {
      word.push_back(ch);
    } else if (ch == U'\'') {
      if (prev_word && next != 0 && is_word_char(next)) {
        word.push_back(ch);
      } else {
        emit(U"'");
      }
    } else if (ch == U'.' && prev_word && next != 0 && is_word_char(next) && !is_punctuation(next)) {
      word.push_back(ch);  // "3.5", "p.m", "U.S"
    } else if ((ch == U',' || ch == U':') && !word.empty() && is_digit(word.back()) && is_digit(next)) {
      word.push_back(ch);  // "3,5", "10:30"
    } else if (ch == U'-' && prev_word && next != 0 && is_word_char(next)) {
      word.push_back(ch);
    } else if (ch == U'.') {
      std::size_t j = i;
      while (j < n && cps[j] == U'.') ++j;
      emit(cps.substr(i, j - i));
      i = j - 1;
    } else {
      emit(std::u32string(1, ch));
    }
  }
  flush();

  std::vector<std::string> tokens;
  tokens.reserve(pieces.size());
  std::vector<std::u32string> split;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    split.clear();
    if (is_word[k] && options.language == MtLanguage::french) {
      split_french(pieces[k], split);
    } else if (is_word[k] && options.language == MtLanguage::english) {
      split_english(pieces[k], split);
    } else {
      split.push_back(pieces[k]);
    }
    for (const std::u32string& s : split) tokens.push_back(utf8(options.lowercase ? lower(s) : s));
  }
  return tokens;
}

namespace {

enum class Join { none, space, french_space };

bool one_of(const std::string& t, std::initializer_list<const char*> set) {
  return std::any_of(set.begin(), set.end(), [&](const char* s) { return t == s; });
}

bool is_contraction(const std::string& t) {
  std::string low;
  for (const char ch : t) low += (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch + 32) : ch;
  return one_of(low, {"n't", "'s", "'m", "'re", "'ve", "'ll", "'d"});
}

}  // namespace

std::string mt_detokenize(const std::vector<std::string>& tokens, const MtDetokenizerOptions& options) {
  const bool french = options.language == MtLanguage::french;
  std::string out;
  bool glue_next = true;  // nothing before the first token
  bool french_space_next = false;
  bool double_open = false, single_open = false;  // an opening " or ' is waiting for its closing one
  std::string previous;
  for (const std::string& t : tokens) {
    if (t.empty()) continue;
    Join join = Join::space;
    bool glue_after = false, french_space_after = false;
    const bool high = one_of(t, {"?", "!", ":", ";", "%"});
    const bool possessive =
        t == "'" && !single_open && !french && !previous.empty() && (previous.back() == 's' || previous.back() == 'S');
    if (possessive) {
      join = Join::none;  // "boys" "'" -> "boys'" (a plural possessive, not an opening quote)
    } else if (t == "\"" || t == "'") {
      bool& open = t == "\"" ? double_open : single_open;
      join = open ? Join::none : Join::space;
      glue_after = !open;
      open = !open;
    } else if (one_of(t, {",", ".", "...", "\xE2\x80\xA6", ")", "]", "}", "\xE2\x80\x9D", "\xE2\x80\xBA"}) ||
               is_contraction(t) || (t.size() > 1 && t[0] == '-')) {
      join = Join::none;  // , . ... … ) ] } ” ›, 's n't, -ce -t-il
    } else if (high) {
      join = french && !one_of(previous, {"?", "!"}) ? Join::french_space : Join::none;
    } else if (t == "\xC2\xBB") {  // »
      join = french ? Join::french_space : Join::none;
    } else if (t == "/") {
      join = Join::none;
      glue_after = true;
    }
    if (one_of(t, {"(", "[", "{", "\xC2\xBF", "\xC2\xA1", "\xE2\x80\x9C", "\xE2\x80\x98", "\xE2\x80\x9E",
                   "\xE2\x80\xB9", "$"}) ||
        (!french && one_of(t, {"\xE2\x82\xAC", "\xC2\xA3"})) || (t.size() > 1 && t.back() == '\'')) {
      glue_after = true;           // ( [ { ¿ ¡ “ ‘ „ ‹ $, l' qu'
    } else if (t == "\xC2\xAB") {  // «
      glue_after = !french;
      french_space_after = french;
    }
    if (!out.empty() && !glue_next) {
      if (french_space_next) {
        out += options.french_space;
      } else if (join == Join::french_space) {
        out += options.french_space;
      } else if (join == Join::space) {
        out += ' ';
      }
    }
    out += t;
    glue_next = glue_after;
    french_space_next = french_space_after;
    previous = t;
  }
  return out;
}

}  // namespace attn
