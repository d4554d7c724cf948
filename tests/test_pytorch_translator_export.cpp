// attn export --format pytorch for translators (models/pytorch_export.hpp, docs/pytorch.md,
// "Translators"): every variant of both seq2seq kinds is trained for a few seeded steps here,
// saved, exported with the CLI, and the exported model.py is run by
// tests/pytorch/check_translator_export.py against what the engine computes for the same file:
// the tokens of sentences (the Python tokenizer), teacher-forced logits, greedy and beam
// translations. Skipped, with a message, where Python or PyTorch is missing.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "attn/data/seq2seq_data.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/pytorch_export.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "attn/models/translator_file.hpp"
#include "attn/train/seq2seq_trainer.hpp"
#include "support/processes.hpp"

namespace {

using namespace attn;
namespace fs = std::filesystem;

// ---- nested JSON, written by hand (FlatJson is flat) ----

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}
template <class T, class F>
std::string array(const std::vector<T>& items, F item) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + item(items[i]);
  return out + "]";
}
std::string ints(const std::vector<int>& v) {
  return array(v, [](int x) { return std::to_string(x); });
}
std::string strings(const std::vector<std::string>& v) {
  return array(v, [](const std::string& s) { return json_quote(s); });
}

// ---- the sentences and pairs ----

// English -> French, written for this test: enough repeated words for a word vocabulary.
const std::vector<ParallelExample> kPairs = {
    {"he likes apples.", "il aime les pommes."},
    {"she likes apples.", "elle aime les pommes."},
    {"he doesn't like apples.", "il n'aime pas les pommes."},
    {"she doesn't like pears.", "elle n'aime pas les poires."},
    {"we like pears.", "nous aimons les poires."},
    {"they like the cat.", "ils aiment le chat."},
    {"the cat is small.", "le chat est petit."},
    {"the dog is big.", "le chien est grand."},
    {"the dog doesn't like the cat.", "le chien n'aime pas le chat."},
    {"i see the dog.", "je vois le chien."},
    {"i see the cat.", "je vois le chat."},
    {"you see the apples.", "tu vois les pommes."},
    {"we eat apples.", "nous mangeons des pommes."},
    {"they eat pears.", "ils mangent des poires."},
    {"he eats the apple.", "il mange la pomme."},
    {"she eats the pear.", "elle mange la poire."},
    {"it's a small dog.", "c'est un petit chien."},
    {"it's a big cat!", "c'est un grand chat !"},
    {"is the cat small?", "le chat est-il petit ?"},
    {"where is the dog?", "où est le chien ?"},
    {"i don't see the cat.", "je ne vois pas le chat."},
    {"we don't eat pears.", "nous ne mangeons pas de poires."},
    {"the apples are big.", "les pommes sont grandes."},
    {"the pears are small.", "les poires sont petites."},
    {"he sees a dog.", "il voit un chien."},
    {"she sees a cat.", "elle voit un chat."},
    {"you like the dog.", "tu aimes le chien."},
    {"they don't like dogs.", "ils n'aiment pas les chiens."},
    {"i like cats.", "j'aime les chats."},
    {"we see the big dog.", "nous voyons le grand chien."},
    {"the small cat eats.", "le petit chat mange."},
    {"the big dog eats apples.", "le grand chien mange des pommes."},
};

