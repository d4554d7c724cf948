#include "attn/data/parallel_text.hpp"

#include "attn/io/line_reader.hpp"
#include "attn/text/utf8.hpp"

namespace attn {

namespace {

constexpr std::size_t kProgressEvery = 1024;  // pairs between progress reports

std::string trimmed(const std::string& text, std::size_t begin, std::size_t end) {
  while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return text.substr(begin, end - begin);
}

}  // namespace

std::vector<ParallelExample> load_parallel_text(ByteSource& tsv, const ParallelLimits& limits,
                                                const ProgressFn& progress) {
  const std::string file = tsv.name();
  CountingSource counted(tsv);
  LineReader lines(counted, limits.max_line_bytes);
  std::vector<ParallelExample> examples;
  std::string text;
  while (lines.next(text)) {
    const std::size_t line = lines.line_number();
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    std::size_t bad_line = line;
    const std::string problem = invalid_utf8_message(text, line, bad_line);
    if (!problem.empty()) throw DataError(file, bad_line, problem + "; save the file as UTF-8");
    const std::size_t tab = text.find('\t');
    if (tab == std::string::npos) throw DataError(file, line, "expected 'source<TAB>target' but the line has no tab");
    const std::size_t second_tab = text.find('\t', tab + 1);
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
  return examples;
}

std::vector<ParallelExample> load_parallel_text_file(const std::string& path, const ParallelLimits& limits) {
  FileSource file(path);
  return load_parallel_text(file, limits);
}

std::vector<ParallelExample> load_parallel_text_bytes(const std::uint8_t* data, std::size_t size,
                                                      const std::string& name, const ParallelLimits& limits) {
  MemorySource source(data, size, name);
  return load_parallel_text(source, limits);
}

ParallelVocabularies fit_vocabularies(const std::vector<ParallelExample>& examples, TokenLevel level,
                                      std::size_t max_source_size, std::size_t max_target_size) {
  std::vector<std::string> sources, targets;
  sources.reserve(examples.size());
  targets.reserve(examples.size());
  for (const ParallelExample& e : examples) {
    sources.push_back(e.source);
    targets.push_back(e.target);
  }
  return {Seq2SeqVocabulary::fit(sources, level, max_source_size),
          Seq2SeqVocabulary::fit(targets, level, max_target_size)};
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

}  // namespace attn
