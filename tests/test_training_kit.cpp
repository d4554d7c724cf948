// The training kit every trainer shares: Rng::shuffle, the batch gather, epoch batches, the run
// guard (last good parameters, divergence) and best-epoch tracking (early stopping, restore).
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "attn/random.hpp"
#include "attn/text/sequences.hpp"
#include "attn/train/batching.hpp"
#include "attn/train/run_guard.hpp"

using namespace attn;

namespace {

// The loop Rng::shuffle replaced (twelve copies of it, some written with i from n-1 down to 1
// and swap(v[i], v[below(i + 1)]), which is the same sequence of swaps).
template <class T>
void reference_shuffle(std::vector<T>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(static_cast<std::uint32_t>(i))]);
}

std::vector<std::size_t> iota(std::size_t n) {
  std::vector<std::size_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// One parameter of `n` floats over `values`.
ParameterList params_of(std::vector<float>& values) {
  Parameter p;
  p.name = "w";
  p.shape = {values.size()};
  p.value = values.data();
  p.grad = values.data();
  p.size = values.size();
  return {p};
}

}  // namespace

TEST_CASE("training_kit.shuffle_is_the_loops_fisher_yates") {
  for (std::size_t n : {0u, 1u, 2u, 3u, 17u, 200u}) {
    Rng a(7, 0x0de5), b(7, 0x0de5);
    std::vector<std::size_t> got = iota(n), want = iota(n);
    a.shuffle(got);
    reference_shuffle(want, b);
    CHECK(got == want);
    CHECK(a.next_u32() == b.next_u32());  // the same number of draws
  }
  // The other direction (i = 0 .. n-2, swap with [i, n)) gives another permutation: the test
  // tells the two apart.
  Rng a(3), b(3);
  std::vector<std::size_t> got = iota(10), forward = iota(10);
  a.shuffle(got);
  for (std::size_t i = 0; i + 1 < forward.size(); ++i) {
    std::swap(forward[i], forward[i + b.below(static_cast<std::uint32_t>(forward.size() - i))]);
  }
  CHECK(got != forward);
  std::vector<std::size_t> sorted = got;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == iota(10));
}

TEST_CASE("training_kit.gather_padded_pads_truncates_and_masks") {
  const std::vector<std::vector<std::int32_t>> seqs = {{5, 6, 7}, {8}, {9, 10, 11, 12, 13}};
  const std::size_t rows[] = {2, 1, 0};
  TokenIds ids;
  Mask2 mask;
  CHECK(padded_width(seqs, rows, 3) == 5);
  CHECK(padded_width(seqs, rows, 3, 4) == 4);
  CHECK(padded_width(seqs, rows + 1, 1) == 1);
  gather_padded(seqs, rows, 3, 4, PadMode::pre, ids, &mask);
  // Row 0 keeps its LAST 4 ids; 'pre' puts the padding first.
  CHECK(ids == TokenIds{{10, 11, 12, 13}, {0, 0, 0, 8}, {0, 5, 6, 7}});
  CHECK(mask == Mask2{{1, 1, 1, 1}, {0, 0, 0, 1}, {0, 1, 1, 1}});
  const std::int32_t* buffer = ids.data();
  gather_padded(seqs, rows, 3, 4, PadMode::post, ids, &mask);
  CHECK(ids.data() == buffer);  // same shape: the buffer is reused
  CHECK(ids == TokenIds{{10, 11, 12, 13}, {8, 0, 0, 0}, {5, 6, 7, 0}});
  CHECK(mask == Mask2{{1, 1, 1, 1}, {1, 0, 0, 0}, {1, 1, 1, 0}});
  gather_padded(seqs, rows + 1, 2, 3, PadMode::post, ids, nullptr);
  CHECK(ids == TokenIds{{8, 0, 0}, {5, 6, 7}});
  const std::size_t bad[] = {3};
  CHECK_THROWS_AS(gather_padded(seqs, bad, 1, 2, PadMode::post, ids, nullptr), ShapeError);
  CHECK_THROWS_AS(padded_width(seqs, bad, 1), ShapeError);
}

