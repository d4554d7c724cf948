// The data of a seq2seq run, prepared once for every caller (the CLI's `attn train --task ...`
// and the page's Seq2SeqSession): the training and held-out pairs, their vocabularies and id
// sequences, and the vocabularies' record in a model file's extra JSON.
//   dates     generated (data/seq2seq_tasks.hpp), 1950..2049, character level
//   reverse, sort, copy   generated digit strings, character level
//   parallel  pairs read from a "source<TAB>target[<TAB>...]" file (data/parallel_text.hpp):
//             pairs without word tokens dropped, test_size SOURCE SENTENCES — at most half of
//             them — held out with all their translations (data/parallel_split.hpp's
//             split_by_source, so the held-out references of a sentence are all its targets and
//             none of them was trained on), both parts shuffled by the seed; word level
//             (text/seq2seq_vocabulary.hpp says why), each side split by text/mt_tokenizer.hpp
//             with its own language (English source and French target by default), lowercased
//             unless told not to; the vocabularies record it, so decoding detokenises in the
//             target's language
// Legend: N pairs, Tx source tokens, Ty target tokens (BOS .. EOS).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/data/parallel_split.hpp"
#include "attn/data/parallel_text.hpp"
#include "attn/data/seq2seq_tasks.hpp"

namespace attn {

struct Seq2SeqDataSpec {
  std::string task = "reverse";           // dates | reverse | sort | copy | parallel
  std::size_t train_size = 0;             // generated: pairs (>= 1); parallel: at most this many, 0 = every pair
  std::size_t test_size = 1000;           // generated: pairs; parallel: held-out source sentences
  std::size_t min_len = 5, max_len = 20;  // digit tasks, training lengths
  std::size_t test_min_len = 5, test_max_len = 20;       // digit tasks, held-out lengths
  std::size_t source_vocab = 8000, target_vocab = 8000;  // parallel: most frequent words (+4 reserved)
  PairTokenization tokenization;                         // parallel: each side's mt_tokenize rules
  // parallel: training pairs with more tokens than this on either side are left out (0: no
  // limit); held-out sentences are all kept, so BLEU by length still covers long ones.
  std::size_t max_train_tokens = 0;
  std::uint64_t seed = 1;
};

struct Seq2SeqData {
  std::vector<ParallelExample> train, test;
  ParallelVocabularies vocabularies;
  EncodedPairs train_ids, test_ids;  // N × [Tx] sources, N × [Ty] targets
  // The share of each part's tokens (and sentences) the vocabularies turn into <unk>, per side.
  PairUnknownRates train_unknown, test_unknown;
  std::string description;         // one line for the user: where the pairs came from
  std::size_t train_too_long = 0;  // parallel: training pairs left out by max_train_tokens
};

// A generated task (dates | reverse | sort | copy): its pairs, vocabularies and ids. Throws
// std::invalid_argument for another task name (the digit tasks' message) or a bad size.
Seq2SeqData generate_seq2seq_data(const Seq2SeqDataSpec& spec);

// Task parallel from pairs already loaded from the file called `name`: drops pairs without word
// tokens (e.g. a lone apostrophe), holds out by source sentence, leaves out the training pairs
// longer than max_train_tokens (filter_by_length), shuffles, caps the training pairs at
// train_size (0 = no cap), fits word vocabularies and encodes. Throws DataError "<name>:0:
// needs at least 2 pairs (training and held-out)" when fewer than 2 pairs are left, and "...
// needs at least 2 distinct source sentences ..." when every pair has the same source.
Seq2SeqData parallel_seq2seq_data(std::vector<ParallelExample> pairs, const std::string& name,
                                  const Seq2SeqDataSpec& spec);

// Fits the vocabularies on split.train (character level: at most 1000 tokens; word level: the
// spec's sizes and tokenization) and encodes both parts. The two functions above end here.
Seq2SeqData encode_seq2seq_data(TaskSplit split, TokenLevel level, const Seq2SeqDataSpec& spec);
// Encodes data.train and data.test with data.vocabularies: the ids and the <unk> rates (also
// after the vocabularies were replaced, e.g. by a model file's).
void encode_seq2seq_parts(Seq2SeqData& data);

// The model file's extra JSON: {"task", "source_level", "source_tokens", "target_level",
// "target_tokens"} and, for word vocabularies, each side's tokenizer (Seq2SeqVocabulary::
// write_json); read back by `attn translate` and Seq2SeqSession::load_model.
std::string seq2seq_extra_json(const std::string& task, const ParallelVocabularies& vocabularies);
// The vocabularies of such a JSON (std::invalid_argument naming the key when one is missing or
// malformed; FlatJson's error when the text is not a JSON object). A file written before the
// tokenizer was recorded gives word vocabularies of the project scheme, which split and decode
// as that file's model was trained.
ParallelVocabularies read_seq2seq_vocabularies(const std::string& extra_json);
// The task of such a JSON (std::invalid_argument when it has none).
std::string read_seq2seq_task(const std::string& extra_json);

}  // namespace attn
