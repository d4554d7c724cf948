// The bookkeeping every training run shares (classifier, seq2seq), written once:
//   RunGuard   keeps the parameters of the last step whose loss and gradients were finite, so a
//              diverging step can be undone, and words the divergence error the same everywhere;
//   BestEpoch  tracks the best validation epoch (a snapshot of its parameters), counts epochs
//              without improvement for early stopping, and puts the best parameters back.
// What "better" means stays with the trainer (a lower loss; a higher exact match): it tells
// BestEpoch whether the epoch improved.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "attn/layers/parameter.hpp"

namespace attn {

class RunGuard {
 public:
  // Takes the first "last good" snapshot: the parameters the run starts from.
  explicit RunGuard(const ParameterList& params);

  // Before the optimiser touches the parameters: remember the ones about to be used.
  void before_step(const ParameterList& params) { take_snapshot(params, before_step_); }
  // The step's loss and gradients were finite: its starting parameters become the last good ones
  // (the two snapshots are swapped, nothing is reallocated).
  void step_succeeded() { std::swap(last_good_, before_step_); }
  // Puts the last good parameters back.
  void restore(const ParameterList& params) const { restore_snapshot(params, last_good_); }

  // The one wording of a divergence: "training diverged at epoch E, step S (<what>); the
  // parameters of the last step with a finite loss were restored. Try a lower learning rate
  // (now <lr>) or clip_norm > 0". epoch and step are 0-based (printed 1-based).
  static std::string divergence_message(std::size_t epoch, std::size_t step, const std::string& what,
                                        float learning_rate);

 private:
  ParameterSnapshot last_good_, before_step_;
};

class BestEpoch {
 public:
  // patience 0: never stop early.
  explicit BestEpoch(std::size_t patience) : patience_(patience) {}

  // After validating epoch `epoch`: when `improved`, snapshots the parameters as the best and
  // resets the count; otherwise counts one more epoch without improvement. Returns true when
  // training should stop early (patience > 0 epochs in a row without improvement).
  bool judge(bool improved, std::size_t epoch, const ParameterList& params);
  // -1 until an epoch improved.
  int best_epoch() const { return best_epoch_; }
  // Puts the best epoch's parameters back; false (nothing changed) when no epoch improved.
  bool restore(const ParameterList& params) const;

 private:
  std::size_t patience_;
  std::size_t without_improvement_ = 0;
  int best_epoch_ = -1;
  ParameterSnapshot best_;
};

// Seconds on the steady clock, for the runs' timings.
using RunClock = std::chrono::steady_clock;
inline double seconds_since(RunClock::time_point start) {
  return std::chrono::duration<double>(RunClock::now() - start).count();
}
// A number as `std::ostream << value` prints it (what the configs' error messages show).
std::string number_text(double value);

}  // namespace attn
