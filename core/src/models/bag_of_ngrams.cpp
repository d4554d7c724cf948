#include "attn/models/bag_of_ngrams.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/random.hpp"

namespace attn {
namespace {

constexpr const char* kModelKind = "bag_of_ngrams";
constexpr std::size_t kMaxNgram = 3;
constexpr std::uint32_t kNoFeature = std::numeric_limits<std::uint32_t>::max();

// n token ids (each < 2^(64/n)) in one key, first token in the highest bits.
std::uint64_t pack(const std::uint32_t* ids, std::size_t n) {
  const unsigned bits = static_cast<unsigned>(64 / n);
  std::uint64_t key = 0;
  for (std::size_t k = 0; k < n; ++k) key = (key << bits) | ids[k];
  return key;
}

template <class T>
std::string str(T value) {
  return std::to_string(value);
}

[[noreturn]] void bad_config(const std::string& field, const std::string& value, const std::string& valid) {
  throw std::invalid_argument("BagOfNgramsConfig: " + field + " = " + value + " is invalid; " + valid);
}

// Both evaluated in double: the loss of a confident mistake is |z|, not log(0).
double softplus(double z) { return std::max(z, 0.0) + std::log1p(std::exp(-std::fabs(z))); }
double sigmoid(double z) {
  const double e = std::exp(-std::fabs(z));
  return z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

// z[n] = b + Σ_i w[i] · v[n, i] in index order (the same order in training, loss and prediction,
// so all three agree bit for bit).
double row_logit(const SparseRows& rows, std::size_t n, const float* w, float bias) {
  double z = bias;
  for (std::size_t k = rows.offsets[n]; k < rows.offsets[n + 1]; ++k) {
    z += static_cast<double>(w[rows.index[k]]) * static_cast<double>(rows.value[k]);
  }
  return z;
}

void check_tokens(const std::vector<std::vector<std::string>>& docs) {
  for (std::size_t d = 0; d < docs.size(); ++d) {
    for (std::size_t t = 0; t < docs[d].size(); ++t) {
      const std::string& token = docs[d][t];
      if (token.empty() || token.find_first_of(" \n") != std::string::npos) {
        throw std::invalid_argument("BagOfNgramsClassifier::fit: document " + str(d) + " token " + str(t) + " (\"" +
                                    token +
                                    "\") is empty or holds a space or newline; n-grams are tokens joined by "
                                    "spaces, so tokens must not contain them (use attn::tokenize)");
      }
    }
  }
}

struct Candidate {
  std::string ngram;
  std::uint32_t count;  // document frequency
};

// Every n-gram (1 <= n <= max_ngram) with document frequency >= min_count. A longer n-gram can
// only be that frequent if each of its tokens is, so longer n-grams are counted over frequent
// tokens only, packed into 64-bit keys (64/n bits per token) and counted by sort + run length.
std::vector<Candidate> count_ngrams(const std::vector<std::vector<std::string>>& docs, const BagOfNgramsConfig& c) {
  std::unordered_map<std::string, std::uint32_t> token_id;
  std::vector<std::uint32_t> token_df;
  std::vector<std::vector<std::uint32_t>> doc_ids(docs.size());
  std::vector<std::uint32_t> seen;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    auto& ids = doc_ids[d];
    ids.reserve(docs[d].size());
    for (const std::string& token : docs[d]) {
      const auto it = token_id.emplace(token, static_cast<std::uint32_t>(token_id.size())).first;
      if (it->second == token_df.size()) token_df.push_back(0);
      ids.push_back(it->second);
    }
    seen.assign(ids.begin(), ids.end());
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    for (std::uint32_t id : seen) ++token_df[id];
  }
  std::vector<const std::string*> spelling(token_df.size());
  for (const auto& entry : token_id) spelling[entry.second] = &entry.first;

  // Frequent tokens get dense ids 0..C-1 (the rest kNone) so that n of them fit in 64 bits.
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> dense(token_df.size(), kNone);
  std::vector<std::uint32_t> dense_to_token;
  std::vector<Candidate> out;
  for (std::uint32_t id = 0; id < token_df.size(); ++id) {
    if (token_df[id] < c.min_count) continue;
    dense[id] = static_cast<std::uint32_t>(dense_to_token.size());
    dense_to_token.push_back(id);
    out.push_back({*spelling[id], token_df[id]});
  }

  std::vector<std::uint64_t> keys, doc_keys;
  for (std::size_t n = 2; n <= c.max_ngram; ++n) {
    const unsigned bits = static_cast<unsigned>(64 / n);
    if (bits < 32 && dense_to_token.size() >= (std::uint64_t{1} << bits)) {
      throw std::invalid_argument("BagOfNgramsClassifier::fit: " + str(dense_to_token.size()) +
                                  " distinct frequent tokens are too many for " + str(n) + "-grams (at most " +
                                  str((std::uint64_t{1} << bits) - 1) + "); raise min_count or lower max_ngram");
    }
    keys.clear();
    for (const auto& ids : doc_ids) {
      doc_keys.clear();
      for (std::size_t t = 0; t + n <= ids.size(); ++t) {
        std::uint64_t key = 0;
        bool frequent = true;
        for (std::size_t k = 0; k < n && frequent; ++k) {
          frequent = dense[ids[t + k]] != kNone;
          key = (key << bits) | dense[ids[t + k]];
        }
        if (frequent) doc_keys.push_back(key);
      }
      std::sort(doc_keys.begin(), doc_keys.end());
      doc_keys.erase(std::unique(doc_keys.begin(), doc_keys.end()), doc_keys.end());
      keys.insert(keys.end(), doc_keys.begin(), doc_keys.end());
    }
    std::sort(keys.begin(), keys.end());
    const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    for (std::size_t i = 0; i < keys.size();) {
      std::size_t j = i;
      while (j < keys.size() && keys[j] == keys[i]) ++j;
      if (j - i >= c.min_count) {
        std::string ngram;
        for (std::size_t k = 0; k < n; ++k) {
          const auto dense_id = static_cast<std::uint32_t>((keys[i] >> (bits * (n - 1 - k))) & mask);
          if (k) ngram += ' ';
          ngram += *spelling[dense_to_token[dense_id]];
        }
        out.push_back({std::move(ngram), static_cast<std::uint32_t>(j - i)});
      }
      i = j;
    }
  }
  return out;
}

}  // namespace

void BagOfNgramsConfig::validate() const {
  if (max_ngram < 1 || max_ngram > kMaxNgram) bad_config("max_ngram", str(max_ngram), "valid: 1, 2 or 3");
  if (max_features < 1 || max_features > (std::size_t{1} << 26)) {
    bad_config("max_features", str(max_features), "valid: 1 to " + str(std::size_t{1} << 26));
  }
  if (min_count < 1) bad_config("min_count", str(min_count), "valid: 1 or more documents");
  if (!(alpha > 0.f) || !std::isfinite(alpha)) bad_config("alpha", str(alpha), "NB smoothing must be > 0");
  if (!(l2 >= 0.f) || !std::isfinite(l2)) bad_config("l2", str(l2), "must be finite and >= 0");
  if (epochs < 1 || epochs > 10000) bad_config("epochs", str(epochs), "valid: 1 to 10000");
  if (!(learning_rate > 0.f) || !std::isfinite(learning_rate)) {
    bad_config("learning_rate", str(learning_rate), "must be finite and > 0");
  }
}

double bag_of_ngrams_loss(const SparseRows& rows, const std::vector<int>& labels, const Tensor1& weights, float bias,
                          float l2, Tensor1* dweights, float* dbias) {
  const std::size_t n_rows = rows.rows();
  ATTN_REQUIRE(labels.size() == n_rows && n_rows > 0, "bag_of_ngrams_loss",
               "labels has " + str(labels.size()) + " entries for " + str(n_rows) + " rows");
  ATTN_REQUIRE(weights.size() == rows.cols, "bag_of_ngrams_loss",
               "weights has shape " + shape_string(weights.shape()) + " for " + str(rows.cols) + " columns");
  if (dweights) {
    if (dweights->shape() != weights.shape()) dweights->resize(weights.shape());
    dweights->fill(0.f);
  }
  const float* w = weights.data();
  double loss = 0.0, db = 0.0;
  for (std::size_t n = 0; n < n_rows; ++n) {
    const double z = row_logit(rows, n, w, bias);
    const double y = labels[n];
    // loss_n = softplus(z) − y z;  dloss_n/dz = σ(z) − y
    loss += softplus(z) - y * z;
    const double dz = (sigmoid(z) - y) / static_cast<double>(n_rows);
    db += dz;
    if (dweights) {
      for (std::size_t k = rows.offsets[n]; k < rows.offsets[n + 1]; ++k) {
        (*dweights)(rows.index[k]) += static_cast<float>(dz * rows.value[k]);
      }
    }
  }
  double norm2 = 0.0;
  for (std::size_t i = 0; i < weights.size(); ++i) norm2 += static_cast<double>(w[i]) * w[i];
  // (l2/2)|w|² -> l2 · w
  if (dweights) {
    for (std::size_t i = 0; i < weights.size(); ++i) (*dweights)(i) += l2 * w[i];
  }
  if (dbias) *dbias = static_cast<float>(db);
  return loss / static_cast<double>(n_rows) + 0.5 * l2 * norm2;
}

void BagOfNgramsClassifier::index_vocabulary() {
  token_id_.clear();
  unigram_feature_.clear();
  ngram_feature_.assign(config_.max_ngram - 1, {});
  std::vector<std::vector<std::uint32_t>> parts(vocabulary_.size());
  for (std::size_t i = 0; i < vocabulary_.size(); ++i) {
    const std::string& ngram = vocabulary_[i];
    std::size_t start = 0;
    while (true) {
      const std::size_t end = std::min(ngram.find(' ', start), ngram.size());
      if (end == start)
        throw ModelFileError("bag-of-n-grams vocabulary entry " + str(i) + " (\"" + ngram + "\") has an empty token");
      const auto id = static_cast<std::uint32_t>(token_id_.size());
      parts[i].push_back(token_id_.emplace(ngram.substr(start, end - start), id).first->second);
      if (end == ngram.size()) break;
      start = end + 1;
    }
    if (parts[i].size() > config_.max_ngram) {
      throw ModelFileError("bag-of-n-grams vocabulary entry " + str(i) + " (\"" + ngram +
                           "\") is longer than max_ngram = " + str(config_.max_ngram));
    }
  }
  // fit guarantees the packing fits (count_ngrams checks the same bound); a file might not.
  const unsigned bits = static_cast<unsigned>(64 / config_.max_ngram);
  if (bits < 32 && token_id_.size() >= (std::uint64_t{1} << bits)) {
    throw ModelFileError("bag-of-n-grams vocabulary has " + str(token_id_.size()) + " distinct tokens, too many for " +
                         str(config_.max_ngram) + "-grams");
  }
  unigram_feature_.assign(token_id_.size(), kNoFeature);
  for (std::size_t i = 0; i < vocabulary_.size(); ++i) {
    const auto feature = static_cast<std::uint32_t>(i);
    bool fresh = true;
    if (parts[i].size() == 1) {
      fresh = unigram_feature_[parts[i][0]] == kNoFeature;
      unigram_feature_[parts[i][0]] = feature;
    } else {
      fresh = ngram_feature_[parts[i].size() - 2].emplace(pack(parts[i].data(), parts[i].size()), feature).second;
    }
    if (!fresh) throw ModelFileError("bag-of-n-grams vocabulary lists \"" + vocabulary_[i] + "\" twice");
  }
}

std::vector<BagOfNgramsClassifier::Occurrence> BagOfNgramsClassifier::occurrences(
    const std::vector<std::string>& tokens) const {
  std::vector<std::uint32_t> ids(tokens.size());
  std::vector<Occurrence> hits;
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const auto it = token_id_.find(tokens[t]);
    ids[t] = it == token_id_.end() ? kNoFeature : it->second;
    if (ids[t] != kNoFeature && unigram_feature_[ids[t]] != kNoFeature)
      hits.push_back({unigram_feature_[ids[t]], t, 1});
  }
  for (std::size_t n = 2; n <= config_.max_ngram; ++n) {
    const auto& features = ngram_feature_[n - 2];
    for (std::size_t t = 0; t + n <= ids.size(); ++t) {
      if (std::find(ids.begin() + static_cast<std::ptrdiff_t>(t), ids.begin() + static_cast<std::ptrdiff_t>(t + n),
                    kNoFeature) != ids.begin() + static_cast<std::ptrdiff_t>(t + n)) {
        continue;
      }
      const auto it = features.find(pack(ids.data() + t, n));
      if (it != features.end()) hits.push_back({it->second, t, n});
    }
  }
  // By feature, then position: featurize and explain walk each feature's occurrences together.
  std::sort(hits.begin(), hits.end(), [](const Occurrence& a, const Occurrence& b) {
    return a.feature != b.feature ? a.feature < b.feature : a.start < b.start;
  });
  return hits;
}

