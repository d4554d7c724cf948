// The Translator interface (models/translator.hpp): greedy and beam search written once. A
// second kind of translator — here a table of logits per previous token, nothing like the RNN —
// plugs into the same searches.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "attn/models/seq2seq_decoding.hpp"
#include "attn/models/translator.hpp"

using namespace attn;

namespace {

// logits of the next token = row `previous` of a [V, V] table; attention: a one-hot on source
// position (step mod Tx), so the alignment proves the rows follow their hypotheses in beam search.
class TableTranslator final : public Translator {
 public:
  explicit TableTranslator(Tensor2 table) : table_(std::move(table)) {}

  struct Rows final : Decoding {
    std::size_t rows = 0, tx = 0;
    std::vector<std::size_t> steps;  // per row: steps taken
    Tensor2 weights;
  };

  std::size_t target_vocab() const override { return table_.shape(1); }
  bool attends() const override { return true; }
  std::unique_ptr<Decoding> start(const TokenIds& source) const override {
    auto d = std::make_unique<Rows>();
    d->rows = source.shape(0);
    d->tx = source.shape(1);
    d->steps.assign(d->rows, 0);
    return d;
  }
  const Tensor2* step(Decoding& decoding, const std::int32_t* previous, Tensor2& logits) const override {
    auto& d = static_cast<Rows&>(decoding);
    const std::size_t v = target_vocab();
    logits = Tensor2({d.rows, v});
    d.weights = xt::zeros<float>({d.rows, d.tx});
    for (std::size_t r = 0; r < d.rows; ++r) {
      for (std::size_t k = 0; k < v; ++k) logits(r, k) = table_(static_cast<std::size_t>(previous[r]), k);
      d.weights(r, d.steps[r]++ % d.tx) = 1.f;
    }
    return &d.weights;
  }
  void reorder(Decoding& decoding, const std::vector<std::size_t>& parents) const override {
    auto& d = static_cast<Rows&>(decoding);
    std::vector<std::size_t> steps;
    for (std::size_t p : parents) steps.push_back(d.steps[p]);
    d.steps = steps;
    d.rows = parents.size();
  }

 private:
  Tensor2 table_;
};

// V = 6: BOS -> 4 (or 5, a bit less likely); 4 -> 5; 5 -> EOS.
Tensor2 chain_table() {
  Tensor2 t = xt::full_like(Tensor2({6, 6}), -5.f);
  t(kBosId, 4) = 2.f, t(kBosId, 5) = 1.5f;
  t(4, 5) = 3.f;
  t(5, kEosId) = 3.f;
  t(kEosId, kEosId) = 3.f;
  return t;
}

}  // namespace

TEST_CASE("translator.a_second_kind_of_translator_plugs_into_greedy_and_beam_search") {
  const TableTranslator table(chain_table());
  const std::vector<Decoded> greedy = greedy_search(table, source_row({7, 8, 9}), 10);
  REQUIRE(greedy.size() == 1);
  CHECK(greedy[0].tokens == std::vector<int>{4, 5});
  CHECK(greedy[0].finished);
  // Steps 4, 5, EOS: one alignment row each, the one-hot walking along the source.
  CHECK(greedy[0].alignment == Tensor2{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  // The same rules as greedy_decode over a plain step function.
  const Tensor2 t = chain_table();
  const DecoderStep step = [&](std::int32_t previous, float* logits) {
    for (std::size_t k = 0; k < 6; ++k) logits[k] = t(static_cast<std::size_t>(previous), k);
  };
  CHECK(greedy_decode(step, 6, 10) == std::vector<std::int32_t>{4, 5});

  // Width 2: after BOS the hypotheses [4] and [5] (two rows); [5] ends first, [4 5] next.
  const std::vector<Decoded> beam = beam_search(table, {7, 8, 9}, 2, 0.f, 10);
  REQUIRE(beam.size() == 2);
  CHECK(beam[0].tokens == std::vector<int>{4, 5});
  CHECK(beam[0].log_prob == greedy[0].log_prob);
  CHECK(beam[0].alignment == greedy[0].alignment);
  CHECK(beam[1].tokens == std::vector<int>{5});  // BOS -> 5 -> EOS: the runner-up
  CHECK(beam[1].alignment.shape(0) == 2);
  CHECK(beam[1].alignment(1, 1) == 1.f);  // its second step read its own row, not the winner's
  CHECK(beam_search(table, {7}, 1, 0.f, 10)[0].tokens == greedy_search(table, source_row({7}), 10)[0].tokens);
  CHECK_THROWS_AS(beam_search(table, {7}, 0, 0.f, 10), std::invalid_argument);
}
