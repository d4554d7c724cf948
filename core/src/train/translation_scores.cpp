#include "attn/train/translation_scores.hpp"

#include <algorithm>
#include <stdexcept>

#include "attn/text/sequences.hpp"

namespace attn {

TranslationScores score_translations(const Translator& translator, const ParallelVocabularies& vocabularies,
                                     const std::vector<ReferenceGroup>& groups, std::size_t max_len,
                                     const TranslationSearch& search) {
  if (search.beam == 0) throw std::invalid_argument("score_translations: the beam width must be >= 1, got 0");
  const std::size_t batch = search.beam == 1 ? std::max<std::size_t>(search.batch, 1) : 1;
  TranslationScores out;
  std::vector<std::vector<std::string>> references;
  std::vector<std::vector<std::int32_t>> pending;
  const auto flush = [&] {
    if (pending.empty()) return;
    if (search.beam > 1) {
      for (const std::vector<std::int32_t>& source : pending) {
        const std::vector<Decoded> beam =
            beam_search(translator, std::vector<int>(source.begin(), source.end()), search.beam, search.alpha, max_len);
        out.hypotheses.push_back(beam.empty() ? std::string() : vocabularies.target.decode(beam[0].tokens));
      }
    } else {
      const std::vector<Decoded> decoded =
          greedy_search(translator, pad_to_longest(pending, PadMode::post, kPadId).ids, max_len);
      for (const Decoded& d : decoded) out.hypotheses.push_back(vocabularies.target.decode(d.tokens));
    }
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