void BagOfNgramsClassifier::featurize(const std::vector<std::string>& tokens, SparseRows& rows) const {
  const std::vector<Occurrence> hits = occurrences(tokens);
  for (std::size_t i = 0; i < hits.size();) {
    std::size_t j = i;
    while (j < hits.size() && hits[j].feature == hits[i].feature) ++j;
    rows.index.push_back(hits[i].feature);
    rows.value.push_back(config_.binary ? 1.f : static_cast<float>(j - i));
    i = j;
  }
  rows.offsets.push_back(rows.index.size());
}

BagOfNgramsExplanation BagOfNgramsClassifier::explain(const std::vector<std::string>& tokens) const {
  if (!fitted()) throw std::logic_error("BagOfNgramsClassifier: explain before fit or load");
  BagOfNgramsExplanation out;
  out.probability = probability(tokens);
  out.bias = bias_;
  out.tokens = tokens;
  out.token_contributions.assign(tokens.size(), 0.f);
  const std::vector<Occurrence> hits = occurrences(tokens);
  for (std::size_t i = 0; i < hits.size();) {
    std::size_t j = i;
    while (j < hits.size() && hits[j].feature == hits[i].feature) ++j;
    const std::uint32_t f = hits[i].feature;
    const float x = config_.binary ? 1.f : static_cast<float>(j - i);
    const float contribution = weights_(f) * (x * nb_ratio_(f));
    out.ngrams.push_back(NgramContribution{vocabulary_[f], hits[i].start, hits[i].n, contribution});
    // Shared evenly by the feature's occurrences and, within one, by its n tokens.
    const float share = contribution / static_cast<float>((j - i) * hits[i].n);
    for (std::size_t k = i; k < j; ++k) {
      for (std::size_t t = hits[k].start; t < hits[k].start + hits[k].n; ++t) out.token_contributions[t] += share;
    }
    i = j;
  }
  std::sort(out.ngrams.begin(), out.ngrams.end(), [](const NgramContribution& a, const NgramContribution& b) {
    return a.first != b.first ? a.first < b.first : a.length < b.length;
  });
  return out;
}

