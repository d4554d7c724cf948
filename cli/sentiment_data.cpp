#include "sentiment_data.hpp"

#include <sys/stat.h>

#include "attn/data/builtin_reviews.hpp"
#include "attn/data/review_files.hpp"
#include "attn/io/byte_source.hpp"

namespace attn::cli {
namespace {

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// `split` applies to aclImdb archives and root folders; a split folder or CSV/TSV is taken whole.
std::vector<LabelledText> load_path(const std::string& path, const std::string& split, const ProgressFn& progress) {
  if (path == "builtin") return builtin_split(split == "test");
  if (is_directory(path)) return load_aclimdb_folder(path, split, LoadLimits{}, progress);
  std::uint8_t head[4] = {0, 0, 0, 0};
  std::size_t got = 0;
  {
    FileSource probe(path);
    got = read_fully(probe, head, sizeof head);
  }
  const ReviewFormat format = detect_review_format(path, head, got);
  FileSource source(path);
  return load_review_file(source, format, split, LoadLimits{}, progress);
}

bool has_test_half(const std::string& path) {
  if (path == "builtin") return true;
  if (is_directory(path)) return is_directory(path + "/test/pos");
  return path.size() > 3 && (path.find(".tar.gz") != std::string::npos || path.find(".tgz") != std::string::npos);
}

}  // namespace

SentimentData load_sentiment_data(const std::string& data, const std::string& test, const ProgressFn& progress,
                                  bool training_only) {
  SentimentData out;
  out.train = load_path(data, "train", progress);
  out.train_source = data;
  check_two_classes(out.train, data);
  if (!test.empty()) {
    out.test = load_path(test, "test", progress);
    out.test_source = test;
  } else if (!training_only && has_test_half(data)) {
    try {
      out.test = load_path(data, "test", progress);
      out.test_source = data + " (test half)";
    } catch (const DataError& e) {
      // An archive or root holding only the training half: train without a test set. Any other
      // problem (a damaged stream, bad UTF-8) was already met while reading the training half.
      if (std::string(e.what()).find("no reviews found") == std::string::npos &&
          std::string(e.what()).find("expected folders") == std::string::npos) {
        throw;
      }
      out.note = data + " has no test half; pass --test to measure test accuracy";
    }
  }
  return out;
}

SentimentData load_sentence_data(const std::string& positive, const std::string& negative, const std::string& test,
                                 const ProgressFn& progress) {
  SentimentData out;
  {
    FileSource positive_file(positive);
    FileSource negative_file(negative);
    out.train = load_sentence_files(positive_file, negative_file, LoadLimits{}, progress);
  }
  out.train_source = positive + " + " + negative;
  if (!test.empty()) {
    out.test = load_path(test, "test", progress);
    out.test_source = test;
  } else {
    out.note = "the two sentence files have no test half; pass --holdout X or --test to measure test accuracy";
  }
  return out;
}

std::vector<LabelledText> load_evaluation_data(const std::string& path, const ProgressFn& progress) {
  std::vector<LabelledText> out = load_path(path, has_test_half(path) ? "test" : "train", progress);
  if (out.empty()) throw DataError::plain(path, path + ": no labelled reviews found");
  return out;
}

}  // namespace attn::cli
