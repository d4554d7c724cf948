// CSV and TSV review files (load_csv, load_tsv of attn/data/review_loaders.hpp): an RFC 4180
// record reader with its column choice, and tab-separated lines with an optional header.
#include <cstddef>
#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/io/line_reader.hpp"
#include "loader_support.hpp"

namespace attn {

using namespace loader_support;

namespace {

constexpr std::size_t kMaxCsvFields = 4096;
constexpr std::size_t kNoColumn = static_cast<std::size_t>(-1);

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

}  // namespace

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

}  // namespace attn
