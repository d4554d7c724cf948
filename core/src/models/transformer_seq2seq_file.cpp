// TransformerSeq2Seq's configuration (validation, JSON) and its model file.
#include <stdexcept>
#include <string>

#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/transformer_seq2seq.hpp"

namespace attn {
namespace {
void fail(const std::string& rule) { throw std::invalid_argument("TransformerSeq2SeqConfig: " + rule); }
}  // namespace

void TransformerSeq2SeqConfig::validate() const {
  const std::pair<const char*, std::size_t> sizes[] = {{"source_vocab", source_vocab},
                                                       {"target_vocab", target_vocab},
                                                       {"d_model", d_model},
                                                       {"heads", heads},
                                                       {"ff_dim", ff_dim},
                                                       {"encoder_layers", encoder_layers},
                                                       {"decoder_layers", decoder_layers}};
  for (const auto& [name, value] : sizes) {
    if (value == 0) fail(std::string(name) + " must be >= 1, got 0");
  }
  if (target_vocab < 4) fail("target_vocab must be >= 4 (PAD, BOS, EOS, UNK), got " + std::to_string(target_vocab));
  if (d_model % heads != 0) {
    fail("d_model (" + std::to_string(d_model) + ") must be divisible by heads (" + std::to_string(heads) + ")");
  }
  if (!(dropout >= 0.f && dropout < 1.f)) fail("dropout must be in [0, 1), got " + std::to_string(dropout));
  if (!(label_smoothing >= 0.f && label_smoothing < 1.f)) {
    fail("label_smoothing must be in [0, 1), got " + std::to_string(label_smoothing));
  }
  if (share_embeddings && source_vocab != target_vocab) {
    fail("share_embeddings needs one vocabulary for both sides, but source_vocab is " + std::to_string(source_vocab) +
         " and target_vocab " + std::to_string(target_vocab));
  }
}

std::string TransformerSeq2SeqConfig::to_json() const {
  FlatJson j;
  j.set("model", "transformer_seq2seq")
      .set("source_vocab", static_cast<double>(source_vocab))
      .set("target_vocab", static_cast<double>(target_vocab))
      .set("d_model", static_cast<double>(d_model))
      .set("heads", static_cast<double>(heads))
      .set("ff_dim", static_cast<double>(ff_dim))
      .set("encoder_layers", static_cast<double>(encoder_layers))
      .set("decoder_layers", static_cast<double>(decoder_layers))
      .set("dropout", static_cast<double>(dropout))
      .set("activation", activation_name(activation))
      .set("label_smoothing", static_cast<double>(label_smoothing))
      .set("share_embeddings", share_embeddings)
      .set("tie_output", tie_output);
  return j.dump();
}

TransformerSeq2SeqConfig TransformerSeq2SeqConfig::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  if (j.get_string("model") != "transformer_seq2seq") {
    throw std::invalid_argument("this file holds a '" + j.get_string("model") +
                                "' model, not a transformer_seq2seq model");
  }
  TransformerSeq2SeqConfig c;
  c.source_vocab = j.get_size("source_vocab");
  c.target_vocab = j.get_size("target_vocab");
  c.d_model = j.get_size("d_model");
  c.heads = j.get_size("heads");
  c.ff_dim = j.get_size("ff_dim");
  c.encoder_layers = j.get_size("encoder_layers");
  c.decoder_layers = j.get_size("decoder_layers");
  c.dropout = static_cast<float>(j.get_number("dropout"));
  c.activation = activation_from_name(j.get_string("activation"));
  c.label_smoothing = static_cast<float>(j.get_number("label_smoothing"));
  c.share_embeddings = j.get_bool("share_embeddings");
  c.tie_output = j.get_bool("tie_output");
  c.validate();
  return c;
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
