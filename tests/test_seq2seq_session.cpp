#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include "attn/data/parallel_split.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/translator_file.hpp"
#include "attn/text/unknown_rate.hpp"
#include "attn/train/seq2seq_session.hpp"
#include "support/fixture_files.hpp"

using namespace attn;

namespace {

// Reversal pairs over ids 4..13, framed BOS .. EOS on the target side.
void reversal_data(std::size_t n, std::uint64_t seed, Sequences &sources, Sequences &targets) {
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<int> s(2 + rng.below(3));
    for (int &d : s) d = 4 + static_cast<int>(rng.below(10));
    std::vector<int> t{kBosId};
    t.insert(t.end(), s.rbegin(), s.rend());
    t.push_back(kEosId);
    sources.push_back(s);
    targets.push_back(t);
  }
}

Seq2SeqConfig small_config() {
  Seq2SeqConfig c;
  c.source_vocab = c.target_vocab = 14;
  c.embed = 6;
  c.units = 8;
  c.attention_dim = 8;
  return c;
}

std::vector<float> flat_parameters(TrainableTranslator &model) {
  std::vector<float> out;
  for (const Parameter &p : model.parameters()) out.insert(out.end(), p.value, p.value + p.size);
  return out;
}

}  // namespace

TEST_CASE("seq2seq_session.chunked_run_matches_one_shot_training") {
  Sequences sources, targets;
  reversal_data(120, 5, sources, targets);
  Seq2SeqTrainerConfig config;
  config.epochs = 3;
  config.batch = 16;
  config.early_stopping_patience = 0;
  config.validation_split = 0.2f;
  Seq2SeqModel one_shot(small_config(), 7), chunked(small_config(), 7);
  const Seq2SeqHistory a = train_seq2seq(one_shot, sources, targets, config);

  const Seq2SeqSplit split = split_seq2seq_validation(sources, targets, config.validation_split, config.seed);
  CHECK(split.train_sources.size() == 96);
  CHECK(split.validation_sources.size() == 24);
  Seq2SeqTrainingRun run(chunked, split.train_sources, split.train_targets, split.validation_sources,
                         split.validation_targets, config);
  CHECK(run.batches_per_epoch() == 6);  // ceil(96 / 16)
  CHECK(run.planned_steps() == 18);
  std::size_t steps = 0;
  while (!run.finished()) {
    run.step();
    ++steps;
    if (run.epoch_complete()) run.end_epoch();
  }
  const Seq2SeqHistory &b = run.finish();
  CHECK(steps == 18);
  CHECK(b.steps == a.steps);
  CHECK(b.best_epoch == a.best_epoch);
  REQUIRE(b.epochs.size() == a.epochs.size());
  for (std::size_t e = 0; e < a.epochs.size(); ++e) CHECK(b.epochs[e].train_loss == a.epochs[e].train_loss);
  // Same split, shuffles and draws: bit-identical parameters.
  CHECK(flat_parameters(chunked) == flat_parameters(one_shot));
  CHECK_THROWS_WITH_AS(run.step(),
                       "Seq2SeqTrainingRun::step: the run is finished or the "
                       "epoch needs end_epoch()",
                       std::logic_error);
}

TEST_CASE("seq2seq_session.config_from_json") {
  const Seq2SeqSessionConfig d = Seq2SeqSessionConfig::from_json("{}");
  CHECK(d.task == "reverse");
  CHECK(d.model.attention == AttentionForm::bahdanau);
  CHECK(d.rnn_config(14, 14).score == ScoreKind::additive);
  const Seq2SeqSessionConfig c = Seq2SeqSessionConfig::from_json(
      R"({"task": "dates", "attention": "luong", "units": 12, "epochs": 3, "seed": 9, "min_len": 2})");
  CHECK(c.task == "dates");
  CHECK(c.model.attention == AttentionForm::luong);
  CHECK(c.score == "auto");
  CHECK(c.rnn_config(14, 14).score == ScoreKind::general);  // Luong's own
  CHECK(c.model.units == 12);
  CHECK(c.trainer.epochs == 3);
  CHECK(c.trainer.seed == 9);
  CHECK(c.data_spec().test_min_len == 2);  // follows min_len unless given
  CHECK(c.data_spec().test_max_len == 8);
  CHECK(Seq2SeqSessionConfig::from_json(R"({"attention": "luong", "score": "dot"})").rnn_config(14, 14).score ==
        ScoreKind::dot);
  CHECK(Seq2SeqSessionConfig::from_json(R"({"task": "sort"})").task == "sort");
}

