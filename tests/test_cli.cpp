// The `attn` command line, run in-process through attn::cli::run (the binary's main calls it).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "attn/io/flat_json.hpp"
#include "attn/text/mt_tokenizer.hpp"
#include "attn/train/recipes.hpp"
#include "attn/train/seq2seq_recipes.hpp"
#include "cli.hpp"
#include "support/processes.hpp"

namespace {

using Result = attn::test::CliResult;
using attn::test::run_attn;

// One --json line parsed as flat JSON.
attn::FlatJson json_line(const std::string& last) {
  // Arrays (confusion, tokens) are output-only: drop them before parsing the flat remainder.
  std::string flat;
  int depth = 0;
  for (std::size_t i = 0; i < last.size(); ++i) {
    if (last[i] == '[') {
      ++depth;
      flat += "0";
    }
    if (depth == 0) flat += last[i];
    if (last[i] == ']') --depth;
  }
  return attn::FlatJson::parse(flat);
}

// The last line of `text` parsed as flat JSON (the --json "done" line).
attn::FlatJson last_json_line(const std::string& text) {
  std::istringstream lines(text);
  std::string line, last;
  while (std::getline(lines, line)) {
    if (!line.empty()) last = line;
  }
  return json_line(last);
}

// The --json lines of `text` whose event is `event`.
std::vector<attn::FlatJson> json_events(const std::string& text, const std::string& event) {
  std::istringstream lines(text);
  std::vector<attn::FlatJson> out;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"event\":\"" + event + "\"") != std::string::npos) out.push_back(json_line(line));
  }
  return out;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("attn-test-cli-" + name)).string();
}

}  // namespace

TEST_CASE("cli.usage_and_argument_errors") {
  Result r = run_attn({});
  CHECK(r.code == 2);
  CHECK(r.err.find("usage: attn <command>") != std::string::npos);
  CHECK(run_attn({"--help"}).code == 0);
  r = run_attn({"fly"});
  CHECK(r.code == 2);
  CHECK(r.err.find("attn: unknown command 'fly'") != std::string::npos);
  r = run_attn({"train", "--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("--maxlen N") != std::string::npos);

  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"train"}, "attn train: missing required option --data"},
      {{"train", "--data"}, "attn train: --data needs a value (PATH)"},
      {{"train", "--data", "builtin", "--epoch", "3"}, "attn train: unknown option '--epoch' for 'attn train'"},
      {{"train", "--data", "builtin", "--epochs", "0"},
       "attn train: --epochs must be a whole number from 1 to 1000, got '0'"},
      {{"train", "--data", "builtin", "--maxlen", "0"},
       "attn train: --maxlen must be a whole number from 1 to 100000, got '0'"},
      {{"train", "--data", "builtin", "--batch", "0"},
       "attn train: --batch must be a whole number from 1 to 65536, got '0'"},
      {{"train", "--data", "builtin", "--vocab", "3"},
       "attn train: --vocab must be a whole number from 5 to 4194304, got '3'"},
      {{"train", "--data", "builtin", "--lr", "-1"}, "attn train: --lr must be a finite number > 0, got '-1'"},
      {{"train", "--data", "builtin", "--lr", "abc"}, "attn train: --lr must be a finite number > 0, got 'abc'"},
      {{"train", "--data", "builtin", "--model", "cnn"},
       "attn train: --model must be one of bilstm-attention|transformer|bilstm|ngram-attention|bow, got 'cnn'"},
      {{"train", "--data", "builtin", "--task", "poems"},
       "attn train: --task must be one of sentiment|dates|reverse|sort|copy|parallel, got 'poems'"},
      {{"train", "--data", "builtin", "--cell", "rnn"}, "attn train: --cell must be one of lstm|gru, got 'rnn'"},
      {{"train", "--data", "builtin", "--json", "yes"},
       "attn train: unexpected argument 'yes' (options start with --)"},
      {{"train", "--data", "builtin", "--seed", "1", "--seed", "2"}, "attn train: --seed is given twice"},
      {{"train", "--data", "builtin", "--model", "transformer", "--heads", "3"},
       "attn train: invalid model configuration: heads (3) must divide embed_dim (32)"},
      {{"train", "--data", "builtin", "--holdout", "0.1", "--test", "builtin"},
       "attn train: --holdout and --test exclude each other"},
      {{"train", "--data", "builtin", "--holdout", "1"},
       "attn train: --holdout must be a number greater than 0 and at most 0.9, got '1'"},
      {{"predict", "--model-file", "x.model"}, "attn predict: missing required option --text"},
      {{"eval", "--data", "builtin"}, "attn eval: missing required option --model-file"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    r = run_attn(c.args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind(c.message, 0) == 0);
  }
}

TEST_CASE("cli.data_errors_exit_1_with_the_file_and_line") {
  const std::string csv = temp_path("bad.csv");
  {
    std::ofstream f(csv);
    f << "review,sentiment\n\"a fine film\",positive\n\"dull\",maybe\n";
  }
  Result r = run_attn({"train", "--data", csv, "--model", "bow"});
  CHECK(r.code == 1);
  CHECK(r.err.find("bad.csv:3: label 'maybe' is not one of") != std::string::npos);
  r = run_attn({"train", "--data", temp_path("missing.csv"), "--model", "bow"});
  CHECK(r.code == 1);
  r = run_attn({"eval", "--model-file", temp_path("missing.model"), "--data", "builtin"});
  CHECK(r.code == 1);
  std::remove(csv.c_str());
}

