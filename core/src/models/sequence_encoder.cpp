#include "attn/models/sequence_encoder.hpp"

#include <stdexcept>

#include "attn/layers/bidirectional.hpp"

namespace attn {
namespace {

template <class Bi>
class BidirectionalEncoder final : public RecurrentEncoder {
 public:
  struct BiCache final : Cache {
    typename Bi::Cache rnn;
  };

  BidirectionalEncoder(std::size_t input, std::size_t units, Rng& rng) : rnn_(input, units, rng) {}

  std::unique_ptr<Cache> make_cache() const override { return std::make_unique<BiCache>(); }
  const Tensor2& encode(const Tensor3& x, const Mask2* mask, Tensor3& h, Cache& cache) const override {
    typename Bi::Cache& c = static_cast<BiCache&>(cache).rnn;
    rnn_.forward(x, mask, h, c);
    return c.h_last;
  }
  void encode_backward(const Tensor3& dh, const Tensor2* dfinal, const Cache& cache, Tensor3& dx) override {
    rnn_.backward(dh, dfinal, static_cast<const BiCache&>(cache).rnn, dx);
  }
  std::size_t units() const override { return rnn_.units(); }

  // SequenceEncoder, with the cache inside.
  void forward(const Tensor3& x, const Mask2& mask, bool, Rng&, Tensor3& h, Tensor2& final_state) override {
    final_state = encode(x, &mask, h, cache_);
  }
  void backward(const Tensor3& dh, const Tensor2* dfinal, Tensor3& dx) override {
    encode_backward(dh, dfinal, cache_, dx);
  }
  void parameters(ParameterList& out, const std::string& prefix) override { rnn_.parameters(out, prefix); }
  std::size_t output_dim() const override { return rnn_.output_size(); }

 private:
  Bi rnn_;
  BiCache cache_;
};

}  // namespace

const Tensor4* SequenceEncoder::self_attention(std::size_t) const { return nullptr; }
MultiHeadSelfAttention* SequenceEncoder::attention_layer(std::size_t) { return nullptr; }
const MultiHeadAttentionCache* SequenceEncoder::attention_cache(std::size_t) const { return nullptr; }
const LearnedPositionalEncoding* SequenceEncoder::learned_positional() const { return nullptr; }
void SequenceEncoder::set_causal(bool) {}

const char* cell_kind_name(CellKind kind) { return kind == CellKind::gru ? "gru" : "lstm"; }

CellKind cell_kind_from_name(const std::string& name) {
  if (name == "lstm") return CellKind::lstm;
  if (name == "gru") return CellKind::gru;
  throw std::invalid_argument("unknown cell '" + name + "'; valid: lstm, gru");
}

std::unique_ptr<RecurrentEncoder> make_recurrent_encoder(CellKind cell, std::size_t input_size, std::size_t units,
                                                         Rng& rng) {
  if (cell == CellKind::lstm) return std::make_unique<BidirectionalEncoder<BiLSTM>>(input_size, units, rng);
  return std::make_unique<BidirectionalEncoder<BiGRU>>(input_size, units, rng);
}

}  // namespace attn
