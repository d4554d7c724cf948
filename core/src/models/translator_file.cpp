// Either kind of seq2seq model file (models/translator_file.hpp).
#include "attn/models/translator_file.hpp"

#include <stdexcept>

#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"

namespace attn {

std::string translator_kind(const TrainableTranslator& model) {
  if (dynamic_cast<const Seq2SeqModel*>(&model) != nullptr) return "seq2seq";
  if (dynamic_cast<const TransformerSeq2Seq*>(&model) != nullptr) return "transformer_seq2seq";
  throw std::invalid_argument("translator_kind: a translator that is neither the RNN nor the Transformer seq2seq");
}

std::vector<std::uint8_t> save_translator(const TrainableTranslator& model, const std::string& extra_json) {
  if (const auto* rnn = dynamic_cast<const Seq2SeqModel*>(&model)) return save_seq2seq(*rnn, extra_json);
  if (const auto* transformer = dynamic_cast<const TransformerSeq2Seq*>(&model)) {
    return save_transformer_seq2seq(*transformer, extra_json);
  }
  throw std::invalid_argument("save_translator: a translator that is neither the RNN nor the Transformer seq2seq");
}

std::unique_ptr<TrainableTranslator> load_translator(const std::vector<std::uint8_t>& bytes, std::string* extra_json) {
  std::string kind;
  {
    const ModelFile file = read_model(bytes);  // ModelFileError for a damaged or foreign file
    try {
      const FlatJson j = FlatJson::parse(file.config_json);
      kind = j.has("model") ? j.get_string("model") : std::string();
    } catch (const std::exception& e) {
      throw ModelFileError(std::string("this model file has a damaged configuration: ") + e.what());
    }
  }
  if (kind == "seq2seq") return std::make_unique<Seq2SeqModel>(load_seq2seq(bytes, extra_json));
  if (kind == "transformer_seq2seq") {
    return std::make_unique<TransformerSeq2Seq>(load_transformer_seq2seq(bytes, extra_json));
  }
  throw ModelFileError("this file holds a '" + kind +
                       "' model, not a seq2seq model (RNN or Transformer encoder–decoder)");
}

}  // namespace attn
