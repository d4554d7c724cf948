#include "attn/data/review_files.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace attn {
namespace {
bool ends_with(std::string name, const std::string& suffix) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void check_test_fraction(float test_fraction) {
  if (!(test_fraction >= 0.f && test_fraction < 1.f)) {
    throw std::invalid_argument("the test share must be in [0, 1), got " + std::to_string(test_fraction));
  }
}

// The hold-out half of the split rule: a stratified test_fraction of `all` becomes the test set.
void held_out_split(std::vector<LabelledText> all, float test_fraction, std::uint64_t seed, ReviewSplit& out) {
  TrainTestSplit split = hold_out(std::move(all), test_fraction, seed);
  out.train = std::move(split.train);
  out.test = std::move(split.test);
  out.held_out = true;
}
}  // namespace

const char* review_format_name(ReviewFormat format) {
  switch (format) {
    case ReviewFormat::aclimdb_archive:
      return "aclImdb .tar.gz";
    case ReviewFormat::csv:
      return "CSV";
    case ReviewFormat::tsv:
      return "TSV";
  }
  return "unknown";
}

ReviewFormat detect_review_format(const std::string& name, const std::uint8_t* head, std::size_t head_size) {
  if (looks_like_gzip(head, head_size)) return ReviewFormat::aclimdb_archive;
  if (ends_with(name, ".gz") || ends_with(name, ".tgz")) {
    throw DataError::plain(name, name + ": the name says gzip but the file does not start like a gzip stream");
  }
  if (ends_with(name, ".csv")) return ReviewFormat::csv;
  if (ends_with(name, ".tsv") || ends_with(name, ".txt")) return ReviewFormat::tsv;
  throw DataError::plain(name, name + ": unknown file type; expected an aclImdb .tar.gz, a .csv or a .tsv file");
}

std::vector<LabelledText> load_review_file(ByteSource& source, ReviewFormat format, const std::string& split,
                                           const LoadLimits& limits, const ProgressFn& progress) {
  switch (format) {
    case ReviewFormat::aclimdb_archive:
      return load_aclimdb_archive(source, split, limits, progress);
    case ReviewFormat::csv: {
      CsvOptions options;
      options.limits = limits;
      return load_csv(source, options, progress);
    }
    case ReviewFormat::tsv:
      return load_tsv(source, limits, progress);
  }
  throw DataError::plain(source.name(), "unknown review format");
}

std::vector<LabelledText> load_review_bytes(const std::string& name, const std::uint8_t* data, std::size_t size,
                                            const std::string& split, const LoadLimits& limits,
                                            const ProgressFn& progress) {
  MemorySource source(data, size, name);
  return load_review_file(source, detect_review_format(name, data, size), split, limits, progress);
}

ReviewSplit load_review_bytes_split(const std::string& name, const std::uint8_t* data, std::size_t size,
                                    float test_fraction, std::uint64_t seed, const LoadLimits& limits,
                                    const ProgressFn& progress, bool use_source_test, bool by_group) {
  check_test_fraction(test_fraction);
  MemorySource source(data, size, name);
  ReviewSplit out;
  std::vector<LabelledText> all;
  if (detect_review_format(name, data, size) == ReviewFormat::aclimdb_archive) {
    AclImdbHalves halves = load_aclimdb_archive_halves(source, limits, progress);
    check_two_classes(halves.train, name);
    if (!by_group) {
      clear_groups(halves.train);
      clear_groups(halves.test);
    }
    out.source_has_test = !halves.test.empty();
    if (out.source_has_test && use_source_test) {
      out.train = std::move(halves.train);
      out.test = std::move(halves.test);
      return out;
    }
    all = std::move(halves.train);
  } else {
    all = load_review_file(source, detect_review_format(name, data, size), "train", limits, progress);
    check_two_classes(all, name);
  }
  if (!by_group) clear_groups(all);
  held_out_split(std::move(all), test_fraction, seed, out);
  return out;
}

ReviewSplit load_sentence_bytes_split(const NamedBytes& positive, const NamedBytes& negative, float test_fraction,
                                      std::uint64_t seed, const LoadLimits& limits, const ProgressFn& progress) {
  check_test_fraction(test_fraction);
  MemorySource positive_source(positive.data, positive.size, positive.name);
  MemorySource negative_source(negative.data, negative.size, negative.name);
  ReviewSplit out;
  held_out_split(load_sentence_files(positive_source, negative_source, limits, progress), test_fraction, seed, out);
  return out;
}

}  // namespace attn
