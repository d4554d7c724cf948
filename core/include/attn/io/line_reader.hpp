// Buffered reading of a ByteSource byte by byte and line by line, shared by the text loaders
// (sentiment CSV/TSV, parallel text) so each parses its own format over one reader.
//
// No tensors here (the shape legend B, T, D, H, V, U, A does not apply): sizes are byte counts.
// Memory stays bounded: one 16 KiB buffer plus the current line, whose length is capped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/io/byte_source.hpp"

namespace attn {

// Single-byte reads with one byte of lookahead over a 16 KiB buffer.
class ByteReader {
 public:
  explicit ByteReader(ByteSource& source);
  // The next byte (0..255), or -1 at the end of the stream.
  int get() {
    if (pos_ == end_ && !fill()) return -1;
    return buffer_[pos_++];
  }
  int peek() {
    if (pos_ == end_ && !fill()) return -1;
    return buffer_[pos_];
  }
  // Skips a UTF-8 byte order mark (EF BB BF); call before the first get().
  void skip_bom();

 private:
  bool fill();
  ByteSource& source_;
  std::vector<std::uint8_t> buffer_;
  std::size_t pos_ = 0, end_ = 0;
};

// Lines split on '\n' with a trailing '\r' removed (LF or CRLF files), after an optional BOM.
class LineReader {
 public:
  // Lines longer than max_line_bytes (without the line end) throw DataError
  // "<source name>:<line>: line is longer than the limit of <max_line_bytes> bytes", so a file
  // without line breaks cannot grow memory without bound.
  LineReader(ByteSource& source, std::size_t max_line_bytes);
  // Stores the next line in `line` (reusing its buffer); false at the end of the input. A final
  // line without '\n' is still a line; an empty input has no lines.
  bool next(std::string& line);
  // 1-based number of the line last returned by next() (0 before the first).
  std::size_t line_number() const { return line_number_; }

 private:
  ByteReader in_;
  std::string name_;
  std::size_t max_line_bytes_;
  std::size_t line_number_ = 0;
};

}  // namespace attn
