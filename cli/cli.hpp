// The `attn` command-line tool, as a function so tests can run it in-process.
//   attn train   --task sentiment --data PATH [--test PATH] --model bilstm-attention|transformer|bilstm|bow ...
//   attn cv      --data PATH --folds K [--seeds N] <train's sentiment options>   (training half only)
//   attn eval    --model-file FILE --data PATH [--json]
//   attn predict --model-file FILE --text "..." [--json]
//   attn train   --task dates|reverse|sort|copy|parallel --model seq2seq-attention|seq2seq ...
//   attn translate --model-file FILE --text "..." [--beam K] [--json]
//   attn export  --model-file FILE --format pytorch --out DIR
// Exit codes: 0 success, 1 the work failed (bad data, unreadable file, diverged training),
// 2 bad arguments (with the usage text on `err`).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace attn::cli {

// `arguments` excludes the program name: {"train", "--data", "builtin", ...}.
int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// What `attn train <arguments>` (sentiment) would train: the model's recipe with every flag
// applied, as the engine's JSON of the two settings structs (SentimentModelConfig, TrainerConfig;
// every field). Throws UsageError / std::invalid_argument as `attn train` reports them. The
// --json "settings" line of `attn train` prints the same two objects.
struct TrainSettingsJson {
  std::string model, trainer;
};
TrainSettingsJson sentiment_train_settings(const std::vector<std::string>& arguments);

// What `attn train --task <seq2seq task> ... <arguments>` would train: the recipe with every flag
// applied, as the JSON of Seq2SeqSessionConfig (seq2seq_session_settings(), every field) — what
// `--print-settings` prints besides "event" and "recipe".
std::string seq2seq_train_settings_json(const std::vector<std::string>& arguments);

}  // namespace attn::cli
