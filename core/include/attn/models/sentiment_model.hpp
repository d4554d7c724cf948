// A sentiment model as one thing to train, save, load and query: the text pipeline (tokenizer
// settings, vocabulary, maxlen, padding) together with the classifier that reads its ids.
//
// Model file (io/model_file.hpp) config JSON, flat:
//   {"model": "sentiment_model", "format": 1,
//    "classifier": "<ClassifierConfig::to_json()>", "pipeline": "<TextPipeline::to_json()>"}
// followed by the classifier's parameters. A file made by save_classifier (a bare classifier,
// no vocabulary) or by another model kind is rejected with a message that says so.
//
// Legend: V vocabulary ids (classifier.vocab_size >= pipeline vocabulary size), T tokens.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/models/sequence_classifier.hpp"
#include "attn/text/text_pipeline.hpp"

namespace attn {

struct SentimentModel {
  TextPipeline pipeline;
  std::unique_ptr<SequenceClassifier> classifier;
};

// A fresh (untrained) classifier for `pipeline`: classifier.vocab_size is set to the pipeline's
// num_words and, for the Transformer, max_len to at least maxlen. Validates the configuration.
SentimentModel make_sentiment_model(TextPipeline pipeline, ClassifierConfig classifier, std::uint64_t seed);

// One file holding both parts. Throws std::invalid_argument when the model has no classifier.
std::vector<std::uint8_t> save_sentiment_model(const SentimentModel& model);
// Throws ModelFileError for a damaged file, a bare classifier or another model kind, or when
// the pipeline's ids do not fit the classifier's vocabulary.
SentimentModel load_sentiment_model(const std::uint8_t* data, std::size_t size);
inline SentimentModel load_sentiment_model(const std::vector<std::uint8_t>& bytes) {
  return load_sentiment_model(bytes.data(), bytes.size());
}

// The classifier, or std::invalid_argument "<who>: the sentiment model has no classifier; create
// or load one first".
SequenceClassifier& classifier_of(const SentimentModel& model, const char* who);

// Training, batched prediction, explanation and evaluation of a SentimentModel live in
// train/sentiment_training.hpp; the built-in corpus as labelled texts in data/builtin_reviews.hpp.

}  // namespace attn
