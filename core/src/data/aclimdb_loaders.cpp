// aclImdb reviews (load_aclimdb_archive, load_aclimdb_archive_halves, load_aclimdb_folder of
// attn/data/review_loaders.hpp): one file per review under <split>/{pos,neg}/, from a .tar.gz
// read in one streaming pass or from an extracted folder, each review given its movie from the
// split's urls_{pos,neg}.txt.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/io/gzip.hpp"
#include "attn/io/tar.hpp"
#include "loader_support.hpp"

#ifndef __EMSCRIPTEN__
#include <filesystem>
#endif

namespace attn {

using namespace loader_support;

namespace {

// Is this archive path "[<folder>/]<split>/{pos,neg}/<name>.txt"? Returns the label or -1.
int aclimdb_label(std::string path, const std::string& split) {
  while (path.compare(0, 2, "./") == 0) path.erase(0, 2);
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  const std::size_t n = parts.size();
  if (n != 3 && n != 4) return -1;
  const std::string& file = parts[n - 1];
  if (file.size() <= 4 || file.compare(file.size() - 4, 4, ".txt") != 0) return -1;
  if (parts[n - 3] != split || (n == 4 && parts[0].empty())) return -1;
  if (parts[n - 2] == "pos") return 1;
  if (parts[n - 2] == "neg") return 0;
  return -1;
}

// Is this archive path "[<folder>/]<split>/urls_{pos,neg}.txt"? Returns the label it names or -1.
int aclimdb_urls_label(std::string path, const std::string& split) {
  while (path.compare(0, 2, "./") == 0) path.erase(0, 2);
  for (const auto& [name, label] : {std::pair<const char*, int>{"urls_pos.txt", 1}, {"urls_neg.txt", 0}}) {
    const std::string tail = split + "/" + name;
    if (path == tail) return label;
    if (path.size() > tail.size() + 1 && path.compare(path.size() - tail.size(), tail.size(), tail) == 0 &&
        path[path.size() - tail.size() - 1] == '/' && path.find('/') == path.size() - tail.size() - 1) {
      return label;
    }
  }
  return -1;
}

// The review id of an aclImdb file name "<id>_<rating>.txt" (any folders before it), or -1.
long aclimdb_review_id(const std::string& path) {
  const std::size_t slash = path.find_last_of("/\\");
  const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t underscore = file.find('_');
  if (underscore == 0 || underscore == std::string::npos || underscore > 9) return -1;
  long id = 0;
  for (std::size_t i = 0; i < underscore; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(file[i]))) return -1;
    id = id * 10 + (file[i] - '0');
  }
  return id;
}

// A movie's group name from its urls_*.txt line: the IMDb title id ("tt0453418") when the line
// holds one, else the trimmed line itself.
std::string movie_group(const std::string& line) {
  const std::size_t at = line.find("/title/tt");
  if (at != std::string::npos) {
    std::size_t end = at + 9;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
    if (end > at + 9) return line.substr(at + 7, end - at - 7);
  }
  return trimmed(line);
}

