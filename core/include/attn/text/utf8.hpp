// Strict UTF-8 checking and code-point decoding/encoding for the text pipeline.
// No tensors here. Offsets are byte offsets into the text; lines and columns are 1-based.
//
// "Strict" means the well-formed sequences of the Unicode standard (Table 3-7): overlong forms
// (C0 AF, E0 80 80, F0 80 80 80...), surrogates U+D800..U+DFFF (ED A0..BF ..), code points
// above U+10FFFF (F4 90.., F5..FF) and sequences cut short are all rejected.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attn {

// Every text/data error (bad bytes, malformed files). The message starts with "<source>:<line>: "
// so it points at the place to fix, e.g. "reviews.csv:12: invalid UTF-8 (byte 0xff at column 34)".
class TextError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Returns true when `text` contains ill-formed UTF-8 and sets `offset` to the byte where the
// first ill-formed sequence starts (its lead byte, or the stray continuation byte). Returns false
// (offset untouched) for valid text.
bool find_invalid_utf8(std::string_view text, std::size_t& offset);

// The one wording of ill-formed UTF-8, used by validate_utf8 and by every file loader (which
// add where and "; save the file as UTF-8"): "invalid UTF-8 (byte 0xNN at column C)" for the
// first ill-formed sequence, C counting code points from 1 on its line (everything before the bad
// byte is valid, so the column matches what an editor shows). `line` receives first_line plus the
// line breaks before the bad byte. Returns "" (line untouched) for valid text.
std::string invalid_utf8_message(std::string_view text, std::size_t first_line, std::size_t& line);

// Throws TextError "<source>:<line>: invalid UTF-8 (byte 0xNN at column C)" for the first
// ill-formed sequence. `text` starts on line `first_line` of `source` (so a caller validating one
// record of a bigger file gets the file's line number). C counts code points from 1: everything
// before the first bad byte is valid, so the column matches what an editor shows.
void validate_utf8(std::string_view text, const std::string& source, std::size_t first_line = 1);

// Decodes the well-formed sequence starting at text[pos]: on success stores the code point in
// `code_point`, advances `pos` past the sequence and returns true; otherwise returns false and
// leaves both untouched.
bool decode_utf8(std::string_view text, std::size_t& pos, char32_t& code_point);

// Appends the UTF-8 encoding of `code_point` (1-4 bytes). Throws std::invalid_argument for
// surrogates and values above U+10FFFF, which have no UTF-8 form.
void append_utf8(std::string& out, char32_t code_point);
std::string encode_utf8(char32_t code_point);

}  // namespace attn