void BagOfNgramsClassifier::fit(const std::vector<std::vector<std::string>>& docs, const std::vector<int>& labels,
                                const BagOfNgramsConfig& config, const BagOfNgramsProgressFn& progress) {
  config.validate();
  if (docs.size() != labels.size()) {
    throw std::invalid_argument("BagOfNgramsClassifier::fit: " + str(docs.size()) + " documents but " +
                                str(labels.size()) + " labels");
  }
  std::size_t positives = 0;
  for (std::size_t n = 0; n < labels.size(); ++n) {
    if (labels[n] != 0 && labels[n] != 1) {
      throw std::invalid_argument("BagOfNgramsClassifier::fit: label " + str(n) + " is " + str(labels[n]) +
                                  "; labels must be 0 or 1");
    }
    positives += static_cast<std::size_t>(labels[n]);
  }
  if (positives == 0 || positives == labels.size()) {
    throw std::invalid_argument("BagOfNgramsClassifier::fit: the " + str(labels.size()) +
                                " training labels hold only one class; a classifier needs both");
  }
  check_tokens(docs);

  // Vocabulary: top max_features by document frequency, ties by byte order.
  std::vector<Candidate> candidates = count_ngrams(docs, config);
  if (candidates.empty()) {
    throw std::invalid_argument("BagOfNgramsClassifier::fit: no n-gram occurs in at least min_count = " +
                                str(config.min_count) + " training documents");
  }
  const auto before = [](const Candidate& a, const Candidate& b) {
    return a.count != b.count ? a.count > b.count : a.ngram < b.ngram;
  };
  const std::size_t features = std::min(config.max_features, candidates.size());
  std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(features - 1), candidates.end(),
                   before);
  candidates.resize(features);
  std::sort(candidates.begin(), candidates.end(), before);

  config_ = config;
  vocabulary_.clear();
  for (Candidate& c : candidates) vocabulary_.push_back(std::move(c.ngram));
  index_vocabulary();

  // x [N, F], then r from the class-wise column sums of x.
  SparseRows rows;
  rows.cols = features;
  for (const auto& doc : docs) featurize(doc, rows);
  nb_ratio_ = xt::ones<float>({features});
  if (config.nb_weighting) {
    std::vector<double> p(features, config.alpha), q(features, config.alpha);
    for (std::size_t n = 0; n < rows.rows(); ++n) {
      std::vector<double>& sums = labels[n] ? p : q;
      for (std::size_t k = rows.offsets[n]; k < rows.offsets[n + 1]; ++k) sums[rows.index[k]] += rows.value[k];
    }
    const double p_total = std::accumulate(p.begin(), p.end(), 0.0);
    const double q_total = std::accumulate(q.begin(), q.end(), 0.0);
    // r = log((p/|p|₁) / (q/|q|₁))
    for (std::size_t i = 0; i < features; ++i)
      nb_ratio_(i) = static_cast<float>(std::log((p[i] / p_total) / (q[i] / q_total)));
    for (std::size_t k = 0; k < rows.index.size(); ++k) rows.value[k] *= nb_ratio_(rows.index[k]);
  }

  // Per-example lazy Adagrad (see the header) from w = 0, b = 0.
  weights_ = xt::zeros<float>({features});
  bias_ = 0.f;
  std::vector<float> sum_sq(features, 0.f);
  float bias_sum_sq = 0.f;
  constexpr float kEps = 1e-8f;
  const float lr = config.learning_rate;
  float* w = weights_.data();
  std::vector<std::uint32_t> order(rows.rows());
  std::iota(order.begin(), order.end(), 0u);
  Rng rng(config.seed, 0xb0a5);
  BagOfNgramsProgress report;
  report.epochs = config.epochs;
  report.features = features;
  report.mean_loss = std::numeric_limits<double>::quiet_NaN();
  if (progress) progress(report);
  for (std::size_t epoch = 1; epoch <= config.epochs; ++epoch) {
    rng.shuffle(order);
    double epoch_loss = 0.0;
    for (const std::uint32_t n : order) {
      const double z = row_logit(rows, n, w, bias_);
      const double y = labels[n];
      epoch_loss += softplus(z) - y * z;
      const auto dz = static_cast<float>(sigmoid(z) - y);
      for (std::size_t k = rows.offsets[n]; k < rows.offsets[n + 1]; ++k) {
        const std::uint32_t i = rows.index[k];
        const float g = dz * rows.value[k] + config.l2 * w[i];
        sum_sq[i] += g * g;
        w[i] -= lr * g / (std::sqrt(sum_sq[i]) + kEps);
      }
      bias_sum_sq += dz * dz;
      bias_ -= lr * dz / (std::sqrt(bias_sum_sq) + kEps);
    }
    report.epoch = epoch;
    report.mean_loss = epoch_loss / static_cast<double>(order.size());
    if (progress) progress(report);
  }
}

