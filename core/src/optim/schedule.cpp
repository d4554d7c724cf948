#include "attn/optim/schedule.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/optim/optimizer.hpp"

namespace attn {
namespace {
constexpr DecayKind kAllKinds[] = {DecayKind::constant, DecayKind::linear, DecayKind::cosine, DecayKind::exponential,
                                   DecayKind::inverse_sqrt};
constexpr double kPi = 3.14159265358979323846;
}  // namespace

std::string decay_kind_name(DecayKind kind) {
  switch (kind) {
    case DecayKind::constant:
      return "constant";
    case DecayKind::linear:
      return "linear";
    case DecayKind::cosine:
      return "cosine";
    case DecayKind::exponential:
      return "exponential";
    case DecayKind::inverse_sqrt:
      return "inverse_sqrt";
  }
  return "unknown";
}

DecayKind parse_decay_kind(const std::string& name) {
  std::string valid;
  for (DecayKind kind : kAllKinds) {
    if (name == decay_kind_name(kind)) return kind;
    valid += (valid.empty() ? "" : ", ") + decay_kind_name(kind);
  }
  throw std::invalid_argument("learning-rate schedule: unknown decay '" + name + "'; expected one of " + valid);
}

LearningRateSchedule::LearningRateSchedule(const ScheduleConfig& config) : config_(config) {
  const std::string who = "learning-rate schedule (" + decay_kind_name(config.kind) + ")";
  check_hyperparameter(std::isfinite(config.base_lr) && config.base_lr >= 0.f, who, "base_lr", "finite and >= 0",
                       config.base_lr);
  check_hyperparameter(std::isfinite(config.final_lr) && config.final_lr >= 0.f, who, "final_lr", "finite and >= 0",
                       config.final_lr);
  if (config.kind == DecayKind::linear || config.kind == DecayKind::cosine) {
    if (config.total_steps <= config.warmup_steps) {
      throw std::invalid_argument(who + ": total_steps (" + std::to_string(config.total_steps) +
                                  ") must be greater than warmup_steps (" + std::to_string(config.warmup_steps) + ")");
    }
  }
  if (config.kind == DecayKind::exponential) {
    check_hyperparameter(config.gamma > 0.f && config.gamma <= 1.f, who, "gamma", "in (0, 1]", config.gamma);
    if (config.decay_every == 0) throw std::invalid_argument(who + ": decay_every must be >= 1, got 0");
  }
}

LearningRateSchedule LearningRateSchedule::constant(float base_lr, std::size_t warmup_steps) {
  ScheduleConfig c;
  c.base_lr = base_lr;
  c.warmup_steps = warmup_steps;
  return LearningRateSchedule(c);
}

LearningRateSchedule LearningRateSchedule::linear(float base_lr, std::size_t warmup_steps, std::size_t total_steps,
                                                  float final_lr) {
  ScheduleConfig c;
  c.base_lr = base_lr;
  c.warmup_steps = warmup_steps;
  c.kind = DecayKind::linear;
  c.total_steps = total_steps;
  c.final_lr = final_lr;
  return LearningRateSchedule(c);
}

LearningRateSchedule LearningRateSchedule::cosine(float base_lr, std::size_t warmup_steps, std::size_t total_steps,
                                                  float min_lr) {
  ScheduleConfig c;
  c.base_lr = base_lr;
  c.warmup_steps = warmup_steps;
  c.kind = DecayKind::cosine;
  c.total_steps = total_steps;
  c.final_lr = min_lr;
  return LearningRateSchedule(c);
}

LearningRateSchedule LearningRateSchedule::exponential(float base_lr, std::size_t warmup_steps, float gamma,
                                                       std::size_t decay_every) {
  ScheduleConfig c;
  c.base_lr = base_lr;
  c.warmup_steps = warmup_steps;
  c.kind = DecayKind::exponential;
  c.gamma = gamma;
  c.decay_every = decay_every;
  return LearningRateSchedule(c);
}

LearningRateSchedule LearningRateSchedule::inverse_sqrt(float base_lr, std::size_t warmup_steps) {
  ScheduleConfig c;
  c.base_lr = base_lr;
  c.warmup_steps = warmup_steps;
  c.kind = DecayKind::inverse_sqrt;
  return LearningRateSchedule(c);
}

LearningRateSchedule LearningRateSchedule::from_name(const std::string& kind_name, ScheduleConfig config) {
  config.kind = parse_decay_kind(kind_name);
  return LearningRateSchedule(config);
}

LearningRateSchedule LearningRateSchedule::planned(const std::string& kind_name, float base_lr,
                                                   std::size_t warmup_steps, std::size_t total_steps) {
  ScheduleConfig c;
  c.base_lr = base_lr;
  c.warmup_steps = warmup_steps;
  c.total_steps = total_steps;
  return from_name(kind_name, c);
}

float LearningRateSchedule::at(std::size_t step) const {
  const ScheduleConfig& c = config_;
  const double base = c.base_lr;
  const double s = static_cast<double>(step);
  const double warmup = static_cast<double>(c.warmup_steps);
  if (step < c.warmup_steps) return static_cast<float>(base * s / warmup);
  const double d = s - warmup;
  switch (c.kind) {
    case DecayKind::constant:
      return c.base_lr;
    case DecayKind::linear: {
      const double progress = std::min(d / static_cast<double>(c.total_steps - c.warmup_steps), 1.0);
      return static_cast<float>(base + (c.final_lr - base) * progress);
    }
    case DecayKind::cosine: {
      const double progress = std::min(d / static_cast<double>(c.total_steps - c.warmup_steps), 1.0);
      return static_cast<float>(c.final_lr + (base - c.final_lr) * 0.5 * (1.0 + std::cos(kPi * progress)));
    }
    case DecayKind::exponential: {
      const double periods = static_cast<double>((step - c.warmup_steps) / c.decay_every);
      return static_cast<float>(base * std::pow(static_cast<double>(c.gamma), periods));
    }
    case DecayKind::inverse_sqrt: {
      const double w = std::max(warmup, 1.0);
      return static_cast<float>(base * std::sqrt(w / std::max(s, w)));
    }
  }
  return c.base_lr;
}

}  // namespace attn
