// Training in chunks of steps, for the sessions the page drives (classifier_session.hpp,
// seq2seq_session.hpp): one call runs up to N optimiser steps of a resumable training run,
// closing each epoch that completes, and reports what happened. Both runs (ClassifierTrainingRun,
// Seq2SeqTrainingRun) have the same shape — finished / epoch_complete / step / end_epoch / finish —
// so one loop serves both; only their step and epoch reports differ.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "attn/train/gradient_exchange.hpp"

namespace attn {

template <class StepReport, class EpochReport>
struct ChunkProgress {
  StepReport last;                  // the last step run (all zeros when none ran)
  std::vector<float> losses;        // [steps_run] each step's batch loss, in order
  std::vector<EpochReport> epochs;  // epochs that ended during this call, in order
  std::size_t steps_run = 0;        // in this call
  std::size_t planned_steps = 0;    // the whole schedule (early stopping may end sooner)
  std::size_t batches_per_epoch = 0;
  bool done = false;  // the run is over (schedule end, early stop, divergence or cancel); no more steps
  bool early_stopped = false;
  int best_epoch = -1;  // the epoch whose parameters the model keeps (-1: none validated)
};

// Runs up to `max_steps` steps of `run` (0: none, only the report), each by calling
// `one_step()` (run.step() below; a data-parallel step in SentimentSession). `current` reads the
// run's result so far (its early_stopped / best_epoch); once the run is finished, finish() is
// called (idempotent) so the model holds the kept parameters. Divergence propagates as the run
// throws it.
template <class Run, class Result, class OneStep>
auto run_step_chunk(Run& run, std::size_t max_steps, const Result& (Run::*current)() const, OneStep one_step) {
  using StepReport = std::decay_t<decltype(run.step())>;
  using EpochReport = std::decay_t<decltype(run.end_epoch())>;
  ChunkProgress<StepReport, EpochReport> out;
  out.losses.reserve(std::min<std::size_t>(max_steps, run.planned_steps()));
  while (out.steps_run < max_steps && !run.finished()) {
    out.last = one_step();
    out.losses.push_back(out.last.loss);
    ++out.steps_run;
    if (run.epoch_complete()) out.epochs.push_back(run.end_epoch());
  }
  const Result& result = run.finished() ? run.finish() : (run.*current)();
  out.planned_steps = run.planned_steps();
  out.batches_per_epoch = run.batches_per_epoch();
  out.done = run.finished();
  out.early_stopped = result.early_stopped;
  out.best_epoch = result.best_epoch;
  return out;
}

template <class Run, class Result>
auto run_step_chunk(Run& run, std::size_t max_steps, const Result& (Run::*current)() const) {
  return run_step_chunk(run, max_steps, current, [&run] { return run.step(); });
}

// A session's side of a data-parallel step (SentimentSession, Seq2SeqSession;
// docs/data-parallel.md), `session` naming it in errors: shard `shard` of `shards` of the run's
// next batch into the session's own buffer (returned: the caller sends a copy) ...
template <class Run>
const std::vector<float>& shard_gradient_into(Run* run, ShardBuffers& buffers, const std::string& session,
                                              std::size_t shard, std::size_t shards) {
  if (run == nullptr) throw std::logic_error(session + "::shard_gradient: start training first");
  std::vector<float>& out = buffers.fill(run->exchange_size());
  run->shard_gradient(shard, shards, out.data(), out.size());
  buffers.filled(shard, shards);
  return out;
}

// ... and the step from it and `others` (the other shards' buffers, in shard order), added in
// shard order, as run_step_chunk(run, 1) reports it. std::logic_error without a run, after it
// finished or without this step's shard; ShardBuffers::in_order's errors.
template <class Run, class Result>
auto apply_shard_gradients(Run* run, ShardBuffers& buffers, const std::string& session,
                           const std::vector<std::vector<float>>& others, const Result& (Run::*current)() const) {
  const std::string who = session + "::apply_gradient";
  if (run == nullptr) throw std::logic_error(who + ": start training first");
  if (run->finished()) throw std::logic_error(who + ": the run has finished");
  const std::vector<const float*> parts = buffers.in_order(who.c_str(), others);
  auto out = run_step_chunk(*run, 1, current, [&] { return run->apply_gradient(parts, run->exchange_size()); });
  buffers.applied();
  return out;
}

}  // namespace attn