float BagOfNgramsClassifier::probability(const std::vector<std::string>& tokens) const {
  if (!fitted()) throw std::logic_error("BagOfNgramsClassifier: predict_proba before fit or load");
  SparseRows row;
  row.cols = vocabulary_.size();
  featurize(tokens, row);
  // Scale exactly as fit did (x · r in float), so a training document scores as it trained.
  for (std::size_t k = 0; k < row.index.size(); ++k) row.value[k] *= nb_ratio_(row.index[k]);
  return static_cast<float>(sigmoid(row_logit(row, 0, weights_.data(), bias_)));
}

float BagOfNgramsClassifier::predict_proba(const std::vector<std::string>& tokens) const { return probability(tokens); }

std::vector<float> BagOfNgramsClassifier::predict_proba(const std::vector<std::vector<std::string>>& docs) const {
  std::vector<float> out;
  out.reserve(docs.size());
  for (const auto& doc : docs) out.push_back(probability(doc));
  return out;
}

TopFeatures BagOfNgramsClassifier::top_features(std::size_t k) const {
  if (!fitted()) throw std::logic_error("BagOfNgramsClassifier: top_features before fit or load");
  std::vector<float> effective(weights_.size());
  for (std::size_t i = 0; i < effective.size(); ++i) effective[i] = weights_(i) * nb_ratio_(i);
  std::vector<std::uint32_t> ids(effective.size());
  std::iota(ids.begin(), ids.end(), 0u);
  const std::size_t take = std::min(k, ids.size());
  TopFeatures out;
  const auto collect = [&](auto better, std::vector<NgramWeight>& into) {
    std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(take), ids.end(),
                      [&](std::uint32_t a, std::uint32_t b) {
                        return effective[a] != effective[b] ? better(effective[a], effective[b]) : a < b;
                      });
    for (std::size_t j = 0; j < take; ++j) into.push_back({vocabulary_[ids[j]], effective[ids[j]]});
  };
  collect(std::greater<float>(), out.positive);
  collect(std::less<float>(), out.negative);
  return out;
}

