// Either kind of seq2seq model file behind one call: the RNN encoder–decoder's (save_seq2seq,
// config "model": "seq2seq") and the Transformer encoder–decoder's (save_transformer_seq2seq,
// "model": "transformer_seq2seq"). `attn translate`, `attn eval` and the page's session load
// through it, so they take both kinds unchanged.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/models/translator.hpp"

namespace attn {

// "seq2seq" (models/seq2seq.hpp) or "transformer_seq2seq" (models/transformer_seq2seq.hpp);
// std::invalid_argument for another translator.
std::string translator_kind(const TrainableTranslator& model);

// The model's own file (save_seq2seq or save_transformer_seq2seq) with `extra_json`.
std::vector<std::uint8_t> save_translator(const TrainableTranslator& model, const std::string& extra_json = "");

// Reads either kind by the config's "model". Throws ModelFileError for a damaged file or one
// holding another model ("this file holds a 'sentiment' model, not a seq2seq model (RNN or
// Transformer encoder–decoder)"), and what load_seq2seq / load_transformer_seq2seq throw.
std::unique_ptr<TrainableTranslator> load_translator(const std::vector<std::uint8_t>& bytes,
                                                     std::string* extra_json = nullptr);

}  // namespace attn
