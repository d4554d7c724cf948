#include "attn/models/sentiment_model.hpp"

#include <algorithm>
#include <stdexcept>

#include "attn/data/builtin_reviews.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"

namespace attn {
namespace {
constexpr const char* kModelKind = "sentiment_model";
constexpr double kFormat = 1;

SequenceClassifier& classifier_of(const SentimentModel& model, const char* who) {
  if (!model.classifier) throw std::invalid_argument(std::string(who) + ": the sentiment model has no classifier");
  return *model.classifier;
}
}  // namespace

SentimentModel make_sentiment_model(TextPipeline pipeline, ClassifierConfig classifier, std::uint64_t seed) {
  classifier.vocab_size = pipeline.config().num_words;
  classifier.max_len = std::max(classifier.max_len, pipeline.config().maxlen);
  SentimentModel model;
  model.pipeline = std::move(pipeline);
  model.classifier = std::make_unique<SequenceClassifier>(classifier, seed);
  return model;
}

std::vector<std::uint8_t> save_sentiment_model(const SentimentModel& model) {
  SequenceClassifier& classifier = classifier_of(model, "save_sentiment_model");
  FlatJson j;
  j.set("model", kModelKind)
      .set("format", kFormat)
      .set("classifier", classifier.config().to_json())
      .set("pipeline", model.pipeline.to_json());
  return save_model(j.dump(), classifier.parameters());
}

SentimentModel load_sentiment_model(const std::uint8_t* data, std::size_t size) {
  const ModelFile file = read_model(data, size);
  SentimentModel model;
  try {
    const FlatJson j = FlatJson::parse(file.config_json);
    const std::string kind = j.has("model") ? j.get_string("model") : "unknown";
    if (kind == "sequence_classifier") {
      throw ModelFileError(
          "this file holds a bare sequence classifier without its text pipeline (vocabulary), so it cannot read "
          "text; save it with save_sentiment_model instead");
    }
    if (kind != kModelKind) throw ModelFileError("this file holds a '" + kind + "' model, not a sentiment model");
    if (j.get_number("format") != kFormat) {
      throw ModelFileError("this sentiment model file has format " + std::to_string(j.get_number("format")) +
                           "; this build reads format 1");
    }
    model.pipeline = TextPipeline::from_json(j.get_string("pipeline"));
    const ClassifierConfig config = ClassifierConfig::from_json(j.get_string("classifier"));
    if (config.vocab_size < model.pipeline.vocabulary().size()) {
      throw ModelFileError("this sentiment model is inconsistent: the vocabulary has " +
                           std::to_string(model.pipeline.vocabulary().size()) + " ids but the classifier only " +
                           std::to_string(config.vocab_size));
    }
    model.classifier = std::make_unique<SequenceClassifier>(config, 0);  // every parameter comes from the file
  } catch (const ModelFileError&) {
    throw;
  } catch (const std::exception& e) {
    throw ModelFileError(std::string("this sentiment model file has a damaged configuration: ") + e.what());
  }
  load_parameters(file, model.classifier->parameters());
  return model;
}

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
  return evaluate_classifier(classifier_of(model, "evaluate"), model.pipeline, encode_dataset(model.pipeline, examples));
}

std::vector<LabelledText> builtin_split(bool test) {
  std::vector<LabelledText> out;
  const std::vector<BuiltinReview>& reviews = builtin_reviews();
  for (std::size_t i = 0; i < reviews.size(); ++i) {
    if (reviews[i].test != test) continue;
    out.push_back({reviews[i].text, reviews[i].label, "builtin:" + std::to_string(i + 2)});
  }
  return out;
}

}  // namespace attn