// Word-level sentences for the tokenizer comparison: contractions, punctuation, case, non-ASCII
// letters, tags (kept: word level strips no HTML), odd spaces, nothing at all.
const std::vector<std::string> kWordSentences = {
    "he doesn't like apples.",
    "Don't go! It's 3.5 km away, isn't it?",
    "l'homme qu'il a vu est-il là ?",
    "ÉCOLE Ça VA? ΣΑΣ Д İstanbul Ÿ ŁÓDŹ",
    "\u201cQuoted\u201d \u2014 a dash\u2026 and \u2019curly\u2019 rock'n'roll 'single' ''''",
    "no\u00a0break\u3000ideographic\ttab\nnewline\r\nfeed",
    "a <b>bold</b> & <i>tags</i> <3 x<y",
    "#hash @at $5 100% [b] {c} ~t` ^ | \\ /",
    "çà et là, peut-être. 映画が好き 😀 ok",
    "UPPER lower MiXeD x_y a-b c/d e.g. 1,000",
    "",
    "   ",
    "zyxwvut qwertyuiop unknownword",
};
// French and English for the translation tokenizer (text/mt_tokenizer.hpp), split and
// detokenised on both sides: elisions, clitics, contractions, « » and the spaces French puts
// before ? ! : ; (plain, no-break, narrow no-break), accents in NFC and NFD, ’ and ʼ.
const std::vector<std::string> kTranslationSentences = {
    "Il n\u2019aime pas les pommes.",
    "Qu'est-ce que c'est ? Jusqu'\u00e0 demain, lorsqu'il pleut.",
    "A-t-il faim ? Donne-le-moi ! Dis-moi : o\u00f9 vas-tu ; aujourd'hui.",
    "\u00ab\u00a0Bonjour\u00a0\u00bb, dit-elle\u202f! C'est-\u00e0-dire peut-\u00eatre.",
    "\u00abNon\u00bb, r\u00e9pond-il\u00a0: \u00ab\u00a0jamais\u00a0!\u00a0\u00bb",
    "L\u2019\u00e9cole d\u02bc\u00e9t\u00e9 s\u2019ouvre aujourd\u2019hui.",
    "\u00c7a co\u00fbte 3,5 \u20ac \u00e0 10:30\u2026 \u00c9l\u00e8ve, \u00c9COLE, \u0152uvre, Ca\u0300 et la\u0300.",
    "e\u0301te\u0301 et \u00e9t\u00e9, na\u00efve et nai\u0308ve.",
    "He doesn't know I'm here; they'll say we've won, can't they? John's boys' toys.",
    "I won't go \u2014 \"quoted\" and 'single' words, (brackets) [too].",
    "O'Neill's U.S. trip at 3 p.m. cost $5 / \u00a35.",
    "Vous \u00eates-vous lev\u00e9s ? Y a-t-il quelqu'un ? Celui-ci, celle-l\u00e0.",
};
const std::vector<std::string> kCharacterSentences = {"3 May 1999", "MAY 03, 2001", "12345", "日本 😀\t!", " "};

// ---- the variants ----

// How a word variant's vocabularies split text: the parallel pipeline's mt tokenizer (English
// -> French, lowercased or not), or the project tokenizer of files saved before it was recorded.
enum class Words { mt, mt_cased, project };

struct Variant {
  std::string name, task;  // task: reverse | dates | parallel
  bool transformer = false;
  Seq2SeqConfig rnn;
  TransformerSeq2SeqConfig tf;
  Words words = Words::mt;
};

Variant rnn(const std::string& name, const std::string& task, CellKind cell, AttentionForm attention, ScoreKind score,
            bool input_feeding = true, Words words = Words::mt) {
  Variant v{name, task};
  v.words = words;
  v.rnn.embed = 8;
  v.rnn.units = 8;
  v.rnn.attention_dim = 6;
  v.rnn.cell = cell;
  v.rnn.attention = attention;
  v.rnn.score = score;
  v.rnn.input_feeding = input_feeding;
  return v;
}

Variant transformer(const std::string& name, const std::string& task, std::size_t layers, Activation activation,
                    bool share, bool tie) {
  Variant v{name, task, true};
  v.tf.d_model = 16;
  v.tf.heads = 2;
  v.tf.ff_dim = 24;
  v.tf.encoder_layers = layers;
  v.tf.decoder_layers = layers;
  v.tf.dropout = 0.1f;
  v.tf.label_smoothing = 0.1f;
  v.tf.activation = activation;
  v.tf.share_embeddings = share;
  v.tf.tie_output = tie;
  return v;
}

