// "Is attention an explanation?" for one review and a trained SentimentModel:
// the attention weights next to two other per-token attributions (gradient ×
// input, leave-one-out), the two classic tests of the question (Jain & Wallace
// 2019, "Attention is not Explanation"; Wiegreffe & Pinter 2019, "Attention is
// not not Explanation") — permuted attention weights and uniform attention —
// plus counterfactual predictions for edited token lists and the misclassified
// examples of a labelled set.
//
// Legend: T tokens of the analysed review ("<start>" + words, at most maxlen),
// E embedding size, Dh encoder output size, K attention shuffles, N labelled
// examples.
//
// Everything here is inference: no parameter changes, and the one backward pass
// (for the saliency) restores every gradient buffer to what it held before, so
// interleaving an analysis with a chunked training run does not change the
// training numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/random.hpp"
#include "attn/train/sentiment_training.hpp"

namespace attn {

struct AnalysisOptions {
  std::size_t shuffles = 20;  // K random permutations of the attention weights (0 = skip the test)
  std::uint64_t seed = 1;     // Rng seed of the permutations
};

struct ReviewAnalysis {
  // probability, tokens [T], ids [T], weights α [T] (empty without attention
  // pooling).
  Explanation explanation;
  float logit = 0;  // log-odds of P(positive)

  // Attention pooling only (all empty otherwise):
  std::vector<float> scores;  // [T] pre-softmax scores e_t; α_t = exp(e_t − max
                              // e) / Σ_s exp(e_s − max e)
  // [T] c_t = w_outᵀ (α_t h_t): the share of the logit that flows through token
  // t. Without dropout logit = Σ_t c_t + output_bias exactly (up to float
  // rounding).
  std::vector<float> contributions;
  float output_bias = 0;

  // [T] gradient × input: Σ_d (∂logit/∂x_{t,d}) · x_{t,d} over the embedding
  // dims of token t (x = the embedding vector the encoder reads). Computed for
  // every pooling kind.
  std::vector<float> saliency;
  // [T] P(review with token t replaced by the <oov> id) − P(review).
  // Replacement, not deletion: the length and every other position stay as they
  // were, which is what the page's "mask" counterfactual does too. Position 0
  // when it holds <start> gets 0 (it is not a word), and so does a word that
  // already was <oov>.
  std::vector<float> leave_one_out;

  // The tests (attention pooling only; NaN / empty otherwise):
  std::vector<float> shuffled_probabilities;  // [K] P under each random permutation of α
  float shuffle_median_change = 0;            // median_k |P_k − P| (NaN without attention / K = 0)
  float shuffle_max_change = 0;               // max_k |P_k − P|
  float uniform_probability = 0;              // P with α_t = 1/T over every token
};

// Analyses `text` encoded with the model's pipeline. Throws
// std::invalid_argument when the model has no classifier ("analyze_review: the
// sentiment model has no classifier ...") or the text has no words
// ("analyze_review: the text has no words to analyse").
ReviewAnalysis analyze_review(const SentimentModel &model, const std::string &text,
                              const AnalysisOptions &options = {});

// The pooling step of one review, for running another pooling function on it (the course's
// "your pooling in the model"): `text` encoded as analyze_review does (no padding), the encoder
// output h [T, Dh], the vector k [Dh] the pooling scores against, score_t = k·h_t (dot: its learned
// query q; scaled_dot: W q / √A; empty for the other kinds), and the model's own weights α [T] and P(positive). Throws
// std::invalid_argument without a classifier, for a text without words, or when the model's
// pooling is not attention.
struct PoolingProbe {
  std::vector<std::string> tokens;  // [T]
  Tensor2 hidden;                   // [T, Dh]
  std::vector<float> query;         // [Dh] or empty
  std::vector<float> weights;       // [T]
  float probability = 0;
};
PoolingProbe pooling_probe(const SentimentModel &model, const std::string &text);

// P(positive) of `text` (encoded as pooling_probe does) when its pooling weights are `weights`
// [T], used as given (SequenceClassifier::forward_with_attention). Throws as pooling_probe, and
// ShapeError when weights does not have one entry per token.
float probability_with_weights(const SentimentModel &model, const std::string &text, const std::vector<float> &weights);

// A uniformly random permutation of `weights` [T] (Fisher–Yates on rng.below):
// the same multiset of values in another order.
std::vector<float> shuffled_weights(const std::vector<float> &weights, Rng &rng);

// Counterfactuals: the prediction (and attention) for an edited token list [T],
// each looked up in the vocabulary as a word — "<start>" → the start id,
// "<mask>", "<oov>" or "" → the <oov> id, unknown words → <oov>, lowercased
// first when the pipeline lowercases. No start token is added (pass "<start>"
// first to have one, as analyze_review's tokens do); longer than maxlen is cut
// as the pipeline's `truncating` says. Throws std::invalid_argument for an
// empty list or a model without a classifier.
Explanation predict_tokens(const SentimentModel &model, const std::vector<std::string> &tokens);

struct MisclassifiedReview {
  std::string text;
  std::string origin;
  int label = 0;
  float probability = 0;            // P(positive): > 0.5 for a wrong positive, <= 0.5 for a wrong negative
  std::vector<std::string> tokens;  // [T]
  std::vector<float> weights;       // [T] attention (empty without attention pooling)
};

// The examples the model gets wrong (p > 0.5 is positive, as
// classification_metrics), the most confidently wrong first (by |p − 0.5|; ties
// keep data order), at most `limit` of them (0 = all). Throws
// std::invalid_argument when the model has no classifier.
std::vector<MisclassifiedReview> misclassified(const SentimentModel &model, const std::vector<LabelledText> &examples,
                                               std::size_t limit);

}  // namespace attn
