#include "attn/data/review_files.hpp"

#include <algorithm>
#include <cctype>

namespace attn {
namespace {
bool ends_with(std::string name, const std::string& suffix) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
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

}  // namespace attn
