// Word <-> id table with the ids of Keras' `imdb.load_data(num_words=..., start_char=1,
// oov_char=2, index_from=3)`, so a review encodes to the same kind of sequence Keras trains on.
// Legend: V = size() ids, T = tokens in a review.
//
//   id 0 <pad>     what pad_sequences fills with
//   id 1 <start>   prepended to every encoded review
//   id 2 <oov>     any word outside the vocabulary
//   id 3 <unused>  Keras' index_from=3 leaves it free
//   id 4, 5, ...   words by falling count: the most frequent word is 4
//
// `num_words` bounds the id space like Keras (ids < num_words survive): num_words = 5000 keeps
// ids 0..4999, i.e. the 4996 most frequent words; rarer words encode as <oov>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn {

class Vocabulary {
 public:
  static constexpr std::int32_t pad = 0;
  static constexpr std::int32_t start = 1;
  static constexpr std::int32_t oov = 2;
  static constexpr std::int32_t unused = 3;
  static constexpr std::int32_t first_word = 4;

  // Only the reserved ids (size() == 4), num_words 5000.
  Vocabulary();

  // Counts every token of every document and keeps the num_words - 4 most frequent. Order: count
  // descending, ties broken by the word's first appearance in `tokenized_docs` (document order,
  // then token order) — what Keras' Tokenizer gets from its stable sort over an insertion-ordered
  // dict, and deterministic for a given training set. Throws std::invalid_argument when
  // num_words < 4 or a token is empty or contains '\n' (it could not be serialised).
  static Vocabulary fit(const std::vector<std::vector<std::string>>& tokenized_docs, std::size_t num_words = 5000);

  // tokens [T] -> ids [T + 1] starting with <start> (or [T] without it); unknown words -> <oov>.
  std::vector<std::int32_t> encode(const std::vector<std::string>& tokens, bool add_start = true) const;
  // The word for an id ("<pad>", "<start>", "<oov>", "<unused>" for 0..3). Throws
  // std::invalid_argument for ids outside [0, size()).
  std::string word(std::int32_t id) const;
  // The id of a word, <oov> (2) when it is not in the vocabulary.
  std::int32_t id(const std::string& word) const;
  bool contains(const std::string& word) const;

  // Ids in use: 4 + number of words (at most num_words; fewer when the data had fewer words).
  std::size_t size() const { return first_word + words_.size(); }
  // The bound given to fit: every id is < num_words().
  std::size_t num_words() const { return num_words_; }
  // Words by id from 4 on: words()[0] is the most frequent.
  const std::vector<std::string>& words() const { return words_; }

  // Share of all tokens in `tokenized_docs` that are in the vocabulary (not <oov>), in [0, 1];
  // 0 when there are no tokens.
  double coverage(const std::vector<std::vector<std::string>>& tokenized_docs) const;

  // Text form for model files:
  //   attn-vocabulary v1 num_words=5000 words=4996\n
  //   the\n            <- id 4
  //   and\n            <- id 5 ...
  // Words are UTF-8 without '\n'.
  std::string to_string() const;
  // Inverse of to_string. `text` starts on line `first_line` of `source`; malformed input throws
  // TextError "<source>:<line>: <what>" (bad header, invalid UTF-8, empty or duplicate word,
  // wrong word count, more words than num_words allows).
  static Vocabulary from_string(std::string_view text, const std::string& source = "<vocabulary>",
                                std::size_t first_line = 1);

 private:
  Vocabulary(std::vector<std::string> words, std::size_t num_words);

  std::size_t num_words_ = 5000;
  std::vector<std::string> words_;  // words_[k] has id k + first_word
  std::unordered_map<std::string, std::int32_t> ids_;
};

}  // namespace attn
