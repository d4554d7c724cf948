#include "attn/train/translation_scores.hpp"

#include "attn/text/sequences.hpp"

namespace attn {

TranslationScores score_translations(const Translator& translator, const ParallelVocabularies& vocabularies,
                                     const std::vector<ReferenceGroup>& groups, std::size_t max_len,
                                     std::size_t batch) {
  if (batch == 0) batch = 1;
  TranslationScores out;
  std::vector<std::vector<std::string>> references;
  std::vector<std::vector<std::int32_t>> pending;
  const auto flush = [&] {
    if (pending.empty()) return;
    const std::vector<Decoded> decoded =
        greedy_search(translator, pad_to_longest(pending, PadMode::post, kPadId).ids, max_len);
    for (const Decoded& d : decoded) out.hypotheses.push_back(vocabularies.target.decode(d.tokens));
    pending.clear();
  };
  for (const ReferenceGroup& g : groups) {
    const std::vector<int> ids = vocabularies.source.encode(g.source);
    if (ids.empty()) continue;  // nothing to translate (the data pipeline drops such pairs)
    out.sources.push_back(g.source);
    references.push_back(g.references);
    pending.emplace_back(ids.begin(), ids.end());
    if (pending.size() == batch) flush();
  }
  flush();
  MetricOptions options;
  options.lowercase = true;
  out.sentences = out.hypotheses.size();
  out.by_length = bleu_by_source_length(out.sources, out.hypotheses, references, options);
  if (out.sentences == 0) return out;
  out.bleu = corpus_bleu(out.hypotheses, references, options);
  out.chrf = corpus_chrf(out.hypotheses, references, options);
  out.exact = exact_match(out.hypotheses, references, options);
  return out;
}

}  // namespace attn