std::vector<std::uint8_t> save_bag_of_ngrams(const BagOfNgramsClassifier& model) {
  if (!model.fitted()) throw std::logic_error("save_bag_of_ngrams: the classifier has not been fitted");
  const BagOfNgramsConfig& c = model.config_;
  std::string vocabulary;
  for (std::size_t i = 0; i < model.vocabulary_.size(); ++i) {
    if (i) vocabulary += '\n';
    vocabulary += model.vocabulary_[i];
  }
  FlatJson j;
  j.set("model", kModelKind)
      .set("max_ngram", static_cast<double>(c.max_ngram))
      .set("max_features", static_cast<double>(c.max_features))
      .set("min_count", static_cast<double>(c.min_count))
      .set("binary", c.binary)
      .set("nb_weighting", c.nb_weighting)
      .set("alpha", static_cast<double>(c.alpha))
      .set("l2", static_cast<double>(c.l2))
      .set("epochs", static_cast<double>(c.epochs))
      .set("learning_rate", static_cast<double>(c.learning_rate))
      .set("seed", std::to_string(c.seed))  // a string: 64-bit seeds do not fit a double
      .set("features", static_cast<double>(model.vocabulary_.size()))
      .set("vocabulary", vocabulary);
  // The saved tensors are only read; save_model ignores gradients.
  const std::size_t f = model.vocabulary_.size();
  const float bias = model.bias_;
  const auto view = [](const char* name, std::vector<std::size_t> shape, const float* values, std::size_t size) {
    Parameter p;
    p.name = name;
    p.shape = std::move(shape);
    p.value = const_cast<float*>(values);
    p.size = size;
    return p;
  };
  const ParameterList params = {view("weights", {f}, model.weights_.data(), f),
                                view("nb_ratio", {f}, model.nb_ratio_.data(), f), view("bias", {1}, &bias, 1)};
  return save_model(j.dump(), params);
}

