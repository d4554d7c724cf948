// Training and querying a SentimentModel (models/sentiment_model.hpp) as one bundle: the CLI's
// and the session's entry points over classifier_trainer.hpp, with the model's own pipeline.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/models/sentiment_model.hpp"
#include "attn/train/classifier_trainer.hpp"

namespace attn {

// Fits the pipeline on `train` (its texts only), builds the classifier from `classifier` with
// `model_seed`, encodes and trains with train_classifier (validation split from `trainer`).
// Exceptions as train_classifier.
struct SentimentTraining {
  SentimentModel model;
  TrainingResult result;
};
SentimentTraining train_sentiment_model(const std::vector<LabelledText>& train, const TextPipelineConfig& pipeline,
                                        const ClassifierConfig& classifier, const TrainerConfig& trainer,
                                        std::uint64_t model_seed = 1, const TrainingCallbacks& callbacks = {});

// Predictions / explanations through the bundle (see classifier_trainer.hpp).
std::vector<float> predict(const SentimentModel& model, const std::vector<std::string>& texts);
Explanation explain(const SentimentModel& model, const std::string& text);
// Metrics on labelled texts (encoded with the model's own pipeline).
ClassificationMetrics evaluate(const SentimentModel& model, const std::vector<LabelledText>& examples);

}  // namespace attn
