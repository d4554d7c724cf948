// Resolving the CLI's --data / --test arguments to labelled reviews.
//   builtin             the built-in corpus (its own test split)
//   DIR with pos/ neg/  one split of an extracted aclImdb (e.g. aclImdb/train)
//   DIR with train/     the aclImdb root: --data takes train/, --test defaults to test/
//   FILE.tar.gz         the aclImdb archive: --data takes its train half, --test defaults to its test half
//   FILE.csv, FILE.tsv  one labelled set
// and --data-pos FILE --data-neg FILE (instead of --data): one sentence per line, one file per
// class, as sentence-polarity corpora ship; it has no test half (use --holdout or --test).
#pragma once

#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"

namespace attn::cli {

struct SentimentData {
  std::vector<LabelledText> train;
  std::vector<LabelledText> test;  // empty when there is none
  std::string train_source, test_source;
  std::string note;  // e.g. why there is no test set
};

// Loads --data (and --test when given, else the default test half described above, unless
// `training_only`).
SentimentData load_sentiment_data(const std::string& data, const std::string& test, const ProgressFn& progress,
                                  bool training_only = false);
// The two-file layout (load_sentence_files); `test` as for load_sentence_data.
SentimentData load_sentence_data(const std::string& positive, const std::string& negative, const std::string& test,
                                 const ProgressFn& progress);
// One labelled set (for `attn eval`): for an aclImdb archive or root, its test half.
std::vector<LabelledText> load_evaluation_data(const std::string& path, const ProgressFn& progress);

}  // namespace attn::cli