// One schema, one wording: unknown keys, values out of range or of the wrong kind, bad choices and
// the cross-field rules, from JSON as from the page's objects and the CLI's flags.
TEST_CASE("seq2seq_session.settings_schema_wording") {
  const auto fails = [](const char *json, const char *message) {
    CAPTURE(json);
    CHECK_THROWS_WITH_AS(Seq2SeqSessionConfig::from_json(json), message, std::invalid_argument);
  };
  fails(R"({"colour": 1})", "Seq2SeqSessionConfig: unknown setting 'colour'");
  fails(R"({"task": "poems"})",
        "Seq2SeqSessionConfig: task must be one of reverse, sort, copy, dates, parallel, got 'poems'");
  fails(R"({"model": "cnn"})", "Seq2SeqSessionConfig: model must be one of rnn, transformer, got 'cnn'");
  fails(R"({"embed": 0})", "Seq2SeqSessionConfig: embed must be a whole number from 1 to 4096, got 0");
  fails(R"({"units": 2.5})", "Seq2SeqSessionConfig: units must be a whole number from 1 to 4096, got 2.5");
  fails(R"({"units": "many"})", "Seq2SeqSessionConfig: units must be a whole number from 1 to 4096, got 'many'");
  fails(R"({"learning_rate": 0})", "Seq2SeqSessionConfig: learning_rate must be finite and > 0, got 0");
  fails(R"({"dropout": 1})", "Seq2SeqSessionConfig: dropout must be in [0, 1), got 1");
  fails(R"({"validation_split": -0.1})", "Seq2SeqSessionConfig: validation_split must be in [0, 1), got -0.1");
  fails(R"({"score": "fancy"})",
        "Seq2SeqSessionConfig: score must be one of auto, dot, scaled_dot, general, additive, concat, location, "
        "cosine, got 'fancy'");
  fails(R"({"seed": 4294967296})",
        "Seq2SeqSessionConfig: seed must be a whole number from 0 to 4294967295, got 4294967296");
  fails(R"({"min_len": 5, "max_len": 4})", "Seq2SeqSessionConfig: max_len must be >= min_len (5), got 4");
  fails(R"({"source_language": "german"})",
        "Seq2SeqSessionConfig: source_language must be one of generic, english, french, en, fr, got 'german'");
  fails(R"({"lowercase": "yes"})", "Seq2SeqSessionConfig: lowercase must be true or false, got 'yes'");
  fails(R"({"attention": "bahdanau", "score": "dot"})",
        "Seq2SeqConfig: attention 'bahdanau' scores with the previous decoder state through an additive layer, so "
        "score must be 'additive', got 'dot'");
  fails(R"({"model": "transformer", "d_model": 10, "heads": 4})",
        "TransformerSeq2SeqConfig: d_model (10) must be divisible by heads (4)");
  // The nested parts' own schemas keep their owners' names.
  CHECK_THROWS_WITH_AS(seq2seq_trainer_settings().read(R"({"batch": 0})"),
                       "Seq2SeqTrainerConfig: batch must be a whole number from 1 to 65536, got 0",
                       std::invalid_argument);
  Seq2SeqTrainerConfig t;
  t.teacher_forcing_start = 2;
  CHECK_THROWS_WITH_AS(t.validate(), "Seq2SeqTrainerConfig: teacher_forcing_start must be in [0, 1], got 2",
                       std::invalid_argument);
  // A round trip keeps every field.
  const Seq2SeqSessionConfig c = Seq2SeqSessionConfig::from_json(
      R"({"task": "parallel", "model": "transformer", "d_model": 32, "layers": 3, "learning_rate": 0.003, "seed": 5})");
  CHECK(Seq2SeqSessionConfig::from_json(c.to_json()).to_json() == c.to_json());
  CHECK(c.transformer_config(9, 9).decoder_layers == 3);
}