std::vector<Variant> variants() {
  using A = AttentionForm;
  using S = ScoreKind;
  return {
      rnn("lstm-bahdanau", "reverse", CellKind::lstm, A::bahdanau, S::additive),
      rnn("gru-bahdanau-words", "parallel", CellKind::gru, A::bahdanau, S::additive),
      rnn("lstm-luong-general-dates", "dates", CellKind::lstm, A::luong, S::general),
      rnn("gru-luong-dot", "reverse", CellKind::gru, A::luong, S::dot),
      rnn("lstm-luong-scaled-dot-no-feeding", "reverse", CellKind::lstm, A::luong, S::scaled_dot, false),
      rnn("gru-luong-concat", "reverse", CellKind::gru, A::luong, S::concat),
      rnn("lstm-luong-location", "reverse", CellKind::lstm, A::luong, S::location),
      rnn("gru-luong-general-no-feeding-cased-words", "parallel", CellKind::gru, A::luong, S::general, false,
          Words::mt_cased),
      rnn("gru-no-attention", "reverse", CellKind::gru, A::none, S::additive),
      rnn("lstm-no-attention-project-words", "parallel", CellKind::lstm, A::none, S::additive, true, Words::project),
      transformer("transformer", "reverse", 2, Activation::relu, false, false),
      transformer("transformer-shared-tied", "reverse", 1, Activation::relu, true, true),
      transformer("transformer-shared", "reverse", 1, Activation::relu, true, false),
      transformer("transformer-gelu-tied-words", "parallel", 2, Activation::gelu, false, true),
  };
}

Seq2SeqData variant_data(const Variant& v) {
  Seq2SeqDataSpec spec;
  spec.task = v.task;
  spec.seed = 11;
  spec.train_size = v.task == "dates" ? 400 : 300;
  spec.test_size = v.task == "parallel" ? 6 : 8;
  spec.min_len = spec.test_min_len = 3;
  spec.max_len = spec.test_max_len = 9;
  // Both sides capped below their word counts, so the word vocabularies have one size (shareable).
  spec.source_vocab = spec.target_vocab = 40;
  spec.tokenization.source.lowercase = spec.tokenization.target.lowercase = v.words != Words::mt_cased;
  if (v.task != "parallel") return generate_seq2seq_data(spec);
  Seq2SeqData data = parallel_seq2seq_data(kPairs, "pairs", spec);
  if (v.words == Words::project) {
    data.vocabularies = fit_vocabularies(data.train, TokenLevel::word, 40, 40);  // WordTokenizer's default
    encode_seq2seq_parts(data);
  }
  return data;
}

std::unique_ptr<TrainableTranslator> trained(Variant v, const Seq2SeqData& data) {
  std::size_t longest = 0;
  for (const auto* side : {&data.train_ids.sources, &data.test_ids.sources}) {
    for (const auto& s : *side) longest = std::max(longest, s.size());
  }
  std::unique_ptr<TrainableTranslator> model;
  if (v.transformer) {
    v.tf.source_vocab = data.vocabularies.source.size();
    v.tf.target_vocab = data.vocabularies.target.size();
    model = std::make_unique<TransformerSeq2Seq>(v.tf, 5);
  } else {
    v.rnn.source_vocab = data.vocabularies.source.size();
    v.rnn.target_vocab = data.vocabularies.target.size();
    v.rnn.max_source_len = longest;
    model = std::make_unique<Seq2SeqModel>(v.rnn, 5);
  }
  Seq2SeqTrainerConfig trainer;
  // Enough steps that the outputs depend on the input (the script prints how many differ).
  trainer.epochs = v.task == "parallel" ? 40 : v.task == "dates" ? 8 : 3;
  trainer.batch = 16;
  trainer.learning_rate = 0.01f;
  trainer.validation_split = 0;
  trainer.early_stopping_patience = 0;
  trainer.seed = 5;
  train_seq2seq(*model, data.train_ids.sources, data.train_ids.targets, trainer);
  return model;
}

