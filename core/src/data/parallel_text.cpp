#include "attn/data/parallel_text.hpp"

#include <algorithm>

#include "attn/io/line_reader.hpp"
#include "attn/text/utf8.hpp"

namespace attn {

namespace {

constexpr std::size_t kProgressEvery = 1024;  // pairs between progress reports

constexpr std::size_t kSniffBytes = 4096;  // how much of a file is checked for binary content

// Passes bytes through and throws DataError when the start of the stream is not text: a zip or
// gzip signature, a UTF-16 byte-order mark, or a NUL byte in the first kSniffBytes bytes.
class TextSniffer : public ByteSource {
 public:
  explicit TextSniffer(ByteSource& inner) : inner_(inner) {}
  std::size_t read(std::uint8_t* out, std::size_t max) override {
    const std::size_t n = inner_.read(out, max);
    if (seen_ < kSniffBytes) check(out, n);
    return n;
  }
  std::string name() const override { return inner_.name(); }
  std::uint64_t size() const override { return inner_.size(); }

 private:
  void check(const std::uint8_t* data, std::size_t n) {
    for (std::size_t i = 0; i < n && head_.size() < 4; ++i) head_.push_back(static_cast<char>(data[i]));
    const auto starts = [&](const char* magic, std::size_t len) {
      return head_.size() >= len && head_.compare(0, len, magic, len) == 0;
    };
    if (starts("PK\x03\x04", 4) || starts("PK\x05\x06", 4)) {
      throw DataError(name(), 0,
                      "this is a zip archive, not a text file: extract the .txt or .tsv inside and load that");
    }
    if (starts("\x1f\x8b", 2))
      throw DataError(name(), 0, "this is a gzip-compressed file, not a text file: decompress it first");
    if (starts("\xff\xfe", 2) || starts("\xfe\xff", 2)) {
      throw DataError(name(), 0, "this file is UTF-16, not UTF-8: save it as UTF-8");
    }
    const std::size_t checked = std::min(n, kSniffBytes - seen_);
    for (std::size_t i = 0; i < checked; ++i) {
      if (data[i] == 0) throw DataError(name(), 0, "this is not a text file (it contains NUL bytes)");
    }
    seen_ += checked;
  }

