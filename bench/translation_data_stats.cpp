// Facts about a sentence-pairs file (data/parallel_text.hpp) for docs/translation.md: what the
// loader read and skipped, distinct source sentences and how many have several references, the
// length distribution per side, distinct token types under the IMDB tokenizer and under the
// translation tokenizer, and the <unk> rate of vocabularies of 4k/6k/8k words per side, fitted on
// the training part of a held-out-by-source split (10 % of the sources, seed 1) and measured on
// both parts. Native only; prints plain text.
//
//   cmake --build build/native --target attn_translation_data_stats
//   ./build/native/attn_translation_data_stats ../shared/data/tatoeba-fra-eng-train.tsv
#include <algorithm>
#include <cstdio>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "attn/data/parallel_split.hpp"
#include "attn/data/parallel_text.hpp"
#include "attn/text/seq2seq_vocabulary.hpp"
#include "attn/text/unknown_rate.hpp"

namespace {

using namespace attn;
using TokenLists = std::vector<std::vector<std::string>>;

TokenLists tokenize_side(const std::vector<ParallelExample>& pairs, bool source, const MtTokenizerOptions& options) {
  TokenLists out;
  out.reserve(pairs.size());
  for (const ParallelExample& p : pairs) out.push_back(mt_tokenize(source ? p.source : p.target, options));
  return out;
}

void print_lengths(const char* side, const TokenLists& lists) {
  std::vector<std::size_t> lengths;
  for (const auto& l : lists) lengths.push_back(l.size());
  std::sort(lengths.begin(), lengths.end());
  double sum = 0;
  for (const std::size_t n : lengths) sum += static_cast<double>(n);
  const auto at = [&](double q) {
    return lengths[static_cast<std::size_t>(q * static_cast<double>(lengths.size() - 1))];
  };
  std::size_t buckets[5] = {};
  for (const std::size_t n : lengths) buckets[n <= 5 ? 0 : n <= 10 ? 1 : n <= 15 ? 2 : n <= 20 ? 3 : 4]++;
  const double total = static_cast<double>(lengths.size());
  std::printf(
      "%s tokens per sentence: mean %.2f, median %zu, 95th percentile %zu, max %zu; "
      "1-5: %.1f %%, 6-10: %.1f %%, 11-15: %.1f %%, 16-20: %.1f %%, 21+: %.2f %%\n",
      side, sum / total, at(0.5), at(0.95), lengths.back(), 100 * buckets[0] / total, 100 * buckets[1] / total,
      100 * buckets[2] / total, 100 * buckets[3] / total, 100 * buckets[4] / total);
}

std::size_t types(const TokenLists& lists) {
  std::set<std::string> seen;
  for (const auto& l : lists) seen.insert(l.begin(), l.end());
  return seen.size();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: attn_translation_data_stats PAIRS.tsv\n");
    return 2;
  }
  try {
    ParallelLoadReport report;
    const std::vector<ParallelExample> pairs = load_parallel_text_file(argv[1], {}, &report);
    std::printf("loaded: %s; %zu with an attribution column\n", report.summary().c_str(), report.with_attribution);

    const std::vector<ReferenceGroup> groups = group_references(pairs);
    std::size_t several = 0, references = 0, most = 0;
    for (const ReferenceGroup& g : groups) {
      several += g.references.size() > 1 ? 1 : 0;
      references += g.references.size();
      most = std::max(most, g.references.size());
    }
    std::printf(
        "distinct sources (normalised): %zu; with more than one distinct reference: %zu (%.1f %%); "
        "references per source: mean %.2f, max %zu\n",
        groups.size(), several, 100.0 * static_cast<double>(several) / static_cast<double>(groups.size()),
        static_cast<double>(references) / static_cast<double>(groups.size()), most);

    const PairTokenization tok;  // English source, French target, lowercased
    const TokenLists en = tokenize_side(pairs, true, tok.source), fr = tokenize_side(pairs, false, tok.target);
    TokenLists en_words;  // white-space words, as bleu_by_source_length counts them
    for (const ParallelExample& p : pairs) {
      en_words.emplace_back();
      for (std::size_t start = 0, end; start < p.source.size(); start = end + 1) {
        end = std::min(p.source.find(' ', start), p.source.size());
        if (end > start) en_words.back().push_back(p.source.substr(start, end - start));
      }
    }
    print_lengths("English white-space", en_words);
    print_lengths("English", en);
    print_lengths("French", fr);
    TokenLists en_imdb, fr_imdb;
    const Seq2SeqVocabulary imdb(TokenLevel::word);
    for (const ParallelExample& p : pairs) {
      en_imdb.push_back(imdb.split(p.source));
      fr_imdb.push_back(imdb.split(p.target));
    }
    std::printf("distinct token types: English %zu (IMDB tokenizer: %zu), French %zu (IMDB tokenizer: %zu)\n",
                types(en), types(en_imdb), types(fr), types(fr_imdb));

    // Detokenising the (not lowercased) tokens gives the sentence back: share of exact round trips.
    for (const bool source : {true, false}) {
      const MtLanguage language = source ? MtLanguage::english : MtLanguage::french;
      std::size_t exact = 0, same_up_to_typography = 0, shown = 0;
      for (const ParallelExample& p : pairs) {
        const std::string& s = source ? p.source : p.target;
        const std::string back = mt_detokenize(mt_tokenize(s, {language, false}), {language, " "});
        if (back == s) {
          ++exact;
          continue;
        }
        // The files mix no-break and thin spaces (U+00A0, U+202F, U+2009) with plain ones and ’ with ': compare
        // with those written as ' ' and '.
        std::string plain = s;
        for (const auto& [from, to] : {std::pair<std::string, std::string>{"\xC2\xA0", " "},
                                       {"\xE2\x80\xAF", " "},
                                       {"\xE2\x80\x89", " "},
                                       {"\xE2\x80\x99", "'"}}) {
          for (std::size_t at; (at = plain.find(from)) != std::string::npos;) plain.replace(at, from.size(), to);
        }
        if (back == plain) {
          ++same_up_to_typography;
        } else if (shown++ < 8) {
          std::printf("  round trip differs: \"%s\" -> \"%s\"\n", s.c_str(), back.c_str());
        }
      }
      const double n = static_cast<double>(pairs.size());
      std::printf(
          "%s detokenize(tokenize(s)) == s: %zu of %zu (%.2f %%); also equal once no-break and thin spaces and ’ "
          "are written ' ' and ': %.3f %%\n",
          source ? "English" : "French", exact, pairs.size(), 100.0 * static_cast<double>(exact) / n,
          100.0 * static_cast<double>(exact + same_up_to_typography) / n);
    }

    const SourceSplit split = split_by_source_fraction(pairs, 0.1, 1);
    std::printf("split by source (10 %%, seed 1): %zu training pairs, %zu held-out pairs of %zu sources\n",
                split.train.size(), split.held_out.size(), split.held_out_groups.size());
    const TokenLists en_train = tokenize_side(split.train, true, tok.source);
    const TokenLists fr_train = tokenize_side(split.train, false, tok.target);
    const TokenLists en_test = tokenize_side(split.held_out, true, tok.source);
    const TokenLists fr_test = tokenize_side(split.held_out, false, tok.target);
    for (const std::size_t size : {4000u, 6000u, 8000u}) {
      const Seq2SeqVocabulary en_vocab = Seq2SeqVocabulary::fit_tokens(en_train, TokenLevel::word, size);
      const Seq2SeqVocabulary fr_vocab = Seq2SeqVocabulary::fit_tokens(fr_train, TokenLevel::word, size);
      const UnknownRate a = unknown_rate(en_train, en_vocab), b = unknown_rate(en_test, en_vocab);
      const UnknownRate c = unknown_rate(fr_train, fr_vocab), d = unknown_rate(fr_test, fr_vocab);
      std::printf(
          "vocabulary %zu per side: <unk> tokens / sentences with one — English train %.2f %% / %.1f %%, "
          "held-out %.2f %% / %.1f %%; French train %.2f %% / %.1f %%, held-out %.2f %% / %.1f %%\n",
          size, 100 * a.token_rate(), 100 * a.sentence_rate(), 100 * b.token_rate(), 100 * b.sentence_rate(),
          100 * c.token_rate(), 100 * c.sentence_rate(), 100 * d.token_rate(), 100 * d.sentence_rate());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
