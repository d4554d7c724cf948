#include "attn/data/review_loaders.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <stdexcept>

#include "attn/io/gzip.hpp"
#include "attn/io/line_reader.hpp"
#include "attn/io/tar.hpp"
#include "attn/text/utf8.hpp"

#ifndef __EMSCRIPTEN__
#include <filesystem>
#endif

namespace attn {

namespace {

constexpr std::size_t kProgressEvery = 256;  // examples between progress reports
constexpr std::size_t kMaxCsvFields = 4096;
constexpr std::size_t kNoColumn = static_cast<std::size_t>(-1);

// The one UTF-8 wording (text/utf8.hpp), told which part of the record it is in: "<file>:<line>:
// invalid UTF-8 (byte 0xNN at column C) in the text; save the file as UTF-8". `line` 0 (a file of
// its own, as an aclImdb review) counts the text's lines from 1.
void require_utf8(const std::string& text, const std::string& file, std::size_t line, const char* what) {
  std::size_t bad_line = line;
  const std::string problem = invalid_utf8_message(text, line == 0 ? 1 : line, bad_line);
  if (!problem.empty()) throw DataError(file, bad_line, problem + " in " + what + "; save the file as UTF-8");
}

std::string trimmed_lower(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  std::string out = s.substr(b, e - b);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// 1, 0, or -1 when the text is not a label.
int parse_label(const std::string& text) {
  const std::string t = trimmed_lower(text);
  if (t == "positive" || t == "pos" || t == "1") return 1;
  if (t == "negative" || t == "neg" || t == "0") return 0;
  return -1;
}

int require_label(const std::string& text, const std::string& file, std::size_t line) {
  const int label = parse_label(text);
  if (label < 0) {
    // The label is user text: cut it short so a runaway field cannot flood the message.
    const std::string shown = text.size() > 40 ? text.substr(0, 40) + "..." : text;
    throw DataError(file, line, "label '" + shown + "' is not one of positive, negative, pos, neg, 1, 0");
  }
  return label;
}

void check_count(std::size_t count, const LoadLimits& limits, const std::string& file) {
  if (count > limits.max_examples) {
    throw DataError(file, 0, "more than " + std::to_string(limits.max_examples) + " examples (the limit)");
  }
}

// RFC 4180 record reader. Lines are counted from 1; a record reports the line it starts on.
class CsvParser {
 public:
  CsvParser(ByteSource& source, std::size_t max_field, std::size_t max_record)
      : in_(source), name_(source.name()), max_field_(max_field), max_record_(max_record) {
    in_.skip_bom();
  }

  // False at the end of the input. Blank lines are skipped.
  bool next(std::vector<std::string>& fields, std::size_t& record_line) {
    fields.clear();
    int c = in_.get();
    while (c == '\n' || c == '\r') {
      end_line(c);
      c = in_.get();
    }
    if (c < 0) return false;
    record_line = line_;
    std::string field;
    std::size_t record_bytes = 0;  // of the fields before this one, plus their separators
    for (;;) {
      if (c == '"') {
        const std::size_t quote_line = line_;
        for (;;) {
          c = in_.get();
          if (c < 0) throw DataError(name_, quote_line, "unterminated quoted field (the quote opens on this line)");
          if (c == '"') {
            if (in_.peek() != '"') break;
            in_.get();
          } else if (c == '\n') {
            ++line_;
          }
          field += static_cast<char>(c);
          if (field.size() > max_field_) {
            throw DataError(name_, quote_line,
                            "quoted field is longer than the limit of " + std::to_string(max_field_) +
                                " bytes (an unterminated quote?)");
          }
        }
        c = in_.get();
        if (c >= 0 && c != ',' && c != '\n' && c != '\r') {
          throw DataError(name_, line_,
                          "unexpected character after a closing quote (quotes inside a field must be doubled)");
        }
      } else {
        // A stray quote inside an unquoted field is kept as text (common in hand-made files).
        while (c >= 0 && c != ',' && c != '\n' && c != '\r') {
          field += static_cast<char>(c);
          if (field.size() > max_field_) {
            throw DataError(name_, line_, "field is longer than the limit of " + std::to_string(max_field_) + " bytes");
          }
          c = in_.get();
        }
      }
      record_bytes += field.size() + 1;
      if (record_bytes > max_record_) {
        throw DataError(name_, record_line,
                        "line is longer than the limit of " + std::to_string(max_record_) + " bytes");
      }
      fields.push_back(std::move(field));
      field.clear();
      if (fields.size() > kMaxCsvFields)
        throw DataError(name_, record_line, "more than " + std::to_string(kMaxCsvFields) + " fields");
      if (c != ',') break;
      c = in_.get();
    }
    if (c >= 0) end_line(c);
    return true;
  }

 private:
  void end_line(int c) {
    if (c == '\r' && in_.peek() == '\n') in_.get();
    ++line_;
  }
  ByteReader in_;
  std::string name_;
  std::size_t max_field_;
  std::size_t max_record_;
  std::size_t line_ = 1;
};

// Passes a stream through once its first bytes look like text. A NUL byte, or more than one byte
// in 20 that is a control character other than tab, line feed, form feed or carriage return, in
// the first kTextSniffBytes means binary (compressed or binary data has both; text in any 8-bit
// encoding neither): one plain sentence then, instead of a header's raw bytes in a message.
constexpr std::size_t kTextSniffBytes = 1024;
class TextOnlySource : public ByteSource {
 public:
  explicit TextOnlySource(ByteSource& inner) : inner_(inner) {}
  std::size_t read(std::uint8_t* out, std::size_t max) override {
    if (!sniffed_) sniff();
    if (head_used_ == head_.size()) return inner_.read(out, max);
    const std::size_t n = std::min(max, head_.size() - head_used_);
    std::memcpy(out, head_.data() + head_used_, n);
    head_used_ += n;
    return n;
  }
  std::string name() const override { return inner_.name(); }
  std::uint64_t size() const override { return inner_.size(); }

 private:
  void sniff() {
    sniffed_ = true;
    head_.resize(kTextSniffBytes);
    head_.resize(read_fully(inner_, head_.data(), head_.size()));
    if (head_.size() >= 2 && ((head_[0] == 0xff && head_[1] == 0xfe) || (head_[0] == 0xfe && head_[1] == 0xff))) {
      throw DataError(name(), 0, "the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
    }
    std::size_t control = 0;
    for (const std::uint8_t c : head_)
      control += (c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r') || c == 0x7f;
    const bool nul = std::find(head_.begin(), head_.end(), std::uint8_t{0}) != head_.end();
    if (nul || control * 20 > head_.size()) {
      throw DataError(name(), 0,
                      "this is not a text file (its first bytes are binary); a review file is CSV or TSV text "
                      "saved as UTF-8, and an aclImdb archive is a .tar.gz");
    }
  }

  ByteSource& inner_;
  std::vector<std::uint8_t> head_;
  std::size_t head_used_ = 0;
  bool sniffed_ = false;
};

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::size_t pick_column(const std::vector<std::string>& header, const std::string& wanted_name, int wanted_index,
                        const std::vector<std::string>& defaults, const char* role, const std::string& file) {
  const std::size_t columns = header.size();
  if (!wanted_name.empty()) {
    for (std::size_t i = 0; i < columns; ++i) {
      if (trimmed_lower(header[i]) == trimmed_lower(wanted_name)) return i;
    }
    throw DataError(
        file, 1,
        std::string("no ") + role + " column named '" + wanted_name + "' (the header has: " + join(header) + ")");
  }
  if (wanted_index >= 0) {
    if (static_cast<std::size_t>(wanted_index) >= columns) {
      throw DataError(file, 1,
                      std::string(role) + " column index " + std::to_string(wanted_index) + " is out of range (" +
                          std::to_string(columns) + " columns)");
    }
    return static_cast<std::size_t>(wanted_index);
  }
  for (const auto& name : defaults) {
    for (std::size_t i = 0; i < columns; ++i) {
      if (trimmed_lower(header[i]) == name) return i;
    }
  }
  throw DataError(file, 1,
                  std::string("no ") + role + " column: expected one of " + join(defaults) +
                      " (the header has: " + join(header) + ")");
}

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
  std::size_t b = 0, e = line.size();
  while (b < e && std::isspace(static_cast<unsigned char>(line[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(line[e - 1]))) --e;
  return line.substr(b, e - b);
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

// The fields of a TSV line (every tab separates).
std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) return out;
    start = tab + 1;
  }
}

std::string trimmed(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Where a TSV with a "group" column keeps its fields; count 0: no group column (the plain
// "sentence<TAB>label" layout, the last tab separating).
struct TsvColumns {
  std::size_t count = 0, text = 0, label = 0, group = 0;
};

// The columns a TSV header names: "group", a text column (sentence, text, review, content; else
// the first other column) and a label column (label, sentiment, polarity, rating; else the last
// other column). A header without "group" keeps the plain layout.
TsvColumns tsv_columns(const std::vector<std::string>& header, const std::string& file, std::size_t line) {
  TsvColumns c;
  bool has_group = false, has_text = false, has_label = false;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string name = trimmed_lower(header[i]);
    if (name == "group" && !has_group) c.group = i, has_group = true;
  }
  if (!has_group) return c;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string name = trimmed_lower(header[i]);
    if (i == c.group) continue;
    if (!has_text && (name == "sentence" || name == "text" || name == "review" || name == "content")) {
      c.text = i, has_text = true;
    } else if (!has_label && (name == "label" || name == "sentiment" || name == "polarity" || name == "rating")) {
      c.label = i, has_label = true;
    }
  }
  for (std::size_t i = 0; i < header.size() && !has_text; ++i) {
    if (i != c.group && (!has_label || i != c.label)) c.text = i, has_text = true;
  }
  for (std::size_t i = header.size(); i-- > 0 && !has_label;) {
    if (i != c.group && i != c.text) c.label = i, has_label = true;
  }
  if (!has_text || !has_label) {
    throw DataError(file, line, "the header has a group column but not both a sentence and a label column");
  }
  c.count = header.size();
  return c;
}

void require_split(const std::string& split, const char* function) {
  if (split != "train" && split != "test") {
    throw std::invalid_argument(std::string(function) + ": split must be \"train\" or \"test\", got \"" + split + "\"");
  }
}

}  // namespace

bool looks_like_gzip(const std::uint8_t* first_bytes, std::size_t size) {
  if (size < 2 || first_bytes[0] != 0x1f || first_bytes[1] != 0x8b) return false;
  return size < 3 || first_bytes[2] == 8;
}

namespace {
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
}

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

std::vector<LabelledText> load_csv(ByteSource& csv, const CsvOptions& options, const ProgressFn& progress) {
  const std::string file = csv.name();
  TextOnlySource text_only(csv);
  CountingSource counted(text_only);
  CsvParser parser(counted, options.limits.max_example_bytes, options.limits.max_line_bytes);
  std::vector<std::string> fields;
  std::size_t line = 0;
  if (!parser.next(fields, line)) throw DataError(file, 0, "the file is empty");

  std::size_t text_column = 0, label_column = 0, expected_fields = fields.size();
  std::size_t group_column = kNoColumn;  // a "group" column names each row's group (data/splits.hpp)
  bool pending_row = false;              // without a header, the first record is data
  if (options.has_header) {
    text_column = pick_column(fields, options.text_column, options.text_index,
                              {"review", "text", "sentence", "content"}, "text", file);
    label_column = pick_column(fields, options.label_column, options.label_index,
                               {"sentiment", "label", "polarity", "rating"}, "label", file);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i != text_column && i != label_column && trimmed_lower(fields[i]) == "group") group_column = i;
    }
  } else {
    text_column = options.text_index >= 0 ? static_cast<std::size_t>(options.text_index) : 0;
    label_column = options.label_index >= 0 ? static_cast<std::size_t>(options.label_index) : 1;
    if (text_column >= expected_fields || label_column >= expected_fields || text_column == label_column) {
      throw DataError(file, line,
                      "cannot use columns " + std::to_string(text_column) + " (text) and " +
                          std::to_string(label_column) + " (label) of a " + std::to_string(expected_fields) +
                          "-column file");
    }
    pending_row = true;
  }

