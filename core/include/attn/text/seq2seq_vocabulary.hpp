// Token <-> id tables for sequence-to-sequence tasks: one for the source side, one for the
// target side. Legend: V = size() ids, Tx / Ty = tokens in a source / target sentence.
//
//   id 0 <pad>   what batches are padded with ('post')
//   id 1 <bos>   starts every target sequence (sources carry no BOS/EOS)
//   id 2 <eos>   ends every target sequence
//   id 3 <unk>   any token outside the vocabulary
//   id 4, 5, ... tokens by falling count (ties: first appearance), so id 4 is the most frequent
//
// Two token levels:
//   character — each UTF-8 code point is a token, spaces included ("3 May" -> 3, ' ', M, a, y);
//               decoding concatenates. Used for dates and digit strings: their vocabularies are
//               tiny (≈ 40 / 10 symbols), nothing is ever unknown, and a model must learn the
//               spelling variants ("May", "may", "MAY") itself.
//   word      — the project's tokenizer (text/tokenizer.hpp) with keep_punctuation and without
//               HTML stripping: lowercased, punctuation as tokens of their own ("Go." -> go .),
//               apostrophes kept inside words ("don't"); decoding joins tokens with spaces. Used
//               for parallel text (Tatoeba pairs): word level keeps sequences short (≈ 5-10 tokens
//               instead of 30-60 characters), which is what makes attention alignments readable
//               and lets a small model train in minutes; lowercasing and split-off punctuation
//               keep "Go", "go" and "go." one vocabulary entry. The cost: rare words become <unk>.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attn/io/flat_json.hpp"

namespace attn {

enum class TokenLevel { character, word };

const char* token_level_name(TokenLevel level);
// Inverse of token_level_name ("character" | "word"); std::invalid_argument otherwise.
TokenLevel token_level_from_name(const std::string& name);

class Seq2SeqVocabulary {
 public:
  static constexpr int pad = 0;
  static constexpr int bos = 1;
  static constexpr int eos = 2;
  static constexpr int unk = 3;
  static constexpr int first_token = 4;

  // Only the reserved ids (size() == 4).
  explicit Seq2SeqVocabulary(TokenLevel level = TokenLevel::character);

  // Counts the tokens of every text and keeps the max_size - 4 most frequent (max_size counts the
  // reserved ids, like Keras' num_words). Throws std::invalid_argument when max_size < 5 or a
  // token contains '\n' (it could not be stored), and TextError for invalid UTF-8.
  static Seq2SeqVocabulary fit(const std::vector<std::string>& texts, TokenLevel level, std::size_t max_size);
  // The same counting rule on texts already split into tokens by the caller (e.g. by
  // text/mt_tokenizer.hpp's language-aware rules), one list per text. Same errors.
  static Seq2SeqVocabulary fit_tokens(const std::vector<std::vector<std::string>>& token_lists, TokenLevel level,
                                      std::size_t max_size);

  // Tokens of `text` at this vocabulary's level (not yet ids).
  std::vector<std::string> split(std::string_view text) const;
  // text -> ids [Tx] (or [Ty] = BOS, ids.., EOS with add_bos_eos); unknown tokens -> <unk>.
  std::vector<int> encode(std::string_view text, bool add_bos_eos = false) const;
  // The same for tokens split by the caller.
  std::vector<int> encode_tokens(const std::vector<std::string>& tokens, bool add_bos_eos = false) const;
  // ids -> text: stops at the first EOS, skips PAD and BOS, shows <unk> as "<unk>"; character
  // level concatenates, word level joins with single spaces. Throws std::invalid_argument for
  // ids outside [0, size()).
  std::string decode(const std::vector<int>& ids) const;
  // ids -> one display string per id ("<pad>", "<bos>", "<eos>", "<unk>" for 0..3), for
  // alignment tables.
  std::vector<std::string> tokens_of(const std::vector<int>& ids) const;

  std::string token(int id) const;         // std::invalid_argument outside [0, size())
  int id(const std::string& token) const;  // <unk> when absent
  std::size_t size() const { return first_token + tokens_.size(); }
  TokenLevel level() const { return level_; }
  // Tokens by id from 4 on.
  const std::vector<std::string>& tokens() const { return tokens_; }

  // Stored as two keys of a flat JSON object: "<prefix>level" ("character" | "word") and
  // "<prefix>tokens" (the tokens from id 4 on, one per line: tokens never contain '\n'), so a
  // source and a target vocabulary fit in one model file's extra JSON next to other settings.
  void write_json(FlatJson& json, const std::string& prefix) const;
  // Inverse of write_json; std::invalid_argument naming the key for a missing or malformed entry
  // (unknown level, empty or duplicate token).
  static Seq2SeqVocabulary read_json(const FlatJson& json, const std::string& prefix);

 private:
  Seq2SeqVocabulary(TokenLevel level, std::vector<std::string> tokens);

  TokenLevel level_;
  std::vector<std::string> tokens_;  // tokens_[k] has id k + first_token
  std::unordered_map<std::string, int> ids_;
};

}  // namespace attn