// Teacher-forced logits [B][T_b][V] of the engine for the pairs, rows padded with PAD: the
// Transformer's parallel forward; the RNN's decoder steps fed the gold previous tokens.
std::vector<std::vector<std::vector<float>>> engine_logits(TrainableTranslator& model,
                                                           const std::vector<std::vector<int>>& sources,
                                                           const std::vector<std::vector<int>>& targets) {
  std::size_t tx = 0, ty = 0;
  for (const auto& s : sources) tx = std::max(tx, s.size());
  for (const auto& t : targets) ty = std::max(ty, t.size());
  const std::size_t nb = sources.size(), v = model.target_vocab(), steps = ty - 1;
  TokenIds source = xt::zeros<std::int32_t>({nb, tx}), input = xt::zeros<std::int32_t>({nb, steps});
  for (std::size_t b = 0; b < nb; ++b) {
    std::copy(sources[b].begin(), sources[b].end(), &source(b, 0));
    std::copy(targets[b].begin(), targets[b].end() - 1, &input(b, 0));
  }
  Tensor2 z({nb * steps, v});  // row b·T + t
  if (auto* tf = dynamic_cast<TransformerSeq2Seq*>(&model)) {
    Rng unused(0);
    z = tf->forward(source, input, false, unused);
  } else {
    const auto decoding = model.start(source);
    Tensor2 step_logits;
    std::vector<std::int32_t> previous(nb);
    for (std::size_t t = 0; t < steps; ++t) {
      for (std::size_t b = 0; b < nb; ++b) previous[b] = input(b, t);
      model.step(*decoding, previous.data(), step_logits);
      for (std::size_t b = 0; b < nb; ++b) std::copy(&step_logits(b, 0), &step_logits(b, 0) + v, &z(b * steps + t, 0));
    }
  }
  std::vector<std::vector<std::vector<float>>> out(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    for (std::size_t t = 0; t + 1 < targets[b].size(); ++t)
      out[b].emplace_back(&z(b * steps + t, 0), &z(b * steps + t, 0) + v);
  }
  return out;
}

std::string decoded_json(const std::string& text, const Decoded& d, const Seq2SeqVocabulary& target) {
  return "{\"text\":" + json_quote(text) + ",\"ids\":" + ints(d.tokens) +
         ",\"output\":" + json_quote(target.decode(d.tokens)) + ",\"log_prob\":" + number(d.log_prob) +
         ",\"finished\":" + (d.finished ? "true" : "false") + "}";
}

