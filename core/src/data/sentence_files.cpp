// The "one sentence per line, one file per class" layout (load_sentence_files of
// attn/data/review_loaders.hpp), as in sentence-polarity corpora.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/io/line_reader.hpp"
#include "loader_support.hpp"

namespace attn {

using namespace loader_support;

namespace {
// One class's file of load_sentence_files, appended to `out`. `progress_base` is what the files
// before this one contributed, so progress covers both files.
void read_sentence_file(ByteSource& source, int label, const LoadLimits& limits, const ProgressFn& progress,
                        const LoadProgress& progress_base, std::vector<LabelledText>& out) {
  const std::string file = source.name();
  const char* kind = label == 1 ? "positive" : "negative";
  CountingSource counted(source);
  LineReader lines(counted, limits.max_line_bytes);
  std::string text;
  std::size_t sentences = 0, blank_line = 0;  // the first blank line not yet followed by text
  auto report = [&]() {
    if (progress) {
      progress(LoadProgress{progress_base.bytes_read + counted.bytes_read(), progress_base.bytes_total,
                            progress_base.examples + sentences});
    }
  };
  while (lines.next(text)) {
    const std::size_t line = lines.line_number();
    if (line == 1 && text.size() >= 2 &&
        ((text[0] == '\xff' && text[1] == '\xfe') || (text[0] == '\xfe' && text[1] == '\xff'))) {
      throw DataError(file, 0, "the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
    }
    if (text.find_first_not_of(" \t") == std::string::npos) {
      if (blank_line == 0) blank_line = line;
      continue;
    }
    if (blank_line != 0) {
      throw DataError(file, blank_line,
                      "the line is blank, but this layout holds one sentence per line with no blank lines between "
                      "them (is it one review per paragraph?)");
    }
    if (text.size() > limits.max_example_bytes) {
      throw DataError(file, line,
                      "sentence is longer than the limit of " + std::to_string(limits.max_example_bytes) + " bytes");
    }
    require_utf8(text, file, line, "the sentence");
    out.push_back(LabelledText{text, label, file + ":" + std::to_string(line), {}});
    ++sentences;
    check_count(progress_base.examples + sentences, limits, file);
    if (sentences % kProgressEvery == 0) report();
  }
  if (sentences == 0) {
    throw DataError(file, 0,
                    std::string(lines.line_number() == 0 ? "the file is empty" : "the file holds only blank lines") +
                        "; expected one " + kind + " sentence per line");
  }
  report();
}
}  // namespace

std::vector<LabelledText> load_sentence_files(ByteSource& positive, ByteSource& negative, const LoadLimits& limits,
                                              const ProgressFn& progress) {
  if (positive.name() == negative.name()) {
    throw DataError::plain(positive.name(), "the positive and the negative sentences are both read from " +
                                                positive.name() + "; pick one file per class");
  }
  std::vector<LabelledText> examples;
  const LoadProgress base{0, positive.size() + negative.size(), 0};
  read_sentence_file(positive, 1, limits, progress, base, examples);
  const std::size_t positives = examples.size();
  const LoadProgress after_positive{positive.size(), base.bytes_total, positives};
  read_sentence_file(negative, 0, limits, progress, after_positive, examples);
  if (examples.size() == 2 * positives &&
      std::equal(examples.begin(), examples.begin() + static_cast<std::ptrdiff_t>(positives),
                 examples.begin() + static_cast<std::ptrdiff_t>(positives),
                 [](const LabelledText& a, const LabelledText& b) { return a.text == b.text; })) {
    throw DataError::plain(negative.name(), positive.name() + " and " + negative.name() +
                                                " hold the same sentences: pick one file per class (the same "
                                                "file twice?)");
  }
  return examples;
}

}  // namespace attn
