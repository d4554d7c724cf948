#include "attn/io/line_reader.hpp"

namespace attn {

ByteReader::ByteReader(ByteSource& source) : source_(source), buffer_(16384) {}

bool ByteReader::fill() {
  pos_ = 0;
  end_ = source_.read(buffer_.data(), buffer_.size());
  return end_ != 0;
}

void ByteReader::skip_bom() {
  if (peek() != 0xef) return;
  // Only valid at the very start (pos_ == 0 after the first fill): top the buffer up to 3 bytes
  // in case the source handed over fewer.
  while (end_ - pos_ < 3) {
    const std::size_t got = source_.read(buffer_.data() + end_, buffer_.size() - end_);
    if (got == 0) break;
    end_ += got;
  }
  if (end_ - pos_ >= 3 && buffer_[pos_ + 1] == 0xbb && buffer_[pos_ + 2] == 0xbf) pos_ += 3;
}

LineReader::LineReader(ByteSource& source, std::size_t max_line_bytes)
    : in_(source), name_(source.name()), max_line_bytes_(max_line_bytes) {
  in_.skip_bom();
}

bool LineReader::next(std::string& line) {
  line.clear();
  if (in_.peek() < 0) return false;
  ++line_number_;
  for (int c = in_.get(); c >= 0 && c != '\n'; c = in_.get()) {
    line += static_cast<char>(c);
    // One byte of slack for the '\r' of a CRLF line end, removed below.
    if (line.size() > max_line_bytes_ + 1) {
      throw DataError(name_, line_number_,
                      "line is longer than the limit of " + std::to_string(max_line_bytes_) + " bytes");
    }
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.size() > max_line_bytes_) {
    throw DataError(name_, line_number_,
                    "line is longer than the limit of " + std::to_string(max_line_bytes_) + " bytes");
  }
  return true;
}

}  // namespace attn
