#include "attn/text/vocabulary.hpp"

#include <algorithm>
#include <stdexcept>

#include "attn/text/utf8.hpp"

namespace attn {

namespace {

constexpr const char* kReserved[] = {"<pad>", "<start>", "<oov>", "<unused>"};
constexpr std::string_view kHeaderStart = "attn-vocabulary v1 num_words=";

void require_num_words(std::size_t num_words, const char* where) {
  if (num_words < static_cast<std::size_t>(Vocabulary::first_word)) {
    throw std::invalid_argument(std::string(where) + ": num_words is " + std::to_string(num_words) +
                                " but must be at least 4 (ids 0..3 are reserved)");
  }
}

// Parses a decimal number at text[pos], advancing pos; false when there are no digits.
bool parse_size(std::string_view text, std::size_t& pos, std::size_t& value) {
  const std::size_t begin = pos;
  value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && pos - begin < 18) {
    value = value * 10 + static_cast<std::size_t>(text[pos] - '0');
    ++pos;
  }
  return pos > begin;
}

}  // namespace

Vocabulary::Vocabulary() = default;

Vocabulary::Vocabulary(std::vector<std::string> words, std::size_t num_words)
    : num_words_(num_words), words_(std::move(words)) {
  ids_.reserve(words_.size());
  for (std::size_t k = 0; k < words_.size(); ++k) ids_.emplace(words_[k], static_cast<std::int32_t>(k) + first_word);
}

Vocabulary Vocabulary::fit(const std::vector<std::vector<std::string>>& tokenized_docs, std::size_t num_words) {
  require_num_words(num_words, "Vocabulary::fit");
  // entries in first-appearance order; the map points into them.
  struct Entry {
    const std::string* word;
    std::size_t count;
  };
  std::vector<Entry> entries;
  std::unordered_map<std::string_view, std::size_t> index;
  for (std::size_t d = 0; d < tokenized_docs.size(); ++d) {
    const auto& doc = tokenized_docs[d];
    for (std::size_t t = 0; t < doc.size(); ++t) {
      const std::string& token = doc[t];
      if (token.empty() || token.find('\n') != std::string::npos) {
        throw std::invalid_argument("Vocabulary::fit: document " + std::to_string(d) + ", token " + std::to_string(t) +
                                    (token.empty() ? " is empty" : " contains a newline"));
      }
      const auto [it, inserted] = index.try_emplace(std::string_view(token), entries.size());
      if (inserted) {
        entries.push_back({&token, 1});
      } else {
        ++entries[it->second].count;
      }
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.count > b.count; });
  const std::size_t keep = std::min(entries.size(), num_words - first_word);
  std::vector<std::string> words;
  words.reserve(keep);
  for (std::size_t k = 0; k < keep; ++k) words.push_back(*entries[k].word);
  return Vocabulary(std::move(words), num_words);
}

std::vector<std::int32_t> Vocabulary::encode(const std::vector<std::string>& tokens, bool add_start) const {
  std::vector<std::int32_t> ids;
  ids.reserve(tokens.size() + 1);
  if (add_start) ids.push_back(start);
  for (const auto& token : tokens) ids.push_back(id(token));
  return ids;
}

std::string Vocabulary::word(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= size()) {
    throw std::invalid_argument("Vocabulary::word: id " + std::to_string(id) + " is outside [0, " +
                                std::to_string(size()) + ")");
  }
  if (id < first_word) return kReserved[id];
  return words_[static_cast<std::size_t>(id - first_word)];
}

std::int32_t Vocabulary::id(const std::string& word) const {
  const auto it = ids_.find(word);
  return it == ids_.end() ? oov : it->second;
}

bool Vocabulary::contains(const std::string& word) const { return ids_.count(word) != 0; }

double Vocabulary::coverage(const std::vector<std::vector<std::string>>& tokenized_docs) const {
  std::size_t total = 0, known = 0;
  for (const auto& doc : tokenized_docs) {
    total += doc.size();
    for (const auto& token : doc) known += ids_.count(token);
  }
  return total == 0 ? 0.0 : static_cast<double>(known) / static_cast<double>(total);
}

std::string Vocabulary::to_string() const {
  std::string out =
      std::string(kHeaderStart) + std::to_string(num_words_) + " words=" + std::to_string(words_.size()) + "\n";
  for (const auto& w : words_) {
    out += w;
    out += '\n';
  }
  return out;
}

Vocabulary Vocabulary::from_string(std::string_view text, const std::string& source, std::size_t first_line) {
  validate_utf8(text, source, first_line);
  auto fail = [&](std::size_t line, const std::string& what) -> TextError {
    return TextError(source + ":" + std::to_string(line) + ": " + what);
  };
  // Header.
  const std::size_t header_end = std::min(text.find('\n'), text.size());
  const std::string_view header = text.substr(0, header_end);
  std::size_t pos = kHeaderStart.size(), num_words = 0, count = 0;
  constexpr std::string_view kWords = " words=";
  const bool header_ok = header.substr(0, kHeaderStart.size()) == kHeaderStart && parse_size(header, pos, num_words) &&
                         header.substr(pos, kWords.size()) == kWords &&
                         parse_size(header, pos += kWords.size(), count) && pos == header.size();
  if (!header_ok) {
    throw fail(first_line, "not a vocabulary header (expected \"attn-vocabulary v1 num_words=N words=M\", got \"" +
                               std::string(header.substr(0, 60)) + "\")");
  }
  if (num_words < static_cast<std::size_t>(first_word)) {
    throw fail(first_line, "num_words is " + std::to_string(num_words) + " but must be at least 4");
  }
  if (count > num_words - first_word) {
    throw fail(first_line, std::to_string(count) + " words do not fit in num_words=" + std::to_string(num_words) +
                               " (at most " + std::to_string(num_words - first_word) + ")");
  }
  // One word per line.
  std::vector<std::string> words;
  words.reserve(count);
  std::unordered_map<std::string_view, std::size_t> seen;  // word -> line
  pos = header_end + 1;
  std::size_t line = first_line + 1;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view w = text.substr(pos, end - pos);
    if (words.size() == count) throw fail(line, "more words than the header's words=" + std::to_string(count));
    if (w.empty()) throw fail(line, "empty word");
    const auto [it, inserted] = seen.try_emplace(w, line);
    if (!inserted) {
      throw fail(line, "duplicate word \"" + std::string(w) + "\" (first on line " + std::to_string(it->second) + ")");
    }
    words.emplace_back(w);
    pos = end + 1;
    ++line;
  }
  if (words.size() != count) {
    throw fail(line, "expected " + std::to_string(count) + " words but found " + std::to_string(words.size()));
  }
  return Vocabulary(std::move(words), num_words);
}

}  // namespace attn
