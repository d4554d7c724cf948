// The data of `attn train --task dates|reverse|sort|copy|parallel`: training and held-out pairs,
// their vocabularies and id sequences, and the vocabularies' record in the model file.
//   dates     generated (data/seq2seq_tasks.hpp), 1950..2049, character level
//   reverse, sort, copy   generated digit strings, character level
//   parallel  --data PATH: "source<TAB>target[<TAB>...]" lines, shuffled by --seed, the last
//             test_size pairs held out; word level (see text/seq2seq_vocabulary.hpp for why)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/data/parallel_text.hpp"
#include "attn/io/flat_json.hpp"

namespace attn::cli {

struct Seq2SeqDataOptions {
  std::string task;            // dates | reverse | sort | copy | parallel
  std::string data_path;       // parallel only
  std::size_t train_size = 0;  // 0: the task's default (parallel: every pair not held out)
  std::size_t test_size = 1000;
  std::size_t min_len = 5, max_len = 20;                 // digit tasks, training
  std::size_t test_min_len = 5, test_max_len = 20;       // digit tasks, held out
  std::size_t source_vocab = 8000, target_vocab = 8000;  // parallel: most frequent words (+4 reserved)
  std::uint64_t seed = 1;
};

struct Seq2SeqData {
  std::vector<ParallelExample> train, test;
  ParallelVocabularies vocabularies;
  EncodedPairs train_ids, test_ids;
  std::string description;  // one line for the user: where the pairs came from
};

// Training size when --train-size is not given.
std::size_t default_train_size(const std::string& task);
Seq2SeqData make_seq2seq_data(const Seq2SeqDataOptions& options);

// The model file's extra JSON: {"task": ..., "source_level", "source_tokens", "target_level",
// "target_tokens"}; read back by `attn translate`.
std::string seq2seq_extra_json(const std::string& task, const ParallelVocabularies& vocabularies);
struct Seq2SeqExtra {
  std::string task;
  ParallelVocabularies vocabularies;
};
Seq2SeqExtra read_seq2seq_extra(const std::string& extra_json);

}  // namespace attn::cli
