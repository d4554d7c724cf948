// A trained sentiment model as three files PyTorch users can load (docs/pytorch.md); translators
// further down:
//
//   model.safetensors  the weights under the names and layouts of PyTorch's own modules
//                      (nn.Embedding, nn.LSTM / nn.GRU, nn.Linear, nn.LayerNorm), the
//                      architecture in its "__metadata__"
//   vocab.json         the tokenizer settings, maxlen, truncation side and the vocabulary
//   model.py           a self-contained torch.nn.Module for every exported architecture, with
//                      load(DIR) and predict(texts) that tokenise as the engine does
//
// Layout changes (the engine keeps matrices [in, out]; PyTorch's are [out, in]):
//   embedding.weight [V, E]                       = embedding.weight
//   rnn.weight_ih_l0[_reverse] [4U | 3U, E]       = w_xᵀ (gate order i f g o / r z n, as PyTorch's)
//   rnn.weight_hh_l0[_reverse] [4U | 3U, U]       = w_hᵀ
//   rnn.bias_ih_l0[_reverse]                      = b (LSTM) / b_x (GRU)
//   rnn.bias_hh_l0[_reverse]                      = 0 (LSTM: the engine has one bias) / b_h (GRU)
//   positional.weight [L, E]                      = the learned position table (absent when sinusoidal)
//   blocks.<l>.ln1|ln2.weight|bias, final_norm.*  = gamma | beta
//   blocks.<l>.attention.{q,k,v,out}_proj.weight  = w_{q,k,v,o}ᵀ [D, D]; .bias = b_{q,k,v,o}
//   blocks.<l>.ff1|ff2.weight, .bias              = wᵀ, b
//   pooling.proj.weight                           = wᵀ (additive [A, D] with .bias = b; concat [A, 2D]);
//                                                   general: w as stored (score = q · (W h))
//   pooling.v.weight [1, A], pooling.query [D]    = v, q
//   output.weight [1, Dh], output.bias [1]        = wᵀ, b
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attn/data/parallel_text.hpp"
#include "attn/models/sentiment_model.hpp"
#include "attn/models/translator.hpp"

namespace attn {

struct ExportedFile {
  std::string name;      // "model.safetensors", "vocab.json", "model.py"
  std::string contents;  // bytes (binary for the safetensors file)
};

// The three files for `model`. Throws std::invalid_argument when the model has no classifier.
std::vector<ExportedFile> export_pytorch(const SentimentModel& model);

// model.py as shipped (core/src/models/pytorch_model.py, embedded at build time).
std::string_view pytorch_model_py();

// A trained translator (models/translator_file.hpp: the RNN encoder–decoder of models/seq2seq.hpp
// or the Transformer of models/transformer_seq2seq.hpp) with the vocabularies and task of its model
// file, as four files (docs/pytorch.md, "Translators"):
//
//   model.safetensors  the weights under the names and layouts of the PyTorch modules in model.py;
//                      "__metadata__": format "attn-pytorch-translator", format_version, model
//   config.json        the architecture (the model's own configuration fields; "activation" gelu
//                      as "gelu_tanh"), layer_norm_eps and the decoding rules of `attn translate`
//                      (max_len_per_source_token, max_len_extra, beam_alpha)
//   vocab.json         task, each side's token level and tokens (ids from 4), the reserved ids and
//                      the word tokenizer's settings
//   model.py           core/src/models/pytorch_translator.py with the tokenizer, the safetensors
//                      reader and the shared layers of pytorch_model.py copied in: load(DIR) and
//                      translate(sentence, beam=...) as the engine decodes
//
// Layouts (the engine keeps matrices [in, out]; PyTorch's are [out, in]):
//   RNN:  source_embedding.weight, target_embedding.weight [V, E]      as stored
//         encoder.{weight_ih,weight_hh,bias_ih,bias_hh}_l0[_reverse]    encoder.{forward,backward}.* (nn.LSTM /
//                                                                       nn.GRU, bidirectional; LSTM bias_hh = 0)
//         init.weight, init.bias                                         init.wᵀ, init.b
//         decoder.{weight_ih,weight_hh,bias_ih,bias_hh}                  decoder.* (nn.LSTMCell / nn.GRUCell)
//         bahdanau: attention.query.weight [A, Ds], attention.key.weight [A, Dh], attention.v.weight [1, A]
//                                                                       w1ᵀ, w2ᵀ, v
//         luong: attention.score.weight (general [Dh, Ds], concat [Ds, Ds + Dh], location [L, Ds]) = w_aᵀ,
//                attention.v.weight [1, Ds] = v_a (concat), attention.combine.weight [Ds, Dh + Ds] = w_cᵀ
//         output.weight [Vt, Dout], output.bias                          output.wᵀ, output.b
//   Transformer: source_embedding.weight, target_embedding.weight (shared: embedding.weight once)
//         encoder.<i>.{ln1,ln2}.{weight,bias}, encoder.<i>.attention.{q,k,v,out}_proj.{weight,bias},
//         encoder.<i>.{ff1,ff2}.{weight,bias}, encoder_norm.*; decoder.<i>.{ln1,ln2,ln3}.*,
//         decoder.<i>.{self_attention,cross_attention}.{q,k,v,out}_proj.*, decoder.<i>.{ff1,ff2}.*,
//         decoder_norm.*; output.weight [Vt, D] (absent when tied: it is target_embedding.weight)
//         and output.bias [Vt]
// Throws std::invalid_argument when a vocabulary's size is not the model's.
std::vector<ExportedFile> export_pytorch_translator(const TrainableTranslator& model, const std::string& task,
                                                    const ParallelVocabularies& vocabularies);

// The translators' model.py template as shipped (core/src/models/pytorch_translator.py, embedded
// at build time), and the model.py the export writes: the template with every "# === shared:
// NAME ===" line replaced by pytorch_model.py's block between "# >>> shared: NAME" and
// "# <<< shared: NAME".
std::string_view pytorch_translator_template();
std::string pytorch_translator_py();

}  // namespace attn
