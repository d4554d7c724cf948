#include "attn/optim/optimizer.hpp"

#include <cmath>
#include <sstream>

namespace attn {

void check_hyperparameter(bool ok, const std::string& who, const std::string& what, const std::string& rule,
                          float value) {
  if (ok) return;
  std::ostringstream message;
  message << who << ": " << what << " must be " << rule << ", got " << value;
  throw std::invalid_argument(message.str());
}

Optimizer::Optimizer(std::string name, float lr, std::vector<std::string> buffer_names)
    : lr_(0.f), name_(std::move(name)) {
  set_learning_rate(lr);
  for (std::string& buffer : buffer_names) state_.buffers.push_back({std::move(buffer), {}});
}

Optimizer::~Optimizer() = default;

void Optimizer::set_learning_rate(float lr) {
  check_hyperparameter(std::isfinite(lr) && lr >= 0.f, name_, "learning rate", "finite and >= 0", lr);
  lr_ = lr;
}

void Optimizer::reset() {
  prepared_ = false;
  sizes_.clear();
  state_.step = 0;
  for (StateBuffer& buffer : state_.buffers) buffer.slots.clear();
}

void Optimizer::prepare(const ParameterList& params) {
  const std::string where = name_ + ".step";
  if (!prepared_) {
    sizes_.clear();
    for (const Parameter& p : params) sizes_.push_back(p.size);
    for (StateBuffer& buffer : state_.buffers) {
      buffer.slots.clear();
      for (const Parameter& p : params) buffer.slots.emplace_back(p.size, 0.f);
    }
    prepared_ = true;
    return;
  }
  ATTN_REQUIRE(params.size() == sizes_.size(), where,
               "got " + std::to_string(params.size()) + " parameters but the optimiser state was created for " +
                   std::to_string(sizes_.size()) + "; an optimiser belongs to one model");
  for (std::size_t i = 0; i < params.size(); ++i) {
    ATTN_REQUIRE(params[i].size == sizes_[i], where,
                 "parameter " + std::to_string(i) + " ('" + params[i].name + "') has " +
                     std::to_string(params[i].size) + " values but the optimiser state was created for " +
                     std::to_string(sizes_[i]) + "; an optimiser belongs to one model");
  }
}

void Optimizer::load_state(const OptimizerState& state) {
  const std::string where = name_ + ".load_state";
  ATTN_REQUIRE(state.buffers.size() == state_.buffers.size(), where,
               "the state has " + std::to_string(state.buffers.size()) + " buffers but " + name_ + " keeps " +
                   std::to_string(state_.buffers.size()));
  for (std::size_t k = 0; k < state.buffers.size(); ++k) {
    ATTN_REQUIRE(state.buffers[k].name == state_.buffers[k].name, where,
                 "buffer " + std::to_string(k) + " is '" + state.buffers[k].name + "' but " + name_ + " expects '" +
                     state_.buffers[k].name + "'");
  }
  // All buffers must describe the same parameter list; an empty one means "not started".
  std::vector<std::size_t> sizes;
  if (!state.buffers.empty()) {
    for (const auto& slot : state.buffers[0].slots) sizes.push_back(slot.size());
    for (const StateBuffer& buffer : state.buffers) {
      bool same = buffer.slots.size() == sizes.size();
      for (std::size_t i = 0; same && i < sizes.size(); ++i) same = buffer.slots[i].size() == sizes[i];
      ATTN_REQUIRE(
          same, where,
          "buffer '" + buffer.name + "' does not have the same slot sizes as buffer '" + state.buffers[0].name + "'");
    }
  }
  state_ = state;
  sizes_ = sizes;
  // Optimisers without buffers (plain SGD) have nothing to check against: they re-learn the
  // sizes on the next step.
  prepared_ = !state.buffers.empty() && !state.buffers[0].slots.empty();
}

}  // namespace attn
