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

namespace attn::cli {

// The tasks besides sentiment, and the train options that only they read.
const std::vector<std::string>& seq2seq_task_names();
const std::vector<std::string>& seq2seq_only_options();

int seq2seq_train_command(const Args& args, std::ostream& out, std::ostream& err);
int translate_command(const Args& args, std::ostream& out, std::ostream& err);
// attn eval --model-file M --pairs FILE: a seq2seq model (either kind) scored on sentence pairs.
int seq2seq_eval_command(const Args& args, std::ostream& out, std::ostream& err);
// attn export --format pytorch of a seq2seq model file's bytes (either kind; pytorch_export.hpp).
std::vector<ExportedFile> export_translator_pytorch(const std::vector<std::uint8_t>& model_file);

}  // namespace attn::cli
