#include "attn/data/builtin_reviews.hpp"

#include <algorithm>
#include <stdexcept>

namespace attn {
namespace {

constexpr std::string_view kHeader = "split\tlabel\tphenomenon\ttext";

[[noreturn]] void fail(std::size_t line, const std::string& what) {
  throw std::invalid_argument("parse_reviews_tsv: line " + std::to_string(line) + ": " + what);
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace

const std::vector<std::string>& review_phenomena() {
  static const std::vector<std::string> kPhenomena = {"plain",   "negation",    "contrast",
                                                      "sarcasm", "intensifier", "mixed"};
  return kPhenomena;
}

std::vector<BuiltinReview> parse_reviews_tsv(std::string_view tsv) {
  std::vector<BuiltinReview> reviews;
  const auto& phenomena = review_phenomena();
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < tsv.size()) {
    const std::size_t newline = tsv.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? tsv.size() : newline;
    std::string_view line = tsv.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    if (line_number == 1) {
      if (line != kHeader) fail(1, "header must be \"split<TAB>label<TAB>phenomenon<TAB>text\", got " + quoted(line));
      continue;
    }
    const auto fields = split_tabs(line);
    if (fields.size() != 4) fail(line_number, "expected 4 tab-separated fields, got " + std::to_string(fields.size()));

    BuiltinReview review;
    if (fields[0] == "train") {
      review.test = false;
    } else if (fields[0] == "test") {
      review.test = true;
    } else {
      fail(line_number, "split must be train or test, got " + quoted(fields[0]));
    }
    if (fields[1] == "0" || fields[1] == "1") {
      review.label = fields[1][0] - '0';
    } else {
      fail(line_number, "label must be 0 or 1, got " + quoted(fields[1]));
    }
    review.phenomenon = std::string(fields[2]);
    if (std::find(phenomena.begin(), phenomena.end(), review.phenomenon) == phenomena.end())
      fail(line_number, "unknown phenomenon " + quoted(fields[2]));
    if (fields[3].empty()) fail(line_number, "empty text");
    review.text = std::string(fields[3]);
    reviews.push_back(std::move(review));
  }
  if (line_number == 0) fail(1, "missing header");
  return reviews;
}

const std::vector<BuiltinReview>& builtin_reviews() {
  static const std::vector<BuiltinReview> kReviews = parse_reviews_tsv(builtin_reviews_tsv());
  return kReviews;
}

std::vector<LabelledText> builtin_split(bool test) {
  std::vector<LabelledText> out;
  const std::vector<BuiltinReview>& reviews = builtin_reviews();
  for (std::size_t i = 0; i < reviews.size(); ++i) {
    if (reviews[i].test != test) continue;
    out.push_back({reviews[i].text, reviews[i].label, "builtin:" + std::to_string(i + 2), {}});
  }
  return out;
}

}  // namespace attn
