// Unicode canonical composition (NFC) for the scripts of European languages, so that a French
// "é" typed as e + U+0301 (combining acute) and as the precomposed U+00E9 become the same
// token. No tensors here; text is UTF-8 in and out.
//
// The algorithm is the standard's (UAX #15): full canonical decomposition, canonical ordering of
// combining marks by their combining class (a stable sort of each run of non-starters), then
// canonical composition (a mark composes with the last starter unless a mark of the same or a
// higher class stands between them). The Unicode data comes from a table generated offline by
// scripts/gen_nfc_table.py from Python's unicodedata (no run-time dependency), covering
//   U+0000..U+052F  Latin (Basic, Latin-1, Extended-A/B), IPA, combining diacritics, Greek, Cyrillic
//   U+1E00..U+1FFF  Latin Extended Additional (Vietnamese ...), Greek Extended
//   plus the combining classes of the mark blocks U+1AB0..U+1AFF, U+1DC0..U+1DFF, U+20D0..U+20FF.
// Code points outside these ranges (CJK, Hangul, Arabic, emoji, ...) pass through unchanged:
// text that is already NFC there stays NFC, and nothing is ever lost. Because those characters
// are never decomposed, a mark after one of them stays as written.
#pragma once

#include <string>
#include <string_view>

namespace attn {

// NFC of `text` (for the covered ranges, see above). Throws TextError "<text>:1: invalid UTF-8
// (...)" for ill-formed UTF-8.
std::string nfc(std::string_view text);

// True when nfc(text) == text, cheaply for ASCII. Same errors as nfc.
bool is_nfc(std::string_view text);

// The version of the Unicode data the table was generated from (e.g. "14.0.0").
const char* nfc_unicode_version();

}  // namespace attn
