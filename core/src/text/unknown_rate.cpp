#include "attn/text/unknown_rate.hpp"

namespace attn {

double UnknownRate::token_rate() const {
  return tokens == 0 ? 0.0 : static_cast<double>(unknown_tokens) / static_cast<double>(tokens);
}

double UnknownRate::sentence_rate() const {
  return sentences == 0 ? 0.0 : static_cast<double>(sentences_with_unknown) / static_cast<double>(sentences);
}

UnknownRate unknown_rate(const std::vector<std::vector<std::string>>& token_lists,
                         const Seq2SeqVocabulary& vocabulary) {
  UnknownRate rate;
  for (const std::vector<std::string>& tokens : token_lists) {
    std::size_t unknown = 0;
    for (const std::string& token : tokens) unknown += vocabulary.id(token) == Seq2SeqVocabulary::unk ? 1 : 0;
    rate.tokens += tokens.size();
    rate.unknown_tokens += unknown;
    rate.sentences += 1;
    rate.sentences_with_unknown += unknown > 0 ? 1 : 0;
  }
  return rate;
}

}  // namespace attn