  ByteSource& inner_;
  std::size_t seen_ = 0;
  std::string head_;
};

std::string with_commas(std::size_t n) {
  std::string digits = std::to_string(n);
  for (std::size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, ",");
  return digits;
}

std::string trimmed(const std::string& text, std::size_t begin, std::size_t end) {
  while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return text.substr(begin, end - begin);
}

}  // namespace

std::string ParallelLoadReport::summary() const {
  std::string out = with_commas(pairs) + (pairs == 1 ? " pair" : " pairs") + " from " + with_commas(lines) +
                    (lines == 1 ? " line" : " lines");
  if (blank_lines > 0)
    out += "; skipped " + with_commas(blank_lines) + (blank_lines == 1 ? " blank line" : " blank lines");
  return out;
}

std::vector<ParallelExample> load_parallel_text(ByteSource& tsv, const ParallelLimits& limits,
                                                const ProgressFn& progress, ParallelLoadReport* report) {
  const std::string file = tsv.name();
  TextSniffer sniffed(tsv);
  CountingSource counted(sniffed);
  LineReader lines(counted, limits.max_line_bytes);
  std::vector<ParallelExample> examples;
  ParallelLoadReport counts;
  std::string text;
  while (lines.next(text)) {
    const std::size_t line = lines.line_number();
    counts.lines = line;
    if (text.find_first_not_of(" \t") == std::string::npos) {
      ++counts.blank_lines;
      continue;
    }
    if (text.find('\0') != std::string::npos)
      throw DataError(file, line, "this is not a text file (it contains NUL bytes)");
    std::size_t bad_line = line;
    const std::string problem = invalid_utf8_message(text, line, bad_line);
    if (!problem.empty()) throw DataError(file, bad_line, problem + "; save the file as UTF-8");
    const std::size_t tab = text.find('\t');
    if (tab == std::string::npos) throw DataError(file, line, "expected 'source<TAB>target' but the line has no tab");
    const std::size_t second_tab = text.find('\t', tab + 1);
    if (second_tab != std::string::npos) ++counts.with_attribution;
    ParallelExample example{trimmed(text, 0, tab),
                            trimmed(text, tab + 1, second_tab == std::string::npos ? text.size() : second_tab)};
    if (example.source.empty()) throw DataError(file, line, "the source (before the first tab) is empty");
    if (example.target.empty()) throw DataError(file, line, "the target (after the first tab) is empty");
    if (examples.size() == limits.max_examples) {
      throw DataError(file, 0, "more than " + std::to_string(limits.max_examples) + " pairs (the limit)");
    }
    examples.push_back(std::move(example));
    if (progress && examples.size() % kProgressEvery == 0)
      progress(LoadProgress{counted.bytes_read(), tsv.size(), examples.size()});
  }
  if (examples.empty()) throw DataError(file, 0, "the file is empty");
  if (progress) progress(LoadProgress{counted.bytes_read(), tsv.size(), examples.size()});
  counts.pairs = examples.size();
  if (report) *report = counts;
  return examples;
}

std::vector<ParallelExample> load_parallel_text_file(const std::string& path, const ParallelLimits& limits,
                                                     ParallelLoadReport* report) {
  FileSource file(path);
  return load_parallel_text(file, limits, {}, report);
}

std::vector<ParallelExample> load_parallel_text_bytes(const std::uint8_t* data, std::size_t size,
                                                      const std::string& name, const ParallelLimits& limits,
                                                      ParallelLoadReport* report) {
  MemorySource source(data, size, name);
  return load_parallel_text(source, limits, {}, report);
}

std::vector<SourceLine> load_source_lines(ByteSource& text, const ParallelLimits& limits) {
  const std::string file = text.name();
  TextSniffer sniffed(text);
  LineReader lines(sniffed, limits.max_line_bytes);
  std::vector<SourceLine> out;
  std::string line_text;
  while (lines.next(line_text)) {
    const std::size_t line = lines.line_number();
    if (line_text.find('\0') != std::string::npos)
      throw DataError(file, line, "this is not a text file (it contains NUL bytes)");
    std::size_t bad_line = line;
    const std::string problem = invalid_utf8_message(line_text, line, bad_line);
    if (!problem.empty()) throw DataError(file, bad_line, problem + "; save the file as UTF-8");
    const std::size_t tab = line_text.find('\t');
    std::string sentence = trimmed(line_text, 0, tab == std::string::npos ? line_text.size() : tab);
    if (sentence.empty()) continue;
    if (out.size() == limits.max_examples) {
      throw DataError(file, 0, "more than " + std::to_string(limits.max_examples) + " sentences (the limit)");
    }
    out.push_back({line, std::move(sentence)});
  }
  if (out.empty()) throw DataError(file, 0, "the file is empty");
  return out;
}

std::vector<SourceLine> load_source_lines_file(const std::string& path, const ParallelLimits& limits) {
  FileSource file(path);
  return load_source_lines(file, limits);
}

ParallelVocabularies fit_vocabularies(const std::vector<ParallelExample>& examples, TokenLevel level,
                                      std::size_t max_source_size, std::size_t max_target_size,
                                      const WordTokenizer& source_tokenizer, const WordTokenizer& target_tokenizer) {
  std::vector<std::string> sources, targets;
  sources.reserve(examples.size());
  targets.reserve(examples.size());
  for (const ParallelExample& e : examples) {
    sources.push_back(e.source);
    targets.push_back(e.target);
  }
  return {Seq2SeqVocabulary::fit(sources, level, max_source_size, source_tokenizer),
          Seq2SeqVocabulary::fit(targets, level, max_target_size, target_tokenizer)};
}

EncodedPairs encode_pairs(const std::vector<ParallelExample>& examples, const ParallelVocabularies& vocabularies) {
  EncodedPairs out;
  out.sources.reserve(examples.size());
  out.targets.reserve(examples.size());
  for (const ParallelExample& e : examples) {
    out.sources.push_back(vocabularies.source.encode(e.source));
    out.targets.push_back(vocabularies.target.encode(e.target, true));
  }
  return out;
}

PairUnknownRates unknown_rates(const EncodedPairs& pairs) {
  PairUnknownRates out;
  for (const std::vector<int>& ids : pairs.sources) out.source.add(ids);
  for (const std::vector<int>& ids : pairs.targets) out.target.add(ids);
  return out;
}

}  // namespace attn