TEST_CASE("cli.bow_train_save_eval_predict_on_a_csv") {
  // Quoted fields with commas, doubled quotes and a newline, as RFC 4180 allows.
  const std::string csv = temp_path("reviews.csv");
  {
    std::ofstream f(csv);
    f << "review,sentiment\n";
    for (int i = 0; i < 20; ++i) {
      f << "\"A wonderful, moving film; the \"\"best\"\" acting this year\",positive\n";
      f << "\"Dull and tedious,\nan awful waste of time\",negative\n";
    }
  }
  const std::string model = temp_path("bow.model");
  Result r = run_attn({"train", "--data", csv, "--test", csv, "--model", "bow", "--save", model, "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  attn::FlatJson done = last_json_line(r.out);
  CHECK(done.get_string("event") == "done");
  CHECK(done.get_number("test_accuracy") == 1.0);
  CHECK(done.get_number("train_seconds") >= 0.0);
  CHECK(done.get_number("params") > 0);
  r = run_attn({"eval", "--model-file", model, "--data", csv, "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(last_json_line(r.out).get_number("accuracy") == 1.0);
  r = run_attn({"predict", "--model-file", model, "--text", "an awful, tedious waste", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(last_json_line(r.out).get_string("label") == "negative");
  std::remove(csv.c_str());
  std::remove(model.c_str());
}

TEST_CASE("cli.neural_train_on_builtin_then_predict_with_attention") {
  const std::string model = temp_path("bilstm.model");
  Result r = run_attn({"train", "--data", "builtin", "--model", "bilstm-attention", "--epochs", "2", "--maxlen", "64",
                       "--embed", "16", "--units", "16", "--save", model, "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("\"event\":\"epoch\"") != std::string::npos);
  attn::FlatJson done = last_json_line(r.out);
  CHECK(done.get_number("train_examples") == 528);
  CHECK(done.get_number("test_examples") == 132);
  CHECK(done.get_number("test_accuracy") >= 0.0);
  CHECK(done.get_number("test_accuracy") <= 1.0);
  r = run_attn({"predict", "--model-file", model, "--text", "A warm, funny and beautifully acted film.", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("\"attention\":[") != std::string::npos);
  CHECK(r.out.find("\"tokens\":[\"<start>\",\"a\",\"warm\"") != std::string::npos);
  r = run_attn({"predict", "--model-file", model, "--text", "Not good."});
  CHECK(r.code == 0);
  CHECK(r.out.find("attention:") != std::string::npos);
  std::remove(model.c_str());
}

TEST_CASE("cli.export_pytorch_writes_three_files_and_refuses_bow") {
  // The numbers model.py computes are checked against the engine in tests/pytorch/check_export.py.
  const std::string model = temp_path("export.model");
  const std::string dir = temp_path("export-dir");
  std::filesystem::remove_all(dir);
  Result r = run_attn({"train", "--data", "builtin", "--model", "bilstm-attention", "--cell", "gru", "--epochs", "1",
                       "--embed", "8", "--units", "4", "--vocab", "100", "--save", model});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  r = run_attn({"export", "--model-file", model, "--format", "pytorch", "--out", dir});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  for (const char* name : {"model.safetensors", "vocab.json", "model.py"}) {
    CHECK_MESSAGE(std::filesystem::file_size(std::filesystem::path(dir) / name) > 100, name);
  }
  std::ifstream weights(std::filesystem::path(dir) / "model.safetensors", std::ios::binary);
  const std::string head((std::istreambuf_iterator<char>(weights)), std::istreambuf_iterator<char>());
  CHECK(head.find("\"encoder\":\"bigru\"") != std::string::npos);
  CHECK(head.find("\"rnn.weight_ih_l0_reverse\":{\"dtype\":\"F32\",\"shape\":[12,8]") != std::string::npos);

  r = run_attn({"export", "--model-file", model, "--format", "onnx", "--out", dir});
  CHECK(r.code == 2);
  CHECK(r.err.find("pytorch") != std::string::npos);
  const std::string bow = temp_path("export-bow.model");
  REQUIRE(run_attn({"train", "--data", "builtin", "--model", "bow", "--epochs", "1", "--save", bow}).code == 0);
  r = run_attn({"export", "--model-file", bow, "--format", "pytorch", "--out", dir});
  CHECK(r.code == 2);
  CHECK(r.err.find("bag-of-n-grams model has no PyTorch export") != std::string::npos);
  std::filesystem::remove_all(dir);
  std::remove(model.c_str());
  std::remove(bow.c_str());
}

TEST_CASE("cli.holdout_takes_a_stratified_share_of_the_training_data") {
  const Result r = run_attn({"train", "--data", "builtin", "--model", "bow", "--holdout", "0.25", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  // 528 training reviews, 264 per class: round(0.25 · 264) = 66 of each are held out.
  const attn::FlatJson done = last_json_line(r.out);
  CHECK(done.get_number("train_examples") == 396);
  CHECK(r.out.find("\"test_examples\":132") != std::string::npos);
}

TEST_CASE("cli.seq2seq_argument_errors") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"train", "--task", "poems"},
       "attn train: --task must be one of sentiment|dates|reverse|sort|copy|parallel, got 'poems'"},
      {{"train", "--task", "reverse", "--attention", "bahdanau", "--score", "dot"},
       "attn train: Seq2SeqConfig: attention 'bahdanau' scores with the previous decoder state through an additive "
       "layer, so "
       "score must be 'additive', got 'dot'"},
      {{"train", "--task", "dates", "--attention", "luong", "--score", "additive"},
       "attn train: Seq2SeqConfig: attention 'luong' supports score dot, scaled_dot, general, concat or location, got "
       "'additive'"},
      {{"train", "--task", "reverse", "--score", "scaled"},
       "attn train: --score must be one of auto|dot|scaled_dot|general|additive|concat|location|cosine, got 'scaled'"},
      {{"train", "--task", "dates", "--score", "cosine"},
       "attn train: Seq2SeqConfig: attention 'luong' supports score dot, scaled_dot, general, concat or location, got "
       "'cosine'"},
      {{"train", "--task", "reverse", "--recipe", "dates-page"},
       "attn train: --recipe dates-page trains task dates, not reverse"},
      {{"train", "--recipe", "reverse-page", "--model", "seq2seq"},
       "attn train: --recipe names the model too: pass --recipe or --model, not both"},
      {{"train", "--recipe", "poems"}, "attn train: no seq2seq recipe 'poems' (known: reverse, reverse-rnnenc,"},
      {{"train", "--task", "reverse", "--attention", "none"},
       "attn train: --attention none is --model seq2seq (no attention)"},
      {{"train", "--task", "sentiment", "--data", "builtin", "--recipe", "reverse"},
       "attn train: --recipe applies to the seq2seq tasks (dates, reverse, sort, copy, parallel) only"},
      {{"train", "--task", "reverse", "--model", "seq2seq", "--attention", "luong"},
       "attn train: --attention, --score and --attention-dim need --model seq2seq-attention"},
      {{"train", "--task", "reverse", "--model", "bilstm"},
       "attn train: --model must be one of seq2seq-attention|seq2seq|transformer-seq2seq, got 'bilstm'"},
      {{"train", "--task", "reverse", "--heads", "2"},
       "attn train: --heads applies to --model transformer-seq2seq (and sentiment) only"},
      {{"train", "--task", "reverse", "--model", "transformer-seq2seq", "--units", "8"},
       "attn train: --units is the RNN's; --model transformer-seq2seq is sized by --embed (d_model)"},
      {{"train", "--task", "reverse", "--model", "transformer-seq2seq", "--embed", "10", "--heads", "4"},
       "attn train: TransformerSeq2SeqConfig: d_model (10) must be divisible by heads (4)"},
      {{"train", "--data", "builtin", "--label-smoothing", "0.1"},
       "attn train: --label-smoothing applies to the seq2seq tasks (dates, reverse, sort, copy, parallel) only"},
      {{"translate", "--model-file", "x.model", "--text", "1", "--input", "f.txt"},
       "attn translate: give either --text TEXT or --input FILE"},
      {{"translate", "--model-file", "x.model", "--text", "1", "--alignments"},
       "attn translate: --alignments goes with --input"},
      {{"eval", "--model-file", "x.model", "--pairs", "p.tsv", "--data", "builtin"},
       "attn eval: --pairs scores a seq2seq model; --data, --data-pos and --data-neg are for sentiment models"},
      {{"train", "--task", "parallel"}, "attn train: --task parallel needs --data PATH (source<TAB>target lines)"},
      {{"train", "--task", "dates", "--maxlen", "10"}, "attn train: --maxlen applies to --task sentiment only"},
      {{"train", "--task", "reverse", "--schedule", "steps"},
       "attn train: --schedule must be one of constant|linear|cosine|inverse_sqrt, got 'steps'"},
      {{"train", "--task", "dates", "--min-len", "3"},
       "attn train: --min-len applies to the digit tasks (reverse, sort, copy) only"},
      {{"train", "--data", "builtin", "--attention", "luong"},
       "attn train: --attention applies to the seq2seq tasks (dates, reverse, sort, copy, parallel) only"},
      {{"train", "--task", "reverse", "--min-len", "6", "--max-len", "5"},
       "attn train: Seq2SeqSessionConfig: max_len must be >= min_len (6), got 5"},
      {{"translate", "--model-file", "x.model", "--text", "123", "--beam", "0"},
       "attn translate: --beam must be a whole number from 1 to 64, got '0'"},
      {{"translate", "--model-file", "x.model"}, "attn translate: give either --text TEXT or --input FILE"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    const Result r = run_attn(c.args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind(c.message, 0) == 0);
  }
  const Result r = run_attn({"translate", "--model-file", temp_path("missing.model"), "--text", "123"});
  CHECK(r.code == 1);
}

TEST_CASE("cli.seq2seq_reverse_train_save_then_translate") {
  const std::string model = temp_path("reverse.model");
  Result r = run_attn({"train", "--task",    "reverse", "--train-size",    "600", "--test-size", "50",  "--min-len",
                       "3",     "--max-len", "5",       "--test-max-len",  "6",   "--epochs",    "2",   "--embed",
                       "8",     "--units",   "8",       "--attention-dim", "8",   "--save",      model, "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("\"event\":\"epoch\"") != std::string::npos);
  const attn::FlatJson done = last_json_line(r.out);
  CHECK(done.get_string("event") == "done");
  CHECK(done.get_string("task") == "reverse");
  CHECK(done.get_number("train_examples") == 600);
  CHECK(done.get_number("test_examples") == 50);
  CHECK(done.get_number("exact_match") >= 0.0);
  CHECK(done.get_number("exact_match") <= 1.0);
  CHECK(done.get_number("token_accuracy") >= 0.0);
  CHECK(done.get_number("params") > 0);
  CHECK(r.out.find("\"lengths\":[3,4,5,6]") != std::string::npos);  // held-out lengths 3..6
  CHECK(r.out.find("\"exact_match_by_length\":[") != std::string::npos);

  r = run_attn({"translate", "--model-file", model, "--text", "1234", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("\"source_tokens\":[\"1\",\"2\",\"3\",\"4\"]") != std::string::npos);
  CHECK(r.out.find("\"alignment\":[[") != std::string::npos);
  CHECK(last_json_line(r.out).get_string("task") == "reverse");
  r = run_attn({"translate", "--model-file", model, "--text", "1234", "--beam", "3"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("alignment (attention %, rows: output, columns: source):") != std::string::npos);
  std::remove(model.c_str());
}

TEST_CASE("cli.seq2seq_dates_done_line_reports_the_alignment_per_field") {
  const std::vector<std::string> args = {"train", "--task",          "dates", "--train-size", "300", "--test-size",
                                         "30",    "--epochs",        "1",     "--embed",      "8",   "--units",
                                         "8",     "--attention-dim", "8"};
  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  Result r = run_attn(with_json);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("\"alignment\":{\"year\":") != std::string::npos);
  CHECK(r.out.find("\"alignment_argmax\":{\"year\":") != std::string::npos);
  CHECK(r.out.find("\"alignment_examples\":") != std::string::npos);
  r = run_attn(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("alignment over ") != std::string::npos);
  CHECK(r.out.find("two-digit years are not counted (no source characters)") != std::string::npos);
}

TEST_CASE("cli.seq2seq_parallel_text_train_then_translate") {
  const std::string tsv = temp_path("pairs.tsv");
  {
    std::ofstream f(tsv);
    const char* const en[] = {"Go.",    "Hi.",    "Run!",    "Stop!",    "Wait!",
                              "I see.", "I won.", "Thanks.", "Be nice.", "Help me."};
    const char* const fr[] = {"Va !",          "Salut !",     "Cours !", "Stop !",       "Attends !",
                              "Je comprends.", "J'ai gagné.", "Merci.",  "Sois gentil.", "Aide-moi."};
    for (int copy = 0; copy < 4; ++copy) {
      for (int i = 0; i < 10; ++i) f << en[i] << "\t" << fr[i] << "\tCC-BY 2.0 (France) Attribution: tatoeba.org\n";
    }
  }
  const std::string model = temp_path("parallel.model");
  Result r = run_attn({"train",    "--task",  "parallel", "--data", tsv,       "--test-size", "5",
                       "--epochs", "1",       "--embed",  "8",      "--units", "8",           "--attention",
                       "luong",    "--score", "dot",      "--save", model,     "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const attn::FlatJson done = last_json_line(r.out);
  // --test-size 5 holds out 5 of the 10 sentences with their 4 copies each.
  CHECK(done.get_number("train_examples") == 20);
  CHECK(done.get_number("test_examples") == 20);
  CHECK(done.get_string("score") == "dot");
  CHECK(r.out.find("\"exact_match_by_length\"") == std::string::npos);  // digit tasks only
  r = run_attn({"translate", "--model-file", model, "--text", "I see!", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  // "I see!" is three word tokens (each "<unk>" when its sentence was held out).
  const std::size_t tokens = r.out.find("\"source_tokens\":[");
  REQUIRE(tokens != std::string::npos);
  const std::string list = r.out.substr(tokens, r.out.find(']', tokens) - tokens);
  CHECK(std::count(list.begin(), list.end(), ',') == 2);
  r = run_attn({"train", "--task", "parallel", "--data", temp_path("missing.tsv")});
  CHECK(r.code == 1);
  std::remove(tsv.c_str());
  std::remove(model.c_str());
}

TEST_CASE("cli.cv_trains_k_stratified_folds_of_the_training_half_and_summarises_them") {
  // 528 training reviews of the built-in corpus (never its 132 test reviews): 3 folds of 176.
  const Result r = run_attn({"cv", "--data", "builtin", "--folds", "3", "--model", "bilstm-attention", "--epochs", "1",
                             "--maxlen", "48", "--embed", "8", "--units", "8", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const std::vector<attn::FlatJson> folds = json_events(r.out, "fold");
  REQUIRE(folds.size() == 3);
  std::vector<double> accuracy;
  for (std::size_t f = 0; f < 3; ++f) {
    CHECK(folds[f].get_number("fold") == static_cast<double>(f));
    CHECK(folds[f].get_number("seed") == 1);
    CHECK(folds[f].get_number("test_examples") == 176);
    CHECK(folds[f].get_number("train_examples") == 352);
    CHECK(folds[f].get_number("best_epoch") == 1);
    accuracy.push_back(folds[f].get_number("accuracy"));
  }
  const std::vector<attn::FlatJson> summary = json_events(r.out, "summary");
  REQUIRE(summary.size() == 1);
  CHECK(summary[0].get_number("examples") == 528);
  CHECK(summary[0].get_number("runs") == 3);
  const double mean = (accuracy[0] + accuracy[1] + accuracy[2]) / 3;
  double squares = 0;
  for (const double a : accuracy) squares += (a - mean) * (a - mean);
  const double sd = std::sqrt(squares / 2);
  CHECK(summary[0].get_number("mean_accuracy") == doctest::Approx(mean).epsilon(1e-9));
  CHECK(summary[0].get_number("sd_accuracy") == doctest::Approx(sd).epsilon(1e-9));
  CHECK(summary[0].get_number("se_accuracy") == doctest::Approx(sd / std::sqrt(3.0)).epsilon(1e-9));
}

TEST_CASE("cli.cv_repeats_over_seeds_and_runs_one_fold_on_request") {
  Result r = run_attn({"cv", "--data", "builtin", "--folds", "3", "--seeds", "2", "--seed", "5", "--model", "bow",
                       "--epochs", "2", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  std::vector<attn::FlatJson> folds = json_events(r.out, "fold");
  REQUIRE(folds.size() == 6);
  CHECK(folds[0].get_number("seed") == 5);
  CHECK(folds[5].get_number("seed") == 6);
  CHECK(folds[5].get_number("fold") == 2);
  // Another seed deals other folds: the same fold index scores differently at least once.
  bool differs = false;
  for (std::size_t f = 0; f < 3; ++f) differs |= folds[f].get_number("accuracy") != folds[f + 3].get_number("accuracy");
  CHECK(differs);
  // Deterministic per seed: fold 1 of seed 6 alone scores as it did in the full run.
  r = run_attn({"cv", "--data", "builtin", "--folds", "3", "--seed", "6", "--only-fold", "1", "--model", "bow",
                "--epochs", "2", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const std::vector<attn::FlatJson> one = json_events(r.out, "fold");
  REQUIRE(one.size() == 1);
  CHECK(one[0].get_number("fold") == 1);
  CHECK(one[0].get_number("accuracy") == folds[4].get_number("accuracy"));
  CHECK(json_events(r.out, "summary")[0].get_number("sd_accuracy") == 0);
  // Text output: one line per fold and the summary.
  r = run_attn({"cv", "--data", "builtin", "--folds", "2", "--model", "bow", "--epochs", "1"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("seed 1 fold 2/2: accuracy") != std::string::npos);
  CHECK(r.out.find("(mean ± sample sd over 2 run(s)") != std::string::npos);
}

TEST_CASE("cli.cv_refuses_test_sets_and_bad_fold_counts") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"cv", "--data", "builtin", "--test", "builtin"},
       "attn cv: --test is refused: attn cv never looks at a test set"},
      {{"cv", "--data", "builtin", "--holdout", "0.1"}, "attn cv: --holdout is refused: attn cv never looks at a test"},
      {{"cv", "--data", "builtin", "--folds", "1"}, "attn cv: --folds must be a whole number from 2 to 1000, got '1'"},
      {{"cv", "--data", "builtin", "--folds", "265", "--model", "bow"},
       "attn cv: 265 folds need at least 265 examples of each class; class 0 has 264"},
      {{"cv", "--data", "builtin", "--folds", "3", "--only-fold", "3"},
       "attn cv: --only-fold must be below --folds (3), got 3"},
      {{"cv", "--data", "builtin", "--save", "m.model"}, "attn cv: unknown option '--save' for 'attn cv'"},
      {{"cv", "--folds", "3"}, "attn cv: missing required option --data"},
  };
  for (const Case& c : cases) {
    const Result r = run_attn(c.args);
    CAPTURE(c.message);
    CHECK(r.code == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(r.out.find("\"event\":\"fold\"") == std::string::npos);
  }
}

TEST_CASE("cli.sentence_files_train_with_a_holdout") {
  const std::string pos = temp_path("rt.pos"), neg = temp_path("rt.neg");
  {
    std::ofstream p(pos), n(neg);
    for (int i = 0; i < 20; ++i) {
      p << "a wonderful moving film " << i << "\n";
      n << "a dull tedious waste " << i << "\n";
    }
  }
  Result r = run_attn({"train", "--data-pos", pos, "--data-neg", neg, "--model", "bow", "--holdout", "0.25", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const attn::FlatJson done = last_json_line(r.out);
  CHECK(done.get_number("train_examples") == 30);
  CHECK(done.get_number("test_examples") == 10);
  CHECK(done.get_number("test_accuracy") == 1.0);
  const std::string model = temp_path("sentences.model");
  r = run_attn({"train", "--data-pos", pos, "--data-neg", neg, "--model", "bow", "--save", model});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.err.find("note: the two sentence files have no test half") != std::string::npos);
  r = run_attn({"eval", "--model-file", model, "--data-pos", pos, "--data-neg", neg, "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(last_json_line(r.out).get_number("examples") == 40);
  CHECK(last_json_line(r.out).get_number("accuracy") == 1.0);
  r = run_attn({"eval", "--model-file", model});
  CHECK(r.code == 2);
  CHECK(r.err.find("missing required option --data (or --data-pos and --data-neg)") != std::string::npos);
  std::remove(model.c_str());
  r = run_attn({"train", "--data-pos", pos, "--model", "bow"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--data-pos and --data-neg come together") != std::string::npos);
  r = run_attn({"train", "--data", "builtin", "--data-pos", pos, "--data-neg", neg});
  CHECK(r.code == 2);
  CHECK(r.err.find("replace --data") != std::string::npos);
  r = run_attn({"train", "--data-pos", pos, "--data-neg", pos, "--model", "bow"});
  CHECK(r.code == 1);
  CHECK(r.err.find("pick one file per class") != std::string::npos);
  std::remove(pos.c_str());
  std::remove(neg.c_str());
}

TEST_CASE("cli.group_column_splits_by_group_unless_no_group_split") {
  // 12 groups of 5 rows; the hold-out, the folds and the JSON say which split was used.
  const std::string csv = temp_path("grouped.csv");
  {
    std::ofstream f(csv);
    f << "review,sentiment,group\n";
    for (int i = 0; i < 60; ++i) {
      f << (i % 2 ? "a warm and moving film " : "a dull and tedious film ") << i << ","
        << (i % 2 ? "positive" : "negative") << ",movie" << i / 5 << "\n";
    }
  }
  Result r = run_attn({"train", "--data", csv, "--holdout", "0.2", "--model", "bow", "--epochs", "2", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  attn::FlatJson data = json_events(r.out, "data").at(0);
  CHECK(data.get_string("split") == "by group");
  CHECK(data.get_number("groups") == 12);
  CHECK(last_json_line(r.out).get_string("split") == "by group");
  // Whole groups of 5 (each with both labels) leave the test set at most round(0.2 · 30) per class.
  CHECK(static_cast<int>(data.get_number("test_examples")) % 5 == 0);
  CHECK(data.get_number("test_examples") <= 12);
  r = run_attn(
      {"train", "--data", csv, "--holdout", "0.2", "--model", "bow", "--epochs", "2", "--no-group-split", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  data = json_events(r.out, "data").at(0);
  CHECK(data.get_string("split") == "random");
  CHECK(data.get_number("groups") == 0);
  CHECK(data.get_number("test_examples") == 12);  // round(0.2 · 30) of each class, as before
  r = run_attn({"train", "--data", csv, "--holdout", "0.2", "--model", "bow", "--epochs", "2"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("split by group: 12 groups, each on one side") != std::string::npos);
  r = run_attn({"cv", "--data", csv, "--folds", "3", "--model", "bow", "--epochs", "2", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  for (const attn::FlatJson& fold : json_events(r.out, "fold")) {
    CHECK(fold.get_string("split") == "by group");
    CHECK(static_cast<int>(fold.get_number("test_examples")) % 5 == 0);
  }
  CHECK(json_events(r.out, "summary").at(0).get_string("split") == "by group");
  r = run_attn({"train", "--task", "reverse", "--no-group-split"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--no-group-split applies to --task sentiment only") != std::string::npos);
  std::remove(csv.c_str());
}

namespace {
// English → French phrases; "a ..." has two translations (two references for one source).
void write_phrase_pairs(const std::string& path) {
  std::ofstream f(path);
  const char* const nouns[][2] = {{"cat", "chat"}, {"dog", "chien"}, {"house", "maison"}, {"car", "voiture"}};
  const char* const adjectives[][2] = {{"red", "rouge"}, {"big", "grand"}, {"old", "vieux"}};
  for (const auto& n : nouns) {
    for (const auto& a : adjectives) {
      f << "the " << a[0] << " " << n[0] << " .\tle " << n[1] << " " << a[1] << " .\n";
      f << "a " << a[0] << " " << n[0] << " .\tun " << n[1] << " " << a[1] << " .\n";
      f << "a " << a[0] << " " << n[0] << " .\tune " << n[1] << " " << a[1] << " .\n";
    }
  }
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}
}  // namespace

TEST_CASE("cli.transformer_seq2seq_train_translate_input_and_eval_pairs") {
  const std::string tsv = temp_path("phrases.tsv");
  write_phrase_pairs(tsv);
  const std::string model = temp_path("phrases_transformer.model");
  Result r = run_attn({"train",       "--task",   "parallel", "--data",  tsv,       "--model", "transformer-seq2seq",
                       "--test-size", "6",        "--epochs", "2",       "--embed", "16",      "--heads",
                       "2",           "--layers", "1",        "--batch", "8",       "--save",  model,
                       "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const attn::FlatJson done = last_json_line(r.out);
  CHECK(done.get_string("model") == "transformer-seq2seq");
  CHECK(done.get_string("attention") == "transformer");
  CHECK(done.get_number("d_model") == 16);
  CHECK(done.get_number("sentences") == 6);  // held-out source sentences, each with all its references
  for (const char* key : {"bleu", "chrf", "exact_match", "pair_exact_match", "token_accuracy"}) {
    CAPTURE(key);
    CHECK(done.get_number(key) >= 0);
  }
  const std::string last = lines_of(r.out).back();
  CHECK(last.find("\"bleu_by_length\":[") != std::string::npos);
  CHECK(last.find("\"length_buckets\":[\"1-5\",\"6-10\",\"11-15\",\"16-20\",\"21+\"]") != std::string::npos);
  CHECK(last.find("\"bleu_by_length_sentences\":[6,0,0,0,0]") != std::string::npos);

  // The same run without --json says it in words.
  // (with a warm-up and a decaying learning rate: --schedule and --warmup are the seq2seq trainer's too)
  r = run_attn({"train",       "--task",   "parallel", "--data",  tsv,       "--model",    "transformer-seq2seq",
                "--test-size", "6",        "--epochs", "1",       "--embed", "8",          "--heads",
                "2",           "--layers", "1",        "--batch", "4",       "--schedule", "cosine",
                "--warmup",    "2"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("held out (6 source sentences, all their references, lowercased): BLEU ") != std::string::npos);
  CHECK(r.out.find("BLEU by source length: 1-5 words: ") != std::string::npos);

  // translate --input: one JSON line per non-blank line, alignments on request.
  const std::string input = temp_path("sentences.txt");
  {
    std::ofstream f(input);
    f << "the red cat .\n\na big dog .\tignored target\n";
  }
  r = run_attn({"translate", "--model-file", model, "--input", input, "--alignments"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const std::vector<std::string> out = lines_of(r.out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].find("{\"line\":1,\"output\":\"") == 0);
  CHECK(out[0].find("\"source\":\"the red cat .\"") != std::string::npos);
  CHECK(out[1].find("{\"line\":3,\"output\":\"") == 0);
  CHECK(out[1].find("\"source\":\"a big dog .\"") != std::string::npos);
  CHECK(out[0].find(",\"alignment\":[[") != std::string::npos);
  r = run_attn({"translate", "--model-file", model, "--input", input, "--beam", "3"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("\"alignment\"") == std::string::npos);
  r = run_attn({"translate", "--model-file", model, "--text", "the red cat .", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("\"alignment\":[[") != std::string::npos);

  // eval --pairs: references grouped by source (12 sentences from 36 pairs).
  r = run_attn({"eval", "--model-file", model, "--pairs", tsv, "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const attn::FlatJson scored = last_json_line(r.out);
  CHECK(scored.get_number("pairs") == 36);
  CHECK(scored.get_number("sentences") == 24);
  CHECK(scored.get_number("bleu") >= 0);
  CHECK(scored.get_number("chrf") >= 0);
  CHECK(scored.get_number("exact_match") >= 0);
  CHECK(lines_of(r.out).back().find("\"bleu_by_length\":[") != std::string::npos);
  CHECK(scored.get_number("beam") == 1);
  // --beam K scores beam search's outputs (train/translation_scores.hpp checks which ones).
  r = run_attn({"eval", "--model-file", model, "--pairs", tsv, "--beam", "3", "--alpha", "0", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(last_json_line(r.out).get_number("beam") == 3);
  CHECK(last_json_line(r.out).get_number("length_alpha") == 0);
  CHECK(last_json_line(r.out).get_number("sentences") == 24);
  r = run_attn({"eval", "--model-file", model, "--pairs", tsv, "--beam", "0"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--beam") != std::string::npos);
  r = run_attn({"eval", "--model-file", model, "--data", tsv, "--beam", "2"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--beam goes with --pairs (a seq2seq model's decoding)") != std::string::npos);

  // The RNN's file works the same way.
  const std::string rnn = temp_path("phrases_rnn.model");
  r = run_attn({"train", "--task", "parallel", "--data", tsv, "--test-size", "6", "--epochs", "1", "--embed", "8",
                "--units", "8", "--save", rnn, "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(last_json_line(r.out).get_number("sentences") == 6);
  CHECK(last_json_line(r.out).get_number("beam") == 5);  // the translation recipes score on a beam of 5
  // attn train --beam: the done line's held-out scores come from a beam search.
  r = run_attn({"train", "--task", "parallel", "--data", tsv, "--test-size", "6", "--epochs", "1", "--embed", "8",
                "--units", "8", "--beam", "4", "--alpha", "1", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(last_json_line(r.out).get_number("beam") == 4);
  CHECK(last_json_line(r.out).get_number("length_alpha") == 1);
  CHECK(json_events(r.out, "settings")[0].get_number("beam") == 4);
  r = run_attn({"train", "--task", "reverse", "--beam", "4"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--beam applies to --task parallel only (how the held-out sentences are decoded for BLEU)") !=
        std::string::npos);
  r = run_attn({"translate", "--model-file", rnn, "--input", input, "--alignments"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(lines_of(r.out).size() == 2);
  CHECK(r.out.find(",\"alignment\":[[") != std::string::npos);
  r = run_attn({"eval", "--model-file", rnn, "--pairs", tsv});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("36 pairs from 36 lines") != std::string::npos);
  CHECK(r.out.find("held out (24 source sentences") != std::string::npos);

  // Bad files get the pipeline's messages (exit 1, file and line named); nothing is printed.
  struct Bad {
    std::string bytes, message;
  };
  const std::vector<Bad> bad = {
      {"go .\tva !\nno tab\n", "pairs.tsv:2: expected 'source<TAB>target' but the line has no tab"},
      {"go .\t \n", "pairs.tsv:1: the target (after the first tab) is empty"},
      {"go .\tva \xff!\n", "pairs.tsv:1: invalid UTF-8 (byte 0xff at column 9); save the file as UTF-8"},
      {std::string("PK\x03\x04zip", 7), "pairs.tsv: this is a zip archive, not a text file"},
      {std::string("a\0b\tc\n", 6), "pairs.tsv: this is not a text file (it contains NUL bytes)"},
      {std::string(70000, 'a') + "\tb\n", "pairs.tsv:1: line is longer than the limit of 65536 bytes"},
  };
  const std::string file = temp_path("pairs.tsv");
  for (const Bad& b : bad) {
    CAPTURE(b.message);
    {
      std::ofstream f(file, std::ios::binary);
      f << b.bytes;
    }
    r = run_attn({"eval", "--model-file", model, "--pairs", file});
    CHECK(r.code == 1);
    CHECK(r.err.find(b.message) != std::string::npos);
    CHECK(r.out.empty());
  }
  const std::vector<Bad> bad_input = {
      {"ok\nva \xff!\n", "sentences.txt:2: invalid UTF-8 (byte 0xff at column 4); save the file as UTF-8"},
      {std::string("\x1f\x8b\x08", 3), "sentences.txt: this is a gzip-compressed file, not a text file"},
      {std::string(70000, 'a'), "sentences.txt:1: line is longer than the limit of 65536 bytes"},
      {"\n  \n", "sentences.txt: the file is empty"},
  };
  for (const Bad& b : bad_input) {
    CAPTURE(b.message);
    {
      std::ofstream f(input, std::ios::binary);
      f << b.bytes;
    }
    r = run_attn({"translate", "--model-file", model, "--input", input});
    CHECK(r.code == 1);
    CHECK(r.err.find(b.message) != std::string::npos);
    CHECK(r.out.empty());
  }
  r = run_attn({"eval", "--model-file", tsv, "--pairs", tsv});  // not a model file
  CHECK(r.code == 1);
  for (const std::string& path : {tsv, model, rnn, input, file}) std::remove(path.c_str());
}

namespace {
// The strings of a flat JSON array `"key":["a","b"]` in `line` (tokens without quotes or escapes).
std::vector<std::string> json_strings(const std::string& line, const std::string& key) {
  const std::size_t begin = line.find("\"" + key + "\":[");
  REQUIRE(begin != std::string::npos);
  const std::size_t open = begin + key.size() + 4, close = line.find(']', open);
  std::vector<std::string> out;
  for (std::size_t at = open; at < close;) {
    const std::size_t end = line.find('"', at + 1);
    out.push_back(line.substr(at + 1, end - at - 1));
    at = end + 2;  // past '",'
  }
  return out;
}
}  // namespace

// --task parallel splits each side with its language's rules (--source-language english and
// --target-language french by default), reports the <unk> rates, and writes translations as text.
TEST_CASE("cli.parallel_words_languages_unknown_rates_and_detokenised_output") {
  const std::string tsv = temp_path("elisions.tsv");
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"He doesn't like apples.", "Il n’aime pas les pommes."},
      {"Is it the man?", "Est-ce l'homme ?"},
      {"I'm here.", "Je suis là."},
      {"We don't know.", "Nous ne savons pas."}};
  {
    std::ofstream f(tsv);
    for (int copy = 0; copy < 20; ++copy) {
      for (const auto& [en, fr] : pairs) f << en << "\t" << fr << "\n";
    }
  }
  const std::string model = temp_path("elisions.model");
  const std::vector<std::string> train = {
      "train", "--task", "parallel", "--data", tsv, "--test-size", "1", "--epochs", "30", "--embed", "16", "--units",
      "16", "--attention-dim", "16", "--patience", "0", "--lr", "0.01",
      // The translation recipe's warm-up and decay are sized for a large file: a constant rate here.
      "--schedule", "constant"};
  std::vector<std::string> args = train;
  for (const char* a : {"--save", "", "--json"}) args.push_back(a);
  args[args.size() - 2] = model;
  Result r = run_attn(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const std::vector<attn::FlatJson> data = json_events(r.out, "data");
  REQUIRE(data.size() == 1);
  // The vocabularies were fitted on the training pairs: nothing there is unknown; the held-out
  // sentence (20 copies of one pair) has words the others lack.
  CHECK(data[0].get_number("train_source_unk") == 0);
  CHECK(data[0].get_number("train_target_unk_sentences") == 0);
  CHECK(data[0].get_number("test_source_unk") > 0);
  CHECK(data[0].get_number("test_source_unk_sentences") == 1);
  const attn::FlatJson settings = json_events(r.out, "settings")[0];
  CHECK(settings.get_string("source_language") == "english");
  CHECK(settings.get_string("target_language") == "french");
  CHECK(settings.get_bool("lowercase"));
  // Each translation is its tokens detokenised in French; the training sentences come out as
  // their references (lowercased), with no space before '.' and none after an elision.
  std::size_t exact = 0;
  for (const auto& pair : pairs) {
    // doctest's CAPTURE takes a lambda, which cannot capture a structured binding in C++17.
    const std::string& en = pair.first;
    const std::string& fr = pair.second;
    CAPTURE(en);
    r = run_attn({"translate", "--model-file", model, "--text", en, "--json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    std::vector<std::string> tokens = json_strings(r.out, "output_tokens");
    if (!tokens.empty() && tokens.back() == "<eos>") tokens.pop_back();
    const std::string output =
        attn::FlatJson::parse(r.out.substr(0, r.out.find(",\"output_tokens\"")) + "}").get_string("output");
    CHECK(output == attn::mt_detokenize(tokens, {attn::MtLanguage::french}));
    // "Il n’aime pas les pommes." -> "il n'aime pas les pommes." (lowercased, ’ written ').
    const std::string reference =
        attn::mt_detokenize(attn::mt_tokenize(fr, {attn::MtLanguage::french, true}), {attn::MtLanguage::french});
    exact += output == reference ? 1 : 0;
    if (en == "He doesn't like apples.") {
      // he does n't like apples . (words of a held-out sentence may show as <unk>; n't is also
      // in "We don't know.").
      const std::vector<std::string> source = json_strings(r.out, "source_tokens");
      CHECK(source.size() == 6);
      CHECK(source.at(2) == "n't");
    }
  }
  CHECK(exact >= 3);  // one of the four sources is held out
  // In words: the tokenizers and the rates.
  r = run_attn(train);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("words: English rules, lowercased -> French rules, lowercased\n<unk>: source 0.00% of tokens (0.00% "
                   "of sentences) in training, ") != std::string::npos);
  // Other languages, no lowercasing; the flags are the parallel task's only.
  args = train;
  for (const char* a : {"--source-language", "generic", "--target-language", "fr", "--lowercase", "false", "--json"})
    args.push_back(a);
  r = run_attn(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(json_events(r.out, "settings")[0].get_string("source_language") == "generic");
  CHECK(json_events(r.out, "settings")[0].get_bool("lowercase") == false);
  r = run_attn({"train", "--task", "reverse", "--target-language", "french"});
  CHECK(r.code == 2);
  CHECK(r.err.find("attn train: --target-language applies to --task parallel only") == 0);
  r = run_attn({"train", "--task", "parallel", "--data", tsv, "--source-language", "german"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--source-language must be one of generic|english|french|en|fr, got 'german'") != std::string::npos);
  // --max-tokens leaves out the long training pairs (at most 4 tokens a side: only "I'm here." /
  // "Je suis là." fits, whichever source is held out), and the data line counts them; the digit
  // tasks refuse it.
  args = train;
  for (const char* a : {"--max-tokens", "4", "--json"}) args.push_back(a);
  r = run_attn(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const attn::FlatJson filtered = json_events(r.out, "data")[0];
  CHECK(filtered.get_number("train_too_long") > 0);
  CHECK(filtered.get_number("train_examples") + filtered.get_number("train_too_long") ==
        data[0].get_number("train_examples"));
  CHECK(filtered.get_string("source").find("training pairs over 4 tokens left out") != std::string::npos);
  CHECK(json_events(r.out, "settings")[0].get_number("max_train_tokens") == 4);
  r = run_attn({"train", "--task", "reverse", "--max-tokens", "4"});
  CHECK(r.code == 2);
  CHECK(r.err.find("attn train: --max-tokens applies to --task parallel only") == 0);
  std::remove(tsv.c_str());
  std::remove(model.c_str());
}

// A word model file written before the tokenizer was recorded (tests/fixtures/
// seq2seq_words_v1.attn, by the CLI of commit 04f00f2; test_seq2seq_session.cpp says how) keeps
// its project tokenizer: `attn translate` prints what that CLI printed.
TEST_CASE("cli.word_model_files_from_before_the_tokenizer_still_translate_as_they_did") {
  const std::string file = std::string(ATTN_TEST_FIXTURES_DIR) + "/seq2seq_words_v1.attn";
  Result r = run_attn({"translate", "--model-file", file, "--text", "He doesn't like apples."});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.rfind("il ne sont pas <unk> .\n", 0) == 0);
  r = run_attn({"translate", "--model-file", file, "--text", "Is the boy tall?", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("\"output\":\"est - ce que les filles <unk> <unk> <unk> .\"") != std::string::npos);
  // Its log-probability to float rounding: the single-row output GEMM (greedy decoding) sums in
  // another order than the code that wrote the fixture's expected -7.01676559.
  const std::size_t at = r.out.find("\"log_prob\":");
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(r.out.substr(at + 11)) == doctest::Approx(-7.01676559).epsilon(1e-6));
}

// attn train --task <seq2seq task> trains the cli row of its task and model
// (train/seq2seq_recipes.hpp), --recipe NAME any row (the page's presets too:
// tests/js/seq2seq_recipes.test.mjs compares them with what the page sends), and a flag changes
// its field only; --print-settings prints the same settings without reading data.
TEST_CASE("cli.seq2seq_train_defaults_are_the_recipe_settings") {
  const auto& schema = attn::seq2seq_session_settings();
  for (const attn::Seq2SeqRecipe& r : attn::seq2seq_recipes()) {
    CAPTURE(r.name);
    const std::string expected = schema.write(attn::seq2seq_recipe_settings(r.name));
    CHECK(attn::cli::seq2seq_train_settings_json({"--recipe", r.name}) == expected);
    if (r.use != "cli") continue;
    const attn::Seq2SeqSessionConfig c = attn::seq2seq_recipe_settings(r.name);
    const std::string model = c.is_transformer()                               ? "transformer-seq2seq"
                              : c.model.attention == attn::AttentionForm::none ? "seq2seq"
                                                                               : "seq2seq-attention";
    std::vector<std::string> args = {"--task", c.task, "--model", model};
    if (r.name == "translation-luong") args.insert(args.end(), {"--attention", "luong"});
    CHECK(attn::cli::seq2seq_train_settings_json(args) == expected);
  }
  attn::Seq2SeqSessionConfig sort = attn::seq2seq_recipe_settings("reverse");
  sort.task = "sort";
  sort.trainer.learning_rate = 0.01f;
  sort.model.embed = sort.transformer.d_model = 12;  // --embed sizes both models
  CHECK(attn::cli::seq2seq_train_settings_json({"--task", "sort", "--lr", "0.01", "--embed", "12"}) ==
        schema.write(sort));
  const Result r = run_attn({"train", "--recipe", "translation-rnnenc-page", "--epochs", "2", "--print-settings"});
  CHECK(r.code == 0);
  const attn::FlatJson line = attn::FlatJson::parse(r.out);
  CHECK(line.get_string("event") == "settings");
  CHECK(line.get_string("recipe") == "translation-rnnenc-page");
  CHECK(line.get_string("attention") == "none");
  CHECK(line.get_number("epochs") == 2);
}

// The CLI trains each recipe's settings (train/recipes.hpp's recipe_settings, which the page's
// presets resolve to as well: tests/js/settings_schema.test.mjs): with no flag but --model and
// --data, every field of both settings structs is the recipe's; a flag changes its field only.
TEST_CASE("cli.train_defaults_are_the_recipe_settings") {
  for (const attn::SentimentRecipe& r : attn::sentiment_recipes()) {
    CAPTURE(r.model);
    CAPTURE(r.data);
    const attn::RecipeSettings expected = attn::recipe_settings(r);
    const attn::cli::TrainSettingsJson cli = attn::cli::sentiment_train_settings(
        {"--model", r.model, "--data", r.data == "builtin" ? "builtin" : "reviews.csv"});
    CHECK(cli.model == attn::sentiment_model_settings().write(expected.model));
    CHECK(cli.trainer == attn::trainer_settings().write(expected.trainer));
  }
  const attn::cli::TrainSettingsJson changed =
      attn::cli::sentiment_train_settings({"--data", "builtin", "--lr", "0.01", "--embed", "16", "--cell", "gru"});
  attn::RecipeSettings expected = attn::recipe_settings(attn::sentiment_recipe("bilstm-attention", "builtin"));
  expected.trainer.learning_rate = 0.01f;
  expected.model.classifier.embed_dim = expected.model.classifier.attention_dim = 16;
  expected.model.classifier.ff_dim = 32;
  expected.model.classifier.encoder = attn::EncoderKind::bigru;
  CHECK(changed.model == attn::sentiment_model_settings().write(expected.model));
  CHECK(changed.trainer == attn::trainer_settings().write(expected.trainer));
}
