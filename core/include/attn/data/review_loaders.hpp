// Loaders for labelled sentiment data: the aclImdb archive or folder, CSV and TSV files.
//
// No tensors here (the shape legend B, T, D, H, V, U, A does not apply): loaders produce
// LabelledText records that the tokenizer turns into T-long token rows later. Everything streams
// through a ByteSource (memory stays bounded by the limits below, not by file size), the same
// code runs natively and in wasm, and every problem in the user's data throws DataError with
// "file:line" or "archive:path" so the message can be shown as is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "attn/io/byte_source.hpp"

namespace attn {

struct LabelledText {
  std::string text;    // valid UTF-8
  int label = 0;       // 1 positive, 0 negative
  std::string origin;  // "file:line" or "archive:path"
  // What the example belongs to, for grouped splits (data/splits.hpp): aclImdb's movie (its IMDb
  // page from urls_pos.txt / urls_neg.txt), a CSV's or TSV's `group` column; "" = not known.
  std::string group;
};

struct LoadProgress {
  std::uint64_t bytes_read = 0;   // of the (compressed) input
  std::uint64_t bytes_total = 0;  // 0 if unknown
  std::size_t examples = 0;
};
using ProgressFn = std::function<void(const LoadProgress&)>;

// Bounds on hostile input; going over any of them throws DataError saying which limit, so a
// file can neither exhaust memory nor be silently cut. Memory while loading stays below the kept
// review text (at most max_examples × max_example_bytes, and never more than the input or
// max_decompressed_bytes) plus one line and ~170 KiB of inflater state.
struct LoadLimits {
  // Total decompressed output of a .tar.gz: a zip bomb stops here ("... exceeds the limit of N
  // bytes (zip bomb?)").
  std::uint64_t max_decompressed_bytes = 2ull << 30;
  // One review's text (a CSV field, a TSV sentence, an aclImdb file).
  std::size_t max_example_bytes = 1 << 20;
  // One whole CSV record or TSV line, separators and label included ("line is longer than the
  // limit of N bytes"): a 1 GB line is refused after N bytes without being buffered.
  std::size_t max_line_bytes = (1 << 20) + 4096;
  std::size_t max_examples = 1 << 22;
};

// True if the bytes start like a gzip member (1f 8b, then method 8 when present).
bool looks_like_gzip(const std::uint8_t* first_bytes, std::size_t size);

// Reviews from an aclImdb .tar.gz: entries "<folder>/<split>/{pos,neg}/*.txt" (any one leading
// folder name, or none), label from the folder; unsup/, other splits and other files are
// skipped. split is "train" or "test". Origins read "<archive name>:<path in archive>".
std::vector<LabelledText> load_aclimdb_archive(ByteSource& tar_gz, const std::string& split,
                                               const LoadLimits& limits = {}, const ProgressFn& progress = {});

// Both halves in one pass over the archive (the page reads a 59 MB archive once, not twice).
// `test` is empty for an archive holding the training half only (aclImdb_train.tar.gz); no
// training reviews throws the "no reviews found ... aclImdb/train/pos/*.txt" DataError.
struct AclImdbHalves {
  std::vector<LabelledText> train, test;
};
AclImdbHalves load_aclimdb_archive_halves(ByteSource& tar_gz, const LoadLimits& limits = {},
                                          const ProgressFn& progress = {});

// The same from an extracted folder (native only): root_or_split_dir is the aclImdb root
// (containing <split>/pos and <split>/neg) or a split folder containing pos/ and neg/. Files are
// read in sorted name order so the result is deterministic.
std::vector<LabelledText> load_aclimdb_folder(const std::string& root_or_split_dir, const std::string& split,
                                              const LoadLimits& limits = {}, const ProgressFn& progress = {});

// Which CSV columns hold the text and the label: a header name (case-insensitive), else an index,
// else the first header matching the defaults ("review", "text", "sentence", "content" /
// "sentiment", "label", "polarity", "rating").
struct CsvOptions {
  std::string text_column;
  std::string label_column;
  int text_index = -1;
  int label_index = -1;
  // Without a header, columns are chosen by index (defaults: text 0, label 1).
  bool has_header = true;
  LoadLimits limits;
};

// RFC 4180 CSV: quoted fields may hold commas, doubled quotes and newlines; CRLF or LF line ends;
// an optional UTF-8 BOM. Labels: positive/negative/pos/neg (any case), 1/0. Blank lines skipped.
std::vector<LabelledText> load_csv(ByteSource& csv, const CsvOptions& options = {}, const ProgressFn& progress = {});

// Lines "sentence<TAB>label" (the last tab separates), same labels; a header line is detected
// when line 1's second field is not a label. Blank lines skipped.
std::vector<LabelledText> load_tsv(ByteSource& tsv, const LoadLimits& limits = {}, const ProgressFn& progress = {});

// The "one sentence per line, one file per class" layout of sentence-polarity corpora (two
// plain-text files such as rt-polarity.pos and rt-polarity.neg): every line of `positive` is a
// positive example, every line of `negative` a negative one; positives come first, each file in
// line order, origins "file:line". Optional UTF-8 BOM, LF or CRLF line ends; blank lines are
// allowed only at the end of a file. Throws DataError for an empty file (or one of blank lines
// only), a blank line between sentences, bytes that are not UTF-8 (naming the line and offset;
// UTF-16 files are recognised by their byte order mark), a line over the limits, or both files
// holding the same sentences (the same file picked twice).
std::vector<LabelledText> load_sentence_files(ByteSource& positive, ByteSource& negative, const LoadLimits& limits = {},
                                              const ProgressFn& progress = {});

// Throws DataError unless both labels occur ("only positive examples were found in X; a
// classifier needs both classes"), or when there are no examples at all.
void check_two_classes(const std::vector<LabelledText>& examples, const std::string& source);

}  // namespace attn