TEST_CASE("seq2seq_session.trains_in_chunks_and_translates_with_alignment") {
  Seq2SeqSessionConfig config = Seq2SeqSessionConfig::from_json(
      R"({"train_size": 100, "test_size": 20, "min_len": 3, "max_len": 4, "units": 8, "embed": 6,
          "attention_dim": 8, "epochs": 2, "batch": 16, "early_stopping_patience": 0})");
  Seq2SeqSession session(config);
  CHECK(session.vocabularies().source.size() == 14);  // 4 reserved ids + 10 digits
  CHECK(session.test_set().size() == 20);
  CHECK_THROWS_WITH_AS(session.run_steps(1), "Seq2SeqSession::run_steps: start training first", std::logic_error);
  session.start_training();
  CHECK(session.training());
  // 90 training pairs after the 10% validation hold-out: ceil(90 / 16) = 6
  // batches per epoch.
  Seq2SeqSessionProgress first = session.run_steps(4);
  CHECK(first.steps_run == 4);
  CHECK(first.losses.size() == 4);
  CHECK(first.planned_steps == 12);
  CHECK(first.epochs.empty());
  Seq2SeqSessionProgress rest = session.run_steps(100);
  CHECK(rest.steps_run == 8);
  CHECK(rest.epochs.size() == 2);
  CHECK(rest.done);
  CHECK_FALSE(session.training());
  CHECK(session.history().steps == 12);

  const Seq2SeqTranslation t = session.translate("4071", 1);
  CHECK(t.source_tokens == std::vector<std::string>{"4", "0", "7", "1"});
  const std::size_t rows = t.output_tokens.size();
  REQUIRE(t.alignment.size() == rows * 4);
  for (std::size_t r = 0; r < rows; ++r) {
    float sum = 0;
    for (std::size_t j = 0; j < 4; ++j) sum += t.alignment[r * 4 + j];
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
  }
  CHECK(t.finished == (!t.output_tokens.empty() && t.output_tokens.back() == "<eos>"));
  const Seq2SeqTranslation b = session.translate("4071", 3);
  CHECK(b.alignment.size() == b.output_tokens.size() * 4);
  CHECK_THROWS_WITH_AS(session.translate("", 1), "Seq2SeqSession::translate: the text is empty", std::invalid_argument);

  const Seq2SeqEvaluation evaluation = session.evaluate("test", 5);
  const Seq2SeqMetrics &m = evaluation.pairs;
  CHECK(m.count == 5);
  // Digit strings are one 13a token each: no BLEU for a built-in task (nor per epoch).
  CHECK_FALSE(evaluation.has_bleu);
  CHECK(evaluation.by_length.empty());
  CHECK_FALSE(rest.epochs.back().has_score);
  CHECK_THROWS_WITH_AS(session.evaluate("dev"), "Seq2SeqSession::evaluate: which must be 'test' or 'train', got 'dev'",
                       std::invalid_argument);
}

namespace {

// Six pairs; seed 3 shuffles them, test_size 2 holds two out.
const std::string kPairs =
    "go .\tva !\n"
    "run .\tcours !\n"
    "hi .\tsalut .\n"
    "i see .\tje vois .\n"
    "we won .\tnous avons gagne .\n"
    "help !\tau secours !\n";

Seq2SeqSessionConfig parallel_config() {
  Seq2SeqSessionConfig c = Seq2SeqSessionConfig::from_json(
      R"({"task": "parallel", "test_size": 2, "embed": 6, "units": 8, "attention_dim": 8, "epochs": 2, "batch": 2,
          "seed": 3})");
  return c;
}

std::vector<std::uint8_t> bytes_of(const std::string &text) { return {text.begin(), text.end()}; }

}  // namespace

TEST_CASE("seq2seq_session.parallel_task_from_tsv_bytes") {
  const std::vector<std::uint8_t> tsv = bytes_of(kPairs);
  Seq2SeqSession s(parallel_config(), tsv.data(), tsv.size(), "pairs.tsv");
  CHECK(s.train_set().size() == 4);
  CHECK(s.test_set().size() == 2);
  // Word level: "nous avons gagne ." is 4 tokens, not 18 characters.
  CHECK(s.vocabularies().target.split("nous avons gagne .").size() == 4);
  s.start_training();
  while (!s.run_steps(10).done) {
  }
  CHECK_FALSE(s.translate("go .", 1).output_tokens.empty());

  const std::vector<std::uint8_t> bad = bytes_of("go .\tva !\nno tab here\n");
  CHECK_THROWS_WITH_AS(Seq2SeqSession(parallel_config(), bad.data(), bad.size(), "pairs.tsv"),
                       "pairs.tsv:2: expected 'source<TAB>target' but the line has no tab", DataError);
  Seq2SeqSessionConfig reverse;
  CHECK_THROWS_WITH_AS(Seq2SeqSession(reverse, tsv.data(), tsv.size(), "pairs.tsv"),
                       "Seq2SeqSession: a TSV file is for task 'parallel', not 'reverse'", std::invalid_argument);
  CHECK_THROWS_WITH_AS(Seq2SeqSession{parallel_config()},
                       "Seq2SeqSession: task 'parallel' needs the pairs: pass the text of a TSV file",
                       std::invalid_argument);
}

