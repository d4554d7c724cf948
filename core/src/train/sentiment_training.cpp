#include "attn/train/sentiment_training.hpp"

namespace attn {

SentimentTraining train_sentiment_model(const std::vector<LabelledText>& train, const TextPipelineConfig& pipeline,
                                        const ClassifierConfig& classifier, const TrainerConfig& trainer,
                                        std::uint64_t model_seed, const TrainingCallbacks& callbacks) {
  trainer.validate();
  TextPipeline fitted(pipeline);
  fitted.fit(train);
  SentimentTraining out;
  out.model = make_sentiment_model(std::move(fitted), classifier, model_seed);
  out.result = train_classifier(*out.model.classifier, out.model.pipeline, encode_dataset(out.model.pipeline, train),
                                trainer, callbacks);
  return out;
}

std::vector<float> predict(const SentimentModel& model, const std::vector<std::string>& texts) {
  return predict(classifier_of(model, "predict"), model.pipeline, texts);
}

Explanation explain(const SentimentModel& model, const std::string& text) {
  return explain(classifier_of(model, "explain"), model.pipeline, text);
}

ClassificationMetrics evaluate(const SentimentModel& model, const std::vector<LabelledText>& examples) {
  return evaluate_classifier(classifier_of(model, "evaluate"), model.pipeline,
                             encode_dataset(model.pipeline, examples));
}

}  // namespace attn