// expected.json: what the engine computes from the exported model file.
std::string expected_json(const Variant& v, const std::string& model_file, const Seq2SeqData& data) {
  std::string extra;
  const std::unique_ptr<TrainableTranslator> model = load_translator(read_file(model_file), &extra);
  const ParallelVocabularies vocab = read_seq2seq_vocabularies(extra);
  // Sentences to translate: the held-out sources, the training ones' first few, and (words) some
  // with unknown words.
  std::vector<std::string> sentences;
  for (const auto& e : data.test) sentences.push_back(e.source);
  for (std::size_t i = 0; i < 4; ++i) sentences.push_back(data.train[i].source);
  if (v.task == "parallel") {
    sentences.insert(sentences.end(),
                     {"he doesn't like apples.", "The CAT doesn't like the big dog!", "where are my zebras?"});
  }
  // Tokens and their text again, per side: word variants on both sides (the target's tokenizer
  // writes the translations), character ones on the source.
  std::vector<std::string> split_sentences = v.task == "parallel" ? kWordSentences : kCharacterSentences;
  if (v.task == "parallel")
    split_sentences.insert(split_sentences.end(), kTranslationSentences.begin(), kTranslationSentences.end());
  std::string tokens;
  for (const auto& [side, vocabulary] : {std::pair<const char*, const Seq2SeqVocabulary*>{"source", &vocab.source},
                                         std::pair<const char*, const Seq2SeqVocabulary*>{"target", &vocab.target}}) {
    if (v.task != "parallel" && side == std::string("target")) continue;
    for (const std::string& s : split_sentences) {
      const std::vector<std::string> split = vocabulary->split(s);
      tokens += (tokens.empty() ? "" : ",") + std::string("{\"side\":\"") + side + "\",\"text\":" + json_quote(s) +
                ",\"tokens\":" + strings(split) + ",\"joined\":" + json_quote(vocabulary->join(split)) + "}";
    }
  }
  std::string greedy, beam;
  for (const std::string& s : sentences) {
    const std::vector<int> ids = vocab.source.encode(s);
    const std::size_t limit = decode_step_limit(ids.size());
    greedy +=
        (greedy.empty() ? "" : ",") + decoded_json(s, greedy_search(*model, source_row(ids), limit)[0], vocab.target);
    beam += (beam.empty() ? "" : ",") +
            decoded_json(s, beam_search(*model, ids, 3, kDefaultLengthAlpha, limit)[0], vocab.target);
  }
  // Teacher forcing on a batch of held-out pairs of different lengths (padding inside the batch).
  std::vector<std::vector<int>> sources(data.test_ids.sources.begin(), data.test_ids.sources.begin() + 5),
      targets(data.test_ids.targets.begin(), data.test_ids.targets.begin() + 5);
  const auto logits = engine_logits(*model, sources, targets);
  const auto rows = [](const std::vector<std::vector<float>>& steps) {
    return array(steps, [](const std::vector<float>& z) { return array(z, [](float x) { return number(x); }); });
  };
  return "{\"name\":" + json_quote(v.name) + ",\"tokens\":[" + tokens + "],\"greedy\":[" + greedy +
         "],\"beam\":{\"width\":3,\"alpha\":" + number(kDefaultLengthAlpha) + ",\"results\":[" + beam +
         "]},\"teacher_forcing\":{\"sources\":" + array(sources, ints) + ",\"targets\":" + array(targets, ints) +
         ",\"logits\":" + array(logits, rows) + "}}\n";
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

using test::CliResult;
using test::run_attn;

fs::path work_dir(const std::string& what) {
  return fs::temp_directory_path() / ("attn-test-pytorch-" + what + "-" + std::to_string(getpid()));
}

}  // namespace

TEST_CASE("pytorch_translator_export.model_py_matches_engine") {
  const fs::path work = work_dir("translators");
  fs::remove_all(work);
  fs::create_directories(work);
  const std::vector<Variant> all = variants();
  for (const Variant& v : all) {
    CAPTURE(v.name);
    const Seq2SeqData data = variant_data(v);
    const std::unique_ptr<TrainableTranslator> model = trained(v, data);
    const fs::path model_file = work / (v.name + ".model");
    write_file_atomically(model_file.string(), save_translator(*model, seq2seq_extra_json(v.task, data.vocabularies)));
    const fs::path dir = work / v.name;
    const CliResult r =
        run_attn({"export", "--model-file", model_file.string(), "--format", "pytorch", "--out", dir.string()});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    for (const char* name : {"model.safetensors", "config.json", "vocab.json", "model.py"}) {
      CHECK_MESSAGE(r.out.find((dir / name).string()) != std::string::npos, name);
    }
    write_text(dir / "expected.json", expected_json(v, model_file.string(), data));
  }

  const test::ProcessResult check = test::run_shell(std::string(ATTN_PYTHON) + " " + ATTN_TEST_FIXTURES_DIR +
                                                    "/../pytorch/check_translator_export.py " + work.string());
  if (test::skipped(check)) {
    MESSAGE("skipped: " << test::skip_reason(check, ATTN_PYTHON));
    fs::remove_all(work);
    return;
  }
  REQUIRE_MESSAGE(check.code == 0, check.output << "(files kept in " << work.string() << ")");
  MESSAGE(check.output);
  // One summary line per variant: the script checked them all.
  std::size_t checked = 0;
  for (const Variant& v : all) checked += check.output.find(v.name + ": ") != std::string::npos ? 1 : 0;
  CHECK(checked == all.size());
  fs::remove_all(work);
}

