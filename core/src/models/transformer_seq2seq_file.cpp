// TransformerSeq2Seq's configuration (its settings schema, validation, JSON) and its model file.
#include <stdexcept>
#include <string>

#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/transformer_seq2seq.hpp"

namespace attn {
const SettingsSchema<TransformerSeq2SeqConfig>& transformer_seq2seq_settings() {
  using C = TransformerSeq2SeqConfig;
  // The order is the model file's (to_json writes the fields in it).
  static const SettingsSchema<C> schema(
      "TransformerSeq2SeqConfig",
      {
          whole_setting<C>(
              "source_vocab", [](C & c) -> auto& { return c.source_vocab; }, at_least(1),
              "source vocabulary ids (PAD, BOS, EOS, UNK included)"),
          whole_setting<C>(
              "target_vocab", [](C & c) -> auto& { return c.target_vocab; }, at_least(4),
              "target vocabulary ids (PAD, BOS, EOS, UNK included)"),
          whole_setting<C>(
              "d_model", [](C & c) -> auto& { return c.d_model; }, whole_range(1, 4096),
              "model size D, a multiple of heads", "embed"),
          whole_setting<C>(
              "heads", [](C & c) -> auto& { return c.heads; }, whole_range(1, 64), "attention heads H", "heads"),
          whole_setting<C>(
              "ff_dim", [](C & c) -> auto& { return c.ff_dim; }, whole_range(1, 16384), "feed-forward size F", "ff"),
          whole_setting<C>(
              "encoder_layers", [](C & c) -> auto& { return c.encoder_layers; }, whole_range(1, 64), "encoder blocks"),
          whole_setting<C>(
              "decoder_layers", [](C & c) -> auto& { return c.decoder_layers; }, whole_range(1, 64), "decoder blocks"),
          number_setting<C>(
              "dropout", [](C & c) -> auto& { return c.dropout; }, rate_range(),
              "dropout while training (decoding never drops)", "dropout"),
          enum_setting<C>(
              "activation", [](C & c) -> auto& { return c.activation; },
              std::vector<std::pair<std::string, Activation>>{{"relu", Activation::relu},
                                                              {"gelu", Activation::gelu},
                                                              {"tanh", Activation::tanh},
                                                              {"sigmoid", Activation::sigmoid},
                                                              {"identity", Activation::identity}},
              "the feed-forward's activation"),
          number_setting<C>(
              "label_smoothing", [](C & c) -> auto& { return c.label_smoothing; }, rate_range(),
              "label smoothing epsilon of the training loss", "label-smoothing"),
          flag_setting<C>(
              "share_embeddings", [](C & c) -> auto& { return c.share_embeddings; },
              "one embedding table for both sides (needs one vocabulary)"),
          flag_setting<C>(
              "tie_output", [](C & c) -> auto& { return c.tie_output; },
              "the output projection is the target embedding, transposed"),
      },
      [](C& c) { c.validate(); });
  return schema;
}

void TransformerSeq2SeqConfig::validate() const {
  transformer_seq2seq_settings().check(*this);
  if (d_model % heads != 0) {
    throw std::invalid_argument("TransformerSeq2SeqConfig: d_model (" + std::to_string(d_model) +
                                ") must be divisible by heads (" + std::to_string(heads) + ")");
  }
  if (share_embeddings && source_vocab != target_vocab) {
    throw std::invalid_argument(
        "TransformerSeq2SeqConfig: share_embeddings needs one vocabulary for both sides, but source_vocab is " +
        std::to_string(source_vocab) + " and target_vocab " + std::to_string(target_vocab));
  }
}

std::string TransformerSeq2SeqConfig::to_json() const {
  FlatJson j;
  j.set("model", "transformer_seq2seq");
  return transformer_seq2seq_settings().write(*this, j).dump();
}

TransformerSeq2SeqConfig TransformerSeq2SeqConfig::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  if (j.get_string("model") != "transformer_seq2seq") {
    throw std::invalid_argument("this file holds a '" + j.get_string("model") +
                                "' model, not a transformer_seq2seq model");
  }
  return transformer_seq2seq_settings().read(j, {}, {true, {}, {"model", "extra"}});
}

std::vector<std::uint8_t> save_transformer_seq2seq(const TransformerSeq2Seq& model, const std::string& extra_json) {
  FlatJson j = FlatJson::parse(model.config().to_json());
  j.set("extra", extra_json);
  return save_model(j.dump(), model.parameters());
}

TransformerSeq2Seq load_transformer_seq2seq(const std::vector<std::uint8_t>& bytes, std::string* extra_json) {
  const ModelFile file = read_model(bytes);
  TransformerSeq2SeqConfig config;
  std::string extra;
  try {
    const FlatJson j = FlatJson::parse(file.config_json);
    config = TransformerSeq2SeqConfig::from_json(file.config_json);
    extra = j.has("extra") ? j.get_string("extra") : std::string();
  } catch (const std::exception& e) {
    throw ModelFileError(std::string("this transformer_seq2seq model file has a damaged configuration: ") + e.what());
  }
  // The embedding tables and every block's attention weights alone: a configuration that needs
  // more floats than the file holds is damaged, and is refused before the model is allocated.
  const double d = static_cast<double>(config.d_model);
  const double tables =
      static_cast<double>(config.share_embeddings ? config.target_vocab : config.source_vocab + config.target_vocab);
  const double least = tables * d + static_cast<double>(config.encoder_layers + 2 * config.decoder_layers) * 4 * d * d;
  if (least > stored_floats(file)) {
    throw ModelFileError(
        "this transformer_seq2seq model is inconsistent: its configuration describes a model larger "
        "than the " +
        std::to_string(static_cast<std::uint64_t>(stored_floats(file))) + " parameters the file holds");
  }
  require_usable_parameters(file, "transformer_seq2seq model");
  TransformerSeq2Seq model(config, 0);  // the seed is irrelevant: every parameter comes from the file
  load_parameters(file, model.parameters());
  if (extra_json != nullptr) *extra_json = extra;
  return model;
}

}  // namespace attn
