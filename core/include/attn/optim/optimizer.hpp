// The optimiser interface: `step` reads each parameter's gradient and updates its value.
//
// Optimisers keep their state (momentum, Adam moments) by SLOT: buffer k of parameter i lives at
// state().buffers[k].slots[i], index-aligned with the ParameterList passed to `step`. The state
// is created, zero-filled, on the first step; every later step must pass a list with the same
// number of parameters and the same sizes (the same model), or `step` throws ShapeError before
// touching anything. State is never keyed by address: a model rebuilt at new addresses (e.g.
// after loading a checkpoint) keeps its optimiser state, and two tensors that happen to reuse an
// address are never confused.
//
// Gradients are read, never cleared: the caller zeroes them (zero_grads) before the next
// backward pass, as the layer contract says.
//
// Shapes: a parameter is seen flat, n_i = params[i].size floats in its own row-major layout;
// state buffers mirror that (one slot of n_i floats per parameter).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/layers/parameter.hpp"

namespace attn {

// One kind of per-parameter state, e.g. Adam's "m": slots[i] has parameters[i].size floats.
struct StateBuffer {
  std::string name;
  std::vector<std::vector<float>> slots;
};

// Everything an optimiser needs to resume: its step counter and its buffers.
struct OptimizerState {
  std::uint64_t step = 0;  // steps taken so far (Adam's t)
  std::vector<StateBuffer> buffers;
};

class Optimizer {
 public:
  virtual ~Optimizer();

  // Updates every value in `params` from its gradient. Throws ShapeError when `params` does not
  // match the list of the first call (count or any size).
  virtual void step(const ParameterList& params) = 0;

  // lr must be finite and >= 0 (a schedule sets it before each step).
  void set_learning_rate(float lr);
  float learning_rate() const { return lr_; }
  std::uint64_t step_count() const { return state_.step; }

  // The state, for inspection and checkpoints. Before the first step the buffers have no slots.
  const OptimizerState& state() const { return state_; }
  // Restores a state taken from an optimiser of the same kind (same buffer names), e.g. from a
  // checkpoint. The next step then requires a list whose sizes match the slots.
  void load_state(const OptimizerState& state);
  // Forgets all state (as if freshly built, learning rate kept).
  void reset();

  const std::string& name() const { return name_; }

 protected:
  // name: "SGD", "Adam"...; buffer_names: the per-parameter buffers this optimiser keeps.
  Optimizer(std::string name, float lr, std::vector<std::string> buffer_names);

  // On the first call records the sizes of `params` and creates zeroed buffers; afterwards
  // throws ShapeError if `params` differs. Call at the top of step(), before any update.
  void prepare(const ParameterList& params);
  // Buffer k (in the order of buffer_names) of parameter i.
  float* slot(std::size_t buffer, std::size_t param) { return state_.buffers[buffer].slots[param].data(); }

  float lr_;
  OptimizerState state_;

 private:
  std::string name_;
  bool prepared_ = false;
  std::vector<std::size_t> sizes_;  // parameter sizes of the first call
};

// Throws std::invalid_argument "<who>: <what> must be <rule>, got <value>" unless ok.
void check_hyperparameter(bool ok, const std::string& who, const std::string& what, const std::string& rule,
                          float value);

}  // namespace attn
