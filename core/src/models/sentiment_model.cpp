#include "attn/models/sentiment_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"

namespace attn {
namespace {
constexpr const char* kModelKind = "sentiment_model";
constexpr double kFormat = 1;

// A floor on the floats the classifier described by `config` allocates, from its largest
// tables (embedding V×E, bigram table buckets×E, recurrent U×U, Transformer E×E and E×ff per
// block, position tables max_len×E). Compared with what a file holds BEFORE building the
// model, so a damaged or hostile configuration ("vocab_size": 1e9) is refused instead of
// allocating gigabytes.
double least_floats(const ClassifierConfig& config) {
  const double e = static_cast<double>(config.embed_dim);
  double floor = std::max(static_cast<double>(config.vocab_size), static_cast<double>(config.bigram_buckets)) * e;
  if (config.encoder == EncoderKind::transformer) {
    const double layers = static_cast<double>(config.layers);
    floor = std::max(floor, layers * e * std::max(e, static_cast<double>(config.ff_dim)));
    // The sinusoidal table is not saved but is allocated; the learned one is a parameter.
    floor = std::max(floor, static_cast<double>(config.max_len) * e);
  } else if (config.encoder != EncoderKind::none) {
    const double u = static_cast<double>(config.units);
    floor = std::max(floor, u * std::max(u, e));
  }
  return floor;
}

}  // namespace

SequenceClassifier& classifier_of(const SentimentModel& model, const char* who) {
  if (!model.classifier) {
    throw std::invalid_argument(std::string(who) + ": the sentiment model has no classifier; create or load one first");
  }
  return *model.classifier;
}

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
    if (config.encoder == EncoderKind::transformer && config.max_len < model.pipeline.config().maxlen) {
      throw ModelFileError("this sentiment model is inconsistent: reviews are cut to " +
                           std::to_string(model.pipeline.config().maxlen) + " ids but the Transformer reads at most " +
                           std::to_string(config.max_len));
    }
    const double file_floats = stored_floats(file);
    // Sinusoidal position tables may exceed the saved floats legitimately (long max_len, few
    // words): allow them up to 2^24 floats (64 MiB) beyond what the file holds.
    if (least_floats(config) >
        std::max(file_floats, file_floats + 16777216.0 * (config.encoder == EncoderKind::transformer))) {
      throw ModelFileError(
          "this sentiment model is inconsistent: its configuration describes a model larger than the " +
          std::to_string(static_cast<std::uint64_t>(file_floats)) + " parameters the file holds");
    }
    model.classifier = std::make_unique<SequenceClassifier>(config, 0);  // every parameter comes from the file
  } catch (const ModelFileError&) {
    throw;
  } catch (const std::exception& e) {
    throw ModelFileError(std::string("this sentiment model file has a damaged configuration: ") + e.what());
  }
  require_usable_parameters(file, "sentiment model");
  load_parameters(file, model.classifier->parameters());
  return model;
}

}  // namespace attn
