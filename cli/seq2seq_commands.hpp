// attn train --task dates|reverse|sort|copy|parallel, attn translate and attn eval --pairs: the
// sequence-to-sequence half of the CLI (the RNN of models/seq2seq.hpp and the Transformer of
// models/transformer_seq2seq.hpp, trained by train/seq2seq_trainer.hpp). commands.cpp owns the option
// tables and dispatches here; exit codes and error handling are the same as for sentiment.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "args.hpp"
#include "attn/models/pytorch_export.hpp"
#include "attn/train/seq2seq_session.hpp"

namespace attn::cli {

// The tasks besides sentiment.
const std::vector<std::string>& seq2seq_task_names();

// What `attn train --task <seq2seq task>` trains: the recipe (--recipe NAME, or the cli row of the
// task and --model: train/seq2seq_recipes.hpp) with every flag of the session's schema applied,
// checked and finished. Throws UsageError for a flag the run does not read (and the schema's
// std::invalid_argument for a bad value).
struct Seq2SeqTrainSettings {
  std::string recipe;
  Seq2SeqSessionConfig config;
};
Seq2SeqTrainSettings seq2seq_train_settings(const Args& args);
// Whether a run of `c` reads the session setting `field` (--min-len: the digit tasks; --heads: the
// Transformer; ...): `attn train` refuses a flag none of whose fields it reads.
bool seq2seq_setting_read(const std::string& field, const Seq2SeqSessionConfig& c);
// The --model name of what `c` trains: seq2seq-attention, seq2seq (no attention) or transformer-seq2seq.
std::string seq2seq_cli_model_name(const Seq2SeqSessionConfig& c);

int seq2seq_train_command(const Args& args, std::ostream& out, std::ostream& err);
int translate_command(const Args& args, std::ostream& out, std::ostream& err);
// attn eval --model-file M --pairs FILE: a seq2seq model (either kind) scored on sentence pairs.
int seq2seq_eval_command(const Args& args, std::ostream& out, std::ostream& err);
// attn export --format pytorch of a seq2seq model file's bytes (either kind; pytorch_export.hpp).
std::vector<ExportedFile> export_translator_pytorch(const std::vector<std::uint8_t>& model_file);

}  // namespace attn::cli
