#include "attn/text/unknown_rate.hpp"

namespace attn {

double UnknownRate::token_rate() const {
  return tokens == 0 ? 0.0 : static_cast<double>(unknown_tokens) / static_cast<double>(tokens);
}

double UnknownRate::sentence_rate() const {
  return sentences == 0 ? 0.0 : static_cast<double>(sentences_with_unknown) / static_cast<double>(sentences);
}

void UnknownRate::add(const std::vector<int>& ids) {
  std::size_t count = 0, unknown = 0;
  for (const int id : ids) {
    if (id == Seq2SeqVocabulary::pad || id == Seq2SeqVocabulary::bos || id == Seq2SeqVocabulary::eos) continue;
    ++count;
    unknown += id == Seq2SeqVocabulary::unk ? 1 : 0;
  }
  tokens += count;
  unknown_tokens += unknown;
  sentences += 1;
  sentences_with_unknown += unknown > 0 ? 1 : 0;
}

UnknownRate unknown_rate(const std::vector<std::vector<std::string>>& token_lists,
                         const Seq2SeqVocabulary& vocabulary) {
  UnknownRate rate;
  for (const std::vector<std::string>& tokens : token_lists) rate.add(vocabulary.encode_tokens(tokens));
  return rate;
}

}  // namespace attn
