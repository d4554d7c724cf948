#include <doctest/doctest.h>

#include <vector>

#include "attn/text/sequences.hpp"

using namespace attn;
using Seqs = std::vector<std::vector<std::int32_t>>;

namespace {

// Row i of a [N, T] tensor as a vector, for readable comparisons.
template <class T>
std::vector<int> row_of(const xt::xtensor<T, 2>& x, std::size_t i) {
  std::vector<int> out;
  for (std::size_t t = 0; t < x.shape(1); ++t) out.push_back(static_cast<int>(x(i, t)));
  return out;
}

using Row = std::vector<int>;
const Seqs kSeqs = {{1, 2, 3, 4, 5, 6}, {7, 8}, {}};

}  // namespace

TEST_CASE("sequences.pad_pre_truncate_pre_is_keras_default") {
  // pad_sequences([[1..6], [7, 8], []], maxlen=4) ->
  //   [[3, 4, 5, 6],    truncating='pre' drops the beginning
  //    [0, 0, 7, 8],    padding='pre' right-aligns
  //    [0, 0, 0, 0]]
  const PaddedBatch b = pad_sequences(kSeqs, 4);
  REQUIRE(b.ids.shape() == TokenIds::shape_type{3, 4});
  REQUIRE(b.mask.shape() == Mask2::shape_type{3, 4});
  CHECK(row_of(b.ids, 0) == Row{3, 4, 5, 6});
  CHECK(row_of(b.ids, 1) == Row{0, 0, 7, 8});
  CHECK(row_of(b.ids, 2) == Row{0, 0, 0, 0});
  CHECK(row_of(b.mask, 0) == Row{1, 1, 1, 1});
  CHECK(row_of(b.mask, 1) == Row{0, 0, 1, 1});
  CHECK(row_of(b.mask, 2) == Row{0, 0, 0, 0});
}

TEST_CASE("sequences.pad_and_truncate_modes") {
  // padding='post', truncating='pre': [[3, 4, 5, 6], [7, 8, 0, 0], [0, 0, 0, 0]]
  PaddedBatch b = pad_sequences(kSeqs, 4, PadMode::post, PadMode::pre);
  CHECK(row_of(b.ids, 0) == Row{3, 4, 5, 6});
  CHECK(row_of(b.ids, 1) == Row{7, 8, 0, 0});
  CHECK(row_of(b.mask, 1) == Row{1, 1, 0, 0});
  // padding='pre', truncating='post': [[1, 2, 3, 4], [0, 0, 7, 8], ...]
  b = pad_sequences(kSeqs, 4, PadMode::pre, PadMode::post);
  CHECK(row_of(b.ids, 0) == Row{1, 2, 3, 4});
  CHECK(row_of(b.ids, 1) == Row{0, 0, 7, 8});
  // padding='post', truncating='post': [[1, 2, 3, 4], [7, 8, 0, 0], ...]
  b = pad_sequences(kSeqs, 4, PadMode::post, PadMode::post);
  CHECK(row_of(b.ids, 0) == Row{1, 2, 3, 4});
  CHECK(row_of(b.ids, 1) == Row{7, 8, 0, 0});
  // value=-1, maxlen longer than everything: [[-1, -1, 1..6], [-1 ×6, 7, 8], [-1 ×8]]
  b = pad_sequences(kSeqs, 8, PadMode::pre, PadMode::pre, -1);
  CHECK(row_of(b.ids, 0) == Row{-1, -1, 1, 2, 3, 4, 5, 6});
  CHECK(row_of(b.ids, 1) == Row{-1, -1, -1, -1, -1, -1, 7, 8});
  CHECK(row_of(b.ids, 2) == Row{-1, -1, -1, -1, -1, -1, -1, -1});
  CHECK(row_of(b.mask, 0) == Row{0, 0, 1, 1, 1, 1, 1, 1});
  // The mask marks real tokens even when a token equals the padding value.
  b = pad_sequences({{0, 5}}, 3);
  CHECK(row_of(b.ids, 0) == Row{0, 0, 5});
  CHECK(row_of(b.mask, 0) == Row{0, 1, 1});
}

