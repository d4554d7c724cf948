// Private to the PyTorch exports (pytorch_export.cpp: sentiment models; pytorch_translator_export.cpp:
// translators): a model's parameters by engine name, handed out under PyTorch's names and layouts.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attn/io/safetensors.hpp"
#include "attn/layers/parameter.hpp"

namespace attn::pytorch_detail {

class Renamer {
 public:
  explicit Renamer(const ParameterList& parameters) {
    for (const Parameter& p : parameters) by_name_.emplace(p.name, &p);
  }

  // The parameter as stored.
  void same(const std::string& from, const std::string& to) {
    const Parameter& p = get(from);
    out.push_back({to, p.shape, std::vector<float>(p.value, p.value + p.size)});
  }
  // A [in, out] matrix as PyTorch's [out, in]; a vector [n] becomes the row [1, n].
  void transposed(const std::string& from, const std::string& to) {
    const Parameter& p = get(from);
    if (p.shape.size() == 1) {
      out.push_back({to, {1, p.size}, std::vector<float>(p.value, p.value + p.size)});
      return;
    }
    const std::size_t rows = p.shape[0], cols = p.shape[1];
    NamedTensor t{to, {cols, rows}, std::vector<float>(p.size)};
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) t.values[c * rows + r] = p.value[r * cols + c];
    }
    out.push_back(std::move(t));
  }
  void zeros(const std::string& to, std::size_t n) { out.push_back({to, {n}, std::vector<float>(n, 0.f)}); }

  // nn.Linear from a Dense ("<from>w" [in, out], "<from>b" [out]).
  void linear(const std::string& from, const std::string& to) {
    transposed(from + "w", to + "weight");
    same(from + "b", to + "bias");
  }
  // nn.LayerNorm from a LayerNorm ("<from>gamma", "<from>beta").
  void norm(const std::string& from, const std::string& to) {
    same(from + "gamma", to + "weight");
    same(from + "beta", to + "bias");
  }
  // An engine LSTM or GRU ("<from>w_x", "w_h", LSTM "b" / GRU "b_x", "b_h") as the PyTorch tensors
  // "<to>weight_ih<suffix>", "weight_hh", "bias_ih", "bias_hh" (nn.LSTM / nn.GRU with suffix
  // "_l0" or "_l0_reverse"; nn.LSTMCell / nn.GRUCell with none). The gates are already in
  // PyTorch's order (i f g o; r z n); the LSTM's one bias goes to bias_ih, bias_hh is zero.
  void recurrent(const std::string& from, const std::string& to, const std::string& suffix, bool lstm,
                 std::size_t units) {
    transposed(from + "w_x", to + "weight_ih" + suffix);
    transposed(from + "w_h", to + "weight_hh" + suffix);
    if (lstm) {
      same(from + "b", to + "bias_ih" + suffix);
      zeros(to + "bias_hh" + suffix, 4 * units);
    } else {
      same(from + "b_x", to + "bias_ih" + suffix);
      same(from + "b_h", to + "bias_hh" + suffix);
    }
  }
  // Multi-head attention's four projections ("<from>w_q", "b_q", ... "w_o", "b_o") as
  // "<to>{q,k,v,out}_proj.{weight,bias}".
  void attention(const std::string& from, const std::string& to) {
    for (const char* p : {"q", "k", "v", "o"}) {
      const std::string name = p[0] == 'o' ? "out" : p;
      transposed(from + "w_" + p, to + name + "_proj.weight");
      same(from + "b_" + p, to + name + "_proj.bias");
    }
  }

  // A pre-norm TransformerEncoderBlock (ln1, attention, ln2, ff1, ff2) as model.py's TransformerBlock.
  void encoder_block(const std::string& from, const std::string& to) {
    norm(from + "ln1.", to + "ln1.");
    attention(from + "attention.", to + "attention.");
    norm(from + "ln2.", to + "ln2.");
    linear(from + "ff1.", to + "ff1.");
    linear(from + "ff2.", to + "ff2.");
  }

  std::vector<NamedTensor> out;

 private:
  const Parameter& get(const std::string& name) const {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) throw std::logic_error("export_pytorch: the model has no parameter '" + name + "'");
    return *it->second;
  }
  std::map<std::string, const Parameter*> by_name_;
};

}  // namespace attn::pytorch_detail
