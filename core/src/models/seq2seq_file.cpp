// The seq2seq model file: the configuration JSON (with the caller's extra JSON) and every
// parameter, in io/model_file.hpp's format.
#include <string>

#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/seq2seq.hpp"

namespace attn {

std::vector<std::uint8_t> save_seq2seq(const Seq2SeqModel& model, const std::string& extra_json) {
  FlatJson j = FlatJson::parse(model.config().to_json());
  j.set("extra", extra_json);
  return save_model(j.dump(), model.parameters());
}

Seq2SeqModel load_seq2seq(const std::vector<std::uint8_t>& bytes, std::string* extra_json) {
  const ModelFile file = read_model(bytes);
  Seq2SeqConfig config;
  std::string extra;
  try {
    const FlatJson j = FlatJson::parse(file.config_json);
    config = Seq2SeqConfig::from_json(file.config_json);
    extra = j.has("extra") ? j.get_string("extra") : std::string();
  } catch (const std::exception& e) {
    throw ModelFileError(std::string("this seq2seq model file has a damaged configuration: ") + e.what());
  }
  // Both embedding tables and the output layer's weights alone: a configuration that needs more
  // floats than the file holds is damaged, and is refused before the model is allocated.
  const double least =
      static_cast<double>(config.source_vocab + config.target_vocab) * static_cast<double>(config.embed) +
      static_cast<double>(config.target_vocab) * static_cast<double>(config.units);
  if (least > stored_floats(file)) {
    throw ModelFileError("this seq2seq model is inconsistent: its configuration describes a model larger than the " +
                         std::to_string(static_cast<std::uint64_t>(stored_floats(file))) +
                         " parameters the file holds");
  }
  require_usable_parameters(file, "seq2seq model");
  Seq2SeqModel model(config, 0);  // the seed is irrelevant: every parameter comes from the file
  load_parameters(file, model.parameters());
  if (extra_json != nullptr) *extra_json = extra;
  return model;
}

}  // namespace attn
