// The parallel pipeline's data under its translation tokenizer (text/mt_tokenizer.hpp, English
// source and French target, lowercased) against the project tokenizer it used before (model files
// without a recorded tokenizer still use it), on the same pairs and the same split: vocabulary
// sizes and <unk> rates per part and side, for docs/translation.md ("Training on these tokens").
// With a model file of the project scheme (saved by a build before the tokenizer was recorded),
// also its held-out BLEU as `attn train` scored it and with its output's " - " joined back into
// "-" (what the project tokenizer makes of "est-ce": est - ce, which 13a BLEU counts as three
// tokens against the reference's one). Native only; prints plain text.
//
//   cmake --build build/native --target attn_translation_tokenizers
//   ./build/native/attn_translation_tokenizers PAIRS.tsv TRAIN_SIZE TEST_SIZE SEED VOCAB [OLD.attn]
//   (TRAIN_SIZE, TEST_SIZE, SEED, VOCAB as attn train's --train-size, --test-size, --seed, --vocab)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <regex>
#include <string>

#include "attn/data/seq2seq_data.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/translator_file.hpp"
#include "attn/text/translation_metrics.hpp"
#include "attn/train/translation_scores.hpp"

namespace {

using namespace attn;

void print_data(const char* tokenizer, const Seq2SeqData& d) {
  const auto rate = [](const UnknownRate& u) {
    std::printf(" %.2f %% / %.1f %%", 100 * u.token_rate(), 100 * u.sentence_rate());
  };
  std::printf("%s: %zu training pairs, %zu held out; vocabularies %zu / %zu ids; <unk> (tokens / sentences):",
              tokenizer, d.train.size(), d.test.size(), d.vocabularies.source.size(), d.vocabularies.target.size());
  std::printf(" training source");
  rate(d.train_unknown.source);
  std::printf(", target");
  rate(d.train_unknown.target);
  std::printf("; held out source");
  rate(d.test_unknown.source);
  std::printf(", target");
  rate(d.test_unknown.target);
  std::printf("\n");
}

std::size_t number(const char* text) { return static_cast<std::size_t>(std::strtoull(text, nullptr, 10)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: attn_translation_tokenizers PAIRS.tsv TRAIN_SIZE TEST_SIZE SEED VOCAB [OLD.attn]\n");
    return 2;
  }
  try {
    Seq2SeqDataSpec spec;
    spec.task = "parallel";
    spec.train_size = number(argv[2]);
    spec.test_size = number(argv[3]);
    spec.seed = number(argv[4]);
    spec.source_vocab = spec.target_vocab = number(argv[5]);
    Seq2SeqData data = parallel_seq2seq_data(load_parallel_text_file(argv[1]), argv[1], spec);
    print_data("translation tokenizer", data);
    data.vocabularies = fit_vocabularies(data.train, TokenLevel::word, spec.source_vocab, spec.target_vocab);
    encode_seq2seq_parts(data);
    print_data("project tokenizer", data);
    if (argc == 7) {
      std::string extra;
      const std::unique_ptr<TrainableTranslator> model = load_translator(read_file(argv[6]), &extra);
      const ParallelVocabularies v = read_seq2seq_vocabularies(extra);
      if (v.target.tokenizer().scheme != WordTokenizer::Scheme::project)
        throw std::invalid_argument(std::string(argv[6]) + ": not a model file of the project tokenizer");
      std::size_t longest = 0;  // attn train's decoding limit: the longest held-out source
      for (const ParallelExample& e : data.test) longest = std::max(longest, v.source.encode(e.source).size());
      const std::vector<ReferenceGroup> groups = group_references(data.test);
      const TranslationScores t = score_translations(*model, v, groups, decode_step_limit(longest));
      std::vector<std::vector<std::string>> references;
      for (const ReferenceGroup& g : groups) references.push_back(g.references);
      std::vector<std::string> joined;
      for (const std::string& h : t.hypotheses) joined.push_back(std::regex_replace(h, std::regex(" - "), "-"));
      MetricOptions lowercase;
      lowercase.lowercase = true;
      std::printf("%s on %zu held-out sources: BLEU %.2f as scored, %.2f with \" - \" joined into \"-\"\n", argv[6],
                  t.sentences, t.bleu.score, corpus_bleu(joined, references, lowercase).score);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attn_translation_tokenizers: %s\n", e.what());
    return 1;
  }
  return 0;
}
