// Sentence pairs for sequence-to-sequence models: the tab-separated parallel text loader
// (Tatoeba / manythings.org files: "source<TAB>target<TAB>attribution") and the helpers that turn
// pairs into id sequences with a source and a target vocabulary.
// Legend: N pairs, Tx source tokens, Ty target tokens (BOS .. EOS included).
//
// Like the review loaders, everything streams through a ByteSource (native files and browser
// ArrayBuffers alike), memory is bounded by ParallelLimits, and every problem in the user's file
// throws DataError "<file>:<line>: <problem>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"  // LoadProgress, ProgressFn
#include "attn/io/byte_source.hpp"
#include "attn/text/seq2seq_vocabulary.hpp"
#include "attn/text/unknown_rate.hpp"

namespace attn {

struct ParallelExample {
  std::string source;  // valid UTF-8, no tab or line break
  std::string target;
};

struct ParallelLimits {
  std::size_t max_line_bytes = 1 << 16;
  std::size_t max_examples = 1 << 21;  // the largest Tatoeba pair files hold ≈ 500k pairs
};

// What a load read and what it skipped, so nothing is dropped silently.
struct ParallelLoadReport {
  std::size_t lines = 0;             // lines read, blank ones included
  std::size_t pairs = 0;             // pairs returned
  std::size_t blank_lines = 0;       // skipped: empty or only spaces and tabs
  std::size_t with_attribution = 0;  // pairs that had a third column (ignored)
  // "3 pairs from 5 lines; skipped 2 blank lines" (no "; skipped" part when nothing was).
  std::string summary() const;
};

// One pair per line: "source<TAB>target", optionally followed by "<TAB>anything" (ignored: the
// attribution column of Tatoeba files). LF or CRLF line ends, an optional UTF-8 BOM; blank lines
// are skipped (counted in `report` when given); spaces around each side are trimmed. A binary file
// is recognised from its first 4 KiB, before any line is parsed. Errors (DataError, verbatim):
//   "<file>: this is a zip archive, not a text file: extract the .txt or .tsv inside and load that"
//   "<file>: this is a gzip-compressed file, not a text file: decompress it first"
//   "<file>: this file is UTF-16, not UTF-8: save it as UTF-8"
//   "<file>: this is not a text file (it contains NUL bytes)"   (NUL in the first 4 KiB)
//   "<file>:<line>: this is not a text file (it contains NUL bytes)"   (NUL further on)
//   "<file>:<line>: expected 'source<TAB>target' but the line has no tab"
//   "<file>:<line>: the source (before the first tab) is empty"
//   "<file>:<line>: the target (after the first tab) is empty"
//   "<file>:<line>: invalid UTF-8 (byte 0xNN at column C); save the file as UTF-8"
//   "<file>:<line>: line is longer than the limit of N bytes"
//   "<file>: the file is empty"  (no non-blank line)
//   "<file>: more than N pairs (the limit)"
std::vector<ParallelExample> load_parallel_text(ByteSource& tsv, const ParallelLimits& limits = {},
                                                const ProgressFn& progress = {}, ParallelLoadReport* report = nullptr);
// The same from a path (native; FileSource errors name the path) or from bytes the caller owns
// (the browser's ArrayBuffer); `name` is what error messages call the file.
std::vector<ParallelExample> load_parallel_text_file(const std::string& path, const ParallelLimits& limits = {},
                                                     ParallelLoadReport* report = nullptr);
std::vector<ParallelExample> load_parallel_text_bytes(const std::uint8_t* data, std::size_t size,
                                                      const std::string& name, const ParallelLimits& limits = {},
                                                      ParallelLoadReport* report = nullptr);

// Sentences to translate, one per line (`attn translate --input`): the same checks and messages
// as load_parallel_text (binary files, invalid UTF-8, NUL bytes, over-long lines, an empty file),
// but no tab is needed; on a line with a tab only the text before it is read, so a pairs file
// gives its sources. Blank lines are skipped; each sentence keeps its 1-based line number.
struct SourceLine {
  std::size_t line = 0;
  std::string text;  // trimmed of spaces and tabs, never empty
};
std::vector<SourceLine> load_source_lines(ByteSource& text, const ParallelLimits& limits = {});
std::vector<SourceLine> load_source_lines_file(const std::string& path, const ParallelLimits& limits = {});

struct ParallelVocabularies {
  Seq2SeqVocabulary source;
  Seq2SeqVocabulary target;
};

// Fits one vocabulary per side on the examples (most frequent max_* - 4 tokens; ids 0..3 are
// PAD, BOS, EOS, UNK), each side split by its own WordTokenizer at word level.
ParallelVocabularies fit_vocabularies(const std::vector<ParallelExample>& examples, TokenLevel level,
                                      std::size_t max_source_size, std::size_t max_target_size,
                                      const WordTokenizer& source_tokenizer = {},
                                      const WordTokenizer& target_tokenizer = {});

struct EncodedPairs {
  std::vector<std::vector<int>> sources;  // N × [Tx], no BOS/EOS
  std::vector<std::vector<int>> targets;  // N × [Ty], BOS .. EOS
};

// Encodes every pair; unknown tokens become UNK.
EncodedPairs encode_pairs(const std::vector<ParallelExample>& examples, const ParallelVocabularies& vocabularies);

// The <unk> rate of each side of encoded pairs (text/unknown_rate.hpp): tokens are the ids other
// than PAD, BOS and EOS.
struct PairUnknownRates {
  UnknownRate source, target;
};
PairUnknownRates unknown_rates(const EncodedPairs& pairs);

}  // namespace attn
