// The bag-of-n-grams baseline on real IMDB reviews, without touching the official test half:
// loads the TRAINING half of an aclImdb .tar.gz, holds out a stratified, seeded 10% of it as its
// own test split, trains on the other 90% and prints one JSON object (held-out accuracy, timings).
//
//   attn_imdb_bow_experiment /work/shared/data/aclImdb_train.tar.gz [key=value ...]
//   keys: max_ngram max_features min_count binary nb_weighting alpha l2 epochs learning_rate seed
//         split_seed holdout (fraction, default 0.1) top (n-grams to list, default 10)
//
// A measurement, not a test: build it with the Release configuration without xtensor asserts
// (-DATTN_XTENSOR_ASSERT=OFF -DATTN_BUILD_TESTS=OFF), target attn_imdb_bow_experiment.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/io/byte_source.hpp"
#include "attn/models/bag_of_ngrams.hpp"
#include "attn/random.hpp"
#include "attn/text/tokenizer.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// JSON string literal for an n-gram (tokens are valid UTF-8; only quotes, backslashes and
// control characters need escapes).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s aclImdb_train.tar.gz [key=value ...]\n", argv[0]);
    return 2;
  }
  attn::BagOfNgramsConfig config;
  std::uint64_t split_seed = 1;
  double holdout = 0.1;
  std::size_t top = 10;
  try {
    for (int a = 2; a < argc; ++a) {
      const std::string arg = argv[a];
      const std::size_t eq = arg.find('=');
      if (eq == std::string::npos) throw std::invalid_argument("expected key=value, got '" + arg + "'");
      const std::string key = arg.substr(0, eq), value = arg.substr(eq + 1);
      if (key == "max_ngram")
        config.max_ngram = std::stoul(value);
      else if (key == "max_features")
        config.max_features = std::stoul(value);
      else if (key == "min_count")
        config.min_count = std::stoul(value);
      else if (key == "binary")
        config.binary = value == "1" || value == "true";
      else if (key == "nb_weighting")
        config.nb_weighting = value == "1" || value == "true";
      else if (key == "alpha")
        config.alpha = std::stof(value);
      else if (key == "l2")
        config.l2 = std::stof(value);
      else if (key == "epochs")
        config.epochs = std::stoul(value);
      else if (key == "learning_rate")
        config.learning_rate = std::stof(value);
      else if (key == "seed")
        config.seed = std::stoull(value);
      else if (key == "split_seed")
        split_seed = std::stoull(value);
      else if (key == "holdout")
        holdout = std::stod(value);
      else if (key == "top")
        top = std::stoul(value);
      else
        throw std::invalid_argument("unknown key '" + key + "'");
    }
    config.validate();
    if (!(holdout > 0 && holdout < 1)) throw std::invalid_argument("holdout must be in (0, 1)");

    auto start = std::chrono::steady_clock::now();
    attn::FileSource file(argv[1]);
    const std::vector<attn::LabelledText> reviews = attn::load_aclimdb_archive(file, "train");
    attn::check_two_classes(reviews, argv[1]);
    const double load_seconds = seconds_since(start);

    start = std::chrono::steady_clock::now();
    std::vector<std::vector<std::string>> tokens;
    tokens.reserve(reviews.size());
    for (const auto& review : reviews) tokens.push_back(attn::tokenize(review.text));
    const double tokenize_seconds = seconds_since(start);

    // Stratified hold-out: shuffle each class's indices with the split seed, take the first
    // round(holdout · class size) of each.
    attn::Rng rng(split_seed, 0x5117);
    std::vector<std::size_t> train_index, test_index;
    for (int label = 0; label <= 1; ++label) {
      std::vector<std::size_t> members;
      for (std::size_t i = 0; i < reviews.size(); ++i) {
        if (reviews[i].label == label) members.push_back(i);
      }
      for (std::size_t i = members.size(); i > 1; --i) {
        std::swap(members[i - 1], members[rng.below(static_cast<std::uint32_t>(i))]);
      }
      const auto held = static_cast<std::size_t>(holdout * static_cast<double>(members.size()) + 0.5);
      test_index.insert(test_index.end(), members.begin(), members.begin() + static_cast<std::ptrdiff_t>(held));
      train_index.insert(train_index.end(), members.begin() + static_cast<std::ptrdiff_t>(held), members.end());
    }
    std::vector<std::vector<std::string>> train_docs, test_docs;
    std::vector<int> train_labels, test_labels;
    for (std::size_t i : train_index) {
      train_docs.push_back(std::move(tokens[i]));
      train_labels.push_back(reviews[i].label);
    }
    for (std::size_t i : test_index) {
      test_docs.push_back(std::move(tokens[i]));
      test_labels.push_back(reviews[i].label);
    }

    start = std::chrono::steady_clock::now();
    attn::BagOfNgramsClassifier model;
    std::string losses;
    model.fit(train_docs, train_labels, config, [&](const attn::BagOfNgramsProgress& p) {
      if (p.epoch == 0) return;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s%.5f", losses.empty() ? "" : ",", p.mean_loss);
      losses += buf;
    });
    const double fit_seconds = seconds_since(start);

    start = std::chrono::steady_clock::now();
    const std::vector<float> probabilities = model.predict_proba(test_docs);
    const double predict_seconds = seconds_since(start);
    std::size_t correct = 0;
    for (std::size_t i = 0; i < probabilities.size(); ++i) {
      correct += static_cast<std::size_t>((probabilities[i] >= 0.5f) == (test_labels[i] == 1));
    }
    std::size_t train_correct = 0;
    const std::vector<float> train_probabilities = model.predict_proba(train_docs);
    for (std::size_t i = 0; i < train_probabilities.size(); ++i) {
      train_correct += static_cast<std::size_t>((train_probabilities[i] >= 0.5f) == (train_labels[i] == 1));
    }

    const attn::TopFeatures best = model.top_features(top);
    std::string positive, negative;
    for (const auto& f : best.positive) positive += (positive.empty() ? "" : ",") + quoted(f.ngram);
    for (const auto& f : best.negative) negative += (negative.empty() ? "" : ",") + quoted(f.ngram);

    std::printf(
        "{\"train_docs\":%zu,\"heldout_docs\":%zu,\"features\":%zu,\"parameters\":%zu,"
        "\"max_ngram\":%zu,\"max_features\":%zu,\"min_count\":%zu,\"binary\":%s,\"nb_weighting\":%s,"
        "\"alpha\":%g,\"l2\":%g,\"epochs\":%zu,\"learning_rate\":%g,\"seed\":%llu,\"split_seed\":%llu,"
        "\"heldout_accuracy\":%.4f,\"train_accuracy\":%.4f,\"epoch_losses\":[%s],"
        "\"load_seconds\":%.2f,\"tokenize_seconds\":%.2f,\"fit_seconds\":%.2f,\"predict_seconds\":%.3f,"
        "\"top_positive\":[%s],\"top_negative\":[%s]}\n",
        train_docs.size(), test_docs.size(), model.vocabulary().size(), model.parameter_count(), config.max_ngram,
        config.max_features, config.min_count, config.binary ? "true" : "false", config.nb_weighting ? "true" : "false",
        static_cast<double>(config.alpha), static_cast<double>(config.l2), config.epochs,
        static_cast<double>(config.learning_rate), static_cast<unsigned long long>(config.seed),
        static_cast<unsigned long long>(split_seed),
        static_cast<double>(correct) / static_cast<double>(test_docs.size()),
        static_cast<double>(train_correct) / static_cast<double>(train_docs.size()), losses.c_str(), load_seconds,
        tokenize_seconds, fit_seconds, predict_seconds, positive.c_str(), negative.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "imdb_bow_experiment: %s\n", e.what());
    return 1;
  }
}
