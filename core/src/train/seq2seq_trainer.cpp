#include "attn/train/seq2seq_trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>

#include "attn/optim/adam.hpp"
#include "attn/optim/clip.hpp"

namespace attn {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

[[noreturn]] void fail_config(const char* field, const char* rule, const std::string& value) {
  throw std::invalid_argument(std::string("Seq2SeqTrainerConfig: ") + field + " must be " + rule + ", got " + value);
}

// rows[indices] -> [B, max(1, longest)] padded 'post' with PAD.
void gather(const Sequences& rows, const std::size_t* indices, std::size_t count, TokenIds& out) {
  std::size_t width = 1;
  for (std::size_t i = 0; i < count; ++i) width = std::max(width, rows[indices[i]].size());
  ensure_shape(out, std::array<std::size_t, 2>{count, width});
  std::fill(out.begin(), out.end(), kPadId);
  for (std::size_t i = 0; i < count; ++i) {
    const std::vector<int>& row = rows[indices[i]];
    std::copy(row.begin(), row.end(), out.data() + i * width);
  }
}

void check_data(const Seq2SeqModel& model, const Sequences& sources, const Sequences& targets, const char* which) {
  if (sources.size() != targets.size()) {
    throw std::invalid_argument(std::string("train_seq2seq: ") + which + " set has " + std::to_string(sources.size()) +
                                " sources but " + std::to_string(targets.size()) + " targets");
  }
  const auto vs = static_cast<int>(model.config().source_vocab), vt = static_cast<int>(model.config().target_vocab);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    for (int id : sources[i]) {
      if (id < 0 || id >= vs) {
        throw std::invalid_argument(std::string("train_seq2seq: ") + which + " source " + std::to_string(i) +
                                    " holds id " + std::to_string(id) + ", outside [0, " + std::to_string(vs) + ")");
      }
    }
    const std::vector<int>& t = targets[i];
    if (t.size() < 2 || t.front() != kBosId || t.back() != kEosId) {
      throw std::invalid_argument(std::string("train_seq2seq: ") + which + " target " + std::to_string(i) +
                                  " must be BOS y1 .. yn EOS (ids 1 ... 2)");
    }
    for (int id : t) {
      if (id < 0 || id >= vt) {
        throw std::invalid_argument(std::string("train_seq2seq: ") + which + " target " + std::to_string(i) +
                                    " holds id " + std::to_string(id) + ", outside [0, " + std::to_string(vt) + ")");
      }
    }
  }
}

// Shuffled batches of similar source length: shuffle, sort windows of `window` batches by
// length, cut them into batches, shuffle the batch order.
std::vector<std::vector<std::size_t>> epoch_batches(const Sequences& sources, std::size_t batch, std::size_t window,
                                                    Rng& rng) {
  const std::size_t n = sources.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(static_cast<std::uint32_t>(i))]);
  const std::size_t span = batch * window;
  for (std::size_t begin = 0; window > 1 && begin < n; begin += span) {
    const auto first = order.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last = order.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + span));
    std::stable_sort(first, last, [&](std::size_t a, std::size_t b) { return sources[a].size() < sources[b].size(); });
  }
  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t begin = 0; begin < n; begin += batch) {
    batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(begin),
                         order.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + batch)));
  }
  for (std::size_t i = batches.size(); i > 1; --i) {
    std::swap(batches[i - 1], batches[rng.below(static_cast<std::uint32_t>(i))]);
  }
  return batches;
}

using Snapshot = std::vector<std::vector<float>>;

void take_snapshot(const ParameterList& params, Snapshot& into) {
  into.resize(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) into[i].assign(params[i].value, params[i].value + params[i].size);
}

void restore_snapshot(const ParameterList& params, const Snapshot& from) {
  for (std::size_t i = 0; i < params.size(); ++i) std::copy(from[i].begin(), from[i].end(), params[i].value);
}