// The lines of a urls_*.txt text (LF or CRLF), each turned into its movie's group.
std::vector<std::string> movie_groups(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(movie_group(text.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

// Gives each review of one split the movie its urls_*.txt names (line N for review id N), when
// the split has that file for the review's class; reviews of a class without the file keep no
// group. A review whose id has no line (or an empty one) is a damaged archive: DataError.
void assign_movies(std::vector<LabelledText>& reviews, const std::array<std::vector<std::string>, 2>& urls,
                   const std::array<std::string, 2>& urls_origin) {
  for (LabelledText& r : reviews) {
    const auto label = static_cast<std::size_t>(r.label);
    const std::vector<std::string>& lines = urls[label];
    if (urls_origin[label].empty()) continue;
    const long id = aclimdb_review_id(r.origin);
    if (id < 0 || static_cast<std::size_t>(id) >= lines.size() || lines[static_cast<std::size_t>(id)].empty()) {
      throw DataError(urls_origin[label], 0,
                      "has no movie for " + r.origin + " (line " + std::to_string(id) + " of " +
                          std::to_string(lines.size()) + "): the file does not match the reviews");
    }
    r.group = lines[static_cast<std::size_t>(id)];
  }
}

void require_split(const std::string& split, const char* function) {
  if (split != "train" && split != "test") {
    throw std::invalid_argument(std::string(function) + ": split must be \"train\" or \"test\", got \"" + split + "\"");
  }
}

// One pass over an aclImdb .tar.gz: the reviews of every split in `splits` ("train", "test"),
// each into its own list (out[i] for splits[i]).
void read_aclimdb_archive(ByteSource& tar_gz, const std::vector<std::string>& splits, const LoadLimits& limits,
                          const ProgressFn& progress, std::vector<std::vector<LabelledText>>& out) {
  const std::string archive = tar_gz.name();
  CountingSource counted(tar_gz);
  GzipReader gzip(counted, limits.max_decompressed_bytes);
  // Entry sizes are bounded by the decompressed total; review files get the tighter bound below.
  TarReader tar(gzip, limits.max_decompressed_bytes);
  out.assign(splits.size(), {});
  std::size_t count = 0;
  auto report = [&]() {
    if (progress) progress(LoadProgress{counted.bytes_read(), tar_gz.size(), count});
  };
  // urls[split][label]: the movie of each review id, from "<split>/urls_{neg,pos}.txt".
  std::vector<std::array<std::vector<std::string>, 2>> urls(splits.size());
  std::vector<std::array<std::string, 2>> urls_origin(splits.size());
  TarEntry entry;
  while (tar.next(entry)) {
    if (entry.type != TarEntryType::file) continue;
    int label = -1;
    std::size_t which = 0;
    for (; which < splits.size(); ++which) {
      label = aclimdb_label(entry.name, splits[which]);
      if (label >= 0) break;
      const int urls_label = aclimdb_urls_label(entry.name, splits[which]);
      if (urls_label < 0) continue;
      const std::string origin = archive + ":" + entry.name;
      if (entry.size > limits.max_decompressed_bytes / 8 || entry.size > (64u << 20)) {
        throw DataError(origin, 0, "is " + std::to_string(entry.size) + " bytes, too large for a list of movie pages");
      }
      std::string text(static_cast<std::size_t>(entry.size), '\0');
      if (!text.empty()) tar.read(reinterpret_cast<std::uint8_t*>(&text[0]), text.size());
      require_utf8(text, origin, 0, "the list of movie pages");
      urls[which][urls_label] = movie_groups(text);
      urls_origin[which][urls_label] = origin;
      break;
    }
    if (label < 0) continue;
    const std::string origin = archive + ":" + entry.name;
    if (entry.size > limits.max_example_bytes) {
      throw DataError(origin, 0,
                      "review is " + std::to_string(entry.size) + " bytes, larger than the limit of " +
                          std::to_string(limits.max_example_bytes) + " bytes");
    }
    std::string text(static_cast<std::size_t>(entry.size), '\0');
    if (!text.empty()) tar.read(reinterpret_cast<std::uint8_t*>(&text[0]), text.size());
    require_utf8(text, origin, 0, "the review");
    out[which].push_back(LabelledText{std::move(text), label, origin, {}});
    check_count(++count, limits, archive);
    if (count % kProgressEvery == 0) report();
  }
  // Read the gzip stream to its end: this verifies the last member's CRC-32 and length, so an
  // archive cut short after the tar end blocks is still reported.
  std::uint8_t sink[4096];
  while (gzip.read(sink, sizeof sink) != 0) {
  }
  for (std::size_t which = 0; which < splits.size(); ++which)
    assign_movies(out[which], urls[which], urls_origin[which]);
  report();

}  // namespace

[[noreturn]] void no_reviews(const std::string& archive, const std::string& split) {
  throw DataError(
      archive, 0,
      "no reviews found: expected files like aclImdb/" + split + "/pos/*.txt and aclImdb/" + split + "/neg/*.txt");
}
}  // namespace

std::vector<LabelledText> load_aclimdb_archive(ByteSource& tar_gz, const std::string& split, const LoadLimits& limits,
                                               const ProgressFn& progress) {
  require_split(split, "load_aclimdb_archive");
  std::vector<std::vector<LabelledText>> halves;
  read_aclimdb_archive(tar_gz, {split}, limits, progress, halves);
  if (halves[0].empty()) no_reviews(tar_gz.name(), split);
  return std::move(halves[0]);
}

AclImdbHalves load_aclimdb_archive_halves(ByteSource& tar_gz, const LoadLimits& limits, const ProgressFn& progress) {
  std::vector<std::vector<LabelledText>> halves;
  read_aclimdb_archive(tar_gz, {"train", "test"}, limits, progress, halves);
  if (halves[0].empty()) no_reviews(tar_gz.name(), "train");
  return AclImdbHalves{std::move(halves[0]), std::move(halves[1])};
}

std::vector<LabelledText> load_aclimdb_folder(const std::string& root_or_split_dir, const std::string& split,
                                              const LoadLimits& limits, const ProgressFn& progress) {
  require_split(split, "load_aclimdb_folder");
#ifdef __EMSCRIPTEN__
  (void)limits;
  (void)progress;
  throw DataError(root_or_split_dir, 0,
                  "reading folders is not available in the browser; load the .tar.gz archive instead");
#else
  namespace fs = std::filesystem;
  std::vector<LabelledText> examples;
  try {
    const fs::path root(root_or_split_dir);
    if (!fs::is_directory(root)) throw DataError(root_or_split_dir, 0, "folder not found");
    fs::path split_dir;
    if (fs::is_directory(root / split / "pos") && fs::is_directory(root / split / "neg")) {
      split_dir = root / split;
    } else if (fs::is_directory(root / "pos") && fs::is_directory(root / "neg")) {
      split_dir = root;
    } else {
      throw DataError(root_or_split_dir, 0,
                      "expected folders " + split + "/pos and " + split + "/neg, or pos and neg, inside it");
    }
    std::vector<std::pair<fs::path, int>> files;
    std::uint64_t bytes_total = 0;
    for (const auto& [folder, label] : {std::pair<const char*, int>{"pos", 1}, {"neg", 0}}) {
      std::vector<fs::path> names;
      for (const auto& item : fs::directory_iterator(split_dir / folder)) {
        if (item.is_regular_file() && item.path().extension() == ".txt") names.push_back(item.path());
      }
      std::sort(names.begin(), names.end());
      for (auto& name : names) {
        bytes_total += fs::file_size(name);
        files.emplace_back(std::move(name), label);
      }
    }
    check_count(files.size(), limits, root_or_split_dir);
    std::uint64_t bytes_read = 0;
    for (const auto& [path, label] : files) {
      FileSource file(path.string());
      if (file.size() > limits.max_example_bytes) {
        throw DataError(path.string(), 0,
                        "review is " + std::to_string(file.size()) + " bytes, larger than the limit of " +
                            std::to_string(limits.max_example_bytes) + " bytes");
      }
      std::string text(static_cast<std::size_t>(file.size()), '\0');
      const std::size_t got =
          text.empty() ? 0 : read_fully(file, reinterpret_cast<std::uint8_t*>(&text[0]), text.size());
      text.resize(got);  // the file may have shrunk since we looked
      bytes_read += got;
      require_utf8(text, path.string(), 0, "the review");
      examples.push_back(LabelledText{std::move(text), label, path.string(), {}});
      if (progress && examples.size() % kProgressEvery == 0)
        progress(LoadProgress{bytes_read, bytes_total, examples.size()});
    }
    if (examples.empty()) throw DataError(split_dir.string(), 0, "no .txt reviews found in pos/ or neg/");
    std::array<std::vector<std::string>, 2> urls;
    std::array<std::string, 2> urls_origin;
    for (const auto& [name, label] : {std::pair<const char*, int>{"urls_pos.txt", 1}, {"urls_neg.txt", 0}}) {
      const fs::path path = split_dir / name;
      if (!fs::is_regular_file(path)) continue;
      FileSource file(path.string());
      if (file.size() > (64u << 20)) {
        throw DataError(path.string(), 0,
                        "is " + std::to_string(file.size()) + " bytes, too large for a list of movie pages");
      }
      std::string text(static_cast<std::size_t>(file.size()), '\0');
      text.resize(text.empty() ? 0 : read_fully(file, reinterpret_cast<std::uint8_t*>(&text[0]), text.size()));
      require_utf8(text, path.string(), 0, "the list of movie pages");
      urls[label] = movie_groups(text);
      urls_origin[label] = path.string();
    }
    assign_movies(examples, urls, urls_origin);
    if (progress) progress(LoadProgress{bytes_read, bytes_total, examples.size()});
  } catch (const fs::filesystem_error& error) {
    throw DataError(root_or_split_dir, 0, error.what());
  }
  return examples;
#endif
}

}  // namespace attn