TEST_CASE("seq2seq_session.languages_and_lowercase_settings") {
  const Seq2SeqSessionConfig d = Seq2SeqSessionConfig::from_json("{}");
  CHECK(d.source_language == MtLanguage::english);
  CHECK(d.target_language == MtLanguage::french);
  CHECK(d.lowercase);
  // The short names read as the long ones, which are written back.
  const Seq2SeqSessionConfig c =
      Seq2SeqSessionConfig::from_json(R"({"source_language": "fr", "target_language": "en", "lowercase": false})");
  CHECK(c.source_language == MtLanguage::french);
  CHECK(c.to_json().find(R"("source_language":"french")") != std::string::npos);
  CHECK(c.to_json().find(R"("lowercase":false)") != std::string::npos);
  const PairTokenization t = c.data_spec().tokenization;
  CHECK(t.source.language == MtLanguage::french);
  CHECK(t.target.language == MtLanguage::english);
  CHECK_FALSE(t.source.lowercase);
  CHECK_FALSE(t.target.lowercase);
  // A French -> English session splits each side by its own rules and writes English back.
  const std::vector<std::uint8_t> tsv = bytes_of(
      "L'homme est-il là ?\tIs the man there?\nJe n'ai pas faim.\tI'm not "
      "hungry.\nOù est-il ?\tWhere is he?\n");
  Seq2SeqSessionConfig fr_en = parallel_config();
  fr_en.test_size = 1;
  fr_en.source_language = MtLanguage::french;
  fr_en.target_language = MtLanguage::english;
  fr_en.lowercase = false;
  const Seq2SeqSession s(fr_en, tsv.data(), tsv.size(), "fr-en.tsv");
  CHECK(s.vocabularies().source.split("L'homme est-il là ?") ==
        std::vector<std::string>{"L'", "homme", "est", "-il", "là", "?"});
  CHECK(s.vocabularies().target.join({"I", "'m", "not", "hungry", "."}) == "I'm not hungry.");
}

TEST_CASE("seq2seq_session.word_model_files_from_before_the_tokenizer_was_recorded") {
  // tests/fixtures/seq2seq_words_v1.attn was written by the CLI of commit 04f00f2 (before the
  // tokenizer was recorded): `attn train --task parallel --data web/public/data/pairs-en-fr.tsv
  // --train-size 4000 --test-size 50 --epochs 30 --embed 12 --units 12 --attention-dim 12
  // --vocab 160 --seed 3 --save seq2seq_words_v1.attn`. It keeps the project tokenizer: words
  // with apostrophes whole, "est-ce" as est - ce, output joined by spaces — as `attn translate
  // --json` of that CLI printed (log p -3.25212717 and -7.01676559).
  const std::vector<std::uint8_t> file = test_fixtures::read("seq2seq_words_v1.attn");
  const std::vector<std::uint8_t> tsv = bytes_of(kPairs);
  Seq2SeqSession s(parallel_config(), tsv.data(), tsv.size(), "pairs.tsv");
  CHECK(s.vocabularies().target.tokenizer().scheme == WordTokenizer::Scheme::mt);
  CHECK(s.train_unknown().source.unknown_tokens == 0);
  s.load_model(file);
  CHECK(s.vocabularies().source.tokenizer().scheme == WordTokenizer::Scheme::project);
  CHECK(s.vocabularies().target.tokenizer().scheme == WordTokenizer::Scheme::project);
  Seq2SeqTranslation t = s.translate("He doesn't like apples.", 1, 30);
  CHECK(t.source_tokens == std::vector<std::string>{"he", "doesn't", "like", "apples", "."});
  CHECK(t.output == "il ne sont pas <unk> .");
  CHECK(t.log_prob == doctest::Approx(-3.25212717).epsilon(1e-6));
  t = s.translate("Is the boy tall?", 1, 30);
  CHECK(t.output == "est - ce que les filles <unk> <unk> <unk> .");
  CHECK(t.log_prob == doctest::Approx(-7.01676559).epsilon(1e-6));
  // The session's pairs are re-encoded with the file's vocabularies, and their <unk> rates
  // recounted (before, the training pairs had none: the vocabularies were fitted on them).
  std::vector<std::vector<std::string>> lists;
  for (const ParallelExample &e : s.train_set()) lists.push_back(s.vocabularies().source.split(e.source));
  const UnknownRate direct = unknown_rate(lists, s.vocabularies().source);
  CHECK(direct.unknown_tokens > 0);
  CHECK(s.train_unknown().source.unknown_tokens == direct.unknown_tokens);
  CHECK(s.train_unknown().source.tokens == direct.tokens);
  // Saved again, the file is the same bytes' record: no tokenizer key appears.
  std::string extra;
  load_translator(s.save_model(), &extra);
  CHECK(extra.find("tokenizer") == std::string::npos);
}

TEST_CASE("seq2seq_session.save_and_load_model_round_trip") {
  Seq2SeqSessionConfig c = Seq2SeqSessionConfig::from_json(
      R"({"train_size": 200, "test_size": 20, "min_len": 3, "max_len": 4, "embed": 6, "units": 8,
          "attention_dim": 8, "epochs": 1, "batch": 16, "seed": 5})");
  Seq2SeqSession trained(c);
  trained.start_training();
  while (!trained.run_steps(50).done) {
  }
  const std::vector<std::uint8_t> file = trained.save_model();

  // A session from another seed decodes differently until it loads the file.
  c.seed = 6;
  Seq2SeqSession other(c);
  other.load_model(file);
  for (const char *text : {"123", "9081", "5555"}) {
    const Seq2SeqTranslation a = trained.translate(text, 1), b = other.translate(text, 1);
    CHECK(a.output == b.output);
    CHECK(a.alignment == b.alignment);
  }
  CHECK(flat_parameters(other.model()) == flat_parameters(trained.model()));

  // A flipped byte in the parameters: the file's checksum refuses it and the session is unchanged.
  std::vector<std::uint8_t> damaged = file;
  damaged[damaged.size() - 9] ^= 0x10;
  Seq2SeqSession fresh(c);
  const std::vector<float> before = flat_parameters(fresh.model());
  CHECK_THROWS_AS(fresh.load_model(damaged), ModelFileError);
  CHECK(flat_parameters(fresh.model()) == before);
}

