#include "seq2seq_data.hpp"

#include <algorithm>
#include <stdexcept>

#include "attn/data/seq2seq_tasks.hpp"
#include "attn/random.hpp"

namespace attn::cli {

std::size_t default_train_size(const std::string& task) {
  // 20,000 generated pairs suffice for 100% held-out exact match on dates and 5-20-digit
  // reversal (notes/s2s-tasks.md); a parallel file is used whole.
  return task == "parallel" ? 0 : 20000;
}

Seq2SeqData make_seq2seq_data(const Seq2SeqDataOptions& options) {
  Seq2SeqData data;
  const std::size_t train_size = options.train_size != 0 ? options.train_size : default_train_size(options.task);
  TokenLevel level = TokenLevel::character;
  if (options.task == "dates") {
    const DateTaskConfig config;
    TaskSplit split = make_date_split(train_size, options.test_size, config, options.seed);
    data.train = std::move(split.train);
    data.test = std::move(split.test);
    data.description = "dates " + std::to_string(config.first_year) + ".." + std::to_string(config.last_year) + " in " +
                       std::to_string(kDateFormatCount) + " formats -> ISO 8601";
  } else if (options.task == "parallel") {
    level = TokenLevel::word;
    std::vector<ParallelExample> pairs = load_parallel_text_file(options.data_path);
    // A side with no word tokens (e.g. a lone apostrophe) would give an empty sequence: skip it.
    const Seq2SeqVocabulary words(TokenLevel::word);
    const std::size_t loaded = pairs.size();
    pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                               [&](const ParallelExample& e) {
                                 return words.split(e.source).empty() || words.split(e.target).empty();
                               }),
                pairs.end());
    const std::size_t skipped = loaded - pairs.size();
    if (pairs.size() < 2) throw DataError(options.data_path, 0, "needs at least 2 pairs (training and held-out)");
    Rng rng(options.seed);
    for (std::size_t i = pairs.size() - 1; i > 0; --i) {  // Fisher-Yates
      std::swap(pairs[i], pairs[rng.below(static_cast<std::uint32_t>(i + 1))]);
    }
    // Hold out test_size pairs, but never more than half of a small file.
    const std::size_t test = std::min(options.test_size, pairs.size() / 2);
    data.test.assign(pairs.end() - static_cast<std::ptrdiff_t>(test), pairs.end());
    pairs.resize(pairs.size() - test);
    if (train_size != 0 && pairs.size() > train_size) pairs.resize(train_size);
    data.train = std::move(pairs);
    data.description = options.data_path + " (shuffled with seed " + std::to_string(options.seed) +
                       (skipped ? "; " + std::to_string(skipped) + " pairs without word tokens skipped" : "") + ")";
  } else {
    const DigitTask task = digit_task_from_name(options.task);
    TaskSplit split = make_digit_split(task, train_size, options.test_size, options.min_len, options.max_len,
                                       options.test_min_len, options.test_max_len, options.seed);
    data.train = std::move(split.train);
    data.test = std::move(split.test);
    data.description = std::string(digit_task_name(task)) + " digit strings of length " +
                       std::to_string(options.min_len) + ".." + std::to_string(options.max_len) +
                       " (held out: " + std::to_string(options.test_min_len) + ".." +
                       std::to_string(options.test_max_len) + ")";
  }
  data.vocabularies = fit_vocabularies(data.train, level, level == TokenLevel::word ? options.source_vocab : 1000,
                                       level == TokenLevel::word ? options.target_vocab : 1000);
  data.train_ids = encode_pairs(data.train, data.vocabularies);
  data.test_ids = encode_pairs(data.test, data.vocabularies);
  return data;
}

std::string seq2seq_extra_json(const std::string& task, const ParallelVocabularies& vocabularies) {
  FlatJson json;
  json.set("task", task);
  vocabularies.source.write_json(json, "source_");
  vocabularies.target.write_json(json, "target_");
  return json.dump();
}

Seq2SeqExtra read_seq2seq_extra(const std::string& extra_json) {
  const FlatJson json = FlatJson::parse(extra_json);
  return {json.get_string("task"),
          {Seq2SeqVocabulary::read_json(json, "source_"), Seq2SeqVocabulary::read_json(json, "target_")}};
}

}  // namespace attn::cli