// Teacher-forced mean token loss over a whole set (weighted by each batch's token count).
double dataset_loss(Seq2SeqModel& model, const Sequences& sources, const Sequences& targets, std::size_t batch) {
  TokenIds src, tgt;
  std::vector<std::size_t> indices(sources.size());
  std::iota(indices.begin(), indices.end(), 0);
  double sum = 0;
  std::size_t tokens = 0;
  for (std::size_t begin = 0; begin < sources.size(); begin += batch) {
    const std::size_t count = std::min(batch, sources.size() - begin);
    gather(sources, indices.data() + begin, count, src);
    gather(targets, indices.data() + begin, count, tgt);
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i) n += targets[begin + i].size() - 1;
    sum += static_cast<double>(model.loss(src, tgt)) * static_cast<double>(n);
    tokens += n;
  }
  return tokens > 0 ? sum / static_cast<double>(tokens) : 0.0;
}

// (exact match, token accuracy, −loss), compared lexicographically.
bool better(const Seq2SeqEpochProgress& a, const Seq2SeqEpochProgress& best) {
  if (a.validation.exact_match != best.validation.exact_match) return a.validation.exact_match > best.validation.exact_match;
  if (a.validation.token_accuracy != best.validation.token_accuracy) {
    return a.validation.token_accuracy > best.validation.token_accuracy;
  }
  return a.validation_loss < best.validation_loss;
}

}  // namespace

void Seq2SeqTrainerConfig::validate() const {
  if (epochs == 0) fail_config("epochs", ">= 1", "0");
  if (batch == 0) fail_config("batch", ">= 1", "0");
  if (!(std::isfinite(learning_rate) && learning_rate > 0.f)) {
    fail_config("learning_rate", "finite and > 0", number_text(learning_rate));
  }
  if (!std::isfinite(clip_norm)) fail_config("clip_norm", "finite (<= 0 disables clipping)", number_text(clip_norm));
  if (!(teacher_forcing_start >= 0.f && teacher_forcing_start <= 1.f)) {
    fail_config("teacher_forcing_start", "in [0, 1]", number_text(teacher_forcing_start));
  }
  if (!(teacher_forcing_end >= 0.f && teacher_forcing_end <= 1.f)) {
    fail_config("teacher_forcing_end", "in [0, 1]", number_text(teacher_forcing_end));
  }
  if (!(validation_split >= 0.f && validation_split < 1.f)) {
    fail_config("validation_split", "in [0, 1)", number_text(validation_split));
  }
  if (bucket_window == 0) fail_config("bucket_window", ">= 1", "0");
}

float Seq2SeqTrainerConfig::teacher_forcing_at(std::size_t epoch) const {
  if (epochs <= 1) return teacher_forcing_start;
  const float f = static_cast<float>(std::min(epoch, epochs - 1)) / static_cast<float>(epochs - 1);
  return teacher_forcing_start + (teacher_forcing_end - teacher_forcing_start) * f;
}

