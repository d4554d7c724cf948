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
//   word      — words and punctuation as tokens, split by the vocabulary's WordTokenizer (below)
//               and joined back by it. Used for parallel text (Tatoeba pairs): word level keeps
//               sequences short (≈ 5-10 tokens instead of 30-60 characters), which is what makes
//               attention alignments readable and lets a small model train in minutes; lowercasing
//               and split-off punctuation keep "Go", "go" and "go." one vocabulary entry. The
//               cost: rare words become <unk>.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attn/io/flat_json.hpp"
#include "attn/text/mt_tokenizer.hpp"

namespace attn {

enum class TokenLevel { character, word };

// How a word-level vocabulary splits text into tokens and joins tokens back into text.
//   mt       text/mt_tokenizer.hpp with a language (French elisions and clitics: "l'homme" ->
//            l' homme, "est-ce" -> est -ce; English contractions: "doesn't" -> does n't) and
//            optional lowercasing; joined by mt_detokenize in that language ("il n'aime pas les
//            pommes."). What the parallel pipeline fits (data/seq2seq_data.hpp).
//   project  the project's tokenizer (text/tokenizer.hpp) with keep_punctuation, lowercased, no
//            HTML stripping ("l'homme" and "doesn't" whole, "est-ce" -> est - ce); joined with
//            single spaces ("il n'aime pas les pommes ."). Model files written before the
//            tokenisation was stored use it, and keep behaving as they did.
struct WordTokenizer {
  enum class Scheme { project, mt };
  Scheme scheme = Scheme::project;
  MtTokenizerOptions mt;  // scheme mt: the language rules and lowercasing

  static WordTokenizer mt_rules(const MtTokenizerOptions& options) { return {Scheme::mt, options}; }
  // "English rules, lowercased", "French rules", "the project tokenizer (lowercased)".
  std::string description() const;
  bool operator==(const WordTokenizer& other) const {
    return scheme == other.scheme &&
           (scheme == Scheme::project || (mt.language == other.mt.language && mt.lowercase == other.mt.lowercase));
  }
  bool operator!=(const WordTokenizer& other) const { return !(*this == other); }
};

// The version of mt_tokenize's rules a model file records with a vocabulary of scheme mt: a
// change to the rules that moves any token boundary must raise it, so that a file fitted on the
// old tokens is refused ("...was written with version N ...") instead of silently mis-encoding.
constexpr int kMtTokenSchemeVersion = 1;

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

  // Only the reserved ids (size() == 4). `tokenizer` is the word level's (ignored for characters).
  explicit Seq2SeqVocabulary(TokenLevel level = TokenLevel::character, const WordTokenizer& tokenizer = {});

  // Counts the tokens of every text and keeps the max_size - 4 most frequent (max_size counts the
  // reserved ids, like Keras' num_words). Throws std::invalid_argument when max_size < 5 or a
  // token contains '\n' (it could not be stored), and TextError for invalid UTF-8.
  // Texts are split one at a time (split()), so fitting never holds every token list at once.
  static Seq2SeqVocabulary fit(const std::vector<std::string>& texts, TokenLevel level, std::size_t max_size,
                               const WordTokenizer& tokenizer = {});
  // The same counting rule on texts already split into tokens by the caller (e.g. by
  // text/mt_tokenizer.hpp's language-aware rules), one list per text. Same errors. `tokenizer`
  // is how split() and decode() treat text afterwards: it should be the one that made the lists.
  static Seq2SeqVocabulary fit_tokens(const std::vector<std::vector<std::string>>& token_lists, TokenLevel level,
                                      std::size_t max_size, const WordTokenizer& tokenizer = {});

  // Tokens of `text` at this vocabulary's level (not yet ids): its code points, or its words as
  // the WordTokenizer splits them.
  std::vector<std::string> split(std::string_view text) const;
  // Tokens -> text: character level concatenates; word level joins as the WordTokenizer does
  // (mt: mt_detokenize in its language; project: single spaces). Tokens are taken as they are.
  std::string join(const std::vector<std::string>& tokens) const;
  // text -> ids [Tx] (or [Ty] = BOS, ids.., EOS with add_bos_eos); unknown tokens -> <unk>.
  std::vector<int> encode(std::string_view text, bool add_bos_eos = false) const;
  // The same for tokens split by the caller.
  std::vector<int> encode_tokens(const std::vector<std::string>& tokens, bool add_bos_eos = false) const;
  // ids -> text: stops at the first EOS, skips PAD and BOS, shows <unk> as "<unk>", then join().
  // Throws std::invalid_argument for ids outside [0, size()).
  std::string decode(const std::vector<int>& ids) const;
  // ids -> one display string per id ("<pad>", "<bos>", "<eos>", "<unk>" for 0..3), for
  // alignment tables.
  std::vector<std::string> tokens_of(const std::vector<int>& ids) const;

  std::string token(int id) const;         // std::invalid_argument outside [0, size())
  int id(const std::string& token) const;  // <unk> when absent
  std::size_t size() const { return first_token + tokens_.size(); }
  TokenLevel level() const { return level_; }
  const WordTokenizer& tokenizer() const { return tokenizer_; }
  // For people: "characters", or the word level's WordTokenizer::description().
  std::string token_description() const;
  // Tokens by id from 4 on.
  const std::vector<std::string>& tokens() const { return tokens_; }

  // Stored as keys of a flat JSON object: "<prefix>level" ("character" | "word") and
  // "<prefix>tokens" (the tokens from id 4 on, one per line: tokens never contain '\n'), so a
  // source and a target vocabulary fit in one model file's extra JSON next to other settings;
  // at word level with the mt scheme also "<prefix>tokenizer" ("mt"), "<prefix>tokenizer_version"
  // (kMtTokenSchemeVersion), "<prefix>language" ("english" | "french" | "generic") and
  // "<prefix>lowercase". The project scheme writes no tokenizer key: such a record is what files
  // written before the tokenisation was stored hold.
  void write_json(FlatJson& json, const std::string& prefix) const;
  // Only the tokenizer's keys of write_json (none for characters and the project scheme), for
  // other records of a vocabulary (the PyTorch export's vocab.json).
  void write_tokenizer_json(FlatJson& json, const std::string& prefix) const;
  // Inverse of write_json (no "<prefix>tokenizer": the project scheme); std::invalid_argument
  // naming the key for a missing or malformed entry (unknown level, tokenizer or language, a
  // token-scheme version this build does not know, empty or duplicate token).
  static Seq2SeqVocabulary read_json(const FlatJson& json, const std::string& prefix);

 private:
  Seq2SeqVocabulary(TokenLevel level, const WordTokenizer& tokenizer, std::vector<std::string> tokens);

  TokenLevel level_;
  WordTokenizer tokenizer_;
  std::vector<std::string> tokens_;  // tokens_[k] has id k + first_token
  std::unordered_map<std::string, int> ids_;
};

}  // namespace attn
