#include "attn/data/seq2seq_data.hpp"

#include <algorithm>
#include <utility>

#include "attn/data/parallel_split.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/random.hpp"

namespace attn {

Seq2SeqData generate_seq2seq_data(const Seq2SeqDataSpec& spec) {
  TaskSplit split;
  std::string description;
  if (spec.task == "dates") {
    const DateTaskConfig config;
    split = make_date_split(spec.train_size, spec.test_size, config, spec.seed);
    description = "dates " + std::to_string(config.first_year) + ".." + std::to_string(config.last_year) + " in " +
                  std::to_string(kDateFormatCount) + " formats -> ISO 8601";
  } else {
    const DigitTask task = digit_task_from_name(spec.task);
    split = make_digit_split(task, spec.train_size, spec.test_size, spec.min_len, spec.max_len, spec.test_min_len,
                             spec.test_max_len, spec.seed);
    description = std::string(digit_task_name(task)) + " digit strings of length " + std::to_string(spec.min_len) +
                  ".." + std::to_string(spec.max_len) + " (held out: " + std::to_string(spec.test_min_len) + ".." +
                  std::to_string(spec.test_max_len) + ")";
  }
  Seq2SeqData data = encode_seq2seq_data(std::move(split), TokenLevel::character, spec);
  data.description = std::move(description);
  return data;
}

Seq2SeqData parallel_seq2seq_data(std::vector<ParallelExample> pairs, const std::string& name,
                                  const Seq2SeqDataSpec& spec) {
  // A side with no word tokens (e.g. only no-break spaces) would give an empty sequence: skip it.
  const Seq2SeqVocabulary source_words(TokenLevel::word, WordTokenizer::mt_rules(spec.tokenization.source));
  const Seq2SeqVocabulary target_words(TokenLevel::word, WordTokenizer::mt_rules(spec.tokenization.target));
  const std::size_t loaded = pairs.size();
  pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                             [&](const ParallelExample& e) {
                               return source_words.split(e.source).empty() || target_words.split(e.target).empty();
                             }),
              pairs.end());
  const std::size_t skipped = loaded - pairs.size();
  if (pairs.size() < 2) throw DataError(name, 0, "needs at least 2 pairs (training and held-out)");
  // Hold out test_size source sentences with ALL their translations (split_by_source: a sentence
  // is never scored while another translation of it was trained on), never more than half of
  // the sources of a small file; both parts are then shuffled, so a file sorted by length gives
  // held-out sentences of every length and train_size keeps a random share.
  const std::size_t sources = group_references(pairs).size();
  if (sources < 2) throw DataError(name, 0, "needs at least 2 distinct source sentences (training and held-out)");
  SourceSplit by_source = split_by_source(pairs, std::min(spec.test_size, sources / 2), spec.seed);
  std::size_t too_long = 0;
  if (spec.max_train_tokens != 0) {
    LengthFilterResult fitting =
        filter_by_length(by_source.train, spec.max_train_tokens, spec.max_train_tokens, spec.tokenization);
    too_long = fitting.dropped();
    if (fitting.kept.empty()) {
      throw DataError(name, 0,
                      "no training pair has at most " + std::to_string(spec.max_train_tokens) +
                          " tokens on each side: raise max_train_tokens (0: no limit)");
    }
    by_source.train = std::move(fitting.kept);
  }
  Rng rng(spec.seed);
  rng.shuffle(by_source.train);
  rng.shuffle(by_source.held_out);
  TaskSplit split;
  split.test = std::move(by_source.held_out);
  if (spec.train_size != 0 && by_source.train.size() > spec.train_size) by_source.train.resize(spec.train_size);
  split.train = std::move(by_source.train);
  Seq2SeqData data = encode_seq2seq_data(std::move(split), TokenLevel::word, spec);
  data.train_too_long = too_long;
  data.description = name + " (shuffled with seed " + std::to_string(spec.seed) +
                     (skipped ? "; " + std::to_string(skipped) + " pairs without word tokens skipped" : "") +
                     (too_long ? "; " + std::to_string(too_long) + " training pairs over " +
                                     std::to_string(spec.max_train_tokens) + " tokens left out"
                               : "") +
                     ")";
  return data;
}

Seq2SeqData encode_seq2seq_data(TaskSplit split, TokenLevel level, const Seq2SeqDataSpec& spec) {
  const bool words = level == TokenLevel::word;
  Seq2SeqData data;
  data.train = std::move(split.train);
  data.test = std::move(split.test);
  data.vocabularies = fit_vocabularies(
      data.train, level, words ? spec.source_vocab : 1000, words ? spec.target_vocab : 1000,
      WordTokenizer::mt_rules(spec.tokenization.source), WordTokenizer::mt_rules(spec.tokenization.target));
  encode_seq2seq_parts(data);
  return data;
}

void encode_seq2seq_parts(Seq2SeqData& data) {
  data.train_ids = encode_pairs(data.train, data.vocabularies);
  data.test_ids = encode_pairs(data.test, data.vocabularies);
  data.train_unknown = unknown_rates(data.train_ids);
  data.test_unknown = unknown_rates(data.test_ids);
}

std::string seq2seq_extra_json(const std::string& task, const ParallelVocabularies& vocabularies) {
  FlatJson json;
  json.set("task", task);
  vocabularies.source.write_json(json, "source_");
  vocabularies.target.write_json(json, "target_");
  return json.dump();
}

ParallelVocabularies read_seq2seq_vocabularies(const std::string& extra_json) {
  const FlatJson json = FlatJson::parse(extra_json);
  return {Seq2SeqVocabulary::read_json(json, "source_"), Seq2SeqVocabulary::read_json(json, "target_")};
}

std::string read_seq2seq_task(const std::string& extra_json) { return FlatJson::parse(extra_json).get_string("task"); }

}  // namespace attn
