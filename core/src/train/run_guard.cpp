#include "attn/train/run_guard.hpp"

#include <sstream>

namespace attn {

RunGuard::RunGuard(const ParameterList& params) { take_snapshot(params, last_good_); }

std::string RunGuard::divergence_message(std::size_t epoch, std::size_t step, const std::string& what,
                                         float learning_rate) {
  return "training diverged at epoch " + std::to_string(epoch + 1) + ", step " + std::to_string(step + 1) + " (" +
         what + "); the parameters of the last step with a finite loss were restored. Try a lower learning rate (now " +
         number_text(learning_rate) + ") or clip_norm > 0";
}

bool BestEpoch::judge(bool improved, std::size_t epoch, const ParameterList& params) {
  if (improved) {
    best_epoch_ = static_cast<int>(epoch);
    take_snapshot(params, best_);
    without_improvement_ = 0;
    return false;
  }
  return patience_ > 0 && ++without_improvement_ >= patience_;
}

bool BestEpoch::restore(const ParameterList& params) const {
  if (best_epoch_ < 0) return false;
  restore_snapshot(params, best_);
  return true;
}

std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace attn