TEST_CASE("sequences.maxlen_zero_throws_and_pad_to_longest") {
  CHECK_THROWS_WITH_AS(pad_sequences(kSeqs, 0),
                       "pad_sequences: maxlen must be at least 1 (use pad_to_longest for Keras' maxlen=None)",
                       std::invalid_argument);
  // Keras maxlen=None: T = 6.
  const PaddedBatch b = pad_to_longest(kSeqs, PadMode::post);
  REQUIRE(b.ids.shape() == TokenIds::shape_type{3, 6});
  CHECK(row_of(b.ids, 0) == Row{1, 2, 3, 4, 5, 6});
  CHECK(row_of(b.ids, 1) == Row{7, 8, 0, 0, 0, 0});
  CHECK(pad_to_longest({{}, {}}).ids.shape() == TokenIds::shape_type{2, 0});
  CHECK(pad_sequences({}, 5).ids.shape() == TokenIds::shape_type{0, 5});
}

TEST_CASE("sequences.nearest_rank_percentiles") {
  // Wikipedia's nearest-rank example: {15, 20, 35, 40, 50}:
  //   P30: rank ceil(0.3 * 5) = 2 -> 20; P40: rank 2 -> 20; P50: rank 3 -> 35; P100 -> 50.
  const std::vector<std::size_t> w = {15, 20, 35, 40, 50};
  CHECK(nearest_rank_percentile(w, 5) == 15);
  CHECK(nearest_rank_percentile(w, 30) == 20);
  CHECK(nearest_rank_percentile(w, 40) == 20);
  CHECK(nearest_rank_percentile(w, 50) == 35);
  CHECK(nearest_rank_percentile(w, 100) == 50);
  CHECK_THROWS_AS(nearest_rank_percentile(w, 0), std::invalid_argument);
  CHECK_THROWS_AS(nearest_rank_percentile({}, 50), std::invalid_argument);
  // 1..100 (shuffled order does not matter): Pk = k exactly, with no float round-up at 90.
  std::vector<std::size_t> hundred;
  for (std::size_t k = 100; k >= 1; --k) hundred.push_back(k);
  const LengthStats s = length_stats(hundred, 10);
  CHECK(s.count == 100);
  CHECK(s.min == 1);
  CHECK(s.max == 100);
  CHECK(s.mean == doctest::Approx(50.5));
  CHECK(s.p50 == 50);
  CHECK(s.p90 == 90);
  CHECK(s.p95 == 95);
  CHECK(s.p99 == 99);
}

TEST_CASE("sequences.length_stats_histogram_and_truncation") {
  // Lengths {3, 7, 10, 10, 25, 40}, 4 bins: bin_width = ceil(41 / 4) = 11,
  // bins [0,11) [11,22) [22,33) [33,44) hold {3, 7, 10, 10}, {}, {25}, {40}.
  const std::vector<std::size_t> lengths = {10, 3, 40, 25, 7, 10};
  const LengthStats s = length_stats(lengths, 4);
  CHECK(s.bin_width == 11);
  CHECK(s.histogram == std::vector<std::size_t>{4, 0, 1, 1});
  CHECK(s.mean == doctest::Approx(95.0 / 6.0));
  CHECK(s.p50 == 10);  // rank ceil(3) = 3 -> sorted {3, 7, 10, 10, 25, 40}[2]
  CHECK(s.p90 == 40);  // rank ceil(5.4) = 6
  // maxlen 10 truncates 25 and 40, dropping 15 + 30 ids; maxlen 40 truncates nothing.
  CHECK(s.truncated_at(10) == 2);
  CHECK(s.tokens_dropped_at(10) == 45);
  CHECK(s.truncated_at(40) == 0);
  CHECK(share_longer_than(lengths, 10) == doctest::Approx(2.0 / 6.0));
  CHECK(share_longer_than(lengths, 2) == 1.0);
  CHECK(share_longer_than({}, 2) == 0.0);
  CHECK(sequence_lengths({{1, 2}, {}, {3}}) == std::vector<std::size_t>{2, 0, 1});
  // Empty input: zeros, `bins` empty bins.
  const LengthStats none = length_stats({}, 3);
  CHECK(none.count == 0);
  CHECK(none.histogram == std::vector<std::size_t>{0, 0, 0});
  CHECK_THROWS_AS(length_stats(lengths, 0), std::invalid_argument);
}