TEST_CASE("seq2seq_session.step_api_on_texts_decodes_as_translate") {
  // Untrained dates model: the step loop must give translate's greedy output for any weights.
  Seq2SeqSession session(Seq2SeqSessionConfig::from_json(
      R"({"task": "dates", "train_size": 60, "test_size": 10, "units": 8, "embed": 6, "attention_dim": 8})"));
  const std::vector<std::string> texts{"3 May 1979", "12/31/01", "Thu 3 May, 1979"};
  std::vector<std::vector<std::string>> tokens;
  const Seq2SeqEncoding enc = session.encode_texts(texts, &tokens);
  REQUIRE(tokens.size() == 3);
  CHECK(tokens[1].size() == 8);
  CHECK(enc.annotations.shape(1) == 15);  // the longest text; the others padded 'post'
  CHECK(enc.mask(1, 7) == 1);
  CHECK(enc.mask(1, 8) == 0);

  Seq2SeqDecoderState state = enc.start;
  std::vector<std::int32_t> previous(3, kBosId);
  std::vector<std::vector<int>> out(3);
  std::vector<std::vector<float>> alignment(3);
  std::vector<bool> done(3, false);
  for (std::size_t t = 0; t < session.decode_limit(); ++t) {
    const Seq2SeqAttention a = session.rnn_model().attend(enc, state.s);
    Seq2SeqStep step = session.rnn_model().decoder_step(previous, state, a.context);
    for (std::size_t b = 0; b < 3; ++b) {
      if (done[b]) continue;
      for (std::size_t j = 0; j < tokens[b].size(); ++j) alignment[b].push_back(a.weights(b, j));
      if (step.tokens[b] == kEosId) {
        done[b] = true;
      } else {
        out[b].push_back(step.tokens[b]);
      }
    }
    previous = step.tokens;
    state = std::move(step.state);
  }
  for (std::size_t b = 0; b < 3; ++b) {
    CAPTURE(b);
    const Seq2SeqTranslation t = session.translate(texts[b], 1);
    CHECK(session.target_text(out[b]) == t.output);
    CHECK(tokens[b] == t.source_tokens);
    REQUIRE(alignment[b].size() == t.alignment.size());
    for (std::size_t k = 0; k < t.alignment.size(); ++k)
      CHECK(alignment[b][k] == doctest::Approx(t.alignment[k]).epsilon(1e-6));
  }
  CHECK_THROWS_WITH_AS(session.encode_texts({"1 May 1990", ""}), "Seq2SeqSession::encode_texts: text 1 is empty",
                       std::invalid_argument);
  CHECK_THROWS_AS(session.encode_texts({}), std::invalid_argument);
}

namespace {
// A tiny English→French "grammar" (the French adjective follows its noun), every phrase with a
// second translation for "a" (un / une are both accepted here: two references for one source).
std::string phrase_pairs() {
  const char *nouns[][2] = {{"cat", "chat"},    {"dog", "chien"},  {"house", "maison"}, {"car", "voiture"},
                            {"bird", "oiseau"}, {"tree", "arbre"}, {"book", "livre"},   {"boat", "bateau"}};
  const char *adjectives[][2] = {{"red", "rouge"}, {"big", "grand"}, {"small", "petit"},
                                 {"old", "vieux"}, {"new", "neuf"},  {"black", "noir"}};
  std::string out;
  for (const auto &n : nouns) {
    for (const auto &a : adjectives) {
      out += std::string("the ") + a[0] + " " + n[0] + " .\tle " + n[1] + " " + a[1] + " .\n";
      out += std::string("a ") + a[0] + " " + n[0] + " .\tun " + n[1] + " " + a[1] + " .\n";
      out += std::string("a ") + a[0] + " " + n[0] + " .\tune " + n[1] + " " + a[1] + " .\n";
    }
  }
  return out;
}
}  // namespace

