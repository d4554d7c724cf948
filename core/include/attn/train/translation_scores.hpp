// Free-running translation quality of any translator on sentences grouped by source, as the
// page's session (each epoch and evaluate), `attn train --task parallel`'s done line and
// `attn eval --pairs` report it: free-running output (greedy, or a beam search) of each distinct source sentence,
// scored against ALL its references (data/parallel_split.hpp's group_references), lowercased, with the metrics of
// text/translation_metrics.hpp (corpus BLEU-4, chrF2, exact match, BLEU by source length). Legend: K source groups.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "attn/data/parallel_split.hpp"
#include "attn/data/parallel_text.hpp"
#include "attn/models/translator.hpp"
#include "attn/text/translation_metrics.hpp"

namespace attn {

struct TranslationScores {
  std::size_t sentences = 0;  // sources scored (groups whose source has word tokens)
  BleuResult bleu;
  ChrfResult chrf;
  ExactMatch exact;                              // the output equals one of the source's references
  std::vector<LengthBucket> by_length;           // the five buckets of bleu_by_source_length
  std::vector<std::string> sources, hypotheses;  // [sentences] what was scored, in group order
};

// How the sentences are decoded: beam 1 is greedy search (batches of `batch` sources); beam K > 1
// is beam_search of width K with the GNMT length penalty `alpha`, one source at a time, keeping its
// best hypothesis (models/translator.hpp).
struct TranslationSearch {
  std::size_t beam = 1;
  float alpha = kDefaultLengthAlpha;
  std::size_t batch = 64;
};

// Decodes every group's source (encoded with vocabularies.source; at most max_len steps) as
// `search` says and scores the outputs (decoded with vocabularies.target). Groups whose source has
// no token are skipped. All zero (and the five empty buckets) for no group. Throws
// std::invalid_argument for beam 0.
TranslationScores score_translations(const Translator& translator, const ParallelVocabularies& vocabularies,
                                     const std::vector<ReferenceGroup>& groups, std::size_t max_len,
                                     const TranslationSearch& search = {});

}  // namespace attn
