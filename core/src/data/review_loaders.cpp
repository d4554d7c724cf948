// The format-independent parts of attn/data/review_loaders.hpp (the gzip sniff, the two-class
// check) and the checks every loader shares (loader_support.hpp). The formats: csv_tsv_loaders.cpp,
// aclimdb_loaders.cpp, sentence_files.cpp.
#include "attn/data/review_loaders.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "attn/text/utf8.hpp"
#include "loader_support.hpp"

namespace attn {

namespace loader_support {

void require_utf8(const std::string& text, const std::string& file, std::size_t line, const char* what) {
  std::size_t bad_line = line;
  const std::string problem = invalid_utf8_message(text, line == 0 ? 1 : line, bad_line);
  if (!problem.empty()) throw DataError(file, bad_line, problem + " in " + what + "; save the file as UTF-8");
}

std::string trimmed(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string trimmed_lower(const std::string& s) {
  std::string out = trimmed(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int parse_label(const std::string& text) {
  const std::string t = trimmed_lower(text);
  if (t == "positive" || t == "pos" || t == "1") return 1;
  if (t == "negative" || t == "neg" || t == "0") return 0;
  return -1;
}

int require_label(const std::string& text, const std::string& file, std::size_t line) {
  const int label = parse_label(text);
  if (label < 0) {
    // The label is user text: cut it short so a runaway field cannot flood the message.
    const std::string shown = text.size() > 40 ? text.substr(0, 40) + "..." : text;
    throw DataError(file, line, "label '" + shown + "' is not one of positive, negative, pos, neg, 1, 0");
  }
  return label;
}

void check_count(std::size_t count, const LoadLimits& limits, const std::string& file) {
  if (count > limits.max_examples) {
    throw DataError(file, 0, "more than " + std::to_string(limits.max_examples) + " examples (the limit)");
  }
}

std::size_t TextOnlySource::read(std::uint8_t* out, std::size_t max) {
  if (!sniffed_) sniff();
  if (head_used_ == head_.size()) return inner_.read(out, max);
  const std::size_t n = std::min(max, head_.size() - head_used_);
  std::memcpy(out, head_.data() + head_used_, n);
  head_used_ += n;
  return n;
}

void TextOnlySource::sniff() {
  sniffed_ = true;
  head_.resize(kTextSniffBytes);
  head_.resize(read_fully(inner_, head_.data(), head_.size()));
  if (head_.size() >= 2 && ((head_[0] == 0xff && head_[1] == 0xfe) || (head_[0] == 0xfe && head_[1] == 0xff))) {
    throw DataError(name(), 0, "the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
  }
  std::size_t control = 0;
  for (const std::uint8_t c : head_)
    control += (c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r') || c == 0x7f;
  const bool nul = std::find(head_.begin(), head_.end(), std::uint8_t{0}) != head_.end();
  if (nul || control * 20 > head_.size()) {
    throw DataError(name(), 0,
                    "this is not a text file (its first bytes are binary); a review file is CSV or TSV text "
                    "saved as UTF-8, and an aclImdb archive is a .tar.gz");
  }
}

}  // namespace loader_support

bool looks_like_gzip(const std::uint8_t* first_bytes, std::size_t size) {
  if (size < 2 || first_bytes[0] != 0x1f || first_bytes[1] != 0x8b) return false;
  return size < 3 || first_bytes[2] == 8;
}

void check_two_classes(const std::vector<LabelledText>& examples, const std::string& source) {
  std::size_t positive = 0;
  for (const auto& example : examples) positive += example.label == 1 ? 1 : 0;
  if (examples.empty()) throw DataError::plain(source, "no examples were found in " + source);
  if (positive == examples.size()) {
    throw DataError::plain(source,
                           "only positive examples were found in " + source + "; a classifier needs both classes");
  }
  if (positive == 0) {
    throw DataError::plain(source,
                           "only negative examples were found in " + source + "; a classifier needs both classes");
  }
}

}  // namespace attn