TEST_CASE("pytorch_translator_export.writes_four_files_and_refuses_bad_files") {
  const fs::path work = work_dir("translator-files");
  fs::remove_all(work);
  fs::create_directories(work);
  const Variant v = variants()[0];
  const Seq2SeqData data = variant_data(v);
  const std::unique_ptr<TrainableTranslator> model = trained(v, data);
  const std::vector<std::uint8_t> bytes = save_translator(*model, seq2seq_extra_json(v.task, data.vocabularies));
  const fs::path model_file = work / "good.model";
  write_file_atomically(model_file.string(), bytes);
  CliResult r = run_attn(
      {"export", "--model-file", model_file.string(), "--format", "pytorch", "--out", (work / "out").string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  std::ifstream config_file(work / "out" / "config.json");
  const std::string config((std::istreambuf_iterator<char>(config_file)), std::istreambuf_iterator<char>());
  const FlatJson c = FlatJson::parse(config);
  CHECK(c.get_string("format") == "attn-pytorch-translator");
  CHECK(c.get_string("model") == "seq2seq");
  CHECK(c.get_string("attention") == "bahdanau");
  CHECK(c.get_number("max_len_per_source_token") == 2);
  std::ifstream weights(work / "out" / "model.safetensors", std::ios::binary);
  const std::string head((std::istreambuf_iterator<char>(weights)), std::istreambuf_iterator<char>());
  // nn.LSTMCell(E + 2U = 24, 2U = 16): weight_ih [4 · 16, 24]; Bahdanau's key [A, 2U].
  CHECK(head.find("\"decoder.weight_ih\":{\"dtype\":\"F32\",\"shape\":[64,24]") != std::string::npos);
  CHECK(head.find("\"attention.key.weight\":{\"dtype\":\"F32\",\"shape\":[6,16]") != std::string::npos);
  std::ifstream py(work / "out" / "model.py");
  const std::string model_py((std::istreambuf_iterator<char>(py)), std::istreambuf_iterator<char>());
  CHECK(model_py.find("# === shared") == std::string::npos);  // every shared block copied in
  CHECK(model_py.find("def tokenize(") != std::string::npos);
  CHECK(model_py.find("class MultiHeadAttention(") != std::string::npos);

  // Not a model file, a truncated one, a model file without vocabularies: clear messages, exit 1.
  const fs::path text = work / "notes.txt";
  write_text(text, "these are notes, not a model\n");
  r = run_attn({"export", "--model-file", text.string(), "--format", "pytorch", "--out", (work / "x").string()});
  CHECK(r.code == 1);
  CHECK(r.err == "attn export: error: not an Attention Playground model file (bad magic)\n");
  const fs::path truncated = work / "truncated.model";
  write_file_atomically(truncated.string(), std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2));
  r = run_attn({"export", "--model-file", truncated.string(), "--format", "pytorch", "--out", (work / "x").string()});
  CHECK(r.code == 1);
  CHECK(r.err.find("attn export: error: model file is truncated") == 0);
  const fs::path bare = work / "bare.model";
  write_file_atomically(bare.string(), save_translator(*model));  // no extra JSON: no vocabularies
  r = run_attn({"export", "--model-file", bare.string(), "--format", "pytorch", "--out", (work / "x").string()});
  CHECK(r.code == 1);
  CHECK_MESSAGE(r.err.find("attn export: error: this seq2seq model file holds no usable vocabularies") == 0, r.err);
  CHECK_FALSE(fs::exists(work / "x"));
  // The vocabularies must fit the model.
  ParallelVocabularies wrong = data.vocabularies;
  wrong.target = Seq2SeqVocabulary(TokenLevel::character);
  CHECK_THROWS_WITH_AS(export_pytorch_translator(*model, v.task, wrong),
                       doctest::Contains("the target vocabulary has 4 ids but the model reads"), std::invalid_argument);
  fs::remove_all(work);
}
