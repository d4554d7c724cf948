#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

#include "attn/data/builtin_reviews.hpp"

using attn::builtin_reviews;
using attn::builtin_reviews_tsv;
using attn::parse_reviews_tsv;

namespace {

std::size_t word_count(const std::string& text) {
  std::size_t words = 0;
  bool in_word = false;
  for (char ch : text) {
    const bool space = ch == ' ';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

// Sentences split after . ! ? followed by a space, lowercased.
std::vector<std::string> sentences(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (std::size_t i = 0; i < text.size(); ++i) {
    current += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    const bool end =
        (text[i] == '.' || text[i] == '!' || text[i] == '?') && (i + 1 == text.size() || text[i + 1] == ' ');
    if (end) {
      out.push_back(current);
      current.clear();
      if (i + 1 < text.size()) ++i;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += n;
  }
  return true;
}

const std::string kHeader = "split\tlabel\tphenomenon\ttext\n";

}  // namespace

TEST_CASE("builtin_reviews.shipped_file_meets_the_counts") {
  const auto& reviews = builtin_reviews();
  std::map<std::string, std::size_t> by_phenomenon;
  std::map<std::pair<std::string, int>, std::size_t> by_group, test_by_group;
  std::size_t positives = 0, negatives = 0;
  for (const auto& r : reviews) {
    (r.label == 1 ? positives : negatives) += 1;
    ++by_phenomenon[r.phenomenon];
    ++by_group[{r.phenomenon, r.label}];
    if (r.test) ++test_by_group[{r.phenomenon, r.label}];
  }
  CHECK(reviews.size() >= 640);
  CHECK(positives >= 320);
  CHECK(negatives >= 320);
  CHECK(by_phenomenon["negation"] >= 60);
  CHECK(by_phenomenon["contrast"] >= 60);
  CHECK(by_phenomenon["sarcasm"] >= 30);
  CHECK(by_phenomenon["intensifier"] >= 30);
  CHECK(by_phenomenon["mixed"] >= 30);
  CHECK(by_phenomenon["plain"] >= 100);
  // Labels roughly balanced within every phenomenon, and a stratified 80/20 split.
  // Plain pair loops, not structured bindings: clang 14 (the sanitizer build) cannot capture
  // those in the lambdas CHECK_MESSAGE expands to.
  for (const auto& entry : by_phenomenon) {
    const std::string& phenomenon = entry.first;
    const std::size_t total = entry.second;
    const std::size_t pos = by_group[{phenomenon, 1}];
    CHECK_MESSAGE(pos * 10 >= total * 4, phenomenon);
    CHECK_MESSAGE(pos * 10 <= total * 6, phenomenon);
  }
  for (const auto& entry : by_group) {
    const double share = static_cast<double>(test_by_group[entry.first]) / static_cast<double>(entry.second);
    CHECK_MESSAGE(share >= 0.15, entry.first.first);
    CHECK_MESSAGE(share <= 0.25, entry.first.first);
  }
}

TEST_CASE("builtin_reviews.texts_are_clean_and_distinct") {
  std::set<std::string> seen_sentences;
  std::size_t non_ascii = 0;
  for (const auto& r : builtin_reviews()) {
    const std::size_t words = word_count(r.text);
    CHECK_MESSAGE(words >= 15, r.text);
    CHECK_MESSAGE(words <= 80, r.text);
    CHECK_MESSAGE(sentences(r.text).size() <= 4, r.text);
    CHECK(r.text.find('\t') == std::string::npos);
    CHECK(r.text.find('\r') == std::string::npos);
    CHECK(r.text.front() != ' ');
    CHECK(r.text.back() != ' ');
    CHECK_MESSAGE(valid_utf8(r.text), r.text);
    non_ascii +=
        std::any_of(r.text.begin(), r.text.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; });
    for (const auto& s : sentences(r.text)) {
      if (word_count(s) < 4) continue;  // "Skip it." may recur; real sentences may not
      CHECK_MESSAGE(seen_sentences.insert(s).second, "repeated sentence: " << s);
    }
  }
  CHECK(non_ascii >= 10);  // accented names and a few emoji
}

TEST_CASE("builtin_reviews.embedded_bytes_match_the_parse") {
  const std::string_view tsv = builtin_reviews_tsv();
  REQUIRE(tsv.size() > kHeader.size());
  CHECK(tsv.substr(0, kHeader.size()) == kHeader);
  const auto lines = static_cast<std::size_t>(std::count(tsv.begin(), tsv.end(), '\n'));
  const std::size_t data_lines = tsv.back() == '\n' ? lines - 1 : lines;
  CHECK(builtin_reviews().size() == data_lines);
  CHECK(&builtin_reviews() == &builtin_reviews());  // parsed once
}

TEST_CASE("builtin_reviews.parser_accepts_well_formed_text") {
  const auto reviews = parse_reviews_tsv(kHeader + "train\t1\tplain\tLovely.\r\ntest\t0\tsarcasm\tOh, wonderful.");
  REQUIRE(reviews.size() == 2);
  CHECK(reviews[0].text == "Lovely.");
  CHECK(reviews[0].label == 1);
  CHECK(reviews[0].phenomenon == "plain");
  CHECK_FALSE(reviews[0].test);
  CHECK(reviews[1].label == 0);
  CHECK(reviews[1].test);
  CHECK(parse_reviews_tsv(kHeader).empty());
}

TEST_CASE("builtin_reviews.parser_names_the_defective_line") {
  CHECK_THROWS_WITH_AS(parse_reviews_tsv("split\tlabel\ttext\n"),
                       "parse_reviews_tsv: line 1: header must be \"split<TAB>label<TAB>phenomenon<TAB>text\", "
                       "got \"split\tlabel\ttext\"",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_reviews_tsv(""), "parse_reviews_tsv: line 1: missing header", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_reviews_tsv(kHeader + "train\t1\tplain\tFine.\ntrain\t1\tplain\n"),
                       "parse_reviews_tsv: line 3: expected 4 tab-separated fields, got 3", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_reviews_tsv(kHeader + "train\t1\tplain\tA\ttab.\n"),
                       "parse_reviews_tsv: line 2: expected 4 tab-separated fields, got 5", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_reviews_tsv(kHeader + "\ntrain\t1\tplain\tFine.\n"),
                       "parse_reviews_tsv: line 2: expected 4 tab-separated fields, got 1", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_reviews_tsv(kHeader + "train\t1\tplain\tFine.\ntrain\t2\tplain\tFine.\n"),
                       "parse_reviews_tsv: line 3: label must be 0 or 1, got \"2\"", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_reviews_tsv(kHeader + "dev\t1\tplain\tFine.\n"),
                       "parse_reviews_tsv: line 2: split must be train or test, got \"dev\"", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_reviews_tsv(kHeader + "test\t0\tirony\tFine.\n"),
                       "parse_reviews_tsv: line 2: unknown phenomenon \"irony\"", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_reviews_tsv(kHeader + "test\t0\tplain\t\n"), "parse_reviews_tsv: line 2: empty text",
                       std::invalid_argument);
}
