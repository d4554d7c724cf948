// The course's honest strong baseline: a bag-of-n-grams logistic regression with optional
// NBSVM-style Naive-Bayes feature scaling (Wang & Manning 2012, "Baselines and Bigrams").
// On IMDB such a model reaches about 89–91%, which is the bar attention models have to clear.
//
// Legend: N documents, F features (n-grams in the vocabulary). No B/T/D/H tensors here: a
// document is a bag, stored as one sparse row of the N × F feature matrix.
//
//   vocabulary  every 1..max_ngram-gram (tokens joined by one space) whose document frequency in
//               the TRAINING documents is >= min_count, the max_features most frequent kept;
//               ties broken by byte order of the n-gram, so the feature index i is the rank.
//   x[n, i]     1 if n-gram i occurs in document n (binary) or its number of occurrences
//   r[i]        NB log-count ratio log((p[i]/|p|₁) / (q[i]/|q|₁)), p = α + Σ_{y=1} x[n],
//               q = α + Σ_{y=0} x[n]; all ones when nb_weighting is off
//   z[n]        b + Σ_i w[i] · r[i] · x[n, i]            (the logit)
//   P(y=1)      σ(z[n])
//
// Training minimises the mean logistic loss (1/N) Σ_n [softplus(z[n]) − y[n] z[n]] + (l2/2)|w|²
// with per-example Adagrad (Duchi et al. 2011): w[i] −= lr · g[i] / (√G[i] + 1e-8), G[i] += g[i]²,
// over a seeded shuffle of the documents each epoch, starting from w = 0, b = 0. Updates are
// lazy: an example touches only its own features, and the L2 term l2 · w[i] joins g[i] only when
// feature i occurs in the example (the usual sparse approximation; rare n-grams are regularised
// less). Adagrad's per-feature steps suit n-gram counts spanning five orders of magnitude, and a
// pass over IMDB takes well under a second, so no batching is needed. The same seed gives the
// same model bit for bit (one thread, fixed summation order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "attn/tensor.hpp"

namespace attn {

struct BagOfNgramsConfig {
  std::size_t max_ngram = 2;  // 1 = unigrams, 2 = uni + bigrams, 3 = up to trigrams
  std::size_t max_features = 200000;
  std::size_t min_count = 2;  // in training documents (document frequency)
  bool binary = true;         // presence instead of counts
  bool nb_weighting = true;   // NBSVM log-count ratio scaling (Wang & Manning 2012)
  float alpha = 1.f;          // NB smoothing (added to every p[i] and q[i])
  float l2 = 1e-6f;
  std::size_t epochs = 10;
  float learning_rate = 0.02f;  // Adagrad's base step
  std::uint64_t seed = 1;       // the order of examples in each epoch

  // Throws std::invalid_argument naming the field, its value and the valid range.
  void validate() const;
};

// One CSR matrix of feature values: row n holds entries [offsets[n], offsets[n+1]) of
// `index`/`value`, indices strictly increasing within a row.
struct SparseRows {
  std::size_t cols = 0;                 // F
  std::vector<std::size_t> offsets{0};  // N + 1
  std::vector<std::uint32_t> index;     // feature ids < cols
  std::vector<float> value;             // x[n, i] (· r[i] once scaled)
  std::size_t rows() const { return offsets.size() - 1; }
};

// The training objective above for rows [N, F] (already scaled by r), labels [N] in {0, 1},
// weights [F], bias: (1/N) Σ_n [softplus(z[n]) − y[n] z[n]] + (l2/2)|w|², accumulated in double.
// When dweights [F] / dbias are given they are OVERWRITTEN with the gradient. Exposed so tests
// can check the gradient the optimiser follows.
double bag_of_ngrams_loss(const SparseRows& rows, const std::vector<int>& labels, const Tensor1& weights, float bias,
                          float l2, Tensor1* dweights, float* dbias);

struct BagOfNgramsProgress {
  std::size_t epoch = 0;  // 0: features built, training not started; then 1..epochs
  std::size_t epochs = 0;
  std::size_t features = 0;  // F
  // Mean log loss of the epoch's examples, each measured just before its own update
  // (progressive validation); NaN at epoch 0.
  double mean_loss = 0;
};
using BagOfNgramsProgressFn = std::function<void(const BagOfNgramsProgress&)>;

struct NgramWeight {
  std::string ngram;
  float weight;  // w[i] · r[i]: how much one occurrence of the n-gram moves the logit
};

struct TopFeatures {
  std::vector<NgramWeight> positive;  // largest weights first
  std::vector<NgramWeight> negative;  // most negative first
};

struct NgramContribution {
  std::string ngram;
  std::size_t first = 0;   // token index of its first occurrence
  std::size_t length = 0;  // n
  float contribution = 0;  // w[i] · r[i] · x[i]: what the n-gram adds to the document's logit
};

// Why the baseline scored a document as it did. The logit z = bias + Σ ngrams' contributions;
// each n-gram's contribution is shared evenly by the tokens of its occurrences, so
// token_contributions [T] also sum to z − bias (up to float rounding) and show, token by token,
// "what the linear model weighs" (positive: towards positive).
struct BagOfNgramsExplanation {
  float probability = 0;  // σ(z)
  float bias = 0;
  std::vector<std::string> tokens;         // [T] the tokens explained
  std::vector<float> token_contributions;  // [T], aligned with the tokens explained
  std::vector<NgramContribution> ngrams;   // the vocabulary's n-grams present, by first position then n
};

class BagOfNgramsClassifier {
 public:
  BagOfNgramsClassifier() = default;

