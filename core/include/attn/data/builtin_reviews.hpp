// The built-in review corpus: short film reviews written for this project, shipped inside the
// library (CMakeLists.txt embeds data/builtin/reviews.tsv as bytes, so the wasm module needs no
// file system). No tensors here, so no shape legend; token ids come later from text/tokenizer.
//
// File format (UTF-8, one review per line, tab-separated, first line is the header):
//   split<TAB>label<TAB>phenomenon<TAB>text
//   split       "train" or "test": a fixed 80/20 split stratified by label and phenomenon (the
//               3rd, 8th, 13th, ... row of each phenomenon/label group is "test")
//   label       1 = positive, 0 = negative (the overall verdict a reader would give)
//   phenomenon  what makes the review easy or hard: plain, negation, contrast, sarcasm,
//               intensifier, mixed
//   text        1-4 sentences (15-80 words), no tabs or newlines
// Rows are grouped by phenomenon, then label, so a consumer should shuffle (with attn::Rng)
// before taking a prefix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attn/data/review_loaders.hpp"

namespace attn {

struct BuiltinReview {
  std::string text;
  int label;               // 1 positive, 0 negative
  std::string phenomenon;  // one of review_phenomena()
  bool test;               // true for the held-out split
};

// The raw embedded file, byte for byte (defined in the generated builtin_reviews_data.cpp).
std::string_view builtin_reviews_tsv();

// The embedded corpus, parsed on first use (thread-safe static) and kept for the program's life.
const std::vector<BuiltinReview>& builtin_reviews();

// Parses text in the format above. A trailing "\r" per line and a final empty line are
// tolerated. Any defect (header, field count, label, split, phenomenon, empty text) throws
// std::invalid_argument naming the 1-based line, e.g.
// "parse_reviews_tsv: line 7: label must be 0 or 1, got \"2\"".
std::vector<BuiltinReview> parse_reviews_tsv(std::string_view tsv);

// The phenomenon tags the corpus may use, in a stable order.
const std::vector<std::string>& review_phenomena();

// The corpus as LabelledText, in file order: its fixed train split (test = false, 528 reviews)
// or test split (test = true, 132). Origins read "builtin:<line>" (1-based line of reviews.tsv,
// header = line 1).
std::vector<LabelledText> builtin_split(bool test);

}  // namespace attn