  std::vector<LabelledText> examples;
  while (pending_row || parser.next(fields, line)) {
    pending_row = false;
    if (fields.size() != expected_fields) {
      throw DataError(
          file, line,
          "expected " + std::to_string(expected_fields) + " fields, found " + std::to_string(fields.size()));
    }
    const int label = require_label(fields[label_column], file, line);
    require_utf8(fields[text_column], file, line, "the text");
    std::string group;
    if (group_column != kNoColumn) {
      require_utf8(fields[group_column], file, line, "the group");
      group = trimmed(fields[group_column]);
    }
    examples.push_back(
        LabelledText{std::move(fields[text_column]), label, file + ":" + std::to_string(line), std::move(group)});
    check_count(examples.size(), options.limits, file);
    if (progress && examples.size() % kProgressEvery == 0)
      progress(LoadProgress{counted.bytes_read(), csv.size(), examples.size()});
  }
  if (examples.empty()) throw DataError(file, 0, "the file has a header but no rows");
  if (progress) progress(LoadProgress{counted.bytes_read(), csv.size(), examples.size()});
  return examples;
}

std::vector<LabelledText> load_tsv(ByteSource& tsv, const LoadLimits& limits, const ProgressFn& progress) {
  const std::string file = tsv.name();
  TextOnlySource text_only(tsv);
  CountingSource counted(text_only);
  LineReader lines(counted, limits.max_line_bytes);
  std::vector<LabelledText> examples;
  std::string text, label_text, group;
  bool any_content = false;
  // A header naming a "group" column (e.g. "sentence<TAB>label<TAB>group") switches to columns:
  // every line then has the header's number of fields, so a sentence cannot hold a tab.
  TsvColumns columns;
  while (lines.next(text)) {
    const std::size_t line = lines.line_number();
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    const bool first_line = !any_content;
    any_content = true;
    if (columns.count != 0) {
      std::vector<std::string> fields = split_tabs(text);
      if (fields.size() != columns.count) {
        throw DataError(file, line,
                        "expected " + std::to_string(columns.count) + " tab-separated fields (as the header), found " +
                            std::to_string(fields.size()));
      }
      label_text = std::move(fields[columns.label]);
      group = trimmed(fields[columns.group]);
      text = std::move(fields[columns.text]);
    } else {
      const std::size_t tab = text.rfind('\t');
      if (tab == std::string::npos)
        throw DataError(file, line, "expected 'sentence<TAB>label' but the line has no tab");
      label_text = text.substr(tab + 1);
      if (first_line && parse_label(label_text) < 0) {  // a header line
        columns = tsv_columns(split_tabs(text), file, line);
        continue;
      }
      text.resize(tab);
    }
    const int label = require_label(label_text, file, line);
    if (text.size() > limits.max_example_bytes) {
      throw DataError(file, line,
                      "sentence is longer than the limit of " + std::to_string(limits.max_example_bytes) + " bytes");
    }
    require_utf8(text, file, line, "the sentence");
    require_utf8(group, file, line, "the group");
    examples.push_back(LabelledText{text, label, file + ":" + std::to_string(line), group});
    check_count(examples.size(), limits, file);
    if (progress && examples.size() % kProgressEvery == 0)
      progress(LoadProgress{counted.bytes_read(), tsv.size(), examples.size()});
  }
  if (!any_content) throw DataError(file, 0, "the file is empty");
  if (examples.empty()) throw DataError(file, 0, "the file has a header but no rows");
  if (progress) progress(LoadProgress{counted.bytes_read(), tsv.size(), examples.size()});
  return examples;
}

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

void check_two_classes(const std::vector<LabelledText>& examples, const std::string& source) {
  std::size_t positive = 0;
  for (const auto& example : examples) positive += example.label == 1 ? 1 : 0;
  if (examples.empty()) throw DataError::plain(source, "no examples were found in " + source);
  if (positive == examples.size()) {
    throw DataError::plain(source,
                           "only positive examples were found in " + source + "; a classifier needs both classes");
  }
  if (positive == 0) {
    throw DataError::plain(source,
                           "only negative examples were found in " + source + "; a classifier needs both classes");
  }
}

}  // namespace attn
