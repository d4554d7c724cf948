// Which loader a review file needs, decided from its name and first bytes, so the CLI, the wasm
// API and the page accept the same files: a gzip stream is an aclImdb .tar.gz, ".csv" is RFC 4180
// CSV, ".tsv"/".txt" is sentence<TAB>label.
#pragma once

#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/data/splits.hpp"

namespace attn {

enum class ReviewFormat { aclimdb_archive, csv, tsv };

const char* review_format_name(ReviewFormat format);
// Throws DataError naming the file when neither the bytes nor the name tell the format.
ReviewFormat detect_review_format(const std::string& name, const std::uint8_t* head, std::size_t head_size);
// `split` ("train" | "test") selects the half of an aclImdb archive; CSV/TSV files are one set.
std::vector<LabelledText> load_review_file(ByteSource& source, ReviewFormat format, const std::string& split,
                                           const LoadLimits& limits = {}, const ProgressFn& progress = {});

// A whole file already in memory (a browser File / ArrayBuffer copied into wasm memory): the
// format is detected from `name` and the first bytes, then loaded as load_review_file does.
// `name` appears in origins and error messages ("reviews.csv:12: ...").
std::vector<LabelledText> load_review_bytes(const std::string& name, const std::uint8_t* data, std::size_t size,
                                            const std::string& split, const LoadLimits& limits = {},
                                            const ProgressFn& progress = {});

// Which reviews to test on, the same rule for every source the page (and the CLI's --holdout)
// takes: the source's own test half where it has one (an aclImdb archive with test/), else a
// stratified, seeded hold-out (hold_out, splits.hpp) of test_fraction of its reviews (a CSV, a
// TSV, or an archive holding the training half only). With use_source_test = false the test half
// of an archive is set aside and the hold-out is taken from its training half (the CLI's
// --data aclImdb/train --holdout).
struct ReviewSplit {
  std::vector<LabelledText> train, test;
  bool held_out = false;         // true when `test` was held out of the source's reviews
  bool source_has_test = false;  // true when the source has a test half of its own
};
// Loads `name`'s bytes as load_review_bytes does and splits them by that rule. Throws DataError
// as the loaders do and when a class is missing (check_two_classes), std::invalid_argument for a
// test_fraction outside [0, 1). The hold-out keeps each group on one side when the data names
// groups (data/splits.hpp); by_group = false forgets the groups first (a random split, and no
// grouped validation split later either).
ReviewSplit load_review_bytes_split(const std::string& name, const std::uint8_t* data, std::size_t size,
                                    float test_fraction, std::uint64_t seed, const LoadLimits& limits = {},
                                    const ProgressFn& progress = {}, bool use_source_test = true, bool by_group = true);

// The two-file layout (load_sentence_files) from bytes in memory, split by the same rule: it has
// no test half of its own, so a stratified test_fraction is held out (seeded by `seed`).
// Exceptions as load_review_bytes_split.
struct NamedBytes {
  std::string name;
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
};
ReviewSplit load_sentence_bytes_split(const NamedBytes& positive, const NamedBytes& negative, float test_fraction,
                                      std::uint64_t seed, const LoadLimits& limits = {},
                                      const ProgressFn& progress = {});

}  // namespace attn