Seq2SeqMetrics evaluate_seq2seq(const Seq2SeqModel& model, const Sequences& sources, const Sequences& targets,
                                std::size_t max_len, std::size_t batch) {
  if (sources.size() != targets.size()) {
    throw std::invalid_argument("evaluate_seq2seq: " + std::to_string(sources.size()) + " sources but " +
                                std::to_string(targets.size()) + " targets");
  }
  if (batch == 0) throw std::invalid_argument("evaluate_seq2seq: batch must be >= 1, got 0");
  // Decode in order of source length so each batch pads little.
  std::vector<std::size_t> order(sources.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sources[a].size() < sources[b].size(); });
  Seq2SeqMetrics m;
  std::map<std::size_t, Seq2SeqLengthMetrics> by_length;
  std::size_t exact = 0, hits = 0, positions = 0;
  TokenIds src;
  for (std::size_t begin = 0; begin < order.size(); begin += batch) {
    const std::size_t count = std::min(batch, order.size() - begin);
    gather(sources, order.data() + begin, count, src);
    const std::vector<Decoded> decoded = model.greedy_batch(src, max_len);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t index = order[begin + i];
      const std::vector<int>& gold = targets[index];  // BOS y EOS
      const std::vector<int> want(gold.begin() + 1, gold.end() - (gold.size() >= 2 && gold.back() == kEosId ? 1 : 0));
      std::vector<int> got = decoded[i].tokens;
      const bool same = got == want;
      exact += same ? 1 : 0;
      if (decoded[i].finished) got.push_back(kEosId);
      // y1 .. yn EOS against the decoded tokens (+ EOS), position by position.
      for (std::size_t p = 1; p < gold.size(); ++p) hits += (p - 1 < got.size() && got[p - 1] == gold[p]) ? 1 : 0;
      positions += gold.size() - 1;
      Seq2SeqLengthMetrics& l = by_length[sources[index].size()];
      l.source_length = sources[index].size();
      ++l.count;
      l.exact += same ? 1 : 0;
    }
  }
  m.count = sources.size();
  m.exact_match = m.count > 0 ? static_cast<double>(exact) / static_cast<double>(m.count) : 0.0;
  m.token_accuracy = positions > 0 ? static_cast<double>(hits) / static_cast<double>(positions) : 0.0;
  for (const auto& entry : by_length) m.by_source_length.push_back(entry.second);
  return m;
}

Seq2SeqHistory train_seq2seq(Seq2SeqModel& model, const Sequences& sources, const Sequences& targets,
                             const Seq2SeqTrainerConfig& config, const Seq2SeqCallbacks& callbacks) {
  config.validate();
  if (sources.size() != targets.size()) check_data(model, sources, targets, "training");
  // Seeded split: the last round(share · N) of a shuffled order are held out.
  const std::size_t n = sources.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  Rng rng(config.seed, 0x5011);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(static_cast<std::uint32_t>(i))]);
  const auto held = static_cast<std::size_t>(std::lround(static_cast<double>(config.validation_split) * n));
  std::vector<std::size_t> train_idx(order.begin(), order.end() - static_cast<std::ptrdiff_t>(held));
  std::vector<std::size_t> val_idx(order.end() - static_cast<std::ptrdiff_t>(held), order.end());
  std::sort(train_idx.begin(), train_idx.end());
  std::sort(val_idx.begin(), val_idx.end());
  Sequences ts, tt, vs, vt;
  for (std::size_t i : train_idx) {
    ts.push_back(sources[i]);
    tt.push_back(targets[i]);
  }
  for (std::size_t i : val_idx) {
    vs.push_back(sources[i]);
    vt.push_back(targets[i]);
  }
  return train_seq2seq(model, ts, tt, vs, vt, config, callbacks);
}