BagOfNgramsClassifier load_bag_of_ngrams(const std::uint8_t* data, std::size_t size) {
  const ModelFile file = read_model(data, size);
  BagOfNgramsClassifier model;
  BagOfNgramsConfig& c = model.config_;
  std::size_t features = 0;
  std::string vocabulary;
  try {
    const FlatJson j = FlatJson::parse(file.config_json);
    const std::string kind = j.has("model") ? j.get_string("model") : "unnamed";
    if (kind != kModelKind) {
      throw ModelFileError("this file holds a '" + kind + "' model, not a bag-of-n-grams classifier");
    }
    c.max_ngram = j.get_size("max_ngram");
    c.max_features = j.get_size("max_features");
    c.min_count = j.get_size("min_count");
    c.binary = j.get_bool("binary");
    c.nb_weighting = j.get_bool("nb_weighting");
    c.alpha = static_cast<float>(j.get_number("alpha"));
    c.l2 = static_cast<float>(j.get_number("l2"));
    c.epochs = j.get_size("epochs");
    c.learning_rate = static_cast<float>(j.get_number("learning_rate"));
    c.seed = std::stoull(j.get_string("seed"));
    features = j.get_size("features");
    vocabulary = j.get_string("vocabulary");
    c.validate();
  } catch (const ModelFileError&) {
    throw;
  } catch (const std::exception& e) {
    throw ModelFileError(std::string("bag-of-n-grams configuration: ") + e.what());
  }
  // Exactly `features` lines; an n-gram never holds '\n' (fit rejects such tokens).
  std::size_t start = 0;
  while (true) {
    const std::size_t end = vocabulary.find('\n', start);
    model.vocabulary_.push_back(vocabulary.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (features == 0 || model.vocabulary_.size() != features) {
    throw ModelFileError("bag-of-n-grams file lists " + str(model.vocabulary_.size()) + " n-grams but says it has " +
                         str(features) + " features");
  }
  model.index_vocabulary();
  model.weights_ = xt::zeros<float>({features});
  model.nb_ratio_ = xt::zeros<float>({features});
  Tensor1 bias = xt::zeros<float>({std::size_t{1}});
  ParameterList params;
  add_parameter(params, "", "weights", model.weights_, model.weights_);
  add_parameter(params, "", "nb_ratio", model.nb_ratio_, model.nb_ratio_);
  add_parameter(params, "", "bias", bias, bias);
  load_parameters(file, params);
  model.bias_ = bias(0);
  return model;
}

}  // namespace attn
