// Private to core/src/data: what the review loaders of attn/data/review_loaders.hpp share, one
// wording for each check. The loaders live one format per source: csv_tsv_loaders.cpp (CSV, TSV),
// aclimdb_loaders.cpp (the aclImdb archive and folder), sentence_files.cpp (one file per class);
// review_loaders.cpp defines these helpers and the format-independent functions of the header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/io/byte_source.hpp"

namespace attn::loader_support {

constexpr std::size_t kProgressEvery = 256;  // examples between progress reports

// The one UTF-8 wording (text/utf8.hpp), told which part of the record it is in: "<file>:<line>:
// invalid UTF-8 (byte 0xNN at column C) in the text; save the file as UTF-8". `line` 0 (a file of
// its own, as an aclImdb review) counts the text's lines from 1.
void require_utf8(const std::string& text, const std::string& file, std::size_t line, const char* what);

// Spaces trimmed from both ends; trimmed_lower also lowercases (ASCII).
std::string trimmed(const std::string& s);
std::string trimmed_lower(const std::string& s);

// 1, 0, or -1 when the text is not a label (positive/negative/pos/neg in any case, 1/0).
int parse_label(const std::string& text);
// The label, or DataError "label '...' is not one of ..." at file:line.
int require_label(const std::string& text, const std::string& file, std::size_t line);

// DataError once `count` examples pass limits.max_examples.
void check_count(std::size_t count, const LoadLimits& limits, const std::string& file);

// Passes a stream through once its first bytes look like text. A NUL byte, or more than one byte
// in 20 that is a control character other than tab, line feed, form feed or carriage return, in
// the first kTextSniffBytes means binary (compressed or binary data has both; text in any 8-bit
// encoding neither): one plain sentence then, instead of a header's raw bytes in a message.
class TextOnlySource : public ByteSource {
 public:
  static constexpr std::size_t kTextSniffBytes = 1024;
  explicit TextOnlySource(ByteSource& inner) : inner_(inner) {}
  std::size_t read(std::uint8_t* out, std::size_t max) override;
  std::string name() const override { return inner_.name(); }
  std::uint64_t size() const override { return inner_.size(); }

 private:
  void sniff();

  ByteSource& inner_;
  std::vector<std::uint8_t> head_;
  std::size_t head_used_ = 0;
  bool sniffed_ = false;
};

}  // namespace attn::loader_support