TEST_CASE("training_kit.epoch_batches_shuffle_cut_and_bucket") {
  std::vector<std::vector<std::int32_t>> seqs;
  for (std::size_t i = 0; i < 23; ++i) seqs.emplace_back((i * 7) % 11 + 1, 4);
  SUBCASE("plain: the shuffled order cut into batches, the last holds the rest") {
    Rng rng(5), reference(5);
    const auto batches = epoch_batches(seqs, {4, 1, false}, rng);
    std::vector<std::size_t> order = iota(23);
    reference.shuffle(order);
    REQUIRE(batches.size() == 6);
    std::vector<std::size_t> joined;
    for (const auto& b : batches) joined.insert(joined.end(), b.begin(), b.end());
    CHECK(joined == order);
    CHECK(batches.back().size() == 3);
    CHECK(rng.next_u32() == reference.next_u32());
  }
  SUBCASE("bucketed: lengths ascend within each window of W batches, then the batches are shuffled") {
    Rng unshuffled_rng(5), rng(5);
    const auto sorted = epoch_batches(seqs, {4, 2, false}, unshuffled_rng);
    std::vector<std::size_t> joined;
    for (const auto& b : sorted) joined.insert(joined.end(), b.begin(), b.end());
    for (std::size_t window = 0; window < joined.size(); window += 8) {
      for (std::size_t i = window + 1; i < std::min(joined.size(), window + 8); ++i) {
        CHECK(seqs[joined[i - 1]].size() <= seqs[joined[i]].size());
      }
    }
    const auto shuffled = epoch_batches(seqs, {4, 2, true}, rng);
    CHECK(shuffled != sorted);
    auto a = sorted, b = shuffled;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);  // the same batches, in another order
  }
  CHECK(length_order(seqs).size() == 23);
  const auto by_length = length_order(seqs);
  for (std::size_t i = 1; i < by_length.size(); ++i) {
    CHECK(seqs[by_length[i - 1]].size() <= seqs[by_length[i]].size());
    if (seqs[by_length[i - 1]].size() == seqs[by_length[i]].size()) CHECK(by_length[i - 1] < by_length[i]);
  }
}

TEST_CASE("training_kit.run_guard_restores_the_last_finite_step") {
  std::vector<float> w = {1, 1};
  const ParameterList params = params_of(w);
  RunGuard guard(params);
  // Step 1 runs on {1, 1}, succeeds and moves w to {2, 2}.
  guard.before_step(params);
  w = {2, 2};
  guard.step_succeeded();
  // Step 2 runs on {2, 2}, succeeds and moves w to {3, 3}.
  guard.before_step(params);
  w = {3, 3};
  guard.step_succeeded();
  // Step 3 starts from {3, 3} and blows up: the parameters of step 2 (its finite loss) come back.
  guard.before_step(params);
  w = {NAN, NAN};
  guard.restore(params);
  CHECK(w == std::vector<float>{2, 2});
  CHECK(RunGuard::divergence_message(1, 4, "the loss is nan", 0.5f) ==
        "training diverged at epoch 2, step 5 (the loss is nan); the parameters of the last step with a finite "
        "loss were restored. Try a lower learning rate (now 0.5) or clip_norm > 0");
}

TEST_CASE("training_kit.best_epoch_stops_early_and_restores") {
  std::vector<float> w = {0};
  const ParameterList params = params_of(w);
  BestEpoch none(2);
  CHECK_FALSE(none.restore(params));
  CHECK(none.best_epoch() == -1);

  BestEpoch best(2);
  w = {10};
  CHECK_FALSE(best.judge(true, 0, params));
  w = {11};
  CHECK_FALSE(best.judge(false, 1, params));  // 1 epoch without improvement
  w = {12};
  CHECK_FALSE(best.judge(true, 2, params));  // improvement resets the count
  w = {13};
  CHECK_FALSE(best.judge(false, 3, params));
  w = {14};
  CHECK(best.judge(false, 4, params));  // patience 2 ran out
  CHECK(best.best_epoch() == 2);
  CHECK(best.restore(params));
  CHECK(w[0] == 12);

  BestEpoch patient(0);  // never stops
  CHECK_FALSE(patient.judge(true, 0, params));
  for (std::size_t e = 1; e < 20; ++e) CHECK_FALSE(patient.judge(false, e, params));
}
