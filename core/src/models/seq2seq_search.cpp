// The seq2seq model as a Translator (attn/models/translator.hpp): a decoding holds the encoder's
// outputs and the decoder state; greedy and beam search themselves are translator_search.cpp's.
#include <algorithm>
#include <array>
#include <stdexcept>

#include "attn/models/seq2seq.hpp"
#include "seq2seq_impl.hpp"

namespace attn {

using namespace seq2seq_detail;

namespace {

struct Seq2SeqDecoding final : Translator::Decoding {
  EncoderState e;
  DecoderState d;
  StepCache cache;
  Tensor2 out;  // [R, Dout] the output layer's input
};

// to[i] = from[parents[i]] for rows of `row` floats.
template <class T>
void gather_rows(const T& from, const std::vector<std::size_t>& parents, std::size_t row, T& to) {
  for (std::size_t i = 0; i < parents.size(); ++i) {
    std::copy(from.data() + parents[i] * row, from.data() + (parents[i] + 1) * row, to.data() + i * row);
  }
}

}  // namespace

std::size_t Seq2SeqModel::source_vocab() const { return impl_->config.source_vocab; }

std::size_t Seq2SeqModel::target_vocab() const { return impl_->config.target_vocab; }

bool Seq2SeqModel::attends() const { return impl_->config.attention != AttentionForm::none; }

std::unique_ptr<Translator::Decoding> Seq2SeqModel::start(const TokenIds& source) const {
  auto decoding = std::make_unique<Seq2SeqDecoding>();
  impl_->encode(source, decoding->e);
  impl_->start(decoding->e, decoding->d);
  return decoding;
}

const Tensor2* Seq2SeqModel::step(Decoding& decoding, const std::int32_t* previous, Tensor2& logits) const {
  const Impl& m = *impl_;
  auto& s = static_cast<Seq2SeqDecoding&>(decoding);
  const std::size_t rows = s.d.h.shape(0);
  m.embed_tokens(previous, 1, rows, s.d);
  ensure_shape(s.out, Shape2{rows, m.dout});
  ensure_shape(logits, Shape2{rows, m.config.target_vocab});
  m.step(s.e, s.d, s.cache, s.out.data());
  m.output.forward_rows(s.out.data(), rows, logits.data());
  return attends() ? &s.d.weights : nullptr;
}

void Seq2SeqModel::reorder(Decoding& decoding, const std::vector<std::size_t>& parents) const {
  const Impl& m = *impl_;
  auto& s = static_cast<Seq2SeqDecoding&>(decoding);
  const std::size_t n = parents.size();
  // The decoder state follows its hypotheses ...
  DecoderState gathered;
  auto state = [&](Tensor2& t, Tensor2& into) {
    const std::size_t cols = t.shape(1);
    ensure_shape(into, Shape2{n, cols});
    gather_rows(t, parents, cols, into);
    t = std::move(into);
  };
  state(s.d.h, gathered.h);
  state(s.d.c, gathered.c);
  state(s.d.feed, gathered.feed);
  ensure_shape(s.d.x, Shape2{n, m.din});
  // ... and so do the encoder's outputs the steps read (annotations, mask, Bahdanau's keys).
  EncoderState& e = s.e;
  const std::size_t tx = e.mask.shape(1), dh = e.annotations.shape(2);
  Tensor3 annotations({n, tx, dh});
  gather_rows(e.annotations, parents, tx * dh, annotations);
  e.annotations = std::move(annotations);
  Mask2 mask({n, tx});
  gather_rows(e.mask, parents, tx, mask);
  e.mask = std::move(mask);
  if (m.bahdanau) {
    const std::size_t a = e.keys.projected.shape(2);
    Tensor3 keys({n, tx, a});
    gather_rows(e.keys.projected, parents, tx * a, keys);
    e.keys.projected = std::move(keys);
  }
}

Decoded Seq2SeqModel::greedy(const std::vector<int>& source, std::size_t max_len) const {
  return std::move(greedy_search(*this, source_row(source), max_len)[0]);
}

std::vector<Decoded> Seq2SeqModel::greedy_batch(const TokenIds& source, std::size_t max_len) const {
  ATTN_REQUIRE(source.shape(0) > 0 && source.shape(1) > 0, "Seq2SeqModel::greedy_batch",
               "source has shape " + shape_string(source.shape()) + "; expected [B, Tx] with B, Tx >= 1");
  return greedy_search(*this, source, max_len);
}

std::vector<Decoded> Seq2SeqModel::beam(const std::vector<int>& source, std::size_t width, float length_alpha,
                                        std::size_t max_len) const {
  if (width == 0) throw std::invalid_argument("Seq2SeqModel::beam: width must be >= 1, got 0");
  return beam_search(*this, source, width, length_alpha, max_len);
}

}  // namespace attn
