// Preparing sentence pairs (data/parallel_text.hpp) for honest evaluation: a maximum-length
// filter, and a held-out split *by source sentence* that keeps every translation of a source on
// one side and gathers them as that source's references. No tensors here.
// Legend: N pairs, G distinct (normalised) source sentences, K held-out sources.
//
// Why by source: Tatoeba gives the same English sentence several French translations ("Run!" ->
// "Cours !", "Courez !"). A split by pair puts some of them in training and scores the model on
// the others — a sentence it has seen, so the score is optimistic. Grouping by source also lets
// BLEU use all references of a sentence (text/translation_metrics.hpp).
//
// Determinism: sources are numbered in order of first appearance and shuffled by Fisher–Yates
// from attn::Rng (PCG32), so the split depends only on the file's order and the seed — never on
// hash-map iteration order or addresses — and is the same natively and in wasm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/data/parallel_text.hpp"
#include "attn/text/mt_tokenizer.hpp"

namespace attn {

// How each side is split into tokens for lengths (and, by the caller, for vocabularies).
struct PairTokenization {
  MtTokenizerOptions source{MtLanguage::english, true};
  MtTokenizerOptions target{MtLanguage::french, true};
};

struct LengthFilterResult {
  std::vector<ParallelExample> kept;  // in their original order
  std::size_t dropped_source = 0;     // pairs whose source had more than max_source_tokens tokens
  std::size_t dropped_target = 0;     // ... whose source fitted but whose target did not
  std::size_t dropped() const { return dropped_source + dropped_target; }
};

// Keeps the pairs whose sides have at most max_*_tokens tokens (mt_tokenize with `tokenization`);
// 0 means no limit on that side. Throws TextError for invalid UTF-8 (the loader already rejects it).
LengthFilterResult filter_by_length(const std::vector<ParallelExample>& examples, std::size_t max_source_tokens,
                                    std::size_t max_target_tokens, const PairTokenization& tokenization = {});

// The key pairs are grouped by: mt_tokenize(source, generic rules, lowercased), joined by single
// spaces, so "Go." / "go ." / "GO." are one source, and NFC and the kind of spaces do not matter.
std::string source_key(const std::string& source);

struct ReferenceGroup {
  std::string source;                   // the source as first written in the file
  std::vector<std::string> references;  // every distinct target of the group, in file order
};

// Groups pairs by source_key, in order of first appearance.
std::vector<ReferenceGroup> group_references(const std::vector<ParallelExample>& examples);

struct SourceSplit {
  std::vector<ParallelExample> train;           // pairs of the training sources, original order
  std::vector<ParallelExample> held_out;        // pairs of the held-out sources, original order
  std::vector<ReferenceGroup> held_out_groups;  // [K] each held-out source with all its references
  std::size_t sources = 0;                      // G
};

// Holds out `held_out_sources` of the G sources (with all their pairs), chosen by a Fisher–Yates
// shuffle of the source numbers drawn from attn::Rng(seed, stream). std::invalid_argument when
// held_out_sources > G.
SourceSplit split_by_source(const std::vector<ParallelExample>& examples, std::size_t held_out_sources,
                            std::uint64_t seed, std::uint64_t stream = 0x5e17e);
// The same with K = round(fraction · G); fraction in [0, 1), else std::invalid_argument
// "split_by_source: the held-out share must be in [0, 1), got X".
SourceSplit split_by_source_fraction(const std::vector<ParallelExample>& examples, double fraction, std::uint64_t seed,
                                     std::uint64_t stream = 0x5e17e);

}  // namespace attn
