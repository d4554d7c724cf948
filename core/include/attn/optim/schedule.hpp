// Learning-rate schedules: a linear warm-up followed by a decay, as a value type that maps a
// step number (0-based: the step about to be taken) to a learning rate.
//
//   warm-up, s < W:        lr(s) = base · s / W            (0 at s = 0, base at s = W)
//   then, with d = s − W and D = total_steps − W:
//     constant:            base
//     linear:              base + (final − base) · min(d / D, 1)
//     cosine:              final + (base − final) · ½ (1 + cos(π · min(d / D, 1)))
//     exponential:         base · γ^⌊d / every⌋          (every = 1: smooth per-step decay)
//     inverse_sqrt:        base · sqrt(W' / max(s, W')),  W' = max(W, 1)
//
// The warm-up follows Hugging Face's get_*_schedule_with_warmup (step 0 has lr 0: Adam's first
// moments are then filled before any move). inverse_sqrt is the Transformer paper's decay
// (Vaswani et al. 2017, as in fairseq): it equals base at the end of the warm-up and halves every
// time the step count quadruples. After total_steps, linear and cosine stay at `final_lr`.
//
// No tensors here: steps and learning rates are scalars.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace attn {

enum class DecayKind { constant, linear, cosine, exponential, inverse_sqrt };

// "constant", "linear", "cosine", "exponential", "inverse_sqrt".
std::string decay_kind_name(DecayKind kind);
// The inverse of decay_kind_name; anything else throws std::invalid_argument listing the valid names.
DecayKind parse_decay_kind(const std::string& name);

struct ScheduleConfig {
  float base_lr = 1e-3f;         // finite, >= 0
  std::size_t warmup_steps = 0;  // W
  DecayKind kind = DecayKind::constant;
  std::size_t total_steps = 0;  // linear, cosine: must be > warmup_steps
  float final_lr = 0.f;         // linear: the end value; cosine: the minimum. Finite, >= 0
  float gamma = 1.f;            // exponential: factor per `decay_every` steps, in (0, 1]
  std::size_t decay_every = 1;  // exponential: >= 1 (staircase when > 1)
};

class LearningRateSchedule {
 public:
  // A constant 1e-3.
  LearningRateSchedule() = default;
  // Throws std::invalid_argument naming the first bad field.
  explicit LearningRateSchedule(const ScheduleConfig& config);

  static LearningRateSchedule constant(float base_lr, std::size_t warmup_steps = 0);
  static LearningRateSchedule linear(float base_lr, std::size_t warmup_steps, std::size_t total_steps,
                                     float final_lr = 0.f);
  static LearningRateSchedule cosine(float base_lr, std::size_t warmup_steps, std::size_t total_steps,
                                     float min_lr = 0.f);
  static LearningRateSchedule exponential(float base_lr, std::size_t warmup_steps, float gamma,
                                          std::size_t decay_every = 1);
  static LearningRateSchedule inverse_sqrt(float base_lr, std::size_t warmup_steps);
  // `config` with its kind replaced by parse_decay_kind(kind_name), then validated.
  static LearningRateSchedule from_name(const std::string& kind_name, ScheduleConfig config);
  // A trainer's schedule: `kind_name` from base_lr after warmup_steps, over total_steps planned
  // steps (decaying to 0 for linear and cosine).
  static LearningRateSchedule planned(const std::string& kind_name, float base_lr, std::size_t warmup_steps,
                                      std::size_t total_steps);

  // The learning rate for step `step` (0-based).
  float at(std::size_t step) const;

  const ScheduleConfig& config() const { return config_; }

 private:
  ScheduleConfig config_;
};

}  // namespace attn
