// How much of a data set a vocabulary cannot represent: the share of tokens that become <unk>
// and the share of sentences with at least one. Learners see it before training (a model cannot
// translate a word it only ever saw as <unk>), and it is how a vocabulary size is chosen.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "attn/text/seq2seq_vocabulary.hpp"

namespace attn {

struct UnknownRate {
  std::size_t tokens = 0;                  // all tokens of all sentences
  std::size_t unknown_tokens = 0;          // tokens outside the vocabulary
  std::size_t sentences = 0;               // sentences (token lists), empty ones included
  std::size_t sentences_with_unknown = 0;  // sentences with at least one unknown token
  // unknown_tokens / tokens and sentences_with_unknown / sentences; 0 when the denominator is 0.
  double token_rate() const;
  double sentence_rate() const;
  // Counts one encoded sentence: its ids other than PAD, BOS and EOS are its tokens, UNK its
  // unknown ones (so target sequences count like sources).
  void add(const std::vector<int>& ids);
};

// Counts over `token_lists` (one list per sentence, split the way the vocabulary was fitted).
UnknownRate unknown_rate(const std::vector<std::vector<std::string>>& token_lists, const Seq2SeqVocabulary& vocabulary);

}  // namespace attn
