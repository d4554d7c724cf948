// The bag-of-n-grams baseline (models/bag_of_ngrams.hpp) on labelled reviews, one way for every
// caller: the CLI's `attn train --model bow` and the Studio's baseline (SentimentSession). Reviews
// are tokenised with the tokenizer's defaults (lowercase, HTML stripped, no punctuation).
//
// No tensors here (legend N documents, T tokens of one review).
#pragma once

#include <string>
#include <vector>

#include "attn/data/review_loaders.hpp"
#include "attn/models/bag_of_ngrams.hpp"
#include "attn/train/classifier_trainer.hpp"

namespace attn {

// [N][tokens] and [N] labels of `examples`.
std::vector<std::vector<std::string>> baseline_documents(const std::vector<LabelledText>& examples);
std::vector<int> labels_of(const std::vector<LabelledText>& examples);

// Fits a fresh classifier on all of `train` (the baseline has no early stopping, so no validation
// split). Exceptions as BagOfNgramsClassifier::fit.
BagOfNgramsClassifier train_bag_of_ngrams(const std::vector<LabelledText>& train, const BagOfNgramsConfig& config,
                                          const BagOfNgramsProgressFn& progress = {});
// Metrics at threshold 0.5 (classification_metrics) on `examples`.
ClassificationMetrics evaluate_bag_of_ngrams(const BagOfNgramsClassifier& model,
                                             const std::vector<LabelledText>& examples);
// The explanation of one review's text (tokenised as above; `tokens` of the result are those).
BagOfNgramsExplanation explain_bag_of_ngrams(const BagOfNgramsClassifier& model, const std::string& text);

}  // namespace attn
