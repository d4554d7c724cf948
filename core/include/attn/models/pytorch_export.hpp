// A trained sentiment model as three files PyTorch users can load (docs/pytorch.md):
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

#include "attn/models/sentiment_model.hpp"

namespace attn {

struct ExportedFile {
  std::string name;      // "model.safetensors", "vocab.json", "model.py"
  std::string contents;  // bytes (binary for the safetensors file)
};

// The three files for `model`. Throws std::invalid_argument when the model has no classifier.
std::vector<ExportedFile> export_pytorch(const SentimentModel& model);

// model.py as shipped (core/src/models/pytorch_model.py, embedded at build time).
std::string_view pytorch_model_py();

}  // namespace attn