  // Builds the vocabulary from tokenized_docs [N][tokens] alone, then trains. labels [N] are 0 or
  // 1 and must hold both classes. Tokens must be non-empty and free of spaces and newlines (the
  // tokenizer guarantees it) so that every n-gram has one spelling. Throws std::invalid_argument.
  void fit(const std::vector<std::vector<std::string>>& tokenized_docs, const std::vector<int>& labels,
           const BagOfNgramsConfig& config, const BagOfNgramsProgressFn& progress = {});

  // P(positive) for one document's tokens; n-grams outside the vocabulary are ignored (an
  // empty or all-unknown document gets σ(b)). Throws std::logic_error before fit/load.
  float predict_proba(const std::vector<std::string>& tokens) const;
  // [N] probabilities for N documents.
  std::vector<float> predict_proba(const std::vector<std::vector<std::string>>& docs) const;

  // Per-n-gram and per-token contributions to the logit (BagOfNgramsExplanation) for one
  // document's tokens. Throws std::logic_error before fit/load.
  BagOfNgramsExplanation explain(const std::vector<std::string>& tokens) const;

  // The k most positive and k most negative n-grams by w[i] · r[i] (ties: lower index first).
  TopFeatures top_features(std::size_t k) const;

  bool fitted() const { return !vocabulary_.empty(); }
  // Trainable scalars: F weights + 1 bias (the NB ratios are corpus statistics, not trained).
  std::size_t parameter_count() const { return fitted() ? weights_.size() + 1 : 0; }
  const BagOfNgramsConfig& config() const { return config_; }
  // F n-grams in feature order (the rank by document frequency).
  const std::vector<std::string>& vocabulary() const { return vocabulary_; }
  const Tensor1& weights() const { return weights_; }     // [F]
  const Tensor1& nb_ratios() const { return nb_ratio_; }  // [F]
  float bias() const { return bias_; }

  // Sparse row of x[·] (unscaled) for one document, appended to `rows`.
  void featurize(const std::vector<std::string>& tokens, SparseRows& rows) const;

 private:
  friend std::vector<std::uint8_t> save_bag_of_ngrams(const BagOfNgramsClassifier& model);
  friend BagOfNgramsClassifier load_bag_of_ngrams(const std::uint8_t* data, std::size_t size);
  void index_vocabulary();
  struct Occurrence {
    std::uint32_t feature;
    std::size_t start, n;  // tokens [start, start + n)
  };
  // Every occurrence of a vocabulary n-gram in `tokens`, sorted by feature then start.
  std::vector<Occurrence> occurrences(const std::vector<std::string>& tokens) const;
  float probability(const std::vector<std::string>& tokens) const;

  BagOfNgramsConfig config_;
  std::vector<std::string> vocabulary_;  // [F]
  // Lookup without building n-gram strings: each token of the vocabulary gets an id, a unigram
  // maps through unigram_feature_[token id], an n-gram (n >= 2) through ngram_feature_[n - 2]
  // keyed by its n token ids packed into 64 bits (64/n bits each).
  std::unordered_map<std::string, std::uint32_t> token_id_;
  std::vector<std::uint32_t> unigram_feature_;
  std::vector<std::unordered_map<std::uint64_t, std::uint32_t>> ngram_feature_;
  Tensor1 weights_;   // w [F]
  Tensor1 nb_ratio_;  // r [F]
  float bias_ = 0.f;
};

// The model file (io/model_file.hpp): config JSON {"model": "bag_of_ngrams", the config fields,
// "features": F, "vocabulary": the F n-grams joined by "\n"} and tensors "weights" [F],
// "nb_ratio" [F], "bias" [1]. Throws std::logic_error for an unfitted model.
std::vector<std::uint8_t> save_bag_of_ngrams(const BagOfNgramsClassifier& model);
// Throws ModelFileError for a damaged file, a file of another model kind ("this file holds a
// 'sequence_classifier' model, not a bag-of-n-grams classifier") or an inconsistent vocabulary.
BagOfNgramsClassifier load_bag_of_ngrams(const std::uint8_t* data, std::size_t size);
inline BagOfNgramsClassifier load_bag_of_ngrams(const std::vector<std::uint8_t>& bytes) {
  return load_bag_of_ngrams(bytes.data(), bytes.size());
}

}  // namespace attn