TEST_CASE("seq2seq_session.transformer_config_from_json") {
  const Seq2SeqSessionConfig d = Seq2SeqSessionConfig::from_json("{}");
  CHECK(d.kind == "rnn");
  CHECK(d.bleu_sentences == 200);
  const Seq2SeqSessionConfig c = Seq2SeqSessionConfig::from_json(
      R"({"model": "transformer", "d_model": 24, "heads": 3, "layers": 1, "dropout": 0.2, "label_smoothing": 0.05,
          "bleu_sentences": 7})");
  CHECK(c.kind == "transformer");
  const TransformerSeq2SeqConfig x = c.transformer_config(10, 12);
  CHECK(x.d_model == 24);
  CHECK(x.heads == 3);
  CHECK(x.ff_dim == 48);  // 2 · d_model unless given
  CHECK(x.encoder_layers == 1);
  CHECK(x.decoder_layers == 1);
  CHECK(x.source_vocab == 10);
  CHECK(x.target_vocab == 12);
  CHECK(x.dropout == doctest::Approx(0.2f));
  CHECK(x.label_smoothing == doctest::Approx(0.05f));
  CHECK(c.bleu_sentences == 7);
  // One default per setting, whatever the model: the recipes give each model its rate.
  CHECK(c.trainer.learning_rate == doctest::Approx(0.005f));
  CHECK(d.trainer.learning_rate == doctest::Approx(0.005f));
  CHECK(Seq2SeqSessionConfig::from_json(R"({"model": "transformer", "ff": 10})").transformer_config(5, 5).ff_dim == 10);
  const Seq2SeqSessionConfig scheduled =
      Seq2SeqSessionConfig::from_json(R"({"model": "transformer", "schedule": "linear", "warmup_steps": 300})");
  CHECK(scheduled.trainer.schedule == "linear");
  CHECK(scheduled.trainer.warmup_steps == 300);
  CHECK(d.trainer.schedule == "constant");
  CHECK(d.trainer.warmup_steps == 0);
  CHECK_THROWS_WITH_AS(Seq2SeqSessionConfig::from_json(R"({"schedule": "steps"})"),
                       doctest::Contains("schedule must be one of"), std::invalid_argument);
}

