#include "attn/text/nfc.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

#include "attn/text/utf8.hpp"

namespace attn {

namespace {

#include "nfc_table.inc"

template <class Entry>
const Entry* find_entry(const Entry* begin, const Entry* end, char32_t code_point) {
  const Entry* found =
      std::lower_bound(begin, end, code_point, [](const Entry& e, char32_t c) { return e.code_point < c; });
  return found != end && found->code_point == code_point ? found : nullptr;
}

unsigned combining_class(char32_t c) {
  if (c < 0x0300) return 0;  // nothing below the combining diacritics has a class
  const CombiningClass* e = find_entry(std::begin(kCombiningClasses), std::end(kCombiningClasses), c);
  return e ? e->ccc : 0;
}

void decompose(char32_t c, std::vector<char32_t>& out) {
  const Decomposition* e = c < 0xC0 ? nullptr : find_entry(std::begin(kDecompositions), std::end(kDecompositions), c);
  if (!e) {
    out.push_back(c);
    return;
  }
  for (int k = 0; k < kMaxDecomposition && e->parts[k] != 0; ++k) out.push_back(e->parts[k]);
}

// The primary composite of (first, second), or 0 when there is none.
char32_t compose_pair(char32_t first, char32_t second) {
  const auto* begin = std::begin(kCompositions);
  const auto* end = std::end(kCompositions);
  const auto* found = std::lower_bound(begin, end, std::make_pair(first, second), [](const Composition& e, auto key) {
    return e.first != key.first ? e.first < key.first : e.second < key.second;
  });
  return found != end && found->first == first && found->second == second ? found->composite : 0;
}

std::vector<char32_t> code_points(std::string_view text) {
  validate_utf8(text, "<text>");
  std::vector<char32_t> out;
  out.reserve(text.size());
  std::size_t pos = 0;
  char32_t c;
  while (pos < text.size() && decode_utf8(text, pos, c)) out.push_back(c);
  return out;
}

}  // namespace

std::string nfc(std::string_view text) {
  if (std::all_of(text.begin(), text.end(), [](char b) { return static_cast<unsigned char>(b) < 0x80; })) {
    return std::string(text);  // ASCII is NFC
  }
  // 1. Full canonical decomposition.
  std::vector<char32_t> d;
  for (const char32_t c : code_points(text)) decompose(c, d);
  // 2. Canonical ordering: each run of non-starters sorted by combining class, stably.
  for (std::size_t i = 0; i < d.size();) {
    if (combining_class(d[i]) == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < d.size() && combining_class(d[j]) != 0) ++j;
    std::stable_sort(d.begin() + static_cast<std::ptrdiff_t>(i), d.begin() + static_cast<std::ptrdiff_t>(j),
                     [](char32_t a, char32_t b) { return combining_class(a) < combining_class(b); });
    i = j;
  }
  // 3. Canonical composition: d[i] joins the last starter when it is not blocked, i.e. no
  // character between them has class 0 or a class >= its own.
  std::vector<char32_t> out;
  out.reserve(d.size());
  std::size_t starter = 0;  // index in `out` of the last starter
  bool have_starter = false;
  unsigned last_class = 0;  // class of the last character appended after the starter
  for (const char32_t c : d) {
    const unsigned ccc = combining_class(c);
    if (have_starter) {
      const bool blocked = out.size() - 1 > starter && (last_class == 0 || last_class >= ccc);
      const char32_t composite = blocked ? 0 : compose_pair(out[starter], c);
      if (composite != 0) {
        out[starter] = composite;
        continue;
      }
    }
    if (ccc == 0) {
      starter = out.size();
      have_starter = true;
    }
    last_class = ccc;
    out.push_back(c);
  }
  std::string result;
  result.reserve(text.size());
  for (const char32_t c : out) append_utf8(result, c);
  return result;
}

bool is_nfc(std::string_view text) { return nfc(text) == text; }

const char* nfc_unicode_version() { return kUnicodeVersion; }

}  // namespace attn
