// One data-parallel step done in one thread (docs/data-parallel.md), for any session with
// shard_gradient / apply_gradient (SentimentSession, Seq2SeqSession): shard r on replica r, then
// every replica applies its own buffer with the others' (added in shard order by the session);
// the last replica's report.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/parameter_values.hpp"

namespace attn::test {

template <class Session>
auto parallel_step(const std::vector<Session*>& replicas) {
  const std::size_t K = replicas.size();
  std::vector<std::vector<float>> parts;
  for (std::size_t r = 0; r < K; ++r) parts.push_back(replicas[r]->shard_gradient(r, K));
  decltype(replicas[0]->apply_gradient(parts)) out;
  for (std::size_t r = 0; r < K; ++r) {
    std::vector<std::vector<float>> others;
    for (std::size_t j = 0; j < K; ++j) {
      if (j != r) others.push_back(parts[j]);
    }
    out = replicas[r]->apply_gradient(others);
  }
  return out;
}

// Checks that the shard buffers of K = 2, 3, 5 add up to the whole batch's (shard 0 of 1): the
// gradients to 1e-5 of the largest entry, the loss sums to 1e-5 relative, the last entry (a
// count) exactly; and that computing them leaves the weights (`params`) alone. Returns the whole
// batch's buffer. The run's batch must have 16 rows (shards of 8; 5, 5, 6; 3, 3, 3, 3, 4).
template <class Session>
std::vector<float> check_shards_add_up_to_the_batch(Session& session, const ParameterList& params) {
  const std::size_t P = session.exchange_size();
  const auto before = parameter_values(params);
  const std::vector<float> full = session.shard_gradient(0, 1);
  double largest = 0;
  for (std::size_t i = 0; i + 2 < P; ++i) largest = std::max(largest, std::abs(static_cast<double>(full[i])));
  REQUIRE(largest > 0);
  for (std::size_t K : {2, 3, 5}) {
    CAPTURE(K);
    std::vector<double> sum(P, 0.0);
    for (std::size_t r = 0; r < K; ++r) {
      const std::vector<float>& part = session.shard_gradient(r, K);
      for (std::size_t i = 0; i < P; ++i) sum[i] += part[i];
    }
    double worst = 0;
    for (std::size_t i = 0; i + 2 < P; ++i) worst = std::max(worst, std::abs(sum[i] - full[i]));
    CHECK(worst <= 1e-5 * largest);
    CHECK(sum[P - 2] == doctest::Approx(full[P - 2]).epsilon(1e-5));  // loss sum
    CHECK(sum[P - 1] == full[P - 1]);                                 // the count
  }
  CHECK(parameter_values(params) == before);
  return full;
}

// The errors of apply_gradient on a session whose run has just started (no step yet), whose model
// holds `params`: no shard computed, a buffer of another length, another count of buffers (nothing
// applied), then a NaN buffer, which diverges like a non-finite loss (parameters restored, the
// run over), and a finished run.
template <class Session>
void check_apply_gradient_errors(Session& session, const ParameterList& params) {
  const std::size_t n = session.exchange_size();
  CHECK_THROWS_WITH_AS(session.apply_gradient({}), doctest::Contains("compute this replica's shard gradient"),
                       std::logic_error);
  session.shard_gradient(0, 2);
  const std::string size_message = "the gradient buffer of shard 1 holds " + std::to_string(n - 1) +
                                   " floats, this model exchanges " + std::to_string(n);
  CHECK_THROWS_WITH_AS(session.apply_gradient({std::vector<float>(n - 1, 0.f)}),
                       doctest::Contains(size_message.c_str()), std::invalid_argument);
  CHECK_THROWS_WITH_AS(session.apply_gradient({}),
                       doctest::Contains("computed shard 0 of 2, so it needs the other 1 shards' buffers, got 0"),
                       std::invalid_argument);
  const auto before = parameter_values(params);
  CHECK_THROWS_WITH_AS(session.apply_gradient({std::vector<float>(n, std::nanf(""))}),
                       doctest::Contains("training diverged at epoch 1, step 1"), std::runtime_error);
  CHECK(parameter_values(params) == before);
  CHECK_FALSE(session.training());
  CHECK_THROWS_WITH_AS(session.apply_gradient({std::vector<float>(n, 0.f)}), doctest::Contains("the run has finished"),
                       std::logic_error);
}

}  // namespace attn::test