TEST_CASE("seq2seq_session.transformer_trains_with_held_out_bleu" * doctest::timeout(120)) {
  const std::vector<std::uint8_t> tsv = bytes_of(phrase_pairs());
  Seq2SeqSessionConfig c = Seq2SeqSessionConfig::from_json(
      R"({"task": "parallel", "model": "transformer", "d_model": 32, "heads": 4, "layers": 1, "dropout": 0,
          "label_smoothing": 0, "test_size": 24, "train_size": 1000, "epochs": 12, "batch": 16,
          "learning_rate": 0.003, "early_stopping_patience": 0, "bleu_sentences": 10, "seed": 2})");
  Seq2SeqSession session(c, tsv.data(), tsv.size(), "phrases.tsv");
  CHECK(session.is_transformer());
  CHECK(dynamic_cast<TransformerSeq2Seq *>(&session.model()) != nullptr);
  CHECK_THROWS_WITH_AS(session.rnn_model(), doctest::Contains("this session trains a Transformer"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(session.encode_texts({"the red cat ."}), doctest::Contains("this session trains a Transformer"),
                       std::invalid_argument);
  session.start_training();
  std::vector<double> bleu;
  for (;;) {
    const Seq2SeqSessionProgress p = session.run_steps(40);
    for (const Seq2SeqEpochProgress &e : p.epochs) {
      REQUIRE(e.has_score);
      CHECK(e.score >= 0.0);
      CHECK(e.score <= 100.0);
      bleu.push_back(e.score);
    }
    if (p.done) break;
  }
  REQUIRE(bleu.size() == 12);
  MESSAGE("held-out BLEU per epoch: first " << bleu.front() << ", last " << bleu.back());
  CHECK(bleu.back() > bleu.front());
  CHECK(bleu.back() >= 50.0);

  const Seq2SeqEvaluation e = session.evaluate("test");
  // 24 held-out sources with all their translations: the "a ..." ones have two (un / une), both
  // held out and both references of one sentence.
  std::set<std::string> distinct;
  for (const ParallelExample &pair : session.test_set()) distinct.insert(source_key(pair.source));
  CHECK(distinct.size() == 24);
  CHECK(e.sentences == 24);
  CHECK(e.pairs.count == session.test_set().size());
  CHECK(session.test_set().size() > 24);
  CHECK(e.has_bleu);
  CHECK(e.by_length.size() == 5);
  CHECK(e.by_length[0].sentences == e.sentences);  // every phrase has 4 words
  CHECK(e.bleu == doctest::Approx(e.by_length[0].bleu.score));
  CHECK(e.chrf > 0.0);
  CHECK(e.teacher_forced_accuracy > 0.5);
  CHECK(e.teacher_forced_accuracy <= 1.0);
  MESSAGE("held-out BLEU " << e.bleu << ", chrF " << e.chrf << ", exact " << e.exact_match << ", teacher-forced "
                           << e.teacher_forced_accuracy);

  const Seq2SeqTranslation t = session.translate("the red cat .", 3);
  REQUIRE(!t.candidates.empty());
  CHECK(t.candidates.size() <= 3);
  CHECK(t.candidates[0].text == t.output);
  for (std::size_t i = 1; i < t.candidates.size(); ++i) CHECK(t.candidates[i - 1].score >= t.candidates[i].score);
  const std::size_t ty = t.output_tokens.size(), tx = t.source_tokens.size();
  CHECK(t.cross_shape == std::array<std::size_t, 4>{1, 4, ty, tx});
  CHECK(t.self_shape == std::array<std::size_t, 4>{1, 4, ty, ty});
  REQUIRE(t.cross_attention.size() == 4 * ty * tx);
  REQUIRE(t.self_attention.size() == 4 * ty * ty);
  REQUIRE(t.alignment.size() == ty * tx);
  for (std::size_t r = 0; r < ty; ++r) {
    float mean = 0;  // alignment = the last layer's head mean, column 0
    for (std::size_t h = 0; h < 4; ++h) mean += t.cross_attention[(h * ty + r) * tx] / 4;
    CHECK(mean == doctest::Approx(t.alignment[r * tx]).epsilon(1e-5));
    for (std::size_t j = r + 1; j < ty; ++j) CHECK(t.self_attention[(2 * ty + r) * ty + j] == 0.f);
  }
  const Seq2SeqTranslation g = session.translate("the red cat .", 1);
  CHECK(g.candidates.size() == 1);

  // The file holds the Transformer; an RNN session that loads it becomes a Transformer session.
  const std::vector<std::uint8_t> file = session.save_model();
  Seq2SeqSessionConfig rnn = parallel_config();
  Seq2SeqSession other(rnn, tsv.data(), tsv.size(), "phrases.tsv");
  CHECK_FALSE(other.is_transformer());
  other.load_model(file);
  CHECK(other.is_transformer());
  const Seq2SeqTranslation again = other.translate("the red cat .", 3);
  CHECK(again.output == t.output);
  CHECK(again.cross_attention == t.cross_attention);
}

TEST_CASE("seq2seq_session.rnn_translation_has_candidates_and_no_layers") {
  const std::vector<std::uint8_t> tsv = bytes_of(kPairs);
  Seq2SeqSession s(parallel_config(), tsv.data(), tsv.size(), "pairs.tsv");
  const Seq2SeqTranslation t = s.translate("go .", 2);
  CHECK(!t.candidates.empty());
  CHECK(t.candidates[0].text == t.output);
  CHECK(t.cross_attention.empty());
  CHECK(t.self_shape == std::array<std::size_t, 4>{0, 0, 0, 0});
  const Seq2SeqEvaluation e = s.evaluate("test");
  CHECK(e.sentences == 2);
  CHECK(e.by_length.size() == 5);
}

TEST_CASE("seq2seq_session.transformer_decoder_mask_and_cross_attention_step_api") {
  Seq2SeqSession session(Seq2SeqSessionConfig::from_json(
      R"({"task": "reverse", "model": "transformer", "d_model": 16, "heads": 2, "layers": 1, "dropout": 0,
          "train_size": 64, "test_size": 8, "min_len": 2, "max_len": 5, "epochs": 1, "batch": 16, "seed": 3})"));
  session.start_training();
  while (!session.run_steps(100).done) {
  }
  // Greedy decoding through cross_begin / cross_attention / cross_continue with the engine's own
  // heads gives translate's outputs, for a batch of texts of different lengths (padded 'post').
  const std::vector<std::string> texts{"4071", "12", "98765"};
  const TransformerCrossEncoding e = session.cross_start(texts);
  CHECK(e.source_lengths == std::vector<std::size_t>{4, 2, 5});
  CHECK(e.memory.shape() == std::array<std::size_t, 3>{3, 5, 16});
  REQUIRE(e.blocks.size() == 1);
  CHECK(e.blocks[0].w_q.shape() == std::array<std::size_t, 2>{16, 16});
  CHECK(e.heads == 2);
  CHECK(e.max_len == session.decode_limit());
  std::vector<std::int32_t> previous(3, kBosId);
  std::vector<std::vector<int>> outputs(3);
  std::vector<bool> done(3, false);
  for (std::size_t t = 0; t < e.max_len; ++t) {
    session.cross_begin(previous);
    CHECK_THROWS_WITH_AS(session.cross_begin(previous), doctest::Contains("still pending"), std::logic_error);
    Tensor3 heads;
    Tensor4 weights;
    session.cross_attention(heads, weights);
    CHECK(weights(1, 0, 0, 3) == 0.f);  // "12" is padded to 5: its padding gets no weight
    const TransformerPartialStep &p = session.cross_continue(heads, &weights);
    REQUIRE(p.finished());
    previous = session.best_tokens();
    for (std::size_t b = 0; b < 3; ++b) {
      if (done[b]) continue;
      if (previous[b] == kEosId)
        done[b] = true;
      else
        outputs[b].push_back(previous[b]);
    }
  }
  for (std::size_t b = 0; b < 3; ++b) CHECK(session.target_text(outputs[b]) == session.translate(texts[b], 1).output);
  Tensor3 heads;
  Tensor4 weights;
  CHECK_THROWS_WITH_AS(session.cross_attention(heads, weights), doctest::Contains("no cross-attention is pending"),
                       std::logic_error);

  // The decoder mask: checked, used by the next run, dropped by nothing but a new mask.
  const std::size_t n = session.decode_limit();
  CHECK_THROWS_WITH_AS(session.set_decoder_mask(xt::ones<std::uint8_t>({n - 1, n - 1})),
                       doctest::Contains(("needs at least " + std::to_string(n)).c_str()), std::invalid_argument);
  session.set_decoder_mask(xt::ones<std::uint8_t>({n, n}));
  CHECK(dynamic_cast<const TransformerSeq2Seq &>(session.model()).decoder_self_mask().shape(0) == n);
  session.start_training();
  session.run_steps(1);
  CHECK_THROWS_WITH_AS(session.set_decoder_mask(Mask2()), doctest::Contains("in progress"), std::logic_error);
  session.cancel_training();
  session.set_decoder_mask(Mask2());
  CHECK(dynamic_cast<const TransformerSeq2Seq &>(session.model()).decoder_self_mask().size() == 0);

  Seq2SeqSession rnn(Seq2SeqSessionConfig::from_json(R"({"train_size": 20, "test_size": 4})"));
  CHECK_THROWS_WITH_AS(rnn.set_decoder_mask(Mask2()), doctest::Contains("model 'transformer'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(rnn.cross_start({"12"}), doctest::Contains("model 'transformer'"), std::invalid_argument);
}

TEST_CASE("seq2seq_session.restore_best_false_keeps_the_last_epoch") {
  // A Transformer decoder trained with no mask (every target position visible) copies y_{t+1} from
  // its input at t + 1: its teacher-forced loss falls epoch after epoch while free-running it
  // never gets better than in its first epochs. The trainer keeps the best validation epoch by
  // exact match, then free-running token accuracy, so by default the model it hands back is an
  // early epoch's, whose teacher-forced accuracy is far below what the last validation loss
  // suggests; restore_best false keeps the last epoch's parameters, the ones that loss measured.
  const std::string settings =
      R"({"task": "reverse", "model": "transformer", "train_size": 400, "test_size": 40, "min_len": 3,
          "max_len": 6, "d_model": 16, "heads": 2, "layers": 1, "ff": 32, "dropout": 0, "label_smoothing": 0,
          "epochs": 8, "batch": 16, "learning_rate": 0.005, "early_stopping_patience": 0, "seed": 2)";
  CHECK(Seq2SeqSessionConfig::from_json(settings + "}").trainer.restore_best);
  CHECK_FALSE(Seq2SeqSessionConfig::from_json(settings + R"(, "restore_best": false})").trainer.restore_best);
  auto train = [&](const std::string &extra) {
    auto session = std::make_unique<Seq2SeqSession>(Seq2SeqSessionConfig::from_json(settings + extra + "}"));
    const std::size_t n = session->decode_limit();
    session->set_decoder_mask(xt::ones<std::uint8_t>({n, n}));
    session->start_training();
    while (!session->run_steps(1000).done) {
    }
    return session;
  };
  const auto best = train("");
  const auto last = train(R"(, "restore_best": false)");
  const Seq2SeqHistory &h = best->history();
  REQUIRE(h.epochs.size() == 8);
  CHECK(last->history().best_epoch == h.best_epoch);  // the same run: only what is kept differs
  CHECK(last->history().epochs.back().validation_loss == h.epochs.back().validation_loss);
  CHECK(h.best_epoch < 7);
  CHECK(h.epochs.back().validation_loss < 0.1 * h.epochs[static_cast<std::size_t>(h.best_epoch)].validation_loss);
  const Seq2SeqEvaluation kept_best = best->evaluate("test"), kept_last = last->evaluate("test");
  MESSAGE("no decoder mask: best epoch " << h.best_epoch + 1 << " of 8, last validation loss "
                                         << h.epochs.back().validation_loss << "; teacher-forced accuracy "
                                         << kept_best.teacher_forced_accuracy << " (best epoch kept), "
                                         << kept_last.teacher_forced_accuracy << " (last epoch kept)");
  CHECK(kept_best.teacher_forced_accuracy < 0.8);
  CHECK(kept_last.teacher_forced_accuracy >= 0.99);
  CHECK(kept_last.exact_match <= 0.1);  // peeking: the answer it learned to copy is not there when decoding
}