Seq2SeqHistory train_seq2seq(Seq2SeqModel& model, const Sequences& sources, const Sequences& targets,
                             const Sequences& validation_sources, const Sequences& validation_targets,
                             const Seq2SeqTrainerConfig& config, const Seq2SeqCallbacks& callbacks) {
  config.validate();
  check_data(model, sources, targets, "training");
  check_data(model, validation_sources, validation_targets, "validation");
  if (sources.empty()) throw std::invalid_argument("train_seq2seq: the training set is empty");
  const ParameterList& params = model.parameters();
  std::size_t max_decode = config.max_decode_len;
  if (max_decode == 0) {
    for (const auto& t : validation_targets) max_decode = std::max(max_decode, t.size());  // n + 2 = |BOS y EOS|
  }

  Adam optimizer(config.learning_rate);
  Rng order_rng(config.seed, 0x0de5);
  Rng forcing_rng(config.seed, 0xf0ce);
  TokenIds src, tgt;
  Snapshot last_good, before_step, best;
  take_snapshot(params, last_good);

  Seq2SeqHistory history;
  history.train_examples = sources.size();
  history.validation_examples = validation_sources.size();
  Seq2SeqEpochProgress best_progress;
  std::size_t epochs_without_improvement = 0, examples_seen = 0;
  const Clock::time_point start = Clock::now();

  auto diverged = [&](std::size_t epoch, const std::string& what) {
    restore_snapshot(params, last_good);
    throw std::runtime_error("training diverged at epoch " + std::to_string(epoch + 1) + ", step " +
                             std::to_string(history.steps + 1) + " (" + what +
                             "); the parameters of the last step with a finite loss were restored. Try a lower "
                             "learning rate (now " + number_text(config.learning_rate) + ") or clip_norm > 0");
  };

  for (std::size_t epoch = 0; epoch < config.epochs && !history.cancelled; ++epoch) {
    const Clock::time_point epoch_start = Clock::now();
    const float ratio = config.teacher_forcing_at(epoch);
    const auto batches = epoch_batches(sources, config.batch, config.bucket_window, order_rng);
    double loss_sum = 0;
    std::size_t tokens = 0;
    for (const std::vector<std::size_t>& indices : batches) {
      gather(sources, indices.data(), indices.size(), src);
      gather(targets, indices.data(), indices.size(), tgt);
      take_snapshot(params, before_step);
      zero_grads(params);
      float loss = 0;
      try {
        loss = model.train_batch(src, tgt, ratio, forcing_rng);
      } catch (const ShapeError&) {
        throw;
      } catch (const std::exception& e) {
        diverged(epoch, e.what());
      }
      if (!std::isfinite(loss)) diverged(epoch, "the loss is " + number_text(loss));
      const float norm = config.clip_norm > 0 ? clip_grad_norm(params, config.clip_norm)
                                              : static_cast<float>(grad_norm(params));
      if (!std::isfinite(norm)) diverged(epoch, "the gradient norm is " + number_text(norm));
      optimizer.step(params);
      std::swap(last_good, before_step);
      ++history.steps;
      std::size_t count = 0;
      for (std::size_t i : indices) count += targets[i].size() - 1;
      loss_sum += static_cast<double>(loss) * static_cast<double>(count);
      tokens += count;
      examples_seen += indices.size();
      if (callbacks.on_step) {
        Seq2SeqStepProgress p;
        p.step = history.steps;
        p.epoch = epoch;
        p.loss = loss;
        p.elapsed = seconds_since(start);
        p.examples_per_second = p.elapsed > 0 ? static_cast<double>(examples_seen) / p.elapsed : 0.0;
        if (!callbacks.on_step(p)) {
          history.cancelled = true;
          break;
        }
      }
    }
    if (history.cancelled) break;

    Seq2SeqEpochProgress progress;
    progress.epoch = epoch;
    progress.teacher_forcing = ratio;
    progress.train_loss = tokens > 0 ? loss_sum / static_cast<double>(tokens) : 0.0;
    bool stop = false;
    if (!validation_sources.empty()) {
      progress.has_validation = true;
      progress.validation_loss = dataset_loss(model, validation_sources, validation_targets, 256);
      if (!std::isfinite(progress.validation_loss)) diverged(epoch, "the validation loss is not finite");
      progress.validation = evaluate_seq2seq(model, validation_sources, validation_targets, max_decode);
      if (history.best_epoch < 0 || better(progress, best_progress)) {
        best_progress = progress;
        history.best_epoch = static_cast<int>(epoch);
        take_snapshot(params, best);
        epochs_without_improvement = 0;
      } else if (config.early_stopping_patience > 0 &&
                 ++epochs_without_improvement >= config.early_stopping_patience) {
        history.early_stopped = true;
        stop = true;
      }
    }
    progress.seconds = seconds_since(epoch_start);
    history.epochs.push_back(progress);
    if (callbacks.on_epoch && !callbacks.on_epoch(progress)) history.cancelled = true;
    if (stop) break;
  }
  if (history.best_epoch >= 0) restore_snapshot(params, best);
  history.seconds = seconds_since(start);
  return history;
}

}  // namespace attn
